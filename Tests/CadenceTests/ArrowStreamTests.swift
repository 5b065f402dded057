//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// The Arrow reader and writer: random batches survive a round trip as a stream and as a file,
/// files written by pyarrow and Polars read as they wrote them, and damaged or hostile bytes end in
/// a ``CadenceError``, never a crash.
@Suite("Arrow streams")
struct ArrowStreamTests {
    /// A batch of `count` random rows: text, float64, int32 and timestamp columns, with nulls.
    static func randomBatch(_ count: Int, random: inout SeededRandom) -> ArrowRecordBatch {
        func maybe<T>(_ value: T) -> T? { Int.random(in: 0..<5, using: &random) == 0 ? nil : value }
        let texts = (0..<count).map { _ in maybe(String(repeating: "é", count: Int.random(in: 0..<4, using: &random)) + "x") }
        let doubles = (0..<count).map { _ in maybe(Double.random(in: -1e6...1e6, using: &random)) }
        let stamps = (0..<count).map { _ in maybe(Int64.random(in: supportedTimestampRange, using: &random)) }
        let integers = (0..<count).map { _ in Int64(Int32.random(in: .min ... .max, using: &random)) }
        let columns = [
            ArrowColumn(name: "text", strings: texts),
            ArrowColumn(name: "double", doubles: doubles),
            ArrowColumn(name: "time", timestamps: stamps, zone: "Europe/Berlin"),
            ArrowColumn(field: ArrowField(name: "int", type: .int(bitWidth: 32, signed: true)), count: count,
                        validity: nil, values: .integers(integers)),
        ]
        return ArrowRecordBatch(schema: ArrowSchema(fields: columns.map(\.field)), count: count, columns: columns)
    }

