//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// Encode → LZ4 → decode round trips of the column codec and the bit packer.
@Suite("Column codec")
struct ColumnCodecTests {
    @Test("Bit packing round-trips every width, including extremes", arguments: Array(0...64))
    func bitPacking(width: Int) throws {
        var random = TestRandom(seed: UInt64(width) + 1)
        for count in [0, 1, 7, 64, 1_000] {
            let values: [Int64] = (0..<count).map { _ in
                let bits = width == 64 ? random.next() : (width == 0 ? 0 : random.next() & ((1 << UInt64(width)) - 1))
                return Int64(bitPattern: bits) &- (width == 64 ? 0 : 12_345)
            }
            var writer = BinaryWriter()
            BitPacking.encode(values, into: &writer)
            var reader = BinaryReader(writer.bytes, path: "test")
            var decoded = [Int64](repeating: 0, count: count)
            try decoded.withUnsafeMutableBufferPointer { try BitPacking.decode(from: &reader, into: $0) }
            #expect(decoded == values)
            #expect(reader.isAtEnd)
        }
    }

    /// The value at `index` of a packed column, read bit by bit from the documented layout
    /// (minimum, width, then little-endian bits): the simple decoder the fast ones are checked against.
    static func simplyUnpacked(_ bytes: [UInt8], index: Int) -> Int64 {
        let minimum = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[$1]) << (8 * UInt64($1)) }
        let width = Int(bytes[8])
        var bits: UInt64 = 0
        for bit in 0..<width {
            let position = index * width + bit
            bits |= UInt64((bytes[9 + position / 8] >> UInt8(position % 8)) & 1) << UInt64(bit)
        }
        return Int64(bitPattern: minimum &+ bits)
    }

    @Test("The specialised unpacking agrees with the simple decoder at random widths and lengths",
          arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func packedColumnAgreesWithSimpleDecoder(seed: UInt64) throws {
        var random = TestRandom(seed: seed)
        for _ in 0..<40 {
            let width = Int.random(in: 0...64, using: &random)
            // Lengths around multiples of eight: the eight-at-a-time steps and every tail length.
            let count = Int.random(in: 0...9, using: &random) * 8 + Int.random(in: 0...7, using: &random)
            let minimum = Int64.random(in: -1_000_000...1_000_000, using: &random)
            let values: [Int64] = (0..<count).map { _ in
                let bits = width == 0 ? 0 : random.next() >> UInt64(64 - width)
                return minimum &+ Int64(bitPattern: bits)
            }
            var writer = BinaryWriter()
            BitPacking.encode(values, into: &writer)
            var reader = BinaryReader(writer.bytes, path: "test")
            let column = try PackedColumn(from: &reader, count: count)
            #expect(reader.isAtEnd)
            var unpacked = [Int64](repeating: 0, count: count)
            var visited: [Int] = []
            column.forEach { index, value in
                visited.append(index)
                unpacked[index] = value
            }
            #expect(visited == Array(0..<count))
            let simple = (0..<count).map { Self.simplyUnpacked(writer.bytes, index: $0) }
            #expect(unpacked == simple, "width \(width), \(count) values")
            #expect(unpacked == values)
            if count > 0 { #expect(column.value(at: 0) == values[0] && column.value(at: count - 1) == values[count - 1]) }
        }
    }

    @Test("Decoding blocks leaves a provenance column not asked for zero, a sequence column empty, and decodes the others alike",
          arguments: [UInt64(11), 12, 13])
    func decodingOnlyNeededColumns(seed: UInt64) throws {
        var columns = Self.randomColumns(count: 3_000, seed: seed).sortedByStart()
        // Flags in the first rows only: later blocks have none and must read as zero.
        columns.flags = (0..<columns.count).map { $0 < 40 && $0 % 3 == 0 ? SampleFlags.userEntered : 0 }
        let encoded = try ChunkFile.encode(columns, typeIdentifier: "HKQuantityTypeIdentifierHeartRate", style: .discreteArithmetic)
        let file = try ChunkFile(bytes: encoded.bytes, path: "test")
        let chosen = Array(file.blocks.indices.reversed())
        let rows = chosen.flatMap { file.blockRows[$0] }
        for needs: ColumnCodec.QueryColumnNeeds in [[], .provenance, .sequence, .all] {
            var decoded = SampleColumns()
            try file.decodeQueryBlocks(chosen, needs: needs, into: &decoded)
            #expect(decoded.start == rows.map { columns.start[$0] } && decoded.end == rows.map { columns.end[$0] })
            #expect(decoded.value.map(\.bitPattern) == rows.map { columns.value[$0].bitPattern })
            #expect(decoded.flags == rows.map { columns.flags[$0] })
            #expect(decoded.provenance == (needs.contains(.provenance) ? rows.map { columns.provenance[$0] }
                                                                         : [UInt32](repeating: 0, count: rows.count)))
            #expect(decoded.sequence == (needs.contains(.sequence) ? rows.map { columns.sequence[$0] } : []))
        }
    }

    /// A scan decodes chunk after chunk into the same columns' buffers: what a decode leaves
    /// must not depend on what they held, larger or smaller, with or without flags and sequences.
    @Test("Decoding into columns that held an earlier decode gives what decoding into fresh ones gives",
          arguments: [UInt64(14), 15])
    func decodingIntoReusedColumns(seed: UInt64) throws {
        var columns = Self.randomColumns(count: 3_000, seed: seed).sortedByStart()
        columns.flags = (0..<columns.count).map { $0 < 40 && $0 % 3 == 0 ? SampleFlags.userEntered : 0 }
        let encoded = try ChunkFile.encode(columns, typeIdentifier: "HKQuantityTypeIdentifierHeartRate", style: .discreteArithmetic)
        let file = try ChunkFile(bytes: encoded.bytes, path: "test")
        let subsets = [Array(file.blocks.indices), Array(file.blocks.indices.suffix(2)), [0], Array(file.blocks.indices.reversed())]
        let needsList: [ColumnCodec.QueryColumnNeeds] = [.all, [], .provenance, .sequence]
        var reused = SampleColumns()
        for (step, subset) in (subsets + subsets.reversed()).enumerated() {
            let needs = needsList[step % needsList.count]
            var fresh = SampleColumns()
            try file.decodeQueryBlocks(subset, needs: needs, into: &fresh)
            var target = SampleColumns()
            target.takeQueryBuffers(from: &reused)
            try file.decodeQueryBlocks(subset, needs: needs, into: &target)
            #expect(target.start == fresh.start && target.end == fresh.end && target.flags == fresh.flags, "step \(step)")
            #expect(target.value.map(\.bitPattern) == fresh.value.map(\.bitPattern), "step \(step)")
            #expect(target.provenance == fresh.provenance && target.sequence == fresh.sequence, "step \(step)")
            reused.takeQueryBuffers(from: &target)
        }
    }

    @Test("A regular block (equal steps of start, sequence and value) packs every column in zero bits")
    func regularBlockPacksInZeroBits() throws {
        var columns = SampleColumns()
        for row in 0..<720 {
            let start = 1_700_000_000_000_000 + Int64(row) * 5_000_000
            columns.append(start: start, end: start, value: 60 + Double(row), provenance: 0, sequence: 100 + Int64(row))
        }
        let block = ColumnCodec.encodeQueryBlock(columns, rows: 0..<720)
        // Headers only: scale, first start, four constant packed columns, value digits, first
        // value and its packed steps, first sequence and its packed steps, the flags byte.
        #expect(block.count <= 1 + 8 + 9 * 4 + 1 + 8 + 9 + 8 + 9 + 1, "\(block.count) bytes")
        var decoded = SampleColumns()
        try ColumnCodec.decodeQueryBlocks([(0, BinaryReader(block, path: "test"), 720)], into: &decoded)
        #expect(decoded.start == columns.start && decoded.value == columns.value && decoded.sequence == columns.sequence)
    }

    static func randomColumns(count: Int, seed: UInt64) -> SampleColumns {
        var random = TestRandom(seed: seed)
        var columns = SampleColumns()
        var start: Int64 = 1_700_000_000_000_000
        let valueKinds = Int.random(in: 0..<4, using: &random)
        for row in 0..<count {
            start += [0, 5_000_000, Int64.random(in: 0...3_600_000_000, using: &random), Int64.random(in: 0...999, using: &random)][Int.random(in: 0..<4, using: &random)]
            let length: Int64 = [0, 60_000_000, Int64.random(in: 0...86_400_000_000, using: &random)][Int.random(in: 0..<3, using: &random)]
            let value: Double
            switch valueKinds {
            case 0: value = Double(Int.random(in: 40...200, using: &random))
            case 1: value = Double(Int.random(in: 0...100_000, using: &random)) / 1_000
            case 2: value = Double.random(in: -1e12...1e12, using: &random)
            default: value = [0.0, -0.0, .greatestFiniteMagnitude, -.leastNonzeroMagnitude, 1e-300][row % 5]
            }
            columns.append(start: start, end: start + length, value: value, provenance: UInt32.random(in: 0...3, using: &random),
                           sequence: Int64(row) * 3 + Int64.random(in: 0...2, using: &random),
                           flags: row % 17 == 0 ? SampleFlags.userEntered : 0,
                           uuid: row % 5 == 0 ? UUID() : nil,
                           creation: row % 3 == 0 ? start + 7 : nil,
                           metadata: row % 4 == 0 ? ["k": "\(row % 8)"] : [:])
        }
        return columns
    }

    @Test("Query and detail columns round-trip through a chunk file; any block subset decodes alike",
          arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func chunkRoundTrip(seed: UInt64) throws {
        let columns = Self.randomColumns(count: Int(seed) * 900 + 13, seed: seed).sortedByStart()
        let encoded = try ChunkFile.encode(columns, typeIdentifier: "HKQuantityTypeIdentifierStepCount", style: .cumulative)
        let file = try ChunkFile(bytes: encoded.bytes, path: "test")
        let decoded = try file.decodeAllColumns()
        #expect(decoded.start == columns.start && decoded.end == columns.end && decoded.sequence == columns.sequence)
        #expect(decoded.value.map(\.bitPattern) == columns.value.map(\.bitPattern))
        #expect(decoded.provenance == columns.provenance && decoded.flags == columns.flags)
        #expect(decoded.explicitUUIDs == columns.explicitUUIDs && decoded.creation == columns.creation)
        #expect((0..<columns.count).allSatisfy { decoded.metadata(at: $0) == columns.metadata(at: $0) })
        let blockCount = file.blocks.count
        let chosen = (0..<blockCount).filter { $0 % 2 == 1 } + [0]
        var partial = SampleColumns()
        try file.decodeQueryBlocks(chosen, into: &partial)
        let expectedRows = chosen.flatMap { file.blockRows[$0] }
        #expect(file.blockRows.map(\.count).reduce(0, +) == columns.count)
        #expect(partial.start == expectedRows.map { columns.start[$0] })
        #expect(partial.value.map(\.bitPattern) == expectedRows.map { columns.value[$0].bitPattern })
    }
}
