//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A 128-bit hash that is the same on every machine and every run (unlike `Hasher`, which is
/// seeded per process), for identifiers that are stored: derived sample UUIDs and store ids.
///
/// Two independent 64-bit lanes, each mixing 8-byte words with the SplitMix64 finaliser. Not a
/// cryptographic hash; collisions matter only between samples of the same type and source.
package struct StableHash {
    private var lane0: UInt64 = 0x9E37_79B9_7F4A_7C15
    private var lane1: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private var length: UInt64 = 0

    package init() {}

    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Adds one 64-bit word.
    package mutating func combine(_ word: UInt64) {
        lane0 = StableHash.mix(lane0 ^ word) &+ 0x632B_E59B_D9B4_E019
        lane1 = StableHash.mix(lane1 &+ (word &* 0xFF51_AFD7_ED55_8CCD)) ^ lane0
        length &+= 1
    }

    /// Adds a string's UTF-8 bytes and its length (so `"ab","c"` and `"a","bc"` differ).
    package mutating func combine(_ string: String) {
        var word: UInt64 = 0
        var shift: UInt64 = 0
        var count: UInt64 = 0
        for byte in string.utf8 {
            word |= UInt64(byte) << shift
            shift += 8
            count += 1
            if shift == 64 { combine(word); word = 0; shift = 0 }
        }
        combine(word)
        combine(count)
    }

    /// The two lanes, finalised.
    package func finalize() -> (UInt64, UInt64) {
        (StableHash.mix(lane0 ^ length), StableHash.mix(lane1 &+ lane0))
    }
}
