//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Rows of an Arrow stream: one decoded column per field of the schema.
package struct ArrowRecordBatch: Sendable {
    package let schema: ArrowSchema
    package let count: Int
    package let columns: [ArrowColumn]

    package init(schema: ArrowSchema, count: Int, columns: [ArrowColumn]) {
        self.schema = schema
        self.count = count
        self.columns = columns
    }
}

/// Decodes the columns of a `RecordBatch` message from its body, checking every node and buffer.
struct RecordBatchDecoder {
    let context: FlatBufferContext
    let body: [UInt8]
    /// The field nodes (length, null count) and buffers (offset, length), in the message's order.
    private var nodes: [(length: Int64, nullCount: Int64)] = []
    private var buffers: [(offset: Int64, length: Int64)] = []
    private var nextNode = 0
    private var nextBuffer = 0
    /// Rows in the batch.
    let length: Int
    private let dictionaries: [Int64: ArrowColumn]

    /// The most rows a batch may claim: far beyond any real batch, and small enough that counts
    /// derived from it cannot overflow.
    static let maximumLength = 1 << 40

    /// - Throws: ``CadenceError/Code/malformedInput`` for a compressed body or a table that leaves
    ///   its message.
    init(table: FlatBufferTable, body: [UInt8], dictionaries: [Int64: ArrowColumn]) throws {
        context = table.context
        self.body = body
        self.dictionaries = dictionaries
        let length = try table.integer(0, default: Int64(0))
        guard (0...Int64(Self.maximumLength)).contains(length) else {
            throw context.error("a batch of \(length) rows")
        }
        self.length = Int(length)
        if try table.table(3, "BodyCompression") != nil {
            throw context.error("the body is compressed (LZ4 or ZSTD); Cadence reads uncompressed Arrow: write without compression")
        }
        if let range = try table.vectorRange(1, elementSize: 16) {
            nodes = stride(from: range.lowerBound, to: range.upperBound, by: 16).map {
                (table.int64(at: $0), table.int64(at: $0 + 8))
            }
        }
        if let range = try table.vectorRange(2, elementSize: 16) {
            buffers = stride(from: range.lowerBound, to: range.upperBound, by: 16).map {
                (table.int64(at: $0), table.int64(at: $0 + 8))
            }
        }
    }

    /// Decodes one column per field, in order, each of the batch's length.
    mutating func columns(of fields: [ArrowField]) throws -> [ArrowColumn] {
        try fields.map { field in
            let column = try column(field)
            guard column.count == length else {
                throw context.error("column '\(field.name)' has \(column.count) rows in a batch of \(length)")
            }
            return column
        }
    }

    /// Decodes the next column, consuming its node and buffers (and its children's, skipped).
    private mutating func column(_ field: ArrowField) throws -> ArrowColumn {
        guard nextNode < nodes.count else { throw context.error("no field node left for column '\(field.name)'") }
        let node = nodes[nextNode]
        nextNode += 1
        guard (0...Int64(Self.maximumLength)).contains(node.length), (0...node.length).contains(node.nullCount) else {
            throw context.error("column '\(field.name)' claims \(node.length) rows with \(node.nullCount) nulls")
        }
        let count = Int(node.length)
        let type = field.dictionary?.indexType ?? field.type
        var slices: [ArraySlice<UInt8>] = []
        for _ in 0..<type.bufferCount { slices.append(try nextSlice(field)) }
        if field.dictionary == nil, case .other = type {
            for child in field.children { _ = try column(child) }
            return ArrowColumn(field: field, count: count, validity: nil, values: .skipped)
        }
        let validity = try Self.validity(slices[0], count: count, nullCount: Int(node.nullCount), field: field, context: context)
        var values = try Self.values(type, slices: slices, body: body, count: count, field: field, context: context)
        if let encoding = field.dictionary {
            guard let dictionary = dictionaries[encoding.id] else {
                throw context.error("column '\(field.name)' uses dictionary \(encoding.id), which no dictionary batch before it defines")
            }
            guard case .integers(let raw) = values else { return ArrowColumn(field: field, count: count, validity: nil, values: .skipped) }
            var indices = [Int](repeating: 0, count: count)
            for row in 0..<count where validity?[row] ?? true {
                let index = raw[row]
                guard index >= 0, index < dictionary.count else {
                    throw context.error("column '\(field.name)' row \(row) refers to entry \(index) of a dictionary of \(dictionary.count)")
                }
                indices[row] = Int(index)
            }
            values = .dictionary(indices: indices, dictionary: dictionary)
        }
        return ArrowColumn(field: field, count: count, validity: validity, values: values)
    }

