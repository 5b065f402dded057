//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// Saving, reading back, recovery and corruption detection of the store.
@Suite("Store")
struct StoreTests {
    static let types: [QuantityType] = [.stepCount, .heartRate, .bodyMass, .activeEnergyBurned]

    /// Random samples of several types and sources: zero-length and long, equal starts, out of order.
    static func randomSamples(count: Int, seed: UInt64) throws -> [QuantitySample] {
        var random = TestRandom(seed: seed)
        let sources = [Source(name: "Watch"), Source(name: "Jane’s iPhone"), Source(name: "Scale\u{00A0}App")]
        var samples: [QuantitySample] = []
        for index in 0..<count {
            let type = types[Int.random(in: 0..<types.count, using: &random)]
            var start = Date(timestamp: 1_700_000_000_000_000 + Int64.random(in: 0..<(90 * 86_400_000), using: &random) * 1_000)
            if index % 11 == 0, let previous = samples.last { start = previous.startDate }
            let length = [0, 0, 5, 60, 3_600, 200_000][Int.random(in: 0..<6, using: &random)]
            let value = (Double(Int.random(in: 0..<100_000, using: &random)) / [1, 10, 1_000, 7][index % 4])
            let metadata: [String: String] = index % 9 == 0 ? ["HKMetadataKeySyncIdentifier": "sync-\(index)"] : [:]
            samples.append(try QuantitySample(
                uuid: index % 3 == 0 ? UUID() : QuantitySample.derivedUUID(type: type.identifier, provenance: Provenance(source: Source(name: "x")), value: 0, start: Int64(index), end: 0, creation: nil, metadata: [:]),
                type: type, value: value, start: start,
                end: start.addingTimeInterval(Double(length)), source: sources[Int.random(in: 0..<3, using: &random)],
                sourceVersion: index % 2 == 0 ? "10.1" : nil,
                creationDate: index % 5 == 0 ? start.addingTimeInterval(7) : nil, metadata: metadata))
        }
        return samples
    }

    static func readAll(_ store: HealthStore) throws -> [UUID: QuantitySample] {
        var result: [UUID: QuantitySample] = [:]
        for type in store.quantityTypes {
            for sample in try store.execute(SampleQuery(quantityType: type)) { result[sample.uuid] = sample }
        }
        return result
    }

    static func temporaryDirectory() -> String {
        NSTemporaryDirectory() + "cadence-test-" + UUID().uuidString
    }

    @Test("Random samples saved in random batches read back exactly, across flushes, compaction and reopening",
          arguments: [UInt64(1), 2, 3])
    func roundTrip(seed: UInt64) throws {
        let path = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var options = HealthStore.Options()
        options.chunkCapacity = 300
        options.flushThreshold = 700
        let samples = try Self.randomSamples(count: 2_500, seed: seed)
        let expected = Dictionary(samples.map { ($0.uuid, $0) }, uniquingKeysWith: { first, _ in first })
        var store = try HealthStore.open(at: path, options: options)
        var random = TestRandom(seed: seed)
        var offset = 0
        while offset < samples.count {
            let size = Int.random(in: 1...400, using: &random)
            try store.save(Array(samples[offset..<min(samples.count, offset + size)]))
            offset += size
        }
        #expect(try Self.readAll(store) == expected)
        try store.close()
        store = try HealthStore.open(at: path, options: options)
        #expect(try Self.readAll(store) == expected)
        // Saving the same samples again is a no-op reported as duplicates.
        let again = try store.save(Array(samples.prefix(500)))
        #expect(again.saved == 0 && again.duplicates == 500)
        try store.compact()
        #expect(try Self.readAll(store) == expected)
        // Unflushed samples survive a reopen without close (replayed from the log).
        let extra = try Self.randomSamples(count: 50, seed: seed + 100).filter { expected[$0.uuid] == nil }
        try store.save(extra)
        store = try HealthStore.open(at: path, options: .readOnly)
        var all = expected
        for sample in extra { all[sample.uuid] = sample }
        #expect(try Self.readAll(store) == all)
    }

