//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// Deleted samples leave the chunk files: automatically once enough of a type is deleted, and on
/// request; a query over too many intervals is refused by the memory it would take.
@Suite("Compaction")
struct CompactionTests {
    /// A memory store of 1,000 flushed step counts in chunks of 100, and the samples.
    static func store() throws -> (store: HealthStore, fileSystem: MemoryFileSystem, samples: [QuantitySample]) {
        let memory = MemoryFileSystem()
        let store = try HealthStore.open(at: "/s", options: options, fileSystem: memory)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let samples = try (0..<1_000).map { index in
            try QuantitySample(type: .stepCount, value: Double(index + 1), start: start.addingTimeInterval(Double(index) * 60),
                               end: start.addingTimeInterval(Double(index) * 60 + 30), source: Source(name: "Phone"))
        }
        try store.save(samples)
        try store.flush()
        return (store, memory, samples)
    }

    static var options: HealthStore.Options {
        var options = HealthStore.Options()
        options.chunkCapacity = 100
        return options
    }

    static func rowsInChunks(_ store: HealthStore) -> Int {
        store.snapshot().types.values.flatMap(\.chunks).reduce(0) { $0 + $1.summary.count }
    }

    @Test("Deleting past the threshold rewrites the type's chunks without the deleted rows; below it, nothing moves")
    func automatic() throws {
        let (store, memory, samples) = try Self.store()
        try store.deleteSamples(withUUIDs: samples.prefix(100).map(\.uuid))
        #expect(Self.rowsInChunks(store) == 1_000)
        try store.deleteSamples(withUUIDs: samples[100..<300].map(\.uuid))
        #expect(Self.rowsInChunks(store) == 700)
        #expect(store.snapshot().types.values.allSatisfy { $0.hiddenSequences.isEmpty })
        let left = try store.execute(SampleQuery(quantityType: .stepCount))
        #expect(Set(left.map(\.uuid)) == Set(samples.suffix(700).map(\.uuid)))
        // The deletions are still reported to anchored queries.
        let changes = try store.execute(AnchoredObjectQuery(quantityType: .stepCount,
                                                            anchor: QueryAnchor(storeIdentifier: store.identifier, sequence: 1_000)))
        #expect(changes.deletedObjects.count == 300)
        // Reopened, the deletions compacted away hide nothing: the count is right, and one more
        // delete does not compact again.
        try store.close()
        let reopened = try HealthStore.open(at: "/s", options: Self.options, fileSystem: memory)
        #expect(try reopened.info().totalSamples == 700)
        try reopened.deleteSamples(withUUIDs: [samples[500].uuid])
        #expect(Self.rowsInChunks(reopened) == 700)
        #expect(try reopened.info().totalSamples == 699)
    }

    @Test("A collection query whose intervals would not fit the memory budget is refused before allocating them")
    func intervalMemoryCap() throws {
        let store = HealthStore.inMemory()
        for year in [1930.0, 2023.0] {
            let start = Date(timeIntervalSince1970: (year - 1970) * 365.25 * 86_400)
            try store.save([try QuantitySample(type: .stepCount, value: 5, start: start, end: start.addingTimeInterval(30), source: Source(name: "Phone"))])
        }
        let query = try StatisticsCollectionQuery(quantityType: .stepCount, options: .cumulativeSum,
                                                  anchorDate: Date(timeIntervalSince1970: 0),
                                                  intervalComponents: try IntervalComponents(count: 1, unit: .minute))
        let error = #expect(throws: CadenceError.self) { _ = try store.execute(query) }
        #expect(error?.code == .invalidQuery)
        #expect(error?.message.contains("memory") == true)
    }
}
