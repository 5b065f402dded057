//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Reads what ``BinaryWriter`` wrote, checking every bound: reading past the end or an absurd
/// length throws ``CadenceError/Code/corruptFile`` naming the file, never traps.
package struct BinaryReader {
    private let bytes: [UInt8]
    /// The position of the next byte to read.
    package private(set) var offset: Int
    private let end: Int
    /// The file the bytes came from, for error messages.
    package let path: String

    package init(_ bytes: [UInt8], path: String, range: Range<Int>? = nil) {
        self.bytes = bytes
        self.offset = range?.lowerBound ?? 0
        self.end = range?.upperBound ?? bytes.count
        self.path = path
    }

    /// A reader over `range` of the bytes `other` reads (shares the storage, no copy).
    package init(_ other: BinaryReader, range: Range<Int>) {
        self.bytes = other.bytes
        self.offset = range.lowerBound
        self.end = range.upperBound
        self.path = other.path
    }

    package var remaining: Int { end - offset }
    package var isAtEnd: Bool { offset >= end }

    package func corrupt(_ reason: String) -> CadenceError {
        CadenceError(.corruptFile, "\(reason) at byte \(offset)", path: path)
    }

    private mutating func take(_ count: Int) throws -> Int {
        guard count >= 0, count <= remaining else { throw corrupt("unexpected end of data") }
        let start = offset
        offset += count
        return start
    }

    package mutating func read<T: FixedWidthInteger>(_: T.Type = T.self) throws -> T {
        let start = try take(MemoryLayout<T>.size)
        return bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: start, as: T.self)) }
    }

    package mutating func readDouble() throws -> Double { Double(bitPattern: try read(UInt64.self)) }

    package mutating func readBool() throws -> Bool {
        switch try read(UInt8.self) {
        case 0: return false
        case 1: return true
        default: throw corrupt("invalid boolean")
        }
    }

    package mutating func readVarint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try read(UInt8.self)
            guard shift < 64 else { throw corrupt("varint too long") }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    /// Reads a varint that counts items of at least `minimumItemSize` bytes, refusing counts the
    /// remaining bytes cannot hold (so a flipped length cannot make us allocate gigabytes).
    package mutating func readCount(minimumItemSize: Int = 1) throws -> Int {
        let value = try readVarint()
        guard value <= UInt64(remaining / max(minimumItemSize, 1)) else {
            throw corrupt("count \(value) exceeds the data")
        }
        return Int(value)
    }

    package mutating func readString() throws -> String {
        let count = try readCount()
        let start = try take(count)
        return String(decoding: bytes[start..<start + count], as: UTF8.self)
    }

    package mutating func readOptionalString() throws -> String? {
        try readBool() ? try readString() : nil
    }

    package mutating func readBytes(_ count: Int) throws -> ArraySlice<UInt8> {
        let start = try take(count)
        return bytes[start..<start + count]
    }

    package mutating func readBlock() throws -> ArraySlice<UInt8> {
        try readBytes(try readCount())
    }

    /// Steps over what ``readBlock()`` would read, without making a slice of it.
    package mutating func skipBlock() throws {
        _ = try take(try readCount())
    }
}
