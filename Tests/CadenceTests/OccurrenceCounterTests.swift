//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import Cadence

/// The numbering of look-alike records (<doc:HowCadenceComputes#Identity>) within a memory budget:
/// exactly a dictionary's counts, whatever goes to disk, and no temporary file left behind.
@Suite("Occurrence numbering within a memory budget")
struct OccurrenceCounterTests {
    /// The numbering every budget must give: a count per key, 0 counted as 1.
    struct NaiveCounter {
        var counts: [UInt64: UInt32] = [:]

        mutating func next(_ key: UInt64) -> UInt32 {
            let key = key == 0 ? 1 : key
            defer { counts[key, default: 0] += 1 }
            return counts[key, default: 0]
        }

        func count(of key: UInt64) -> UInt32 { counts[key == 0 ? 1 : key, default: 0] }
    }

    /// A new empty directory for one test's temporary files.
    static func makeDirectory() throws -> String {
        try ImportFixtures.makeTemporaryDirectory().path
    }

    /// The process's open descriptors whose file is (or was) in `directory`.
    static func descriptors(into directory: String) -> Int {
        let links = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return links.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0))?
            .hasPrefix(directory + "/") == true }.count
    }

    /// A stream of keys from a small alphabet (so that most repeat, near and far), with 0 and 1
    /// among them, and a large one now and then.
    static func keys(_ random: inout SeededRandom, count: Int, alphabet: UInt64) -> [UInt64] {
        (0..<count).map { _ in
            random.below(10) == 0 ? random.next() : random.below(alphabet)
        }
    }

    @Test("Numbers and counts are a dictionary's, across moves to disk, merges and filter false positives",
          arguments: [(1, 1), (2, 64), (3, 1 << 12), (5, 64), (8, 1 << 16), (1 << 17, 1 << 26)])
    func matchesNaiveCounter(tableKeys: Int, filterBits: Int) throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var random = SeededRandom(seed: UInt64(tableKeys * 31 + filterBits))
        for alphabet: UInt64 in [3, 40, 700] {
            var counter = OccurrenceCounter(budget: .init(tableKeys: tableKeys, filterBits: filterBits, directory: directory))
            var naive = NaiveCounter()
            let stream = Self.keys(&random, count: 3_000, alphabet: alphabet)
            for key in stream {
                let expected = naive.next(key)
                let numbered = try counter.next(key)
                #expect(numbered == expected, "key \(key)")
                if numbered != expected { return }
            }
            if tableKeys < 1_000 { #expect(counter.spilledRuns > 0) }
            // Every key met, and keys never met, count as the dictionary does.
            for key in Set(stream).union([0, 1, 2, alphabet, alphabet + 1, .max]) {
                #expect(try counter.count(of: key) == naive.count(of: key), "key \(key)")
            }
        }
    }

    @Test("A copy counts on its own, though it shares the runs on disk")
    func copiesAreIndependent() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var random = SeededRandom(seed: 7)
        var counter = OccurrenceCounter(budget: .init(tableKeys: 4, filterBits: 64, directory: directory))
        var naive = NaiveCounter()
        for key in Self.keys(&random, count: 500, alphabet: 50) {
            #expect(try counter.next(key) == naive.next(key))
        }
        var copy = counter
        var copyNaive = naive
        for key in Self.keys(&random, count: 500, alphabet: 50) {
            #expect(try counter.next(key) == naive.next(key))
        }
        for key in Self.keys(&random, count: 500, alphabet: 80) {
            #expect(try copy.next(key) == copyNaive.next(key))
        }
        for key: UInt64 in 0..<80 {
            #expect(try counter.count(of: key) == naive.count(of: key))
            #expect(try copy.count(of: key) == copyNaive.count(of: key))
        }
    }

    @Test("The temporary files have no name, and are closed when the counter goes")
    func temporaryFilesLeaveNothing() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            var counter = OccurrenceCounter(budget: .init(tableKeys: 2, filterBits: 64, directory: directory))
            for key: UInt64 in 1...100 { _ = try counter.next(key) }
            #expect(counter.spilledRuns > 0)
            #expect(Self.descriptors(into: directory) == counter.spilledRuns)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
        }
        #expect(Self.descriptors(into: directory) == 0)
    }

    @Test("A directory that cannot take the temporary files is an error naming it")
    func unwritableDirectoryIsAnError() throws {
        let directory = try Self.makeDirectory()
        try FileManager.default.removeItem(atPath: directory)
        var counter = OccurrenceCounter(budget: .init(tableKeys: 2, filterBits: 64, directory: directory))
        _ = try counter.next(1)
        let error = try #require(throws: CadenceError.self) { _ = try counter.next(2) }
        #expect(error.path?.hasPrefix(directory + "/") == true)
    }

    /// Every UUID a store holds (samples of every kind, correlations, workouts), sorted, in one
    /// FNV-1a digest of their text, one a line.
    static func uuidDigest(_ store: HealthStore) throws -> (count: Int, digest: UInt64) {
        var uuids: Set<UUID> = []
        for type in store.quantityTypes { uuids.formUnion(try store.execute(SampleQuery(quantityType: type)).map(\.uuid)) }
        for type in store.categoryTypes { uuids.formUnion(try store.execute(SampleQuery(categoryType: type)).map(\.uuid)) }
        for type in store.correlationTypes {
            uuids.formUnion(try store.execute(SampleQuery(correlationType: type)).map(\.uuid))
        }
        uuids.formUnion(try store.execute(SampleQuery(workoutsMatching: .all)).map(\.uuid))
        var digest: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in uuids.map(\.uuidString).sorted().joined(separator: "\n").utf8 {
            digest = (digest ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        return (uuids.count, digest)
    }

    @Test("The hkimport export gets the UUIDs it got when every key was kept in memory, whatever the budget",
          arguments: [(1 << 17, 1 << 26), (3, 64), (16, 1 << 10)])
    func realExportKeepsItsUUIDs(tableKeys: Int, filterBits: Int) throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = HealthStore.inMemory()
        var importer = HealthDataImporter(store: store, parallelism: 2)
        importer.occurrenceBudget = .init(tableKeys: tableKeys, filterBits: filterBits, directory: directory)
        let summary = try importer.importFile(atPath: ImportFixtures.appleHealthFile("hkimport-export.xml"))
        #expect(!summary.failed)
        // The digest of the UUIDs `cadence samples` listed for this export when the numbering kept
        // every key in memory, in a dictionary.
        let (count, digest) = try Self.uuidDigest(store)
        #expect(count == 11_034)
        #expect(digest == 0x623A_AD2D_B9B9_C15B)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
        #expect(Self.descriptors(into: directory) == 0)
    }

    @Test("An import that fails partway, or throws, leaves no temporary file open")
    func failedImportLeavesNothing() throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = try String(contentsOfFile: ImportFixtures.appleHealthFile("hkimport-export.xml"), encoding: .utf8)
        let cut = directory + "/cut.xml"
        // Cut in the middle of the records: what came before is imported, the import fails.
        try Data(text.utf8.prefix(text.utf8.count / 2)).write(to: URL(fileURLWithPath: cut))
        let spills = directory + "/spills"
        try FileManager.default.createDirectory(atPath: spills, withIntermediateDirectories: true)
        var importer = HealthDataImporter(store: HealthStore.inMemory(), parallelism: 1)
        importer.occurrenceBudget = .init(tableKeys: 3, filterBits: 64, directory: spills)
        let summary = try importer.importFile(atPath: cut)
        #expect(summary.failed)
        #expect(summary.imported > 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: spills).isEmpty)
        #expect(Self.descriptors(into: spills) == 0)

        // A spill directory that is gone fails the import with an error naming it.
        try FileManager.default.removeItem(atPath: spills)
        importer = HealthDataImporter(store: HealthStore.inMemory(), parallelism: 1)
        importer.occurrenceBudget = .init(tableKeys: 3, filterBits: 64, directory: spills)
        #expect(throws: CadenceError.self) { try importer.importFile(atPath: cut) }
        #expect(Self.descriptors(into: spills) == 0)
    }
}
