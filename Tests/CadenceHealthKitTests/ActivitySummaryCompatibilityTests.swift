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

/// `HKActivitySummaryQuery` as HealthKit code writes it: the same summaries as Cadence's activity
/// summary query, through HealthKit's predicate factories and shapes.
@Suite("HKActivitySummaryQuery")
struct ActivitySummaryCompatibilityTests {
    static func run(_ predicate: NSPredicate?, on healthStore: HKHealthStore) async -> ([HKActivitySummary]?, (any Error)?) {
        await withCheckedContinuation { continuation in
            healthStore.execute(HKActivitySummaryQuery(predicate: predicate) { _, summaries, error in
                continuation.resume(returning: (summaries, error))
            })
        }
    }

    @Test("a range of date components lists its days' summaries, both ends included, in day order")
    func range() async throws {
        let store = HealthStore.inMemory()
        // 21 February to 1 March 2024, across the leap day.
        let days = try (21...29).map { try ActivityDay(year: 2024, month: 2, day: $0) } + [try ActivityDay("2024-03-01")]
        try store.save(days.reversed().map { day in
            ActivitySummary(day: day, activeEnergyBurned: Double(day.day) * 10, activeEnergyBurnedGoal: 200,
                            appleExerciseTime: 30, appleExerciseTimeGoal: 30)
        })
        let healthStore = HKHealthStore(store: store)
        var start = DateComponents(year: 2024, month: 2, day: 28)
        start.calendar = Calendar(identifier: .gregorian)
        var end = start
        end.month = 3
        end.day = 1
        let (summaries, error) = await Self.run(HKQuery.predicate(forActivitySummariesBetweenStart: start, end: end),
                                                on: healthStore)
        #expect(error == nil)
        let listed = try #require(summaries)
        #expect(listed.map { $0.dateComponents(for: Calendar(identifier: .gregorian)).day } == [28, 29, 1])
        let expected = try store.execute(ActivitySummaryQuery(from: try ActivityDay("2024-02-28"), through: try ActivityDay("2024-03-01")))
        #expect(listed.map(\.summary) == expected)
        #expect(listed[1].activeEnergyBurned.doubleValue(for: .kilocalorie()) == 290)
        #expect(listed[1].appleStandHours.doubleValue(for: .count()) == 0 && listed[1].standHoursGoal == nil)
        #expect(listed[1].exerciseTimeGoal?.doubleValue(for: .minute()) == 30)

        let (one, _) = await Self.run(HKQuery.predicateForActivitySummary(with: start), on: healthStore)
        #expect(one?.map(\.summary.day.description) == ["2024-02-28"])
        let (all, _) = await Self.run(nil, on: healthStore)
        #expect(all?.count == 10)
        let (_, incomplete) = await Self.run(HKQuery.predicateForActivitySummary(with: DateComponents(year: 2024)),
                                             on: healthStore)
        #expect((incomplete as? CadenceError)?.code == .invalidArgument)
    }
}
