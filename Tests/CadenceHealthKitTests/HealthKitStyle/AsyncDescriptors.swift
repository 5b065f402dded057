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

/// The latest heart-rate readings, newest first, with the async query descriptors.
struct RecentHeartRates: Sendable {
    let healthStore: HKHealthStore

    func latest(_ count: Int, since startDate: Date) async throws -> [(date: Date, beatsPerMinute: Double)] {
        let heartRateType = HKQuantityType(.heartRate)
        let recent = HKQuery.predicateForSamples(withStart: startDate, end: nil)
        let descriptor = HKSampleQueryDescriptor(predicates: [.quantitySample(type: heartRateType, predicate: recent)],
                                                 sortDescriptors: [SortDescriptor(\.endDate, order: .reverse)],
                                                 limit: count)
        let samples = try await descriptor.result(for: healthStore)
        let beatsPerMinute = HKUnit.count().unitDivided(by: .minute())
        return samples.map { ($0.endDate, $0.quantity.doubleValue(for: beatsPerMinute)) }
    }
}

/// A step total for today that stays current: the initial collection, then one per change.
struct LiveStepTotal: Sendable {
    let healthStore: HKHealthStore

    func totals(on day: Date) -> AsyncThrowingStream<Double, any Error> {
        let startOfDay = Calendar.current.startOfDay(for: day)
        let descriptor = HKStatisticsCollectionQueryDescriptor(
            predicate: .quantitySample(type: HKQuantityType(.stepCount)),
            options: .cumulativeSum,
            anchorDate: startOfDay,
            intervalComponents: DateComponents(day: 1))
        let updates = descriptor.results(for: healthStore)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await result in updates {
                        let today = result.statisticsCollection.statistics(for: startOfDay)
                        continuation.yield(today?.sumQuantity()?.doubleValue(for: .count()) ?? 0)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
