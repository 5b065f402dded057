//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// A chunk file's query block directory is written packed (version 6); the first layout, which
/// version 5 chunk files as first released hold, still reads the same, and damage to the packed
/// one is found on opening, naming the file.
@Suite("Query block directory layouts")
struct QueryDirectoryLayoutTests {
    /// `bytes`, a chunk file with a packed directory, with its directory written in the first layout
    /// (block count, then per group its encoded length too, then varint block lengths).
    static func firstLayout(_ bytes: [UInt8]) throws -> [UInt8] {
        let layout = try ChunkBlockTests.Layout(bytes)
        let blockCount = try ChunkFile(bytes: bytes, path: "chunk").blocks.count
        var reader = BinaryReader(Array(bytes[layout.directory.lowerBound + 8..<layout.directory.upperBound]), path: "directory")
        let listed = try QueryDirectoryLayout.read(&reader, blockCount: blockCount)
        var directory = BinaryWriter()
        directory.writeVarint(UInt64(blockCount))
        directory.writeVarint(UInt64(listed.groups.count))
        for group in listed.groups {
            directory.writeVarint(UInt64(group.storedLength))
            directory.writeVarint(UInt64(group.rawLength))
            directory.write(group.checksum)
            directory.writeVarint(UInt64(group.blockCount))
        }
        for length in listed.blockLengths { directory.writeVarint(UInt64(length)) }
        return try replacingDirectory(of: bytes, with: directory.bytes)
    }

    /// `bytes` with its directory's payload replaced (and checksummed anew).
    static func replacingDirectory(of bytes: [UInt8], with payload: [UInt8]) throws -> [UInt8] {
        let layout = try ChunkBlockTests.Layout(bytes)
        var writer = BinaryWriter()
        writer.write(bytes: Array(bytes[..<layout.directory.lowerBound]))
        ChecksummedSection.write(payload, into: &writer)
        writer.write(bytes: Array(bytes[layout.directory.upperBound...]))
        return writer.bytes
    }

