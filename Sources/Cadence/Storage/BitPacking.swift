//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Frame-of-reference bit packing of integer columns: values are stored as `value − minimum` in
/// the fewest bits that hold the largest difference. A constant column costs zero bits a value.
///
/// Layout: `minimum` (Int64), `width` (UInt8), then `⌈count × width / 8⌉ + 8` bytes of packed
/// little-endian bits (8 bytes of padding let the decoder always load a whole word).
package enum BitPacking {
    /// The number of bits needed for `value`.
    @inline(__always)
    package static func width(of value: UInt64) -> Int { value == 0 ? 0 : 64 - value.leadingZeroBitCount }

    /// Appends `values` packed to `writer`.
    ///
    /// - Complexity: O(*n*).
    package static func encode(_ values: UnsafeBufferPointer<Int64>, into writer: inout BinaryWriter) {
        var minimum = Int64.max
        var maximum = Int64.min
        for value in values {
            minimum = Swift.min(minimum, value)
            maximum = Swift.max(maximum, value)
        }
        if values.isEmpty { minimum = 0; maximum = 0 }
        let width = BitPacking.width(of: UInt64(bitPattern: maximum &- minimum))
        writer.write(minimum)
        writer.write(UInt8(width))
        guard width > 0 else { return }
        let byteCount = (values.count * width + 7) / 8 + 8
        var packed = [UInt8](repeating: 0, count: byteCount)
        packed.withUnsafeMutableBytes { raw in
            // Accumulate bits in a 64-bit word and store whole words (the 8 bytes of padding
            // make the last store safe).
            var accumulator: UInt64 = 0
            var filled = 0
            var byteOffset = 0
            for value in values {
                let delta = UInt64(bitPattern: value &- minimum)
                accumulator |= delta << UInt64(filled)
                if filled + width >= 64 {
                    raw.storeBytes(of: accumulator.littleEndian, toByteOffset: byteOffset, as: UInt64.self)
                    byteOffset &+= 8
                    let consumed = 64 - filled
                    accumulator = consumed == 64 ? 0 : delta >> UInt64(consumed)
                    filled = width - consumed
                } else {
                    filled += width
                }
            }
            if filled > 0 { raw.storeBytes(of: accumulator.littleEndian, toByteOffset: byteOffset, as: UInt64.self) }
        }
        writer.write(bytes: packed)
    }

    /// Appends `values` packed to `writer`.
    package static func encode(_ values: [Int64], into writer: inout BinaryWriter) {
        values.withUnsafeBufferPointer { encode($0, into: &writer) }
    }

    /// Reads `output.count` packed values into `output`.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` when the data is too short or the width invalid.
    /// - Complexity: O(*n*), one unaligned load, shift and mask per value.
    package static func decode(from reader: inout BinaryReader, into output: UnsafeMutableBufferPointer<Int64>) throws {
        try PackedColumn(from: &reader, count: output.count).forEach { index, value in output[index] = value }
    }
}

