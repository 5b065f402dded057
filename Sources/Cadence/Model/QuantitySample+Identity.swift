//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

extension QuantitySample {
    /// The deterministic UUID of a sample that arrived without one **[Cadence rule]**: a
    /// version-8 UUID hashed from the type, source name, start, end and canonical value, so the
    /// same record imported twice gets the same identity and is skipped the second time.
    ///
    /// Times are in microseconds since 1970 (see ``Timestamp``).
    public static func derivedUUID(type: String, sourceName: String, start: Timestamp, end: Timestamp,
                                   value: Double) -> UUID {
        var hash = StableHash()
        hash.combine(type)
        hash.combine(sourceName)
        hash.combine(UInt64(bitPattern: start))
        hash.combine(UInt64(bitPattern: end))
        hash.combine(value == 0 ? 0 : value.bitPattern)  // +0 and -0 are the same value
        let (high, low) = hash.finalize()
        return UUID(high: high, low: low, version: 8)
    }
}

extension UUID {
    /// A UUID from two 64-bit halves (big-endian), with the version and RFC 4122 variant bits set
    /// when `version` is given.
    package init(high: UInt64, low: UInt64, version: UInt8? = nil) {
        var high = high
        var low = low
        if let version {
            high = (high & ~0xF000) | (UInt64(version & 0xF) << 12)
            low = (low & ~(0xC000_0000_0000_0000)) | 0x8000_0000_0000_0000
        }
        let h = high.bigEndian
        let l = low.bigEndian
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { raw in
            raw.storeBytes(of: h, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: l, toByteOffset: 8, as: UInt64.self)
        }
        self.init(uuid: bytes)
    }

    /// The UUID as two 64-bit halves (big-endian order).
    package var halves: (high: UInt64, low: UInt64) {
        withUnsafeBytes(of: uuid) { raw in
            (UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
             UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
    }
}
