//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Writes record batches as an Arrow IPC stream, or as an Arrow file (the stream between the
/// `ARROW1` magic and a footer that lists the batches), for any Arrow reader.
///
///     var writer = try ArrowStreamWriter(schema: schema, format: .stream) { bytes in output.write(bytes) }
///     try writer.write(batch)
///     try writer.finish()
///
/// Every message is the continuation marker, its metadata's length and the metadata padded to
/// 8 bytes, then its body, each buffer padded to 8 bytes. Columns are written plain (text
/// uncompressed and not dictionary-encoded), with a validity bitmap only when a column has nulls.
package struct ArrowStreamWriter {
    /// A stream, read front to back, or a file, which readers may also open at its footer.
    package enum Format: Sendable {
        case stream, file
    }

    package let schema: ArrowSchema
    package let format: Format
    private let sink: ([UInt8]) throws -> Void
    /// Bytes written so far, and where each record batch's message starts (for a file's footer).
    private var position = 0
    private var blocks: [(offset: Int, metadataLength: Int, bodyLength: Int)] = []
    /// Where each dictionary batch's message starts, for a file's footer.
    private var dictionaryBlocks: [(offset: Int, metadataLength: Int, bodyLength: Int)] = []

    /// Starts the output: a file's magic, then the schema.
    ///
    /// - Parameter write: Receives the output's bytes in order.
    /// - Throws: What `write` throws.
    package init(schema: ArrowSchema, format: Format, write: @escaping ([UInt8]) throws -> Void) throws {
        self.schema = schema
        self.format = format
        sink = write
        if format == .file { try emit(ArrowStreamReader.fileMagic + [0, 0]) }
        try emitMessage(header: 1, table: schema.flatBuffer, body: [])
    }

    /// Writes one record batch; its columns must follow the schema.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` when the columns do not match the schema;
    ///   what `write` throws.
    /// - Complexity: O(the batch's bytes).
    package mutating func write(_ batch: ArrowRecordBatch) throws {
        guard batch.columns.count == schema.fields.count,
              batch.columns.allSatisfy({ $0.count == batch.count }) else {
            throw CadenceError(.invalidArgument, "the batch's \(batch.columns.count) columns do not match the schema's \(schema.fields.count)")
        }
        try emitRecordBatch(header: 3, batch, wrap: { $0 })
    }

    /// Writes (or, with `isDelta`, extends) the dictionary `id` of the schema's dictionary-encoded
    /// columns: a column of its entries, before the first record batch that refers to them.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` when no column of the schema uses `id`;
    ///   what `write` throws.
    package mutating func writeDictionary(id: Int64, _ entries: ArrowColumn, isDelta: Bool = false) throws {
        guard schema.fields.contains(where: { $0.dictionary?.id == id }) else {
            throw CadenceError(.invalidArgument, "no column of the schema uses dictionary \(id)")
        }
        let batch = ArrowRecordBatch(schema: ArrowSchema(fields: [entries.field]), count: entries.count, columns: [entries])
        try emitRecordBatch(header: 2, batch) { recordBatch in
            .table([.int64(id), .offset(recordBatch), .bool(isDelta)])
        }
    }

    /// Writes the columns of `batch` as a message body: a record batch, or (`wrap`ped) a dictionary batch.
    private mutating func emitRecordBatch(header: UInt8, _ batch: ArrowRecordBatch,
                                          wrap: (FlatBufferValue) -> FlatBufferValue) throws {
        var body: [UInt8] = []
        var nodes: [UInt8] = []
        var buffers: [UInt8] = []
        body.reserveCapacity(batch.columns.reduce(0) { $0 + Self.estimatedBodyBytes(of: $1) })
        // Each buffer is written straight into the body (no array of its own), then padded to 8 bytes.
        func addBuffer(_ write: (inout [UInt8]) -> Void) {
            let start = body.count
            write(&body)
            Self.append(Int64(start), to: &buffers)
            Self.append(Int64(body.count - start), to: &buffers)
            while body.count % 8 != 0 { body.append(0) }
        }
        func addBuffer(_ bytes: [UInt8]) { addBuffer { $0 += bytes } }
        for column in batch.columns {
            let nulls = column.validity?.lazy.filter { !$0 }.count ?? 0
            Self.append(Int64(column.count), to: &nodes)
            Self.append(Int64(nulls), to: &nodes)
            addBuffer(nulls > 0 ? Self.bitmap(column.validity ?? []) : [])
            switch column.values {
            case .integers(let values):
                let width: Int = if case .int(let bits, _) = column.field.type { bits / 8 } else { 8 }
                if width == 8 {
                    addBuffer { Self.appendLittleEndian(values, to: &$0) }
                } else {
                    addBuffer { Self.appendLittleEndian(values, width: width, to: &$0) }
                }
            case .doubles(let values):
                // At the schema's width: a float32 column read in holds float32 values.
                if column.field.type == .float(bitWidth: 32) {
                    addBuffer { Self.appendLittleEndian(values.map { Int64(Float($0).bitPattern) }, width: 4, to: &$0) }
                } else {
                    addBuffer { Self.appendLittleEndian(values, to: &$0) }
                }
            case .booleans(let values):
                addBuffer(Self.bitmap(values))
            case .strings(let strings):
                // large_utf8 has 64-bit offsets, utf8 32-bit ones.
                let width = column.field.type == .utf8(large: true) ? 8 : 4
                let first = strings.offsets.first ?? 0
                addBuffer { Self.appendLittleEndian(strings.offsets.lazy.map { Int64($0 - first) }, width: width, to: &$0) }
                addBuffer { $0 += strings.text }
            case .dictionary(let indices, _):
                // The indices at the schema's index width; the entries went in a dictionary batch.
                let width: Int = if case .int(let bits, _)? = column.field.dictionary?.indexType { bits / 8 } else { 4 }
                addBuffer { Self.appendLittleEndian(indices.lazy.map { Int64($0) }, width: width, to: &$0) }
            case .skipped:
                throw CadenceError(.invalidArgument, "column '\(column.field.name)': a skipped column cannot be written")
            }
        }
        let table = FlatBufferValue.table([
            .int64(Int64(batch.count)),
            .offset(.structs(bytes: nodes, count: batch.columns.count, alignment: 8)),
            .offset(.structs(bytes: buffers, count: buffers.count / 16, alignment: 8)),
        ])
        let start = position
        let metadataLength = try emitMessage(header: header, table: wrap(table), body: body)
        if header == 3 {
            blocks.append((start, metadataLength, body.count))
        } else {
            dictionaryBlocks.append((start, metadataLength, body.count))
        }
    }

    /// Ends the output: the end-of-stream marker, and for a file its footer and closing magic.
    ///
    /// - Throws: What `write` throws.
    package mutating func finish() throws {
        try emit([0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0])
        guard format == .file else { return }
        func blockBytes(_ blocks: [(offset: Int, metadataLength: Int, bodyLength: Int)]) -> FlatBufferValue {
            var bytes: [UInt8] = []
            for block in blocks {
                Self.append(Int64(block.offset), to: &bytes)
                Self.append(Int64(block.metadataLength), width: 4, to: &bytes)
                Self.append(0, width: 4, to: &bytes)
                Self.append(Int64(block.bodyLength), to: &bytes)
            }
            return .structs(bytes: bytes, count: blocks.count, alignment: 8)
        }
        let footer = FlatBufferBuilder.buffer(root: .table([
            .int16(4), .offset(schema.flatBuffer), .offset(blockBytes(dictionaryBlocks)), .offset(blockBytes(blocks)),
        ]))
        var trailer: [UInt8] = []
        Self.append(Int64(footer.count), width: 4, to: &trailer)
        try emit(footer + trailer + ArrowStreamReader.fileMagic)
    }

    /// Writes one encapsulated message; returns the length of its prefix and metadata.
    @discardableResult
    private mutating func emitMessage(header: UInt8, table: FlatBufferValue, body: [UInt8]) throws -> Int {
        // Message: version V5, the header's type and table, the body's length.
        let metadata = FlatBufferBuilder.buffer(root: .table([
            .int16(4), .uint8(header), .offset(table), .int64(Int64(body.count)),
        ]))
        var prefix: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF]
        Self.append(Int64(metadata.count), width: 4, to: &prefix)
        try emit(prefix + metadata)
        if !body.isEmpty { try emit(body) }
        return prefix.count + metadata.count
    }

    private mutating func emit(_ bytes: [UInt8]) throws {
        try sink(bytes)
        position += bytes.count
    }

    /// Appends `values` as little-endian integers of `width` (1, 2, 4 or 8) bytes, each truncated to it.
    private static func appendLittleEndian<Values: Collection<Int64>>(_ values: Values, width: Int, to bytes: inout [UInt8]) {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: values.count * width))
        bytes.withUnsafeMutableBytes { buffer in
            let raw = UnsafeMutableRawBufferPointer(rebasing: buffer[start...])
            for (index, value) in values.enumerated() {
                switch width {
                case 1: raw.storeBytes(of: UInt8(truncatingIfNeeded: value), toByteOffset: index, as: UInt8.self)
                case 2: raw.storeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian, toByteOffset: 2 * index, as: UInt16.self)
                case 4: raw.storeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian, toByteOffset: 4 * index, as: UInt32.self)
                default: raw.storeBytes(of: value.littleEndian, toByteOffset: 8 * index, as: Int64.self)
                }
            }
        }
    }

    /// Appends `values` (integers of 8 bytes, or doubles' IEEE 754 bits) little-endian: on a
    /// little-endian machine their memory as it is.
    private static func appendLittleEndian<Value: BitwiseCopyable>(_ values: [Value], to bytes: inout [UInt8]) {
        #if _endian(little)
        values.withUnsafeBytes { bytes.append(contentsOf: $0) }
        #else
        appendLittleEndian(values.lazy.map { value in withUnsafeBytes(of: value) { $0.load(as: Int64.self) } }, width: 8, to: &bytes)
        #endif
    }

    /// About how many body bytes `column` takes, for reserving the body once.
    private static func estimatedBodyBytes(of column: ArrowColumn) -> Int {
        let padding = 3 * 8 + (column.count + 7) / 8
        switch column.values {
        case .strings(let strings): return padding + 8 * (column.count + 1) + strings.text.count
        case .booleans: return padding
        default: return padding + 8 * column.count
        }
    }

    private static func append(_ value: Int64, width: Int = 8, to bytes: inout [UInt8]) {
        for byte in 0..<width { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * byte))) }
    }

    /// Bits least significant first, padded to whole bytes.
    private static func bitmap(_ bits: [Bool]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: (bits.count + 7) / 8)
        for (index, bit) in bits.enumerated() where bit { bytes[index >> 3] |= 1 << UInt8(index & 7) }
        return bytes
    }
}

extension ArrowColumn {
    /// A text column; nil entries are nulls.
    package init(name: String, strings: [String?]) {
        var values = ArrowStrings()
        for text in strings { values.append(text ?? "") }
        self.init(field: ArrowField(name: name, type: .utf8(large: false)), count: strings.count,
                  validity: Self.validity(strings), values: .strings(values))
    }

    /// A float64 column; nil entries are nulls.
    package init(name: String, doubles: [Double?]) {
        self.init(field: ArrowField(name: name, type: .float(bitWidth: 64)), count: doubles.count,
                  validity: Self.validity(doubles), values: .doubles(doubles.map { $0 ?? 0 }))
    }

    /// A microsecond timestamp column in `zone` (an IANA name or an offset such as `+01:00`); nil entries are nulls.
    package init(name: String, timestamps: [Timestamp?], zone: String) {
        self.init(field: ArrowField(name: name, type: .timestamp(.microsecond, zone: zone)), count: timestamps.count,
                  validity: Self.validity(timestamps), values: .integers(timestamps.map { $0 ?? 0 }))
    }

    private static func validity<T>(_ values: [T?]) -> [Bool]? {
        values.contains { $0 == nil } ? values.map { $0 != nil } : nil
    }
}
