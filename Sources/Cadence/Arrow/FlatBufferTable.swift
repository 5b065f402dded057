//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A table of a FlatBuffers message, read in place with every offset checked against the buffer.
///
/// Arrow's IPC metadata (schemas, record batch headers, file footers) is FlatBuffers. This reader
/// knows the binary layout only — a table starts with a signed offset to its vtable, the vtable
/// lists each field's position in the table (0: absent), and strings, vectors and child tables are
/// reached through unsigned offsets from where the offset is stored — and nothing is trusted: an
/// offset or length that leaves the buffer, or a vtable that does not fit, throws
/// ``CadenceError/Code/malformedInput`` naming the input and what was being read.
struct FlatBufferTable {
    /// The whole message.
    let bytes: [UInt8]
    /// Where the table starts.
    let position: Int
    /// Where the table's vtable starts and how many bytes it has.
    private let vtable: Int
    private let vtableSize: Int
    /// The input named in errors, and what the table is (`Schema`, `Field`).
    let context: FlatBufferContext

    /// The root table of a message: the one its first four bytes point at.
    ///
    /// - Throws: ``CadenceError/Code/malformedInput`` when the offset or the table leaves `bytes`.
    init(root bytes: [UInt8], context: FlatBufferContext) throws {
        let offset = try Self.uint32(bytes, at: 0, context: context, what: "the root offset")
        try self.init(bytes: bytes, position: offset, context: context)
    }

    private init(bytes: [UInt8], position: Int, context: FlatBufferContext) throws {
        self.bytes = bytes
        self.position = position
        self.context = context
        let relative = Int(Int32(truncatingIfNeeded: try Self.uint32(bytes, at: position, context: context,
                                                                      what: "the vtable offset")))
        let vtable = position - relative
        let size = try Self.uint16(bytes, at: vtable, context: context, what: "the vtable size")
        guard size >= 4, size % 2 == 0, vtable >= 0, vtable + size <= bytes.count else {
            throw context.error("a vtable of \(size) bytes at \(vtable) does not fit in \(bytes.count) bytes")
        }
        self.vtable = vtable
        self.vtableSize = size
    }

    /// Where field `index` is stored, or nil when the table does not hold it.
    private func fieldPosition(_ index: Int) throws -> Int? {
        let entry = 4 + 2 * index
        guard entry + 2 <= vtableSize else { return nil }
        let offset = try Self.uint16(bytes, at: vtable + entry, context: context, what: "a vtable entry")
        return offset == 0 ? nil : position + offset
    }

    /// A little-endian integer field of `T`'s width, or `default` when absent.
    ///
    /// - Throws: ``CadenceError/Code/malformedInput`` when the field leaves the buffer.
    func integer<T: FixedWidthInteger>(_ index: Int, default value: T) throws -> T {
        guard let at = try fieldPosition(index) else { return value }
        let width = MemoryLayout<T>.size
        guard at >= 0, at + width <= bytes.count else {
            throw context.error("field \(index) at \(at) leaves the \(bytes.count)-byte message")
        }
        var result: T = 0
        for byte in 0..<width { result |= T(truncatingIfNeeded: bytes[at + byte]) << (8 * byte) }
        return result
    }

    /// A boolean field, or `default` when absent.
    func bool(_ index: Int, default value: Bool) throws -> Bool {
        try integer(index, default: UInt8(value ? 1 : 0)) != 0
    }

    /// The position a field's unsigned offset leads to, or nil when absent.
    private func target(_ index: Int) throws -> Int? {
        guard let at = try fieldPosition(index) else { return nil }
        return try at + Self.uint32(bytes, at: at, context: context, what: "the offset of field \(index)")
    }

    /// A child table, or nil when absent.
    func table(_ index: Int, _ what: String) throws -> FlatBufferTable? {
        guard let at = try target(index) else { return nil }
        return try FlatBufferTable(bytes: bytes, position: at, context: context.inside(what))
    }

    /// A string field, or nil when absent.
    ///
    /// - Throws: ``CadenceError/Code/malformedInput`` when it leaves the buffer or is not UTF-8.
    func string(_ index: Int) throws -> String? {
        guard let range = try vectorRange(index, elementSize: 1) else { return nil }
        guard let text = String(validating: bytes[range], as: UTF8.self) else {
            throw context.error("field \(index) is not UTF-8 text")
        }
        return text
    }

    /// The tables of a vector-of-tables field (empty when absent).
    func tables(_ index: Int, _ what: String) throws -> [FlatBufferTable] {
        guard let range = try vectorRange(index, elementSize: 4) else { return [] }
        return try stride(from: range.lowerBound, to: range.upperBound, by: 4).map { at in
            let target = try at + Self.uint32(bytes, at: at, context: context, what: "a \(what) offset")
            return try FlatBufferTable(bytes: bytes, position: target, context: context.inside(what))
        }
    }

    /// The byte range of a vector field's elements (nil when absent), checked to lie in the buffer.
    func vectorRange(_ index: Int, elementSize: Int) throws -> Range<Int>? {
        guard let at = try target(index) else { return nil }
        let count = try Self.uint32(bytes, at: at, context: context, what: "the length of field \(index)")
        let start = at + 4
        let (size, overflow) = count.multipliedReportingOverflow(by: elementSize)
        guard !overflow, start <= bytes.count, size <= bytes.count - start else {
            throw context.error("field \(index) holds \(count) elements of \(elementSize) bytes, beyond the \(bytes.count)-byte message")
        }
        return start..<(start + size)
    }

    /// A little-endian signed 64-bit integer at `at`, which the caller has checked lies in the buffer.
    func int64(at: Int) -> Int64 {
        var result: UInt64 = 0
        for byte in 0..<8 { result |= UInt64(bytes[at + byte]) << (8 * byte) }
        return Int64(bitPattern: result)
    }

    private static func uint32(_ bytes: [UInt8], at: Int, context: FlatBufferContext, what: String) throws -> Int {
        guard at >= 0, at <= bytes.count - 4 else {
            throw context.error("\(what) at \(at) leaves the \(bytes.count)-byte message")
        }
        return Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
    }

    private static func uint16(_ bytes: [UInt8], at: Int, context: FlatBufferContext, what: String) throws -> Int {
        guard at >= 0, at <= bytes.count - 2 else {
            throw context.error("\(what) at \(at) leaves the \(bytes.count)-byte message")
        }
        return Int(bytes[at]) | Int(bytes[at + 1]) << 8
    }
}

/// Where a FlatBuffers table is, for errors: the input and the path of tables to it.
struct FlatBufferContext {
    /// The input named in errors.
    let path: String
    /// The tables from the root, such as `Message > Schema > Field`.
    let place: String

    func inside(_ table: String) -> FlatBufferContext {
        FlatBufferContext(path: path, place: place + " > " + table)
    }

    func error(_ reason: String) -> CadenceError {
        CadenceError(.malformedInput, "Arrow metadata (\(place)): \(reason)", path: path)
    }
}
