//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Appends little-endian integers, floats and length-prefixed strings to a byte array: the one
/// place the on-disk formats are written (FORMAT.md describes the layouts).
package struct BinaryWriter {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8]

    package init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    package var count: Int { bytes.count }

    package mutating func write<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    package mutating func write(_ value: Double) { write(value.bitPattern) }

    package mutating func write(_ value: Bool) { write(UInt8(value ? 1 : 0)) }

    /// Writes an unsigned LEB128 variable-length integer.
    package mutating func writeVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    package mutating func write(_ string: String) {
        writeVarint(UInt64(string.utf8.count))
        bytes.append(contentsOf: string.utf8)
    }

    package mutating func write(optional string: String?) {
        write(string != nil)
        if let string { write(string) }
    }

    package mutating func write(bytes other: some Collection<UInt8>) { bytes.append(contentsOf: other) }

    /// Writes a length-prefixed block of bytes.
    package mutating func write(block other: [UInt8]) {
        writeVarint(UInt64(other.count))
        bytes.append(contentsOf: other)
    }

    /// Overwrites four bytes at `offset` (for lengths and checksums known only at the end).
    package mutating func patch(_ value: UInt32, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for index in 0..<4 { bytes[offset + index] = raw[index] }
        }
    }
}