    /// The body bytes of the next buffer, checked to lie in the body.
    private mutating func nextSlice(_ field: ArrowField) throws -> ArraySlice<UInt8> {
        guard nextBuffer < buffers.count else { throw context.error("no buffer left for column '\(field.name)'") }
        let buffer = buffers[nextBuffer]
        nextBuffer += 1
        guard buffer.offset >= 0, buffer.length >= 0, buffer.offset <= Int64(body.count),
              buffer.length <= Int64(body.count) - buffer.offset else {
            throw context.error("column '\(field.name)': a buffer of \(buffer.length) bytes at \(buffer.offset) leaves the \(body.count)-byte body")
        }
        return body[Int(buffer.offset)..<Int(buffer.offset + buffer.length)]
    }

    private static func validity(_ bitmap: ArraySlice<UInt8>, count: Int, nullCount: Int, field: ArrowField,
                                 context: FlatBufferContext) throws -> [Bool]? {
        guard nullCount > 0 else { return nil }
        guard bitmap.count >= (count + 7) / 8 else {
            throw context.error("column '\(field.name)' has \(nullCount) nulls but a validity bitmap of \(bitmap.count) bytes for \(count) rows")
        }
        return bits(bitmap, count: count)
    }

    private static func bits(_ bytes: ArraySlice<UInt8>, count: Int) -> [Bool] {
        let base = bytes.startIndex
        return (0..<count).map { bytes[base + $0 >> 3] & (1 << UInt8($0 & 7)) != 0 }
    }

    /// The values of an array of a type Cadence reads.
    private static func values(_ type: ArrowType, slices: [ArraySlice<UInt8>], body: [UInt8], count: Int, field: ArrowField,
                               context: FlatBufferContext) throws -> ArrowColumn.Values {
        func require(_ bytes: Int, in slice: ArraySlice<UInt8>, _ what: String) throws {
            guard slice.count >= bytes else {
                throw context.error("column '\(field.name)' (\(type.name)): \(count) rows need \(bytes) bytes of \(what), the buffer has \(slice.count)")
            }
        }
        switch type {
        case .int(let width, let signed):
            try require(count * width / 8, in: slices[1], "values")
            return .integers(integers(slices[1], count: count, width: width / 8, signed: signed))
        case .timestamp:
            try require(count * 8, in: slices[1], "values")
            return .integers(integers(slices[1], count: count, width: 8, signed: true))
        case .float(let width):
            try require(count * width / 8, in: slices[1], "values")
            return .doubles(floats(slices[1], count: count, width: width / 8))
        case .bool:
            try require((count + 7) / 8, in: slices[1], "bits")
            return .booleans(bits(slices[1], count: count))
        case .utf8(let large):
            let width = large ? 8 : 4
            try require((count + 1) * width, in: slices[1], "offsets")
            let offsets = integers(slices[1], count: count + 1, width: width, signed: true)
            let data = slices[2]
            var previous: Int64 = 0
            for (row, offset) in offsets.enumerated() {
                guard offset >= previous || row == 0, offset >= 0, offset <= Int64(data.count) else {
                    throw context.error("column '\(field.name)' string offset \(offset) at row \(row) is out of order or beyond its \(data.count) bytes")
                }
                previous = offset
            }
            // The strings stay in the body: offsets are moved to the body's positions, no byte is copied.
            let base = data.startIndex
            return .strings(ArrowStrings(checkedOffsets: offsets.map { Int($0) + base }, bytes: body))
        case .other:
            return .skipped
        }
    }

    /// `count` little-endian integers of `width` bytes.
    private static func integers(_ bytes: ArraySlice<UInt8>, count: Int, width: Int, signed: Bool) -> [Int64] {
        bytes.withUnsafeBytes { raw in
            switch (width, signed) {
            case (1, true): (0..<count).map { Int64(raw.load(fromByteOffset: $0, as: Int8.self)) }
            case (1, false): (0..<count).map { Int64(raw.load(fromByteOffset: $0, as: UInt8.self)) }
            case (2, true): (0..<count).map { Int64(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * $0, as: Int16.self))) }
            case (2, false): (0..<count).map { Int64(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 2 * $0, as: UInt16.self))) }
            case (4, true): (0..<count).map { Int64(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: Int32.self))) }
            case (4, false): (0..<count).map { Int64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self))) }
            case (8, true): (0..<count).map { Int64(littleEndian: raw.loadUnaligned(fromByteOffset: 8 * $0, as: Int64.self)) }
            default: (0..<count).map { Int64(clamping: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8 * $0, as: UInt64.self))) }
            }
        }
    }

    /// `count` little-endian floats of `width` (4 or 8) bytes.
    private static func floats(_ bytes: ArraySlice<UInt8>, count: Int, width: Int) -> [Double] {
        bytes.withUnsafeBytes { raw in
            width == 4
                ? (0..<count).map { Double(Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self)))) }
                : (0..<count).map { Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8 * $0, as: UInt64.self))) }
        }
    }
}
