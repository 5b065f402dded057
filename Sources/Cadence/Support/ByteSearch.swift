//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Searches that read eight bytes at a time (as one `UInt64`) for the readers' hot loops, where
/// the bytes sought are rare and the runs between them long.
enum ByteSearch {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The high bit of each byte of `word` that equals the byte repeated in `pattern`.
    ///
    /// A byte is zero in `x` when `x - 1` borrows into its high bit and `x`'s high bit is clear.
    /// A borrow can only flag bytes above a byte that really matches, so the lowest flag is exact.
    @inline(__always)
    private static func matches(_ word: UInt64, _ pattern: UInt64) -> UInt64 {
        let difference = word ^ pattern
        return (difference &- ones) & ~difference & highs
    }

    /// Skips eight bytes at a time while none is `byte`.
    ///
    /// - Returns: The index of the first `byte`, or of the last fewer than eight bytes before
    ///   `limit`.
    /// - Complexity: O(*n*) for the *n* bytes skipped, one word read per eight.
    @inline(__always)
    static func skip(_ bytes: UnsafePointer<UInt8>, from start: Int, limit: Int, notEqualTo byte: UInt8) -> Int {
        let pattern = ones &* UInt64(byte)
        let raw = UnsafeRawPointer(bytes)
        var index = start
        while limit - index >= 8 {
            let flags = matches(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)), pattern)
            if flags != 0 { return index + flags.trailingZeroBitCount >> 3 }
            index += 8
        }
        return index
    }

    /// Skips eight bytes at a time while none is `first`, `second` or `third`.
    ///
    /// - Returns: The index of the first such byte, or of the last fewer than eight bytes before
    ///   `limit`.
    /// - Complexity: O(*n*) for the *n* bytes skipped, one word read per eight.
    @inline(__always)
    static func skip(
        _ bytes: UnsafePointer<UInt8>, from start: Int, limit: Int, notEqualTo first: UInt8, _ second: UInt8,
        _ third: UInt8
    ) -> Int {
        let firstPattern = ones &* UInt64(first)
        let secondPattern = ones &* UInt64(second)
        let thirdPattern = ones &* UInt64(third)
        let raw = UnsafeRawPointer(bytes)
        var index = start
        while limit - index >= 8 {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let flags = matches(word, firstPattern) | matches(word, secondPattern) | matches(word, thirdPattern)
            if flags != 0 { return index + flags.trailingZeroBitCount >> 3 }
            index += 8
        }
        return index
    }
}