    @Test("A chunk whose directory has the first layout reads every block and row as the packed one, which is smaller",
          arguments: [UInt64(1), 2, 3, 4, 5])
    func firstLayoutReadsTheSame(seed: UInt64) throws {
        var random = TestRandom(seed: seed &* 13)
        let columns = ColumnCodecTests.randomColumns(count: Int.random(in: 1...30_000, using: &random), seed: seed).sortedByStart()
        let packed = try ChunkBlockTests.encode(columns)
        let first = try Self.firstLayout(packed)
        let packedFile = try ChunkFile(bytes: packed, path: "packed")
        let firstFile = try ChunkFile(bytes: first, path: "first")
        #expect(first.count > packed.count)
        let fromPacked = try packedFile.decodeAllColumns()
        let fromFirst = try firstFile.decodeAllColumns()
        #expect(fromFirst.start == fromPacked.start && fromFirst.end == fromPacked.end && fromFirst.sequence == fromPacked.sequence)
        #expect(fromFirst.value.map(\.bitPattern) == fromPacked.value.map(\.bitPattern) && fromFirst.provenance == fromPacked.provenance)
        #expect(fromPacked.start == columns.start && fromPacked.value.map(\.bitPattern) == columns.value.map(\.bitPattern))
        for _ in 0..<8 {
            let chosen = (0..<Int.random(in: 1...5, using: &random)).map { _ in Int.random(in: 0..<packedFile.blocks.count, using: &random) }
            var a = SampleColumns()
            var b = SampleColumns()
            try packedFile.decodeQueryBlocks(chosen, into: &a)
            try firstFile.decodeQueryBlocks(chosen, into: &b)
            #expect(a.start == b.start && a.value.map(\.bitPattern) == b.value.map(\.bitPattern) && a.sequence == b.sequence,
                    "blocks \(chosen)")
        }
        try firstFile.verify()
    }

    @Test("Block lengths bit-packed in any width read back exactly", arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func packedLengthsRoundTrip(seed: UInt64) throws {
        var random = TestRandom(seed: seed)
        let count = Int.random(in: 1...300, using: &random)
        let spread = [0, 1, 7, 255, 70_000][Int(seed) % 5]
        let base = Int.random(in: 1...5_000, using: &random)
        let lengths = (0..<count).map { _ in base + Int.random(in: 0...spread, using: &random) }
        var groups: [(storedLength: Int, checksum: UInt32, blockCount: Int)] = []
        var left = count
        while left > 0 {
            let blocks = Int.random(in: 1...left, using: &random)
            groups.append((Int.random(in: 1...100, using: &random), UInt32.random(in: 0...UInt32.max, using: &random), blocks))
            left -= blocks
        }
        var writer = BinaryWriter()
        QueryDirectoryLayout.writePacked(groups: groups, blockLengths: lengths, into: &writer)
        var reader = BinaryReader(writer.bytes, path: "directory")
        let listed = try QueryDirectoryLayout.read(&reader, blockCount: count)
        #expect(listed.blockLengths == lengths)
        #expect(listed.groups.map(\.storedLength) == groups.map(\.storedLength))
        #expect(listed.groups.map(\.checksum) == groups.map(\.checksum))
        #expect(listed.groups.map(\.blockCount) == groups.map(\.blockCount))
        var block = 0
        for group in listed.groups {
            #expect(group.rawLength == lengths[block..<block + group.blockCount].reduce(0, +))
            block += group.blockCount
        }
    }

    @Test("Every flipped bit of a packed directory section fails opening the chunk, naming the file")
    func everyFlippedBit() throws {
        let bytes = try ChunkBlockTests.encode(ColumnCodecTests.randomColumns(count: 6_000, seed: 61).sortedByStart())
        let directory = try ChunkBlockTests.Layout(bytes).directory
        for bit in 0..<directory.count * 8 {
            var damaged = bytes
            damaged[directory.lowerBound + bit / 8] ^= 1 << UInt8(bit % 8)
            let error = expectCadenceError(.corruptFile) { _ = try ChunkFile(bytes: damaged, path: "chunk-damaged") }
            #expect(error?.path == "chunk-damaged", "bit \(bit)")
        }
    }

    @Test("A packed directory that passes its checksum but does not describe the groups fails opening")
    func inconsistentPackedDirectory() throws {
        let bytes = try ChunkBlockTests.encode(ColumnCodecTests.randomColumns(count: 6_000, seed: 62).sortedByStart())
        let layout = try ChunkBlockTests.Layout(bytes)
        let blockCount = try ChunkFile(bytes: bytes, path: "chunk").blocks.count
        var reader = BinaryReader(Array(bytes[layout.directory.lowerBound + 8..<layout.directory.upperBound]), path: "directory")
        let listed = try QueryDirectoryLayout.read(&reader, blockCount: blockCount)
        let groups = listed.groups.map { (storedLength: $0.storedLength, checksum: $0.checksum, blockCount: $0.blockCount) }
        func directory(_ groups: [(storedLength: Int, checksum: UInt32, blockCount: Int)], _ lengths: [Int],
                       trailing: [UInt8] = []) -> [UInt8] {
            var writer = BinaryWriter()
            QueryDirectoryLayout.writePacked(groups: groups, blockLengths: lengths, into: &writer)
            return writer.bytes + trailing
        }
        // Written again as it was, it reads.
        _ = try ChunkFile(bytes: Self.replacingDirectory(of: bytes, with: directory(groups, listed.blockLengths)), path: "chunk")
        var moreBlocks = groups
        moreBlocks[0].blockCount += 1
        var shorter = listed.blockLengths
        shorter[0] -= 1
        var empty = listed.blockLengths
        empty[empty.count - 1] = 0
        var longer = listed.blockLengths
        longer[0] += 1
        for damaged in [directory(moreBlocks, listed.blockLengths), directory(groups, shorter), directory(groups, empty),
                        directory(groups, listed.blockLengths, trailing: [0]), directory([], []),
                        directory(groups, longer)] {
            let chunk = try Self.replacingDirectory(of: bytes, with: damaged)
            // Lengths that still fit their group's stored bytes open, and fail decoding the group.
            let error = expectCadenceError(.corruptFile) {
                let file = try ChunkFile(bytes: chunk, path: "chunk-damaged")
                try file.verify()
            }
            #expect(error?.path == "chunk-damaged")
        }
    }
}
