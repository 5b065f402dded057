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

/// One bar of a step chart.
struct StepBar: Equatable, Sendable {
    var date: Date
    var steps: Double
}

/// Daily step totals for a chart, from a statistics collection query enumerated day by day.
struct DailyStepChart: Sendable {
    let healthStore: HKHealthStore

    func loadBars(from startDate: Date, to endDate: Date,
                  completion: @escaping @Sendable (Result<[StepBar], any Error>) -> Void) {
        guard let stepType = HKObjectType.quantityType(forIdentifier: .stepCount) else { return }
        let calendar = Calendar.current
        let anchorDate = calendar.startOfDay(for: startDate)
        let daily = DateComponents(day: 1)

        let query = HKStatisticsCollectionQuery(quantityType: stepType,
                                                quantitySamplePredicate: nil,
                                                options: .cumulativeSum,
                                                anchorDate: anchorDate,
                                                intervalComponents: daily)
        query.initialResultsHandler = { query, results, error in
            guard let statsCollection = results else {
                completion(.failure(error ?? CancellationError()))
                return
            }
            var bars: [StepBar] = []
            statsCollection.enumerateStatistics(from: startDate, to: endDate) { statistics, stop in
                let steps = statistics.sumQuantity()?.doubleValue(for: HKUnit.count()) ?? 0
                bars.append(StepBar(date: statistics.startDate, steps: steps))
            }
            completion(.success(bars))
        }
        healthStore.execute(query)
    }
}