    @Test("A log truncated at every byte offset of its last record reopens with exactly the acknowledged records")
    func tornLogTail() throws {
        let fileSystem = MemoryFileSystem()
        let first = try Self.randomSamples(count: 20, seed: 7)
        let second = try Self.randomSamples(count: 5, seed: 8)
        var store: HealthStore? = try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: fileSystem)
        try store?.save(first)
        let logName = try #require(try fileSystem.contentsOfDirectory("/s").first { $0.hasSuffix(".log") })
        let afterFirst = try fileSystem.readFile("/s/" + logName)
        try store?.save(second)
        let full = try fileSystem.readFile("/s/" + logName)
        store = nil
        let firstSet = Set(first.map(\.uuid))
        for cut in afterFirst.count..<full.count {
            let copy = MemoryFileSystem()
            try copy.createDirectory("/s")
            for name in try fileSystem.contentsOfDirectory("/s") where name != "LOCK" {
                copy.overwrite("/s/" + name, with: try fileSystem.readFile("/s/" + name))
            }
            copy.overwrite("/s/" + logName, with: Array(full[0..<cut]))
            let reopened = try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: copy)
            #expect(Set(try Self.readAll(reopened).keys) == firstSet, "cut at \(cut)")
        }
    }

    @Test("A flipped byte in a chunk, the manifest or the middle of the log gives a typed error naming the file")
    func corruption() throws {
        let path = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try HealthStore.open(at: path)
        try store.save(try Self.randomSamples(count: 3_000, seed: 9))
        try store.close()
        let names = try FileManager.default.contentsOfDirectory(atPath: path)
        let chunk = try #require(names.first { $0.hasPrefix("chunk-") })
        let chunkPath = path + "/" + chunk
        let original = try #require(FileManager.default.contents(atPath: chunkPath))
        var random = TestRandom(seed: 3)
        // Three fixed places — inside the summary section (after the 8-byte magic, 2-byte version and
        // 8-byte frame), the middle (query columns) and the last byte (detail columns) — then 40 random ones.
        let fixed = [20, original.count / 2, original.count - 1]
        for attempt in 0..<(fixed.count + 40) {
            var damaged = [UInt8](original)
            let position = attempt < fixed.count ? fixed[attempt] : Int.random(in: 0..<damaged.count, using: &random)
            damaged[position] ^= UInt8.random(in: 1...255, using: &random)
            try Data(damaged).write(to: URL(fileURLWithPath: chunkPath))
            let reopened = try HealthStore.open(at: path, options: .readOnly)
            do {
                for type in reopened.quantityTypes {
                    _ = try reopened.execute(StatisticsQuery(quantityType: type, options: type.aggregationStyle.isDiscrete ? .discreteAverage : .cumulativeSum))
                    _ = try reopened.execute(SampleQuery(quantityType: type))
                }
                Issue.record("damage at byte \(position) went unnoticed")
            } catch let error as CadenceError {
                #expect(error.code == .corruptFile || error.code == .unsupportedFormatVersion)
                #expect(error.path == chunkPath)
            }
            #expect(reopened.verify().map(\.path) == [chunkPath])
        }
        try Data(original).write(to: URL(fileURLWithPath: chunkPath))
        let manifestPath = path + "/MANIFEST"
        var manifest = [UInt8](try #require(FileManager.default.contents(atPath: manifestPath)))
        manifest[manifest.count / 2] ^= 0x40
        try Data(manifest).write(to: URL(fileURLWithPath: manifestPath))
        #expect {
            _ = try HealthStore.open(at: path)
        } throws: { error in
            (error as? CadenceError)?.code == .corruptFile && (error as? CadenceError)?.path == manifestPath
        }
    }

    @Test("A second writer is refused; a read-only open works beside the writer")
    func writerLock() throws {
        let path = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try HealthStore.open(at: path)
        try writer.save(try Self.randomSamples(count: 10, seed: 1))
        #expect {
            _ = try HealthStore.open(at: path)
        } throws: { ($0 as? CadenceError)?.code == .storeLocked }
        let reader = try HealthStore.open(at: path, options: .readOnly)
        #expect(try Self.readAll(reader).count == 10)
        #expect(throws: CadenceError.self) { try reader.save(try Self.randomSamples(count: 1, seed: 2)) }
        try writer.close()
        _ = try HealthStore.open(at: path)
    }

    @Test("Deletes hide samples, survive reopening and compaction, and are reported to anchored queries in order")
    func deletesAndAnchors() throws {
        let path = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var store = try HealthStore.open(at: path)
        let samples = try Self.randomSamples(count: 400, seed: 5).filter { $0.quantityType == .stepCount }
        try store.save(samples)
        let doomed = Array(samples.prefix(10).map(\.uuid))
        #expect(try store.deleteSamples(withUUIDs: doomed) == 10)
        store = try HealthStore.open(at: path, options: .readOnly)
        let left = try store.execute(SampleQuery(quantityType: .stepCount))
        #expect(left.count == samples.count - 10 && Set(left.map(\.uuid)).isDisjoint(with: doomed))
        let changes = try store.execute(AnchoredObjectQuery(quantityType: .stepCount))
        #expect(changes.samples.count == samples.count - 10)
        #expect(changes.deletedObjects.map(\.uuid) == doomed)
    }

    @Test("An anchor from a later change than the store holds (a store restored from a backup) is refused")
    func anchorAhead() throws {
        let store = HealthStore.inMemory()
        try store.save(try Self.randomSamples(count: 20, seed: 6))
        let sequence = store.snapshot().lastSequence
        let ahead = QueryAnchor(storeIdentifier: store.identifier, sequence: sequence + 300)
        let error = #expect(throws: CadenceError.self) {
            _ = try store.execute(AnchoredObjectQuery(quantityType: .stepCount, anchor: ahead))
        }
        #expect(error?.code == .anchorAhead)
        let current = QueryAnchor(storeIdentifier: store.identifier, sequence: sequence)
        #expect(try store.execute(AnchoredObjectQuery(quantityType: .stepCount, anchor: current)).samples.isEmpty)
    }

    @Test("Anchored paging with limit k returns every change exactly once, in change order", arguments: [1, 3, 7, 50])
    func anchoredPaging(limit: Int) throws {
        let store = HealthStore.inMemory()
        var random = TestRandom(seed: UInt64(limit))
        var live: [UUID] = []
        var expected: [String] = []
        for _ in 0..<30 {
            if Bool.random(using: &random) || live.isEmpty {
                let batch = try (0..<Int.random(in: 1...5, using: &random)).map { _ in
                    try QuantitySample(type: .stepCount, value: Double(Int.random(in: 1...100, using: &random)),
                                       start: Date(timeIntervalSince1970: Double(Int.random(in: 0...1_000_000, using: &random))),
                                       end: Date(timeIntervalSince1970: 1_000_001), source: Source(name: "A"))
                }
                try store.save(batch)
                live += batch.map(\.uuid)
                expected += batch.map { "+\($0.uuid)" }
            } else {
                let victim = live.remove(at: Int.random(in: 0..<live.count, using: &random))
                try store.deleteSamples(withUUIDs: [victim])
                expected.removeAll { $0 == "+\(victim)" }
                expected.append("-\(victim)")
            }
        }
        var anchor: QueryAnchor?
        var seen: [String] = []
        var pages = 0
        repeat {
            let page = try store.execute(AnchoredObjectQuery(quantityType: .stepCount, anchor: anchor, limit: limit))
            #expect(page.samples.count + page.deletedObjects.count <= limit)
            // Within a page samples and deletions are listed apart; their union in change order is checked overall.
            seen += page.samples.map { "+\($0.uuid)" } + page.deletedObjects.map { "-\($0.uuid)" }
            anchor = page.anchor
            pages += 1
            if !page.hasMore { break }
        } while pages < 1_000
        #expect(Set(seen) == Set(expected) && seen.count == expected.count)
        let again = try store.execute(AnchoredObjectQuery(quantityType: .stepCount, anchor: anchor))
        #expect(again.samples.isEmpty && again.deletedObjects.isEmpty)
    }

    @Test("Anchored pages of workouts across chunks are the unlimited query's workouts, whole, a page at a time",
          arguments: [1, 9, 100])
    func anchoredWorkoutPages(limit: Int) throws {
        var random = TestRandom(seed: UInt64(limit) + 40)
        var options = HealthStore.Options()
        options.chunkCapacity = 25
        let store = try HealthStore.open(at: "/s", options: options, fileSystem: MemoryFileSystem())
        var saved: [Workout] = []
        for round in 0..<4 {
            let batch = try PayloadSectionTests.randomWorkouts(&random, count: 30, maxPoints: 3)
            try store.save(batch)
            saved += batch
            try store.deleteSamples(withUUIDs: [saved[round * 7].uuid])
            if round < 3 { try store.flush() }
        }
        let whole = try store.execute(AnchoredObjectQuery(workoutsMatching: .all))
        var samples: [Workout] = []
        var deleted: [UUID] = []
        var anchor: QueryAnchor?
        for _ in 0..<1_000 {
            let page = try store.execute(AnchoredObjectQuery(workoutsMatching: .all, anchor: anchor, limit: limit))
            #expect(page.samples.count + page.deletedObjects.count <= limit)
            #expect(!page.hasMore || page.samples.count + page.deletedObjects.count == limit)
            samples += page.samples
            deleted += page.deletedObjects.map(\.uuid)
            anchor = page.anchor
            if !page.hasMore { break }
        }
        #expect(samples == whole.samples)
        #expect(Set(deleted) == Set(whole.deletedObjects.map(\.uuid)) && deleted.count == whole.deletedObjects.count)
        #expect(anchor == whole.anchor)
    }
}
