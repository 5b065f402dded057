//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import CLZ4

/// LZ4 block compression: the only place liblz4's return codes become Swift errors.
package enum LZ4Codec {
    /// Compresses `input` into an LZ4 block.
    ///
    /// - Throws: ``CadenceError/Code/compression`` if the input is too large for one block or
    ///   LZ4 reports a failure.
    /// - Complexity: O(*n*).
    ///
    /// The corresponding C function is `LZ4_compress_default`.
    package static func compress(_ input: UnsafeRawBufferPointer) throws -> [UInt8] {
        guard input.count <= Int(LZ4_MAX_INPUT_SIZE) else {
            throw CadenceError(.compression, "a block of \(input.count) bytes is too large for LZ4")
        }
        if input.isEmpty { return [] }
        let bound = Int(LZ4_compressBound(Int32(input.count)))
        var output = [UInt8](repeating: 0, count: bound)
        let written = output.withUnsafeMutableBytes { destination in
            LZ4_compress_default(input.baseAddress?.assumingMemoryBound(to: CChar.self),
                                 destination.baseAddress?.assumingMemoryBound(to: CChar.self),
                                 Int32(input.count), Int32(bound))
        }
        guard written > 0 else { throw CadenceError(.compression, "LZ4 failed to compress \(input.count) bytes") }
        output.removeSubrange(Int(written)...)
        return output
    }

    /// Decompresses an LZ4 block into `output`: the block must expand to exactly `output`'s
    /// size, or, unless `whole`, to at least that size, of which only that first part is decoded.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming `path` when the block is malformed or
    ///   expands to a different size; LZ4's safe decoder never reads or writes out of bounds.
    /// - Complexity: O(*n*) for the *n* bytes decoded.
    ///
    /// The corresponding C functions are `LZ4_decompress_safe` and `LZ4_decompress_safe_partial`.
    package static func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
                                   whole: Bool = true, path: String) throws {
        if output.isEmpty && (input.isEmpty || !whole) { return }
        guard input.count <= Int(Int32.max), output.count <= Int(Int32.max) else {
            throw CadenceError(.corruptFile, "an LZ4 block is larger than 2 GiB", path: path)
        }
        let source = input.baseAddress?.assumingMemoryBound(to: CChar.self)
        let destination = output.baseAddress?.assumingMemoryBound(to: CChar.self)
        let result = whole
            ? LZ4_decompress_safe(source, destination, Int32(input.count), Int32(output.count))
            : LZ4_decompress_safe_partial(source, destination, Int32(input.count), Int32(output.count), Int32(output.count))
        guard result == Int32(output.count) else {
            throw CadenceError(.corruptFile, "an LZ4 block does not decompress (code \(result))", path: path)
        }
    }

    /// LZ4 expands a block at most this many times (a match adds at most 255 bytes a byte).
    static let maximumExpansion = 255

    /// Decompresses a block of `decompressedCount` bytes into a new array, or only its first
    /// `prefix` bytes when given (no more than `decompressedCount`).
    ///
    /// A count that `input` cannot expand to is refused before anything is allocated, so a
    /// damaged length cannot make us allocate gigabytes. The array is not zeroed first: LZ4
    /// writes every byte it returns.
    package static func decompress(_ input: ArraySlice<UInt8>, decompressedCount: Int, prefix: Int? = nil,
                                   path: String) throws -> [UInt8] {
        guard decompressedCount >= 0, decompressedCount <= 1 << 31,
              decompressedCount <= input.count * maximumExpansion + 16 else {
            throw CadenceError(.corruptFile, "an LZ4 block of \(input.count) bytes claims \(decompressedCount) bytes",
                               path: path)
        }
        let length = min(max(prefix ?? decompressedCount, 0), decompressedCount)
        return try input.withUnsafeBytes { source in
            try [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
                try decompress(source, into: UnsafeMutableRawBufferPointer(buffer), whole: length == decompressedCount,
                               path: path)
                initialized = length
            }
        }
    }
}
