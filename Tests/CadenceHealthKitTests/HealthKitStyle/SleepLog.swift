//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// HealthKit code as an app writes it, against HealthKit's documented API: only the first import
// below differs (it reads `import HealthKit` in the app).
import CadenceHealthKit
import Foundation

/// One stretch of sleep in the log.
struct SleepEntry: Equatable, Sendable {
    var uuid: UUID
    var stage: HKCategoryValueSleepAnalysis?
    var start: Date
    var end: Date
}

/// The latest stretches of sleep (any asleep stage) in a date range, newest first.
struct SleepLog: Sendable {
    let healthStore: HKHealthStore

    func loadLatest(_ count: Int, from startDate: Date, to endDate: Date,
                    completion: @escaping @Sendable (Result<[SleepEntry], any Error>) -> Void) {
        guard let sleepType = HKObjectType.categoryType(forIdentifier: .sleepAnalysis) else { return }
        let inRange = HKQuery.predicateForSamples(withStart: startDate, end: endDate, options: [])
        let asleep = HKCategoryValueSleepAnalysis.predicateForSamples(equalTo: HKCategoryValueSleepAnalysis.allAsleepValues)
        let predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [inRange, asleep])
        let newestFirst = NSSortDescriptor(key: HKSampleSortIdentifierEndDate, ascending: false)

        let query = HKSampleQuery(sampleType: sleepType,
                                  predicate: predicate,
                                  limit: count,
                                  sortDescriptors: [newestFirst]) { _, results, error in
            guard let samples = results as? [HKCategorySample] else {
                completion(.failure(error ?? CancellationError()))
                return
            }
            completion(.success(samples.map { sample in
                SleepEntry(uuid: sample.uuid, stage: HKCategoryValueSleepAnalysis(rawValue: sample.value),
                           start: sample.startDate, end: sample.endDate)
            }))
        }
        healthStore.execute(query)
    }
}
