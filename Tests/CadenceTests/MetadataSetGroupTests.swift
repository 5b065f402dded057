//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// Version 7 chunk files keep their metadata sets apart, in groups compressed on their own: any
/// rows' metadata decodes as a whole-chunk decode gives it; damage to a group is found and named
/// (verify finds it, repair drops its chunk); a version 6 file (sets inside the detail section)
/// still reads the same and is rewritten as the version 7 file; and a listing of a few workouts
/// equals the naive filter of the full listing.
@Suite("Metadata set groups")
struct MetadataSetGroupTests {
    /// `count` rows, most with a metadata set of their own of a few hundred bytes (as a workout's
    /// attributes are), so that the sets fill several groups.
    static func columnsWithManySets(count: Int, seed: UInt64) -> SampleColumns {
        var random = TestRandom(seed: seed)
        var columns = SampleColumns()
        var start: Int64 = 1_700_000_000_000_000
        for row in 0..<count {
            start += Int64.random(in: 0...7_200_000_000, using: &random)
            let filler = String(repeating: "abcdefghij", count: Int.random(in: 1...60, using: &random))
            let metadata: [String: String] = row % 7 == 3 ? [:]
                : row % 5 == 0 ? ["shared": "yes"] : ["row": "\(row)", "filler": filler, "seed": "\(seed)"]
            columns.append(start: start, end: start + 1_800_000_000, value: Double(row), provenance: 0,
                           sequence: Int64(row) + 1, flags: 0, uuid: UUID(), creation: nil, metadata: metadata)
        }
        return columns
    }

    /// The same chunk in version 6, whose detail section holds the metadata sets itself.
    static func versionSixChunk(_ bytes: [UInt8]) throws -> [UInt8] {
        let layout = try ChunkBlockTests.Layout(bytes)
        let columns = try ChunkFile(bytes: bytes, path: "v7").decodeAllColumns()
        var writer = BinaryWriter()
        writer.write(bytes: Array(bytes[0..<8]))
        writer.write(UInt16(6))
        writer.write(bytes: Array(bytes[10..<layout.detail.lowerBound]))
        try ChecksummedSection.writeCompressed(ColumnCodec.encodeDetailColumns(columns), into: &writer)
        writer.write(bytes: Array(bytes[layout.metadataSets.upperBound...]))
        return writer.bytes
    }

