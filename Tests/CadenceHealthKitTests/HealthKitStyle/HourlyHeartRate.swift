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

/// One point of a heart-rate chart.
struct HeartRatePoint: Equatable, Sendable {
    var hour: Date
    var average: Double
    var minimum: Double
    var maximum: Double
}

/// Hourly heart-rate averages (with the range) for one day.
struct HourlyHeartRate: Sendable {
    let healthStore: HKHealthStore

    func loadHours(of day: Date, completion: @escaping @Sendable (Result<[HeartRatePoint], any Error>) -> Void) {
        let heartRateType = HKQuantityType(.heartRate)
        let calendar = Calendar.current
        let startOfDay = calendar.startOfDay(for: day)
        guard let endOfDay = calendar.date(byAdding: .day, value: 1, to: startOfDay) else { return }
        let today = HKQuery.predicateForSamples(withStart: startOfDay, end: endOfDay, options: .strictStartDate)

        let query = HKStatisticsCollectionQuery(quantityType: heartRateType,
                                                quantitySamplePredicate: today,
                                                options: [.discreteAverage, .discreteMin, .discreteMax],
                                                anchorDate: startOfDay,
                                                intervalComponents: DateComponents(hour: 1))
        query.initialResultsHandler = { _, collection, error in
            guard let collection else {
                completion(.failure(error ?? CancellationError()))
                return
            }
            let beatsPerMinute = HKUnit.count().unitDivided(by: .minute())
            let points = collection.statistics().compactMap { statistics -> HeartRatePoint? in
                guard let average = statistics.averageQuantity(),
                      let minimum = statistics.minimumQuantity(),
                      let maximum = statistics.maximumQuantity() else { return nil }
                return HeartRatePoint(hour: statistics.startDate,
                                      average: average.doubleValue(for: beatsPerMinute),
                                      minimum: minimum.doubleValue(for: beatsPerMinute),
                                      maximum: maximum.doubleValue(for: beatsPerMinute))
            }
            completion(.success(points))
        }
        healthStore.execute(query)
    }
}
