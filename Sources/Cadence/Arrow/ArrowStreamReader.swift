//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Reads an Arrow IPC stream one record batch at a time, from bytes pulled as they are needed; or
/// an Arrow file (which starts with `ARROW1`), read whole, then its batches in its footer's order.
///
///     var reader = try ArrowStreamReader(path: "<stdin>") { buffer in try input.read(into: buffer) }
///     while let batch = try reader.next() { print(batch.count) }
///
/// Each message is a continuation marker `0xFFFFFFFF`, the length of its FlatBuffers metadata
/// and the metadata, then a body of the length the metadata gives. The schema comes first,
/// dictionary batches define (or extend) the dictionaries later record batches refer to, and a
/// zero length ends the stream (as does the end of the input between messages). Nothing is
/// trusted: every length, offset and index is checked, a message is read only as far as its bytes
/// arrive (a claimed length allocates nothing), and a failure throws
/// ``CadenceError/Code/malformedInput`` naming the input, the message's byte offset and the reason.
package struct ArrowStreamReader {
    /// The input named in errors.
    package let path: String
    package private(set) var schema = ArrowSchema(fields: [])
    private let source: (UnsafeMutableRawBufferPointer) throws -> Int
    /// Read but not yet consumed bytes: `pending[consumed...]`.
    private var pending: [UInt8] = []
    private var consumed = 0
    private var isExhausted = false
    /// Bytes of the input consumed before `pending[consumed]`.
    private var offset = 0
    private var dictionaries: [Int64: ArrowColumn] = [:]
    private var ended = false
    /// An Arrow file's messages as its footer lists them (dictionaries first), and the next one to
    /// read; nil for a stream, read front to back.
    private var fileBlocks: [Int]?
    private var nextBlock = 0

    /// The longest metadata a message may have; Arrow writers emit a few kilobytes.
    static let maximumMetadataLength = 1 << 24
    /// The longest body a message may claim; the bytes must still arrive before any is kept.
    static let maximumBodyLength: Int64 = 1 << 40
    /// The magic that starts (and ends) an Arrow file.
    package static let fileMagic: [UInt8] = Array("ARROW1".utf8)

    /// Whether bytes starting an input are Arrow: a stream's continuation marker or a file's magic.
    package static func looksLikeArrow(_ prefix: some Collection<UInt8>) -> Bool {
        prefix.starts(with: [0xFF, 0xFF, 0xFF, 0xFF]) || prefix.starts(with: fileMagic)
    }

    /// Opens the stream and reads its schema.
    ///
    /// - Parameters:
    ///   - path: The input's name in errors.
    ///   - read: Fills the buffer with the next bytes and returns how many; 0 at the end.
    /// - Throws: ``CadenceError/Code/malformedInput`` when the input does not start with a schema.
    package init(path: String, read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) throws {
        self.path = path
        source = read
        if try fill(8), pending.starts(with: Self.fileMagic) {
            try readFooter()
            return
        }
        guard let (header, _, table) = try nextMessage() else {
            throw CadenceError(.malformedInput, "the Arrow stream ends before its schema", path: path)
        }
        guard header == 1 else { throw table.context.error("the stream starts with message type \(header), not a schema") }
        schema = try ArrowSchema(reading: table)
    }

    /// Opens a stream held in memory.
    package init(bytes: [UInt8], path: String) throws {
        var remaining = bytes[...]
        try self.init(path: path) { buffer in
            let count = min(buffer.count, remaining.count)
            remaining.prefix(count).withUnsafeBytes { buffer.copyMemory(from: $0) }
            remaining = remaining.dropFirst(count)
            return count
        }
    }

    /// The next record batch, or nil at the end of the stream.
    ///
    /// - Throws: ``CadenceError/Code/malformedInput`` for a malformed or truncated message.
    /// - Complexity: O(the batch's bytes).
    package mutating func next() throws -> ArrowRecordBatch? {
        while !ended, let (header, body, table) = try nextMessage() {
            switch header {
            case 3:
                var decoder = try RecordBatchDecoder(table: table, body: body, dictionaries: dictionaries)
                let columns = try decoder.columns(of: schema.fields)
                return ArrowRecordBatch(schema: schema, count: decoder.length, columns: columns)
            case 2:
                try readDictionary(table, body: body)
            case 1:
                throw table.context.error("a second schema in one stream")
            default:
                throw table.context.error("message type \(header) (a tensor?) in a stream of record batches")
            }
        }
        return nil
    }

    /// Defines or extends a dictionary from a `DictionaryBatch` message.
    private mutating func readDictionary(_ table: FlatBufferTable, body: [UInt8]) throws {
        let id = try table.integer(0, default: Int64(0))
        guard let field = Self.field(encodedBy: id, in: schema.fields) else {
            throw table.context.error("dictionary \(id) belongs to no column of the schema")
        }
        guard let data = try table.table(1, "RecordBatch") else { throw table.context.error("dictionary \(id) has no data") }
        let valueField = ArrowField(name: field.name, type: field.type)
        var decoder = try RecordBatchDecoder(table: data, body: body, dictionaries: dictionaries)
        guard var values = try decoder.columns(of: [valueField]).first else { return }
        if try table.bool(2, default: false), let earlier = dictionaries[id] {
            guard case .strings(var strings) = earlier.values, case .strings(let added) = values.values,
                  earlier.validity == nil, values.validity == nil else {
                throw table.context.error("a delta to dictionary \(id), which Cadence extends only for text without nulls")
            }
            strings.append(contentsOf: added)
            values = ArrowColumn(field: valueField, count: strings.count, validity: nil, values: .strings(strings))
        }
        dictionaries[id] = values
    }

    private static func field(encodedBy id: Int64, in fields: [ArrowField]) -> ArrowField? {
        for field in fields {
            if field.dictionary?.id == id { return field }
            if let child = Self.field(encodedBy: id, in: field.children) { return child }
        }
        return nil
    }

    // MARK: Messages

    /// Reads a whole Arrow file and its footer: the schema, and where each dictionary and record
    /// batch message starts. Some writers put no schema message (or one without a length) at the
    /// file's start, so the footer is the only place the file is read from.
    private mutating func readFooter() throws {
        while try fill(available + 1) {}
        let size = pending.count
        guard size >= 18, pending.suffix(6).elementsEqual(Self.fileMagic) else {
            throw CadenceError(.malformedInput, "the Arrow file does not end with its footer and ARROW1 (is it truncated?)", path: path)
        }
        let footerLength = pending[(size - 10)..<(size - 6)].reversed().reduce(0) { $0 << 8 | Int($1) }
        guard footerLength > 0, footerLength <= size - 18 else {
            throw CadenceError(.malformedInput, "the Arrow file's footer length \(footerLength) does not fit in its \(size) bytes", path: path)
        }
        let footerStart = size - 10 - footerLength
        let context = FlatBufferContext(path: path, place: "file footer at byte \(footerStart)")
        let footer = try FlatBufferTable(root: Array(pending[footerStart..<(size - 10)]), context: context)
        guard let schemaTable = try footer.table(1, "Schema") else { throw context.error("the footer has no schema") }
        schema = try ArrowSchema(reading: schemaTable)
        var blocks: [Int] = []
        for field in [2, 3] {
            guard let range = try footer.vectorRange(field, elementSize: 24) else { continue }
            for at in stride(from: range.lowerBound, to: range.upperBound, by: 24) {
                let blockOffset = footer.int64(at: at)
                guard blockOffset >= 8, blockOffset < Int64(footerStart) else {
                    throw context.error("a block at byte \(blockOffset), outside the file's \(footerStart) bytes of messages")
                }
                blocks.append(Int(blockOffset))
            }
        }
        fileBlocks = blocks
    }

    /// The next message's header type, body and header table; nil at the end of the stream.
    private mutating func nextMessage() throws -> (header: UInt8, body: [UInt8], table: FlatBufferTable)? {
        if let blocks = fileBlocks {
            // The whole file is in `pending`: move to the block's message.
            guard nextBlock < blocks.count else { return nil }
            consumed = blocks[nextBlock]
            offset = blocks[nextBlock]
            nextBlock += 1
        }
        let start = offset, path = self.path
        let fail = { (reason: String) -> CadenceError in
            CadenceError(.malformedInput, "Arrow message at byte \(start): \(reason)", path: path)
        }
        guard try fill(4) else {
            guard available == 0 else { throw fail("the input ends inside a message's length") }
            ended = true
            return nil
        }
        var length = Int32(bitPattern: word(at: 0))
        if length == -1 {
            // The continuation marker; streams from before it begin with the length itself.
            guard try fill(8) else { throw fail("the input ends inside a message's length") }
            length = Int32(bitPattern: word(at: 4))
            try skip(4)
        }
        try skip(4)
        guard length != 0 else {
            ended = true
            return nil
        }
        guard length > 0, Int(length) <= Self.maximumMetadataLength else { throw fail("a metadata length of \(length)") }
        guard try fill(Int(length)) else { throw fail("the input ends inside the \(length)-byte metadata") }
        let metadata = Array(pending[consumed..<(consumed + Int(length))])
        try skip(Int(length))
        let context = FlatBufferContext(path: path, place: "message at byte \(start)")
        let message = try FlatBufferTable(root: metadata, context: context)
        let version = try message.integer(0, default: Int16(0))
        guard version >= 3 else { throw context.error("metadata version \(version + 1), older than Arrow's V4") }
        let header = try message.integer(1, default: UInt8(0))
        let names = [1: "Schema", 2: "DictionaryBatch", 3: "RecordBatch"]
        guard let table = try message.table(2, names[Int(header)] ?? "header") else { throw context.error("a message without a header") }
        let bodyLength = try message.integer(3, default: Int64(0))
        guard (0...Self.maximumBodyLength).contains(bodyLength) else { throw context.error("a body length of \(bodyLength)") }
        let body = try readBody(Int(bodyLength), fail: fail)
        return (header, body, table)
    }

    /// Reads a body as its bytes arrive, so a false length costs only the bytes really there:
    /// what is buffered first, then the rest straight from the source into the body (no copy
    /// through the buffer), in pieces of at most ``directReadPiece`` bytes.
    private mutating func readBody(_ length: Int, fail: (String) -> CadenceError) throws -> [UInt8] {
        let buffered = min(available, length)
        var body = Array(pending[consumed..<(consumed + buffered)])
        try skip(buffered)
        while body.count < length, fileBlocks == nil, !isExhausted {
            let piece = min(length - body.count, Self.directReadPiece)
            let read = try [UInt8](unsafeUninitializedCapacity: piece) { bytes, initialized in
                var filled = 0
                while filled < piece {
                    let count = max(0, min(piece - filled, try source(UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: bytes[filled...])))))
                    if count == 0 { break }
                    filled += count
                }
                initialized = filled
            }
            if body.isEmpty { body = read } else { body += read }
            if read.count < piece { isExhausted = true }
            offset += read.count
        }
        guard body.count == length else { throw fail("the input ends after \(body.count) of the body's \(length) bytes") }
        return body
    }

    /// The most bytes a body reads from the source before they have arrived: a false length
    /// costs at most this much memory before the input runs out.
    static let directReadPiece = 1 << 26

    private var available: Int { pending.count - consumed }

    private func word(at index: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(pending[consumed + index + $1]) << (8 * $1) }
    }

    /// Reads until `count` bytes are available; false when the input ends first.
    private mutating func fill(_ count: Int) throws -> Bool {
        while available < count && !isExhausted {
            if consumed > 0 && fileBlocks == nil {
                pending.removeFirst(consumed)
                consumed = 0
            }
            let capacity = max(1 << 16, count - available)
            let chunk = try [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                initialized = max(0, min(capacity, try source(UnsafeMutableRawBufferPointer(buffer))))
            }
            if chunk.isEmpty { isExhausted = true }
            pending += chunk
        }
        return available >= count
    }

    private mutating func skip(_ count: Int) throws {
        consumed += count
        offset += count
    }
}
