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

/// One day's steps, per source and merged.
struct SourceSteps: Equatable, Sendable {
    var day: Date
    var merged: Double
    var bySource: [String: Double]
}

/// Steps per day from each app and device, beside the merged total the Health app shows.
struct StepSourceBreakdown: Sendable {
    let healthStore: HKHealthStore

    func loadDays(from startDate: Date, to endDate: Date,
                  completion: @escaping @Sendable (Result<(sources: [String], days: [SourceSteps]), any Error>) -> Void) {
        guard let stepType = HKObjectType.quantityType(forIdentifier: .stepCount) else { return }
        let anchorDate = Calendar.current.startOfDay(for: startDate)
        let query = HKStatisticsCollectionQuery(quantityType: stepType,
                                                quantitySamplePredicate: nil,
                                                options: [.cumulativeSum, .separateBySource],
                                                anchorDate: anchorDate,
                                                intervalComponents: DateComponents(day: 1))
        query.initialResultsHandler = { _, collection, error in
            guard let collection else {
                completion(.failure(error ?? CancellationError()))
                return
            }
            let sources = collection.sources().sorted { $0.name < $1.name }
            var days: [SourceSteps] = []
            collection.enumerateStatistics(from: startDate, to: endDate) { statistics, _ in
                var bySource: [String: Double] = [:]
                for source in statistics.sources ?? [] {
                    bySource[source.name] = statistics.sumQuantity(for: source)?.doubleValue(for: .count())
                }
                days.append(SourceSteps(day: statistics.startDate,
                                        merged: statistics.sumQuantity()?.doubleValue(for: .count()) ?? 0,
                                        bySource: bySource))
            }
            completion(.success((sources.map(\.name), days)))
        }
        healthStore.execute(query)
    }
}
