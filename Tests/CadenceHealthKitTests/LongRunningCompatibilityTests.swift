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

/// The query descriptors and the long-running collection query give what the Cadence API gives.
@Suite("HealthKit-style descriptors and updates")
struct LongRunningCompatibilityTests {
    @Test("a sample query descriptor with a SortDescriptor and limit equals the Cadence sample query")
    func recentHeartRates() async throws {
        let fixture = HealthFixture()
        var random = HealthFixture.Random(state: 9)
        try fixture.saveHeartRates(&random)
        let since = HealthFixture.date(day: 1, hour: 6)
        let latest = try await RecentHeartRates(healthStore: HKHealthStore(store: fixture.store)).latest(25, since: since)

        let expected = try fixture.store.execute(SampleQuery(quantityType: .heartRate, predicate: .samples(start: since, end: nil),
                                                             limit: 25, sortDescriptors: [.endDate(ascending: false)]))
        #expect(latest.map(\.date) == expected.map(\.endDate))
        #expect(latest.map(\.beatsPerMinute) == expected.map(\.value))
        #expect(latest.count == 25)
    }

    @Test("a long-running collection descriptor yields today's total, then the total after each save")
    func liveStepTotal() async throws {
        let fixture = HealthFixture()
        var random = HealthFixture.Random(state: 10)
        try fixture.saveSteps(&random)
        let healthStore = HKHealthStore(store: fixture.store)
        let day = HealthFixture.date(day: 4, hour: 12)
        var totals = LiveStepTotal(healthStore: healthStore).totals(on: day).makeAsyncIterator()

        let today = try StatisticsCollectionQuery(quantityType: .stepCount, options: .cumulativeSum,
                                                  anchorDate: HealthFixture.start, intervalComponents: .days(1),
                                                  calendar: .current)
        func expected() throws -> Double { try fixture.store.execute(today).statistics(for: day)?.sumQuantity()?.value ?? 0 }
        let before = try #require(try await totals.next())
        #expect(before == (try expected()))
        try fixture.store.save([QuantitySample(type: .stepCount, value: 1_000, start: day, end: day.addingTimeInterval(600),
                                               source: Source(name: "Pedometer"))])
        let after = try #require(try await totals.next())
        #expect(after == (try expected()))
        #expect(after > before)
    }

    @Test("a collection query with an update handler reports every week at first and again after a save, until stopped")
    func weeklyMonitor() async throws {
        let fixture = HealthFixture()
        var random = HealthFixture.Random(state: 11)
        try fixture.saveSteps(&random)
        let monitor = WeeklyStepMonitor(healthStore: HKHealthStore(store: fixture.store))
        let (reports, continuation) = AsyncStream.makeStream(of: [Date: Double].self)
        let query = monitor.start(anchor: HealthFixture.start) { continuation.yield($0) }
        var iterator = reports.makeAsyncIterator()

        let weekly = try StatisticsCollectionQuery(quantityType: .stepCount, options: .cumulativeSum,
                                                   anchorDate: HealthFixture.start, intervalComponents: .weeks(1),
                                                   calendar: .current)
        func expected() throws -> [Date: Double] {
            Dictionary(uniqueKeysWithValues: try fixture.store.execute(weekly).statistics().map {
                ($0.startDate, $0.sumQuantity()?.value ?? 0)
            })
        }
        #expect(await iterator.next() == (try expected()))
        #expect(try expected().count == 3)
        let walk = HealthFixture.date(day: 8, hour: 10)
        try fixture.store.save([QuantitySample(type: .stepCount, value: 2_000, start: walk, end: walk.addingTimeInterval(900),
                                               source: HealthFixture.watch)])
        #expect(await iterator.next() == (try expected()))
        HKHealthStore(store: fixture.store).stop(query)
        try fixture.store.save([QuantitySample(type: .stepCount, value: 10, start: walk, end: walk, source: HealthFixture.watch)])
        try await Task.sleep(for: .milliseconds(200))
        continuation.finish()
        #expect(await iterator.next() == nil)
    }

    @Test("a long-running anchored query reports the stored samples, then each save and delete, as Cadence's anchored updates do")
    func sleepChangeFeed() async throws {
        let fixture = HealthFixture()
        var random = HealthFixture.Random(state: 14)
        try fixture.saveSleep(&random)
        let healthStore = HKHealthStore(store: fixture.store)
        let feed = SleepChangeFeed(healthStore: healthStore)
        let (pages, continuation) = AsyncStream.makeStream(of: SleepChanges.self)
        let query = feed.start { continuation.yield($0) }
        var iterator = pages.makeAsyncIterator()
        let cadenceUpdates = fixture.store.anchoredUpdates(AnchoredObjectQuery(categoryType: .sleepAnalysis))
        var cadence = cadenceUpdates.makeAsyncIterator()

        let first = try #require(await iterator.next())
        let expectedFirst = try #require(try await cadence.next())
        #expect(first.added == expectedFirst.samples.map(\.uuid))
        #expect(first.added.count == HealthFixture.days * 13)

        let nap = try await feed.logNap(from: HealthFixture.date(day: 3, hour: 14), to: HealthFixture.date(day: 3, hour: 14.5))
        let saved = try #require(await iterator.next())
        let expectedSaved = try #require(try await cadence.next())
        #expect(saved.added == [nap])
        #expect(saved.added == expectedSaved.samples.map(\.uuid))

        let napSample = try #require(try await HKSampleQueryDescriptor(
            predicates: [.categorySample(type: HKCategoryType(.sleepAnalysis), predicate: HKQuery.predicateForObject(with: nap))],
            sortDescriptors: []).result(for: healthStore).first)
        #expect(napSample.value == HKCategoryValueSleepAnalysis.asleepUnspecified.rawValue)
        try await feed.removeNap(napSample)
        let deleted = try #require(await iterator.next())
        let expectedDeleted = try #require(try await cadence.next())
        #expect(deleted.deleted == [nap] && deleted.added.isEmpty)
        #expect(deleted.deleted == expectedDeleted.deletedObjects.map(\.uuid))
        healthStore.stop(query)
        continuation.finish()
    }

    @Test("an anchored descriptor's results(for:) pages changes as Cadence's anchored updates do")
    func anchoredDescriptorResults() async throws {
        let fixture = HealthFixture()
        var random = HealthFixture.Random(state: 15)
        let readings = try fixture.saveBodyMass(&random)
        let healthStore = HKHealthStore(store: fixture.store)
        let descriptor = HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.bodyMass))], anchor: nil)
        var updates = descriptor.results(for: healthStore).makeAsyncIterator()
        let first = try #require(try await updates.next())
        #expect(first.addedSamples.map(\.uuid) == readings.map(\.uuid))
        #expect(first.addedSamples.map { $0.quantity.doubleValue(for: .gramUnit(with: .kilo)) } == readings.map(\.value))
        try fixture.store.deleteSamples(withUUIDs: [readings[0].uuid])
        let second = try #require(try await updates.next())
        #expect(second.deletedObjects.map(\.uuid) == [readings[0].uuid])
        #expect(second.addedSamples.isEmpty)
        let again = try await HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.bodyMass))],
                                                              anchor: first.newAnchor).result(for: healthStore)
        #expect(again.deletedObjects.map(\.uuid) == [readings[0].uuid])
        #expect(again.newAnchor == second.newAnchor)
    }
}
