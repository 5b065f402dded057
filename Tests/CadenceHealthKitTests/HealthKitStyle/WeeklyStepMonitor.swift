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

/// Weekly step totals that update as new steps arrive, from a long-running collection query.
final class WeeklyStepMonitor: Sendable {
    let healthStore: HKHealthStore

    init(healthStore: HKHealthStore) {
        self.healthStore = healthStore
    }

    /// Starts the query: `weeks` gets every week's total at first, then again after each change.
    func start(anchor monday: Date, weeks: @escaping @Sendable ([Date: Double]) -> Void) -> HKStatisticsCollectionQuery {
        let query = HKStatisticsCollectionQuery(quantityType: HKQuantityType(.stepCount),
                                                quantitySamplePredicate: nil,
                                                options: .cumulativeSum,
                                                anchorDate: monday,
                                                intervalComponents: DateComponents(day: 7))
        @Sendable func report(_ collection: HKStatisticsCollection?) {
            guard let collection else { return }
            var totals: [Date: Double] = [:]
            for week in collection.statistics() {
                totals[week.startDate] = week.sumQuantity()?.doubleValue(for: .count())
            }
            weeks(totals)
        }
        query.initialResultsHandler = { _, collection, _ in report(collection) }
        query.statisticsUpdateHandler = { _, _, collection, _ in report(collection) }
        healthStore.execute(query)
        return query
    }
}