    @Test("Any rows' metadata decodes as the whole chunk's; the others' reads as empty", arguments: [UInt64(1), 2, 3, 4])
    func selectedRowsDecodeAlike(seed: UInt64) throws {
        let columns = Self.columnsWithManySets(count: 700 + Int(seed) * 300, seed: seed).sortedByStart()
        let bytes = try ChunkFile.encode(columns, typeIdentifier: Workout.typeIdentifier, style: .discreteArithmetic).bytes
        try #require(try ChunkBlockTests.Layout(bytes).metadataSetGroupLengths.count > 3)
        let file = try ChunkFile(bytes: bytes, path: "chunk")
        let whole = try file.decodeAllColumns()
        #expect((0..<columns.count).allSatisfy { whole.metadata(at: $0) == columns.metadata(at: $0) })
        var random = TestRandom(seed: seed)
        for _ in 0..<6 {
            let first = Int.random(in: 0..<columns.count, using: &random)
            let rows = Array(first..<min(columns.count, first + Int.random(in: 1...80, using: &random)))
            let chosen = Set(rows)
            let partial = try file.decodeAllColumns { _ in rows }
            #expect(rows.allSatisfy { partial.metadata(at: $0) == columns.metadata(at: $0) })
            // Other rows read as empty, or whole where their set shares a group with a chosen row's.
            let others = (0..<columns.count).filter { !chosen.contains($0) }
            #expect(others.allSatisfy { partial.metadata(at: $0).isEmpty || partial.metadata(at: $0) == columns.metadata(at: $0) })
            #expect(others.contains { partial.metadata(at: $0).isEmpty && !columns.metadata(at: $0).isEmpty },
                    "some group was left undecoded")
        }
    }

    @Test("A flipped byte in a metadata set group is a corrupt-file error naming the group, every time it is read")
    func damagedGroupIsFound() throws {
        let columns = Self.columnsWithManySets(count: 1_500, seed: 9).sortedByStart()
        var bytes = try ChunkFile.encode(columns, typeIdentifier: Workout.typeIdentifier, style: .discreteArithmetic).bytes
        let layout = try ChunkBlockTests.Layout(bytes)
        bytes[layout.metadataSets.upperBound - 10] ^= 0x40
        let file = try ChunkFile(bytes: bytes, path: "damaged")
        for _ in 0..<2 {
            expectCadenceError(.corruptFile) { _ = try file.decodeAllColumns() }
        }
        #expect(throws: CadenceError.self) { try file.verify() }
        // Rows whose sets lie in an intact group still read.
        let early = try file.decodeAllColumns { _ in [0, 1, 2] }
        #expect((0..<3).allSatisfy { early.metadata(at: $0) == columns.metadata(at: $0) })
    }

    @Test("A store's damaged metadata set group is found by verify, fails the listing that reads it, and repair drops its chunk")
    func damagedGroupInStore() throws {
        var random = TestRandom(seed: 23)
        let memory = MemoryFileSystem()
        var options = HealthStore.Options()
        options.chunkCapacity = 200
        let workouts = try PayloadSectionTests.randomWorkouts(&random, count: 500, maxPoints: 2)
        do {
            let store = try HealthStore.open(at: "/s", options: options, fileSystem: memory)
            try store.save(workouts)
            try store.flush()
        }
        let chunk = try ChunkBlockTests.damageLargestChunk(of: "/s", in: memory) { layout in
            try #require(!layout.metadataSetGroupLengths.isEmpty)
            return layout.metadataSets.upperBound - 1
        }
        let reopened = try HealthStore.open(at: "/s", options: .readOnly, fileSystem: memory)
        #expect(reopened.verify().map(\.path) == [chunk.path])
        let error = expectCadenceError(.corruptFile) { _ = try reopened.execute(SampleQuery(workoutsMatching: .all)) }
        #expect(error?.path == chunk.path)
        let repaired = try ChunkBlockTests.repairDropping(chunk, of: "/s", in: memory)
        #expect(try repaired.execute(SampleQuery(workoutsMatching: .all)).count == workouts.count - chunk.summary.count)
    }

    @Test("A version 6 chunk file reads as its version 7 rewrite")
    func versionSixReads() throws {
        let columns = Self.columnsWithManySets(count: 900, seed: 4).sortedByStart()
        let bytes = try ChunkFile.encode(columns, typeIdentifier: Workout.typeIdentifier, style: .discreteArithmetic).bytes
        let old = try ChunkFile(bytes: try Self.versionSixChunk(bytes), path: "v6")
        #expect(old.version == 6)
        let decoded = try old.decodeAllColumns()
        #expect((0..<columns.count).allSatisfy { decoded.metadata(at: $0) == columns.metadata(at: $0) })
        let some = try old.decodeAllColumns { _ in [5, 400] }
        #expect(some.metadata(at: 400) == columns.metadata(at: 400) && some.metadata(at: 5) == columns.metadata(at: 5))
        try old.verify()
    }

    @Test("A version 6 chunk file rewritten as an upgrade rewrites it is the version 7 file, byte for byte")
    func versionSixRewrites() throws {
        var random = TestRandom(seed: 17)
        let workouts = try PayloadSectionTests.randomWorkouts(&random, count: 150, maxPoints: 20)
        var batch = QuantitySampleBatch(type: .series(Workout.typeIdentifier))
        for workout in workouts { try batch.append(workout) }
        let columns = batch.columns.sortedByStart()
        let current = try ChunkFile.encode(columns, typeIdentifier: Workout.typeIdentifier, style: .discreteArithmetic)
        let old = try ChunkFile(bytes: try Self.versionSixChunk(current.bytes), path: "v6")
        let rewritten = try ChunkFile.encode(old.decodeForRewriting(), typeIdentifier: Workout.typeIdentifier,
                                             style: .discreteArithmetic)
        #expect(rewritten.bytes == current.bytes && rewritten.summary == current.summary)
    }

    @Test("Workouts of any window are the full listing's workouts in that window", arguments: [UInt64(1), 2, 3])
    func windowListingMatchesFilter(seed: UInt64) throws {
        var random = TestRandom(seed: seed)
        var options = HealthStore.Options()
        options.chunkCapacity = 40 + Int(seed) * 30
        let store = try HealthStore.open(at: "/s", options: options, fileSystem: MemoryFileSystem())
        try store.save(try PayloadSectionTests.randomWorkouts(&random, count: 300, maxPoints: 5))
        try store.flush()
        let all = try store.execute(SampleQuery(workoutsMatching: .all))
        let (first, last) = (all.map(\.startDate).min() ?? Date(), all.map(\.endDate).max() ?? Date())
        for _ in 0..<8 {
            let span = last.timeIntervalSince(first)
            let start = first.addingTimeInterval((Double.random(in: -0.05...1, using: &random) * span).rounded())
            let end = start.addingTimeInterval((Double.random(in: 0...0.2, using: &random) * span).rounded())
            let window = try store.execute(SampleQuery(workoutsMatching: .samples(start: start, end: end)))
            let naive = all.filter { $0.endDate >= start && $0.startDate < end }
            #expect(Set(window.map(\.uuid)) == Set(naive.map(\.uuid)))
            let byUUID = Dictionary(uniqueKeysWithValues: all.map { ($0.uuid, $0) })
            #expect(window.allSatisfy { byUUID[$0.uuid] == $0 })
        }
    }
}
