//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// One test for every input the fuzzer (Fuzz/README.md) found that crashed, hung or exhausted
/// memory: each must now end in a ``CadenceError``, never a trap.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    /// Runs `body`, expecting a ``CadenceError`` with `code`.
    @discardableResult
    func expectCadenceError(_ code: CadenceError.Code, _ body: () throws -> Void) -> CadenceError? {
        do {
            try body()
            Issue.record("no error thrown")
            return nil
        } catch let error as CadenceError {
            #expect(error.code == code, "\(error)")
            return error
        } catch {
            Issue.record("not a CadenceError: \(error)")
            return nil
        }
    }

    /// Decodes a raw query and detail section as the fuzzer's chunk mode 2 does:
    /// `varint count · varint length · query columns · detail columns`.
    func decodeRawColumns(_ body: [UInt8]) throws -> SampleColumns {
        var reader = BinaryReader(body, path: "fuzz")
        let count = Int(clamping: try reader.readVarint())
        let query = Array(try reader.readBlock())
        let detail = Array(try reader.readBytes(reader.remaining))
        var columns = SampleColumns()
        var queryReader = BinaryReader(query, path: "fuzz")
        try ColumnCodec.decodeQueryColumns(&queryReader, count: count, into: &columns)
        var detailReader = BinaryReader(detail, path: "fuzz")
        try ColumnCodec.decodeDetailColumns(&detailReader, into: &columns)
        return columns
    }

    /// One encoded query block of `rows` rows whose every duration is `duration` (in µs) and
    /// whose first start is `firstStart`.
    func queryBlock(rows: Int, firstStart: Int64, duration: Int64) -> [UInt8] {
        var block = BinaryWriter()
        block.writeVarint(1)  // time scale: 1 µs
        block.write(firstStart)
        block.write(Int64(0)); block.write(UInt8(0))  // start differences: all 0
        block.write(duration); block.write(UInt8(0))  // durations: all `duration`
        block.write(UInt8(0)); block.write(Int64(0)); block.write(Int64(0)); block.write(UInt8(0))  // values: 0
        block.write(Int64(0)); block.write(UInt8(0))  // provenances: 0
        block.write(Int64(0))  // first sequence
        block.write(Int64(0)); block.write(UInt8(0))  // sequence differences: 0
        block.write(false)  // no flags
        var section = BinaryWriter()
        section.writeVarint(1)
        section.writeVarint(UInt64(rows))
        section.writeVarint(UInt64(block.count))
        section.write(bytes: block.bytes)
        return section.bytes
    }

    // MARK: Chunk decoder

    /// Crash 1 (chunk target, mode 2): a bit-packed duration column whose values overflow when
    /// added to the start decoded into rows that end before they start; re-encoding them
    /// (a flush or compaction) trapped on `end - start` in `SampleSummary`.
    @Test("Durations that overflow or are negative are corruption, not rows ending before they start")
    func durationOverflow() throws {
        // The fuzzer's input, without its mode byte.
        let input: [UInt8] = [
            0x18, 0x98, 0x01, 0x01, 0x18, 0x94, 0x01, 0xC0, 0x84, 0x3D, 0x00, 0x20, 0xCB, 0xCF, 0x49, 0x13,
            0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2A, 0x00, 0x00, 0x06, 0x00, 0xCF, 0xF3, 0x3C, 0xCF,
            0xF3, 0x3C, 0xCF, 0xF3, 0x3C, 0xCF, 0xF3, 0x3C, 0xCF, 0xF3, 0x3C, 0xCF, 0xF3, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00,
            0x02, 0x00, 0x58, 0x00, 0x00, 0x00, 0x00, 0xE2, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x5D, 0xFF, 0x06,
            0xDE, 0x38, 0x8E, 0xE3, 0x38, 0x02, 0xE3, 0x38, 0x8E, 0xE3, 0x08, 0x8C, 0xE3, 0x38, 0x8E, 0x23,
            0x30, 0x8E, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x01, 0xAA, 0xAA, 0xAA, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x18, 0x94, 0x01, 0x01,
            0xFE, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00,
        ]
        expectCadenceError(.corruptFile) { _ = try decodeRawColumns(input) }
        // The same, made by hand: an end past Int64.max, and a negative duration.
        for (firstStart, duration) in [(Int64(1), Int64.max), (1_700_000_000_000_000, -1)] {
            let section = queryBlock(rows: 2, firstStart: firstStart, duration: duration)
            expectCadenceError(.corruptFile) {
                var reader = BinaryReader(section, path: "fuzz")
                var columns = SampleColumns()
                try ColumnCodec.decodeQueryColumns(&reader, count: 2, into: &columns)
            }
        }
        // A sane duration still decodes.
        var reader = BinaryReader(queryBlock(rows: 2, firstStart: 1_700_000_000_000_000, duration: 60_000_000), path: "fuzz")
        var columns = SampleColumns()
        try ColumnCodec.decodeQueryColumns(&reader, count: 2, into: &columns)
        #expect(columns.end == [1_700_000_060_000_000, 1_700_000_060_000_000])
    }

    /// Crash 2 (chunk target, mode 2): the explicit-UUID rows of the detail columns are stored as
    /// gaps; a gap near `Int.max` after a first row overflowed `row += gap` before the bounds check.
    @Test("A UUID row gap past the last row is corruption, not an overflow")
    func uuidRowGapOverflow() throws {
        // The fuzzer's input (minimized), without its mode byte.
        let input: [UInt8] = [
            0x09, 0xD7, 0x01, 0x01, 0x09, 0xD3, 0x01, 0x01, 0x00, 0x20, 0xCB, 0xCF, 0x49, 0x13, 0x06, 0x00,
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x15, 0x00, 0x00, 0xE0, 0xD0, 0x5A, 0x1E, 0x5A,
            0xCB, 0x43, 0x6B, 0x79, 0x68, 0x2D, 0x0F, 0xAD, 0xE5, 0xA1, 0xB5, 0x3C, 0xB4, 0x96, 0x87, 0xD6,
            0x12, 0x00, 0x01, 0x00, 0x7F, 0x65, 0x09, 0x2F, 0xFF, 0x18, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x0D, 0x00, 0x00, 0x7D, 0x40, 0x1F, 0xDC, 0x05, 0xFA, 0x10, 0x27, 0xDC, 0xC5, 0xDA, 0x40,
            0x1F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF, 0x00, 0x55, 0x00, 0x55, 0x55, 0xFE,
            0xAB, 0xAB, 0xFE, 0x00, 0x55, 0x00, 0x55, 0x55, 0xFF, 0xAA, 0xAA, 0xFF, 0x00, 0x55, 0x00, 0x55,
            0x55, 0xFF, 0xAA, 0xAA, 0xFF, 0x00, 0x55, 0x00, 0x55, 0x55, 0xFF, 0xAA, 0xAA, 0xFF, 0x00, 0x55,
            0x00, 0x55, 0x55, 0xFF, 0xAA, 0xAA, 0xFF, 0x00, 0x55, 0x00, 0x55, 0x55, 0xFF, 0xAA, 0xAA, 0xFF,
            0x00, 0xD5, 0x30, 0x15, 0x05, 0x0F, 0xFA, 0x02, 0x07, 0x40, 0x3F, 0x00, 0x00, 0x00, 0x00, 0x7F,
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0A, 0x00, 0x55, 0x6E, 0x73,
            0x61, 0x66, 0x65, 0x52, 0x61, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0xFE, 0x01, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
            0x00, 0x49, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x00, 0x22, 0x42, 0x11, 0x11,
            0x4B, 0x3E, 0x1C, 0x7A, 0x60, 0x66, 0x55, 0x55, 0x44, 0x94, 0x33, 0x83, 0x02, 0x22, 0x42, 0x11,
            0x11, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
            0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0xC3, 0xA9, 0x02, 0xC3, 0xBC, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00, 0x02, 0x41, 0x12, 0x5D, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0xA9, 0x02, 0xC3, 0xBC, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x41, 0x12, 0x5D,
        ]
        expectCadenceError(.corruptFile) { _ = try decodeRawColumns(input) }
        // Made by hand: three rows; UUIDs at row 1 and at row 1 + (2^64 - 1).
        var detail = BinaryWriter()
        detail.writeVarint(2)
        detail.writeVarint(1)
        detail.write(UInt64(1)); detail.write(UInt64(2))
        detail.writeVarint(UInt64.max)
        detail.write(UInt64(3)); detail.write(UInt64(4))
        detail.write(false)
        detail.writeVarint(0)
        var columns = SampleColumns()
        for row in 0..<3 { columns.append(start: Int64(row), end: Int64(row), value: 0, provenance: 0) }
        expectCadenceError(.corruptFile) {
            var reader = BinaryReader(detail.bytes, path: "fuzz")
            try ColumnCodec.decodeDetailColumns(&reader, into: &columns)
        }
    }

    /// The same damage reaching a store through its log: a record whose (checksummed) columns
    /// hold a sample ending before it starts, far enough apart that `end - start` overflows.
    /// Opening the store replayed it, and the flush trapped.
    @Test("A log record with a sample ending before it starts fails the open, naming the log")
    func logRecordWithInvertedSample() throws {
        var columns = SampleColumns()
        columns.append(start: 1 << 62, end: -(1 << 62) - 10, value: 1, provenance: 0, sequence: 1)
        let type = try QuantityType("HKQuantityTypeIdentifierStepCount")
        let entry = LogEntry.save(newProvenances: [(0, Provenance(source: Source(name: "fuzz")))],
                                  batches: [(type, columns)])
        let fileSystem = MemoryFileSystem()
        try fileSystem.createDirectory("/store")
        try fileSystem.writeFile("/store/" + Manifest.fileName, Manifest(storeIdentifier: UUID()).encode())
        try fileSystem.writeFile("/store/" + WriteAheadLog.segmentName(1), try WriteAheadLog.record(entry))
        let error = expectCadenceError(.corruptFile) {
            let store = try HealthStore.open(at: "/store", options: HealthStore.Options(), fileSystem: fileSystem)
            try store.flush()
        }
        #expect(error?.path == "/store/" + WriteAheadLog.segmentName(1))
    }

    /// OOM 1 (wal target): the uncompressed length in front of a compressed section is outside
    /// the checksum; a damaged one made the reader allocate up to 2 GiB before LZ4 failed.
    @Test("An LZ4 section claiming more than its bytes can expand to is refused before allocating")
    func lz4ClaimedLength() throws {
        var columns = SampleColumns()
        for row in 0..<10 { columns.append(start: Int64(row) * 1_000_000, end: Int64(row) * 1_000_000, value: 1, provenance: 0) }
        let current = try ChunkFile.encode(columns, typeIdentifier: "HKQuantityTypeIdentifierStepCount", style: .cumulative).bytes
        // Version 5: the detail section starts with its uncompressed length (the query blocks'
        // lengths are inside the checksummed block directory). Version 4: the query section,
        // right after the summary section, does.
        let versionFour = try ChunkBlockTests.versionFourChunk(columns, typeIdentifier: "HKQuantityTypeIdentifierStepCount",
                                                               style: .cumulative)
        let layout = try ChunkBlockTests.Layout(current)
        for (original, rawLength) in [(current, layout.detail.lowerBound), (versionFour, layout.summary.upperBound)] {
            #expect(try ChunkFile(bytes: original, path: "chunk").decodeAllColumns().count == 10)
            var bytes = original
            bytes.replaceSubrange(rawLength..<rawLength + 4, with: [0xFF, 0xFF, 0xFF, 0x7F])
            let damaged = try ChunkFile(bytes: bytes, path: "chunk")
            let error = expectCadenceError(.corruptFile) { _ = try damaged.decodeAllColumns() }
            #expect(error?.message.contains("claims 2147483647 bytes") == true, "\(String(describing: error))")
            #expect(error?.path == "chunk")
        }
    }

    // MARK: GPX reader

    /// Crash 3 (gpx target, tight limits): a tag with an unclosed quote ran to the end of the file.
    /// Fed whole, the reader called the file truncated; fed in pieces, the growing tag passed the
    /// token limit first and was hostile. The limit now applies to complete and incomplete tokens
    /// alike, so both readings agree.
    @Test("An oversized tag is hostile however the file is cut")
    func gpxOversizedTagWholeOrInPieces() throws {
        // The fuzzer's input, without its selector byte.
        let input: [UInt8] = [
            0x3C, 0x3F, 0x78, 0x6D, 0x6C, 0x20, 0x76, 0x65, 0x72, 0x73, 0x69, 0x6F, 0x6E, 0x3D, 0x22, 0x30,
            0x2E, 0x30, 0x22, 0x20, 0x65, 0x20, 0x65, 0x6E, 0x63, 0x6F, 0x64, 0x69, 0x6E, 0x67, 0x3D, 0x22,
            0x55, 0x54, 0x46, 0x2D, 0x38, 0x22, 0x3F, 0x3E, 0x0A, 0x3C, 0x67, 0x70, 0x78, 0x20, 0x76, 0x65,
            0x72, 0x73, 0x69, 0x6F, 0x6E, 0x3D, 0x22, 0x31, 0x2E, 0x31, 0x22, 0x20, 0x63, 0x72, 0x65, 0x61,
            0x74, 0x6F, 0x72, 0x3D, 0xAB, 0x41, 0x70, 0x70, 0x6C, 0x65, 0x20, 0x48, 0x65, 0x61, 0x6C, 0x74,
            0x68, 0x20, 0x45, 0x78, 0x70, 0x6F, 0x72, 0x74, 0x22, 0x20, 0x78, 0x6D, 0x6C, 0x6E, 0x73, 0x3D,
            0x22, 0x68, 0x74, 0x74, 0x70, 0x3A, 0x2F, 0x2F, 0x77, 0x77, 0x77, 0x2E, 0x74, 0x6F, 0x70, 0x6F,
            0x67, 0x72, 0x61, 0x66, 0x69, 0x78, 0x2E, 0x63, 0x6F, 0x6D, 0x2F, 0x47, 0x50, 0x58, 0x2F, 0x31,
            0x2F, 0x31, 0x22, 0x3E, 0x0A, 0x20, 0x3C, 0x6D, 0x65, 0x74, 0x61, 0x65, 0x3E, 0x38, 0x31, 0x2E,
            0x35, 0x3C, 0x2F, 0x63, 0x6F, 0x75, 0x72, 0x73, 0x65, 0x3E, 0x3C, 0x68, 0x41, 0x63, 0x63, 0x3E,
            0x33, 0x2E, 0x31, 0x3C, 0x2F, 0x68, 0x41, 0x63, 0x63, 0x3E, 0x3C, 0x76, 0x41, 0x63, 0x63, 0x3E,
            0x32, 0x2E, 0x30, 0x3C, 0x2F, 0x76, 0x41, 0x63, 0x63, 0x3E, 0x3C, 0x2F, 0x65, 0x78, 0x74, 0x65,
            0x6E, 0x73, 0x69, 0x6F, 0x6E, 0x73, 0x3E, 0x3C, 0x2F, 0x74, 0x72, 0x6B, 0x70, 0x74, 0x3E, 0x0A,
            0x20, 0x20, 0x3C, 0x74, 0x72, 0x6B, 0x70, 0x74, 0x20, 0x6C, 0x6F, 0x6E, 0x3D, 0x22, 0x38, 0x2E,
            0x35, 0x34, 0x30, 0x31, 0x30, 0x30, 0x22, 0x20, 0x6C, 0x61, 0x36, 0x27, 0x3E, 0x3C, 0x65, 0x6C,
            0x65, 0x3E, 0x3C, 0x21, 0x5B, 0x43, 0x04, 0x41, 0x54, 0x41, 0x5B, 0x20, 0x34, 0x30, 0x39, 0x69,
            0x6E, 0x67, 0x3D, 0x22, 0x55, 0x54, 0x46, 0x2D, 0x38, 0x22, 0x3F, 0x3E, 0x0A, 0x3C, 0x67, 0x70,
            0x78, 0x20, 0x76, 0x65, 0x72, 0x73, 0x3C, 0x69, 0x6F, 0x6E, 0x1D, 0x22, 0x31, 0x2E, 0x31, 0x22,
            0x20, 0x63, 0x72, 0x65, 0x61, 0x74, 0x6F, 0x72, 0x3D, 0x22, 0x41, 0x70, 0x70, 0x6C, 0x65, 0x20,
            0x48, 0x65, 0x61, 0x6C, 0x74, 0x68, 0x20, 0x45, 0x78, 0x70, 0x6F, 0x72, 0x74, 0x22, 0x20, 0x78,
            0x6D, 0x6C, 0x31, 0x22, 0x3E, 0x0A, 0x20, 0x3C, 0x6D, 0x65, 0x74, 0x61, 0x64, 0x61, 0x74, 0x6E,
            0x61, 0x73,
        ]
        let limits = GPXReader.Limits(maxPoints: 3, maxTokenBytes: 0, maxMarkupBytes: 0, maxDepth: 4, maxReportedIssues: 1)
        let whole = GPXReaderTests.read(input, blockSize: input.count, limits: limits)
        for blockSize in [1, 2, 3, 5, 8, 13, 64] {
            let pieces = GPXReaderTests.read(input, blockSize: blockSize, limits: limits)
            #expect(pieces.error == whole.error, "block size \(blockSize)")
            #expect(pieces.locations == whole.locations)
        }
        #expect(whole.error?.code == .hostileInput)
    }

    /// Crash 4 (gpx target, tight limits): a field's text over the token limit with line breaks in
    /// it was reported at the line reached when the limit was passed, which depends on where the
    /// blocks end. It is now reported at the line of the field's start tag.
    @Test("An oversized text value is reported at the same line however the file is cut")
    func gpxOversizedTextLine() throws {
        let input = Array(("<gpx>\n<trkpt lat=\"47\" lon=\"8\"><ele>408.2" + String(repeating: "\n1", count: 200)
            + "</ele></trkpt></gpx>").utf8)
        let limits = GPXReader.Limits(maxPoints: 3, maxTokenBytes: 0, maxMarkupBytes: 0, maxDepth: 4, maxReportedIssues: 1)
        let whole = GPXReaderTests.read(input, blockSize: input.count, limits: limits)
        #expect(whole.error?.code == .hostileInput)
        #expect(whole.error?.line == 2, "\(String(describing: whole.error))")
        for blockSize in [1, 7, 64, 300] {
            let pieces = GPXReaderTests.read(input, blockSize: blockSize, limits: limits)
            #expect(pieces.error == whole.error, "block size \(blockSize)")
        }
    }
}
