//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import CadenceHealthKit
import Foundation
import Testing

/// The HealthKit-style statistics code of `HealthKitStyle/` gives what the Cadence API gives.
@Suite("HealthKit-style statistics")
struct StatisticsCompatibilityTests {
    @Test("a daily step chart from enumerateStatistics equals the Cadence collection's days")
    func dailyStepChart() async throws {
        let fixture = HealthFixture()
        var random = HealthFixture.Random(state: 1)
        try fixture.saveSteps(&random)
        let from = HealthFixture.date(day: 2, hour: 5)
        let to = HealthFixture.date(day: 30, hour: 0)
        let chart = DailyStepChart(healthStore: HKHealthStore(store: fixture.store))
        let bars = try await completion { chart.loadBars(from: from, to: to, completion: $0) }

        let query = try StatisticsCollectionQuery(quantityType: .stepCount, options: .cumulativeSum,
                                                  anchorDate: HealthFixture.start, intervalComponents: .days(1),
                                                  calendar: .current)
        let expected = try fixture.store.execute(query).statistics(from: from, to: to)
            .map { StepBar(date: $0.startDate, steps: $0.sumQuantity()?.value ?? 0) }
        #expect(bars == expected)
        #expect(bars.count == 29)
        #expect(bars.contains { $0.steps > 0 } && bars.contains { $0.steps == 0 })
    }

    @Test("hourly heart-rate averages, minima and maxima equal the Cadence collection's hours")
    func hourlyHeartRate() async throws {
        let fixture = HealthFixture()
        var random = HealthFixture.Random(state: 2)
        try fixture.saveHeartRates(&random)
        let day = HealthFixture.date(day: 1, hour: 12)
        let points = try await completion { HourlyHeartRate(healthStore: HKHealthStore(store: fixture.store)).loadHours(of: day, completion: $0) }

        let midnight = HealthFixture.date(day: 1, hour: 0)
        let query = try StatisticsCollectionQuery(
            quantityType: .heartRate,
            quantitySamplePredicate: .samples(start: midnight, end: HealthFixture.date(day: 2, hour: 0), options: .strictStartDate),
            options: [.discreteAverage, .discreteMin, .discreteMax], anchorDate: midnight,
            intervalComponents: .hours(1), calendar: .current)
        let expected = try fixture.store.execute(query).statistics().map { hour in
            HeartRatePoint(hour: hour.startDate, average: hour.averageQuantity()?.value ?? -1,
                           minimum: hour.minimumQuantity()?.value ?? -1, maximum: hour.maximumQuantity()?.value ?? -1)
        }
        #expect(points == expected)
        #expect(points.count == 24)
    }

    @Test("separateBySource: sources() and each source's sums equal the Cadence collection's, merged below the naive sum")
    func sourceBreakdown() async throws {
        let fixture = HealthFixture()
        var random = HealthFixture.Random(state: 3)
        try fixture.saveSteps(&random)
        let from = HealthFixture.date(day: 0, hour: 0)
        let to = HealthFixture.date(day: HealthFixture.days - 1, hour: 0)
        let breakdown = StepSourceBreakdown(healthStore: HKHealthStore(store: fixture.store))
        let (sources, days) = try await completion { breakdown.loadDays(from: from, to: to, completion: $0) }

        let query = try StatisticsCollectionQuery(quantityType: .stepCount, options: [.cumulativeSum, .separateBySource],
                                                  anchorDate: from, intervalComponents: .days(1), calendar: .current)
        let collection = try fixture.store.execute(query)
        #expect(sources == collection.sources().map(\.name).sorted())
        #expect(sources == [HealthFixture.watch.name, HealthFixture.phone.name].sorted())
        let expected = try collection.statistics(from: from, to: to).map { day in
            SourceSteps(day: day.startDate, merged: day.sumQuantity()?.value ?? 0,
                        bySource: Dictionary(uniqueKeysWithValues: (day.sources ?? []).compactMap { source in
                            day.sumQuantity(for: source).map { (source.name, $0.value) }
                        }))
        }
        #expect(days == expected)
        #expect(days.count == HealthFixture.days)
        // Merging counts overlapping time once: never more than the sources' naive total.
        #expect(days.allSatisfy { $0.merged <= $0.bySource.values.reduce(0, +) + 1e-6 })
        #expect(days.contains { $0.merged < $0.bySource.values.reduce(0, +) - 1 })
    }

    @Test("the latest weight from a mostRecent statistics query equals the Cadence statistics query's")
    func latestWeight() async throws {
        let fixture = HealthFixture()
        let healthStore = HKHealthStore(store: fixture.store)
        #expect(try await completion { LatestWeight(healthStore: healthStore).load(completion: $0) } == nil)
        var random = HealthFixture.Random(state: 4)
        let readings = try fixture.saveBodyMass(&random)
        let latest = try #require(try await completion { LatestWeight(healthStore: healthStore).load(completion: $0) })

        let statistics = try fixture.store.execute(StatisticsQuery(quantityType: .bodyMass, options: .mostRecent))
        #expect(latest.kilograms == statistics.mostRecentQuantity()?.value)
        #expect(latest.taken == statistics.mostRecentQuantityDateInterval())
        #expect(latest.kilograms == readings.max { $0.endDate < $1.endDate }?.value)
    }
}

/// Waits for a HealthKit-style completion handler.
func completion<Value: Sendable>(
    _ start: (@escaping @Sendable (Result<Value, any Error>) -> Void) -> Void
) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        start { continuation.resume(with: $0) }
    }
}
