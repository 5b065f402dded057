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
        let minimum = try reader.read(Int64.self)
        let width = Int(try reader.read(UInt8.self))
        guard width <= 64 else { throw reader.corrupt("bit width \(width) over 64") }
        guard width > 0 else {
            output.update(repeating: minimum)
            return
        }
        let byteCount = (output.count * width + 7) / 8 + 8
        let packed = try reader.readBytes(byteCount)
        packed.withUnsafeBytes { raw in
            unpack(raw, width: width, minimum: minimum, into: output)
        }
    }

    /// Skips `count` packed values without decoding them.
    package static func skip(from reader: inout BinaryReader, count: Int) throws {
        _ = try reader.read(Int64.self)
        let width = Int(try reader.read(UInt8.self))
        guard width <= 64 else { throw reader.corrupt("bit width \(width) over 64") }
        if width > 0 { _ = try reader.readBytes((count * width + 7) / 8 + 8) }
    }

    @inline(__always)
    private static func unpack(_ raw: UnsafeRawBufferPointer, width: Int, minimum: Int64,
                               into output: UnsafeMutableBufferPointer<Int64>) {
        let mask: UInt64 = width == 64 ? .max : (1 << UInt64(width)) &- 1
        var bitOffset = 0
        if width <= 56 {
            for index in 0..<output.count {
                let word = raw.loadUnaligned(fromByteOffset: bitOffset >> 3, as: UInt64.self).littleEndian
                output[index] = minimum &+ Int64(bitPattern: (word >> UInt64(bitOffset & 7)) & mask)
                bitOffset &+= width
            }
        } else {
            for index in 0..<output.count {
                let byteIndex = bitOffset >> 3
                let shift = UInt64(bitOffset & 7)
                let low = raw.loadUnaligned(fromByteOffset: byteIndex, as: UInt64.self).littleEndian >> shift
                let high = shift == 0 ? 0 : UInt64(raw[byteIndex + 8]) << (64 - shift)
                output[index] = minimum &+ Int64(bitPattern: (low | high) & mask)
                bitOffset &+= width
            }
        }
    }
}