    static func write(_ batches: [ArrowRecordBatch], schema: ArrowSchema, format: ArrowStreamWriter.Format) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var writer = try ArrowStreamWriter(schema: schema, format: format) { bytes += $0 }
        for batch in batches { try writer.write(batch) }
        try writer.finish()
        return bytes
    }

    static func readAll(_ bytes: [UInt8]) throws -> (ArrowSchema, [ArrowRecordBatch]) {
        var reader = try ArrowStreamReader(bytes: bytes, path: "test")
        var batches: [ArrowRecordBatch] = []
        while let batch = try reader.next() { batches.append(batch) }
        return (reader.schema, batches)
    }

    /// Every row of every column, as the reader's accessors give it.
    static func rows(_ batch: ArrowRecordBatch) -> [String] {
        (0..<batch.count).map { row in
            batch.columns.map { column in
                switch column.field.type {
                case .utf8: column.string(row) ?? "null"
                case .timestamp: column.timestamp(row).map { "\($0)" } ?? "null"
                default: column.double(row).map { "\($0)" } ?? "null"
                }
            }.joined(separator: "|")
        }
    }

    @Test(arguments: [ArrowStreamWriter.Format.stream, .file])
    func randomBatchesRoundTrip(format: ArrowStreamWriter.Format) throws {
        var random = SeededRandom(seed: 11)
        for _ in 0..<20 {
            // Zero to three batches, some empty.
            let batches = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                Self.randomBatch(Int.random(in: 0...40, using: &random), random: &random)
            }
            let schema = Self.randomBatch(0, random: &random).schema
            let (readSchema, read) = try Self.readAll(try Self.write(batches, schema: schema, format: format))
            #expect(readSchema == schema)
            #expect(read.map(Self.rows) == batches.map(Self.rows))
        }
    }

    /// Columns read as large_utf8 and float32 are written at their schema's widths (they were
    /// written as utf8 offsets and float64 values, which the schema contradicted).
    @Test func largeTextAndSingleFloatsRoundTrip() throws {
        let count = 5
        var strings = ArrowStrings()
        for index in 0..<count { strings.append("row \(index)") }
        let columns = [
            ArrowColumn(field: ArrowField(name: "text", type: .utf8(large: true)), count: count, validity: nil,
                        values: .strings(strings)),
            ArrowColumn(field: ArrowField(name: "float", type: .float(bitWidth: 32)), count: count, validity: nil,
                        values: .doubles([0.5, 1.25, -2, 1e10, 3])),
        ]
        let batch = ArrowRecordBatch(schema: ArrowSchema(fields: columns.map(\.field)), count: count, columns: columns)
        let (schema, read) = try Self.readAll(try Self.write([batch], schema: batch.schema, format: .stream))
        #expect(schema == batch.schema)
        #expect(read.map(Self.rows) == [Self.rows(batch)])
    }

    /// Every prefix of a stream and every one-byte change to it either reads or throws a
    /// CadenceError: none crashes, and no prefix reads more rows than the whole.
    @Test func damagedStreamsFailCleanly() throws {
        var random = SeededRandom(seed: 5)
        let batches = [Self.randomBatch(9, random: &random), Self.randomBatch(4, random: &random)]
        let bytes = try Self.write(batches, schema: batches[0].schema, format: .stream)
        for length in 0..<bytes.count {
            do {
                let (_, read) = try Self.readAll(Array(bytes.prefix(length)))
                #expect(read.reduce(0) { $0 + $1.count } <= 13)
            } catch is CadenceError {}
        }
        for _ in 0..<3000 {
            var damaged = bytes
            damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            do { _ = try Self.readAll(damaged) } catch is CadenceError {}
        }
    }

    /// A body length of a terabyte with no bytes behind it fails on the missing bytes, not on memory.
    @Test func claimedLengthsAllocateNothing() throws {
        var random = SeededRandom(seed: 3)
        let schema = Self.randomBatch(0, random: &random).schema
        let stream = try Self.write([], schema: schema, format: .stream).dropLast(8)
        let metadata = FlatBufferBuilder.buffer(root: .table([
            .int16(4), .uint8(3), .offset(.table([.int64(1)])), .int64(1 << 40),
        ]))
        let prefix: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, UInt8(metadata.count), 0, 0, 0]
        let error = #expect(throws: CadenceError.self) {
            var reader = try ArrowStreamReader(bytes: Array(stream) + prefix + metadata + [1, 2, 3], path: "claim")
            while try reader.next() != nil {}
        }
        #expect(error?.message.contains("the input ends after 3 of the body's 1099511627776 bytes") == true,
                "\(String(describing: error))")
    }

    @Test func emptyStreamHasItsSchemaAndNoBatch() throws {
        let schema = ArrowSchema(fields: [ArrowField(name: "user", type: .utf8(large: false))])
        let (read, batches) = try Self.readAll(try Self.write([], schema: schema, format: .stream))
        #expect(read == schema)
        #expect(batches.isEmpty)
        let error = #expect(throws: CadenceError.self) { _ = try ArrowStreamReader(bytes: [], path: "nothing") }
        #expect(error?.message == "the Arrow stream ends before its schema")
    }

    /// The schema's custom metadata reads back, as a stream and as a file; a schema without any
    /// is written as before, its table ending at its fields.
    @Test func schemaMetadataRoundTrips() throws {
        let fields = [ArrowField(name: "user", type: .utf8(large: false))]
        let schema = ArrowSchema(fields: fields, metadata: ["anchor": "5f0c:1042", "hasMore": "true", "": "empty key"])
        for format in [ArrowStreamWriter.Format.stream, .file] {
            let (read, _) = try Self.readAll(try Self.write([], schema: schema, format: format))
            #expect(read == schema)
        }
        let plain = try Self.write([], schema: ArrowSchema(fields: fields), format: .stream)
        #expect(try Self.readAll(plain).0.metadata.isEmpty)
        #expect(try Self.write([], schema: schema, format: .stream).count > plain.count)
    }

    /// A dictionary index beyond its dictionary is refused with the column, row and sizes.
    @Test func dictionaryIndexOutOfRangeIsNamed() throws {
        let url = Self.fixture("pyarrow-dictionary.arrows")
        var bytes = try [UInt8](Data(contentsOf: url))
        // The first record batch's body starts with the `user` column's indices (it has no nulls,
        // so no validity bitmap) into a dictionary of 3 users: the first becomes 200.
        var reader = try ArrowStreamReader(bytes: bytes, path: "fixture")
        let first = try #require(try reader.next())
        #expect(first.columns[0].string(0) == "u1")
        bytes[try #require(Self.recordBatchBodyStart(bytes))] = 200
        let error = #expect(throws: CadenceError.self) {
            var damaged = try ArrowStreamReader(bytes: bytes, path: "fixture")
            while try damaged.next() != nil {}
        }
        #expect(error?.message.contains("refers to entry 200 of a dictionary of 3") == true, "\(String(describing: error))")
    }

    // MARK: Fixtures written by pyarrow and Polars

    static func fixture(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/arrow/\(name)")
    }

    /// Each fixture holds the rows of `samples.csv` (see make_fixtures.py) in its own encoding.
    @Test(arguments: ["pyarrow-dictionary.arrows", "pyarrow-plain.arrow", "pyarrow-text-dates.arrows",
                      "polars.arrow", "polars-categorical.arrows"])
    func readsOtherWritersFixtures(name: String) throws {
        let (schema, batches) = try Self.readAll(try [UInt8](Data(contentsOf: Self.fixture(name))))
        #expect(schema.fields.map(\.name) == ["user", "type", "sourceName", "unit", "startDate", "endDate", "value",
                                              "sourceVersion", "device"])
        let rows = batches.flatMap { batch in (0..<batch.count).map { (batch, $0) } }
        #expect(rows.count == 69)
        let (batch, row) = try #require(rows.first)
        let columns = batch.columns
        #expect(columns[0].string(row) == "u1")
        #expect(columns[2].string(row) == "Alex’s Apple Watch")
        #expect(columns[6].double(row) == 671)
        #expect(columns[7].isNull(row))
        if case .timestamp = schema.fields[4].type {
            // 2024-01-01T21:05:00Z and 21:15:00.404Z.
            #expect(columns[4].timestamp(row) == 1_704_143_100_000_000)
            #expect(columns[5].timestamp(row) == 1_704_143_700_404_000)
        } else {
            #expect(columns[4].string(row) == "2024-01-01T21:05:00.000000Z")
        }
        // make_fixtures.py writes these two in batches of 7 and 16 rows.
        if ["pyarrow-dictionary.arrows", "pyarrow-plain.arrow"].contains(name) { #expect(batches.count > 1) }
    }

    @Test func readsAnEmptyPyarrowStream() throws {
        let (schema, batches) = try Self.readAll(try [UInt8](Data(contentsOf: Self.fixture("pyarrow-empty.arrows"))))
        #expect(schema.fields.count == 9)
        #expect(schema.fields[0].dictionary != nil)
        #expect(batches.allSatisfy { $0.count == 0 })
    }

    // MARK: Helpers

    /// Where the first record batch message's body starts: after the last dictionary batch.
    static func recordBatchBodyStart(_ bytes: [UInt8]) -> Int? {
        // Messages start with the continuation marker, then their metadata's length.
        var at = 0
        while at + 8 <= bytes.count {
            guard bytes[at..<(at + 4)].allSatisfy({ $0 == 0xFF }) else { return nil }
            let length = Int(bytes[at + 4]) | Int(bytes[at + 5]) << 8 | Int(bytes[at + 6]) << 16 | Int(bytes[at + 7]) << 24
            guard let table = try? FlatBufferTable(root: Array(bytes[(at + 8)..<(at + 8 + length)]),
                                                   context: FlatBufferContext(path: "", place: "")),
                  let header = try? table.integer(1, default: UInt8(0)),
                  let body = try? table.integer(3, default: Int64(0)) else { return nil }
            if header == 3 { return at + 8 + length }
            at += 8 + length + Int(body)
        }
        return nil
    }
}