/// A bit-packed column as stored (``BitPacking``'s layout), read but not yet unpacked: decoders walk it
/// with ``forEach(_:)`` and fuse their own step (a running sum, a scale, a range check) into the
/// unpacking loop, writing each value straight into its column.
package struct PackedColumn {
    /// The frame of reference: every value is `minimum` plus its packed bits.
    package let minimum: Int64
    /// Bits a value (0 for a constant column).
    package let width: Int
    /// The number of values.
    package let count: Int
    private let packed: ArraySlice<UInt8>

    /// Reads the column's header and bytes (shared with the reader, not copied).
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` when the data is too short or the width invalid.
    package init(from reader: inout BinaryReader, count: Int) throws {
        minimum = try reader.read(Int64.self)
        width = Int(try reader.read(UInt8.self))
        guard width <= 64 else { throw reader.corrupt("bit width \(width) over 64") }
        self.count = count
        packed = width == 0 ? [] : try reader.readBytes((count * width + 7) / 8 + 8)
    }

    /// The value at `index` (for a decoder's first row; ``forEach(_:)`` walks them all).
    package func value(at index: Int) -> Int64 {
        guard width > 0 else { return minimum }
        return packed.withUnsafeBytes { raw in Self.bits(raw, bitOffset: index &* width, width: width) }
            .map { minimum &+ Int64(bitPattern: $0) } ?? minimum
    }

    /// Calls `body` with every index and value, in order.
    ///
    /// Widths up to 24 bits are unpacked eight values at a time by a loop specialised for the width
    /// (eight values of *w* bits fill *w* bytes, so every shift and offset is a constant); wider
    /// ones by the general loop.
    ///
    /// - Complexity: O(*n*): one unaligned load, shift, mask and add per value.
    @inline(__always)
    package func forEach(_ body: (Int, Int64) -> Void) {
        guard width > 0 else {
            for index in 0..<count { body(index, minimum) }
            return
        }
        packed.withUnsafeBytes { raw in
            switch width {
            case 1: Self.unpack(raw, width: 1, count: count, minimum: minimum, body)
            case 2: Self.unpack(raw, width: 2, count: count, minimum: minimum, body)
            case 3: Self.unpack(raw, width: 3, count: count, minimum: minimum, body)
            case 4: Self.unpack(raw, width: 4, count: count, minimum: minimum, body)
            case 5: Self.unpack(raw, width: 5, count: count, minimum: minimum, body)
            case 6: Self.unpack(raw, width: 6, count: count, minimum: minimum, body)
            case 7: Self.unpack(raw, width: 7, count: count, minimum: minimum, body)
            case 8: Self.unpack(raw, width: 8, count: count, minimum: minimum, body)
            case 9: Self.unpack(raw, width: 9, count: count, minimum: minimum, body)
            case 10: Self.unpack(raw, width: 10, count: count, minimum: minimum, body)
            case 11: Self.unpack(raw, width: 11, count: count, minimum: minimum, body)
            case 12: Self.unpack(raw, width: 12, count: count, minimum: minimum, body)
            case 13: Self.unpack(raw, width: 13, count: count, minimum: minimum, body)
            case 14: Self.unpack(raw, width: 14, count: count, minimum: minimum, body)
            case 15: Self.unpack(raw, width: 15, count: count, minimum: minimum, body)
            case 16: Self.unpack(raw, width: 16, count: count, minimum: minimum, body)
            case 17...24: Self.unpack(raw, width: width, count: count, minimum: minimum, body)
            default:
                for index in 0..<count {
                    body(index, minimum &+ Int64(bitPattern: Self.bits(raw, bitOffset: index &* width, width: width) ?? 0))
                }
            }
        }
    }

    /// Unpacks `count` values of `width` (1...24) bits, eight per step of `width` bytes; inlined with
    /// a constant width, the shifts, masks and offsets of the step are constants.
    @inline(__always)
    private static func unpack(_ raw: UnsafeRawBufferPointer, width: Int, count: Int, minimum: Int64,
                               _ body: (Int, Int64) -> Void) {
        let mask: UInt64 = (1 << UInt64(width)) &- 1
        var index = 0
        var byteOffset = 0
        while index &+ 8 <= count {
            for lane in 0..<8 {
                let bit = lane &* width
                let word = raw.loadUnaligned(fromByteOffset: byteOffset &+ bit >> 3, as: UInt64.self).littleEndian
                body(index &+ lane, minimum &+ Int64(bitPattern: (word >> UInt64(bit & 7)) & mask))
            }
            index &+= 8
            byteOffset &+= width
        }
        while index < count {
            let bit = index &* width
            let word = raw.loadUnaligned(fromByteOffset: bit >> 3, as: UInt64.self).littleEndian
            body(index, minimum &+ Int64(bitPattern: (word >> UInt64(bit & 7)) & mask))
            index &+= 1
        }
    }

    /// The `width` bits at `bitOffset` (any width up to 64), or nil past the bytes.
    @inline(__always)
    private static func bits(_ raw: UnsafeRawBufferPointer, bitOffset: Int, width: Int) -> UInt64? {
        let byteIndex = bitOffset >> 3
        guard byteIndex + 8 <= raw.count else { return nil }
        let shift = UInt64(bitOffset & 7)
        let low = raw.loadUnaligned(fromByteOffset: byteIndex, as: UInt64.self).littleEndian >> shift
        let high = shift == 0 || byteIndex + 9 > raw.count ? 0 : UInt64(raw[byteIndex + 8]) << (64 - shift)
        let mask: UInt64 = width == 64 ? .max : (1 << UInt64(width)) &- 1
        return (low | high) & mask
    }
}
