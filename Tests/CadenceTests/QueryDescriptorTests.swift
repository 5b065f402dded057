//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// The async query descriptors give what the synchronous queries give, key-path sort descriptors
/// order as a naive sort does, and the long-running forms follow commits.
@Suite("Query descriptors")
struct QueryDescriptorTests {
    static func store(seed: UInt64) throws -> (HealthStore, [QuantitySample]) {
        let store = HealthStore.inMemory(chunkCapacity: 32, flushThreshold: 100)
        let samples = try StoreTests.randomSamples(count: 600, seed: seed)
        try store.save(samples)
        return (store, samples)
    }

    @Test("key-path sort descriptors order as a stable naive sort, in one query and merged over types",
          arguments: [1, 2, 3] as [UInt64])
    func keyPathSort(seed: UInt64) async throws {
        let (store, samples) = try Self.store(seed: seed)
        // Saved order breaks ties: the order of the save call, for samples saved once.
        let saved = Dictionary(samples.enumerated().map { ($0.element.uuid, $0.offset) }, uniquingKeysWith: { first, _ in first })
        func naive(_ selected: [QuantitySample], limit: Int) -> [UUID] {
            let sorted = selected.sorted {
                ($0.value, $1.endDate, saved[$0.uuid] ?? 0) < ($1.value, $0.endDate, saved[$1.uuid] ?? 0)
            }
            return sorted.prefix(limit).map(\.uuid)
        }
        let order = [SortDescriptor(\QuantitySample.value), SortDescriptor(\QuantitySample.endDate, order: .reverse)]
        let steps = samples.filter { $0.quantityType == .stepCount }
        let one = try store.execute(SampleQuery(quantityType: .stepCount, limit: 25, sortDescriptors: order))
        #expect(one.map(\.uuid) == naive(steps, limit: 25))

        let both = samples.filter { $0.quantityType == .stepCount || $0.quantityType == .bodyMass }
        let descriptor = SampleQueryDescriptor(predicates: [.quantitySample(type: .stepCount), .quantitySample(type: .bodyMass)],
                                               sortDescriptors: order, limit: 40)
        #expect(try await descriptor.result(for: store).map(\.uuid) == naive(both, limit: 40))
        let unsorted = SampleQueryDescriptor(predicates: [.quantitySample(type: .bodyMass)])
        #expect(try await unsorted.result(for: store) == store.execute(SampleQuery(quantityType: .bodyMass)))
    }

    @Test("statistics, collections, anchored pages and correlations match their synchronous queries")
    func sameAsSynchronous() async throws {
        let (store, _) = try Self.store(seed: 9)
        let window = SamplePredicate.samples(start: Date(timeIntervalSince1970: 1_700_500_000), end: nil)
        let statistics = StatisticsQueryDescriptor(predicate: .quantitySample(type: .stepCount, predicate: window),
                                                   options: [.cumulativeSum, .duration])
        let expected = try store.execute(try statistics.query())
        let answer = try await statistics.result(for: store)
        #expect(answer.sumQuantity() == expected.sumQuantity() && answer.sumQuantity() != nil)
        #expect(answer.duration() == expected.duration())

        let utc = TimeZone(identifier: "UTC")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        let daily = StatisticsCollectionQueryDescriptor(
            predicate: .quantitySample(type: .heartRate), options: [.discreteAverage, .discreteMax],
            anchorDate: Date(timeIntervalSince1970: 1_700_000_000), intervalComponents: .days(1), calendar: calendar)
        let collection = try await daily.result(for: store).statistics()
        let direct = try store.execute(try daily.query()).statistics()
        #expect(collection.map(\.startDate) == direct.map(\.startDate) && !direct.isEmpty)
        #expect(collection.map { $0.averageQuantity() } == direct.map { $0.averageQuantity() })

        let anchored = AnchoredObjectQueryDescriptor(predicate: .quantitySample(type: .bodyMass), limit: 50)
        let page = try await anchored.result(for: store)
        let directPage = try store.execute(anchored.query)
        #expect(page.samples == directPage.samples && page.anchor == directPage.anchor && page.samples.count == 50)

        // An option the type does not allow throws when the query runs.
        let invalid = StatisticsQueryDescriptor(predicate: .quantitySample(type: .heartRate), options: .cumulativeSum)
        await #expect(throws: CadenceError.self) { _ = try await invalid.result(for: store) }
        var stream = invalid.results(for: store).makeAsyncIterator()
        await #expect(throws: CadenceError.self) { _ = try await stream.next() }
    }

    @Test("a correlation descriptor selects as its query does")
    func correlations() async throws {
        var random = TestRandom(seed: 3)
        let store = HealthStore.inMemory()
        let readings = try (0..<20).map { _ in try CorrelationTests.reading(&random) }
        try store.save(readings)
        let systolic = CorrelationTests.systolic
        let descriptor = CorrelationQueryDescriptor(
            predicate: .correlation(type: .bloodPressure),
            samplePredicates: [systolic: .quantity(.greaterThanOrEqual, Quantity(value: 140, unit: .millimeterOfMercury))])
        let high = try await descriptor.result(for: store)
        #expect(high.map(\.uuid) == (try store.execute(descriptor.query)).map(\.uuid))
        #expect(!high.isEmpty && high.allSatisfy { $0.objects(for: systolic).allSatisfy { $0.value >= 140 } })
    }

    @Test("the long-running forms yield the current state, then one update per touching commit")
    func longRunning() async throws {
        let store = HealthStore.inMemory()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let source = Source(name: "Watch")
        try store.save([try QuantitySample(type: .stepCount, value: 100, start: start, end: start + 60, source: source)])

        let totals = StatisticsQueryDescriptor(predicate: .quantitySample(type: .stepCount), options: .cumulativeSum)
        var updates = totals.results(for: store).makeAsyncIterator()
        let changes = AnchoredObjectQueryDescriptor(predicate: .quantitySample(type: .stepCount))
        var pages = changes.results(for: store).makeAsyncIterator()
        #expect(try await updates.next()?.sumQuantity()?.value == 100)
        #expect(try await pages.next()?.samples.count == 1)

        try store.save([try QuantitySample(type: .heartRate, value: 60, start: start, end: start, source: source)])
        try store.save([try QuantitySample(type: .stepCount, value: 50, start: start + 60, end: start + 120, source: source)])
        #expect(try await updates.next()?.sumQuantity()?.value == 150)
        #expect(try await pages.next()?.samples.map(\.value) == [50])
    }
}
