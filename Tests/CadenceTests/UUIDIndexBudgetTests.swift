//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import Cadence

/// The index of stored UUIDs that refuses a second copy of a sample (<doc:HowCadenceComputes#Identity>)
/// within a memory budget: exactly a set's answers, whatever goes to disk, whatever order the saves
/// come in, across deletes and more types than it holds at once.
@Suite("Stored UUIDs within a memory budget")
struct UUIDIndexBudgetTests {
    @Test("A UUID set answers as a plain set across moves to disk, merges, filter false positives and removals",
          arguments: [(1, 64), (3, 1 << 12), (7, 64), (1 << 17, 1 << 26)])
    func setMatchesNaiveSet(tableKeys: Int, filterBits: Int) throws {
        let directory = try OccurrenceCounterTests.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let budget = SpillBudget(tableKeys: tableKeys, filterBits: filterBits, directory: directory)
        var random = TestRandom(seed: UInt64(tableKeys * 131 + filterBits))
        // Random UUIDs, and counted ones (UUIDs a user typed need not look random).
        let pool = (0..<100).map { _ in UUID(high: random.next(), low: random.next()) }
            + (0..<40).map { UUID(high: 0, low: UInt64($0)) }
        do {
            var set = UUIDSet(budget: budget)
            var naive = Set<UUID>()
            var spilled = false
            for _ in 0..<1_200 {
                let uuid = pool[Int.random(in: pool.indices, using: &random)]
                switch Int.random(in: 0..<20, using: &random) {
                case 0..<9:
                    try set.insert(uuid)
                    naive.insert(uuid)
                case 9:
                    naive.remove(uuid)
                    if !set.remove(uuid) {
                        // What the index does: let the set go and build it again from what is stored.
                        set = UUIDSet(budget: budget)
                        for stored in naive { try set.insert(stored) }
                    }
                default:
                    #expect(try set.contains(each: [uuid]) == [naive.contains(uuid)])
                }
                spilled = spilled || set.spilledRuns > 0
            }
            // Every UUID at once, in no order, some twice: each block of a run read once.
            let queried = pool.shuffled(using: &random) + pool.prefix(20)
            #expect(try set.contains(each: queried) == queried.map(naive.contains))
            #expect(spilled == (tableKeys < 100))
        }
        #expect(OccurrenceCounterTests.descriptors(into: directory) == 0)
    }

    @Test("Saves out of time order store each sample once with a tiny index budget and more types than it holds")
    func storeRefusesRepeatsWithinTinyBudget() throws {
        let directory = try OccurrenceCounterTests.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var options = HealthStore.Options()
        options.uuidIndexBudget = SpillBudget(tableKeys: 8, filterBits: 512, directory: directory)
        options.chunkCapacity = 32
        options.flushThreshold = 96
        let store = HealthStore.inMemory(options: options)
        var random = TestRandom(seed: 11)
        let source = Source(name: "Watch")
        let types = (0..<(UUIDIndex.maximumTypes + 2)).map { QuantityType.unknown("indexBudgetReading\($0)", unit: .count) }
        // Per type, samples with UUIDs of their own at random starts, so saves come out of time order.
        let pools = try types.map { type in
            try (0..<50).map { _ in
                let start = Date(timestamp: Int64.random(in: 0..<1_000_000, using: &random) * 1_000_000)
                return try QuantitySample(uuid: UUID(high: random.next(), low: random.next()), type: type,
                                          value: Double(Int.random(in: 1...100, using: &random)), start: start, end: start,
                                          source: source)
            }
        }
        // Rows without UUIDs of one more type: identical rows are one sample.
        let derivedType = QuantityType.unknown("indexBudgetDerived", unit: .count)
        let derivedPool = (0..<50).map { _ in (start: Int64.random(in: 0..<1_000_000, using: &random) * 1_000_000,
                                               value: Double(Int.random(in: 1...3, using: &random))) }
        var stored = [Set<UUID>](repeating: [], count: types.count)
        var deleted = Set<UUID>()
        var derivedStored = Set<Int>()
        for round in 0..<120 {
            if round % 5 == 4 {
                var batch = QuantitySampleBatch(type: derivedType)
                _ = batch.addProvenance(Provenance(source: source))
                let picks = (0..<Int.random(in: 1...12, using: &random)).map { _ in Int.random(in: derivedPool.indices, using: &random) }
                for pick in picks {
                    try batch.append(startTimestamp: derivedPool[pick].start, endTimestamp: derivedPool[pick].start,
                                     value: derivedPool[pick].value, provenanceIndex: 0)
                }
                let new = Set(picks.map { derivedPool[$0].start * 4 + Int64(derivedPool[$0].value) })
                    .subtracting(derivedStored.map { derivedPool[$0].start * 4 + Int64(derivedPool[$0].value) })
                #expect(try store.save(batch).saved == new.count)
                derivedStored.formUnion(picks)
                continue
            }
            let typeIndex = Int.random(in: types.indices, using: &random)
            let picks = (0..<Int.random(in: 1...12, using: &random)).map { _ in
                pools[typeIndex][Int.random(in: pools[typeIndex].indices, using: &random)]
            }
            let new = Set(picks.map(\.uuid)).subtracting(stored[typeIndex]).subtracting(deleted)
            let summary = try store.save(picks)
            #expect(summary.saved == new.count)
            stored[typeIndex].formUnion(new)
            if round % 7 == 6, let victim = stored[typeIndex].min(by: { $0.uuidString < $1.uuidString }) {
                #expect(try store.deleteSamples(withUUIDs: [victim]) == 1)
                stored[typeIndex].remove(victim)
                deleted.insert(victim)
            }
        }
        for (index, type) in types.enumerated() {
            #expect(Set(try store.execute(SampleQuery(quantityType: type)).map(\.uuid)) == stored[index])
        }
        let derived = try store.execute(SampleQuery(quantityType: derivedType))
        #expect(Set(derived.map { $0.startDate.timestamp * 4 + Int64($0.value) }).count == derived.count)
        #expect(derived.count == Set(derivedStored.map { derivedPool[$0].start * 4 + Int64(derivedPool[$0].value) }).count)
    }

    @Test("Building the index reads every chunk once and keeps none loaded")
    func indexBuildKeepsNoChunk() throws {
        var options = HealthStore.Options()
        options.chunkCapacity = 16
        let source = Source(name: "Watch")
        func samples(_ range: Range<Int>) throws -> [QuantitySample] {
            try range.map { index in
                let start = Date(timestamp: Int64(index) * 60_000_000)
                return try QuantitySample(type: .heartRate, value: Double(60 + index % 40), start: start, end: start, source: source)
            }
        }
        let stored = try samples(1_000..<1_160)
        let memory = try MemoryFileSystem.flushedStore(options: options) { try $0.save(stored) }
        let chunkReads = ChunkReadCounter()
        let store = try HealthStore.open(at: "/s", options: options, fileSystem: chunkReads.counting(memory))
        // Earlier samples with UUIDs of their own: none stored at their starts, so they are looked
        // up in the index of the stored UUIDs, which is built.
        #expect(try store.save(try samples(0..<20)) == SaveSummary(saved: 20))
        let chunks = chunkReads.count
        #expect(chunks >= 10)
        // Nothing was kept: listing the samples reads every chunk file again.
        #expect(try store.execute(SampleQuery(quantityType: .heartRate)).count == 180)
        #expect(chunkReads.count == 2 * chunks)
        // Every stored sample again: found at its start.
        #expect(try store.save(stored) == SaveSummary(duplicates: 160))
        try store.close()
    }
}
