//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// Sample, anchored and observer queries on a category type against a naive reference: random
/// sleep samples saved across chunks and head batches, some deleted, queried with random
/// predicates, orders, limits and pages.
@Suite("Category queries agree with the naive reference")
struct CategoryQueryPropertyTests {
    static let sources = ["Watch", "AutoSleep", "iPhone"].map { Source(name: $0) }
    static let base: Int64 = 1_709_251_200_000_000  // 2024-03-01T00:00:00Z

    /// A random sleep sample: value, source and times drawn from `random`.
    static func randomSample(_ random: inout TestRandom) throws -> CategorySample {
        let start = base + Int64.random(in: 0..<(20 * 86_400), using: &random) * 1_000_000
        let length = Int64.random(in: 0...(4 * 3_600), using: &random) * 1_000_000
        let value = Int.random(in: 0...5, using: &random)
        let metadata = Int.random(in: 0..<8, using: &random) == 0 ? ["HKTimeZone": "Europe/Paris"] : [:]
        return try CategorySample(uuid: UUID(high: random.next(), low: random.next(), version: 4), type: .sleepAnalysis,
                                  value: value, start: Date(timestamp: start), end: Date(timestamp: start + length),
                                  source: sources[Int.random(in: 0..<3, using: &random)], metadata: metadata)
    }

    /// A store with small chunks holding random sleep samples (some flushed, some in the head),
    /// a random window of them deleted; returns it with the surviving samples.
    static func makeStore(seed: UInt64) throws -> (HealthStore, [CategorySample]) {
        var random = TestRandom(seed: seed)
        let store = HealthStore.inMemory(chunkCapacity: 200, flushThreshold: 500)
        var reference: [CategorySample] = []
        for _ in 0..<6 {
            let batch = try (0..<Int.random(in: 1...300, using: &random)).map { _ in try randomSample(&random) }
            try store.save(batch)
            reference += batch
        }
        // A quantity type beside it must not leak into category answers.
        try store.save([QuantitySample(type: .stepCount, value: 5, start: Date(timestamp: base), end: Date(timestamp: base),
                                       source: sources[0])])
        let lower = base + Int64.random(in: 0..<(20 * 86_400), using: &random) * 1_000_000
        let window = SamplePredicate.samples(start: Date(timestamp: lower), end: Date(timestamp: lower + 86_400_000_000),
                                             options: .strictStartDate)
        let deleted = try store.deleteSamples(of: .sleepAnalysis, matching: window && .categoryValue(in: [0, 2]))
        let before = reference.count
        reference.removeAll { $0.startDate.timestamp >= lower && $0.startDate.timestamp < lower + 86_400_000_000 && [0, 2].contains($0.value) }
        #expect(deleted == before - reference.count)
        return (store, reference)
    }

    @Test("sample queries: predicates on dates, values and sources; orders; limits", arguments: [1, 2, 3] as [UInt64])
    func sampleQueries(seed: UInt64) throws {
        let (store, reference) = try Self.makeStore(seed: seed)
        var random = TestRandom(seed: seed &+ 100)
        for _ in 0..<25 {
            let lower = Self.base + Int64.random(in: 0..<(20 * 86_400), using: &random) * 1_000_000
            let upper = lower + Int64.random(in: 1...(5 * 86_400), using: &random) * 1_000_000
            let values = Set((0...5).filter { _ in Bool.random(using: &random) })
            let source = Self.sources[Int.random(in: 0..<3, using: &random)].name
            let useSource = Bool.random(using: &random)
            var predicate = SamplePredicate.samples(start: Date(timestamp: lower), end: Date(timestamp: upper))
                && .categoryValue(in: values)
            if useSource { predicate = predicate && .sources(named: [source]) }
            let ascending = Bool.random(using: &random)
            let limit = Int.random(in: 0...40, using: &random)
            let answer = try store.execute(SampleQuery(categoryType: .sleepAnalysis, predicate: predicate, limit: limit,
                                                       sortDescriptors: [.endDate(ascending: ascending)]))
            // The naive reference: filter, then a stable sort on the end date (save order breaks ties).
            let expected = reference.filter {
                $0.endDate.timestamp >= lower && $0.startDate.timestamp < upper && values.contains($0.value)
                    && (!useSource || $0.source.name == source)
            }.enumerated().sorted { left, right in
                left.element.endDate != right.element.endDate
                    ? (ascending ? left.element.endDate < right.element.endDate : left.element.endDate > right.element.endDate)
                    : left.offset < right.offset
            }.map(\.element)
            #expect(answer == Array(limit > 0 ? expected.prefix(limit) : expected[...]))
        }
    }

    @Test("anchored queries page through saves and deletes, losing and repeating nothing", arguments: [4, 5] as [UInt64])
    func anchoredPaging(seed: UInt64) throws {
        let (store, reference) = try Self.makeStore(seed: seed)
        var random = TestRandom(seed: seed &+ 200)
        var current = Dictionary(uniqueKeysWithValues: reference.map { ($0.uuid, $0) })
        var seen: [UUID: CategorySample] = [:]
        var query = AnchoredObjectQuery(categoryType: .sleepAnalysis)
        for round in 0..<8 {
            // Page through everything changed since the last anchor.
            try store.pageChanges(&query, into: &seen, maxLimit: 120, random: &random, uuid: \.uuid)
            #expect(seen == current, "round \(round)")
            // Change the store: new samples, and deletes of random stored ones.
            try store.changeAtRandom(&current, maxAdded: 50, deleteOneIn: 15, random: &random, uuid: \.uuid,
                                     make: Self.randomSample, save: { try store.save($0) })
        }
    }

    @Test("observers hear of category changes only")
    func observers() async throws {
        let store = HealthStore.inMemory()
        var observer = store.observe([CategoryType.sleepAnalysis]).makeAsyncIterator()
        var anchored = store.anchoredUpdates(AnchoredObjectQuery(categoryType: .sleepAnalysis)).makeAsyncIterator()
        #expect(try await observer.next()?.typeIdentifiers == [CategoryType.sleepAnalysis.identifier])
        #expect(try await anchored.next()?.samples.isEmpty == true)
        var random = TestRandom(seed: 9)
        try store.save([QuantitySample(type: .stepCount, value: 5, start: Date(timestamp: Self.base),
                                       end: Date(timestamp: Self.base), source: Self.sources[0])])  // no notification
        let sleep = try Self.randomSample(&random)
        try store.save([sleep])
        let notification = try #require(try await observer.next())
        #expect(notification.typeIdentifiers == [CategoryType.sleepAnalysis.identifier])
        #expect(notification.quantityTypes.isEmpty)
        #expect(try await anchored.next()?.samples == [sleep])
        try store.deleteSamples(withUUIDs: [sleep.uuid])
        #expect(try await anchored.next()?.deletedObjects.map(\.uuid) == [sleep.uuid])
    }
}
