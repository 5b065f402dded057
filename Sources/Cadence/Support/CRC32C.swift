//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A table-driven CRC-32 over a reflected polynomial, eight bytes a step ("slicing by 8"):
/// CRC-32C for the store's own checksums, the ISO-HDLC CRC-32 that zip archives store.
package struct CRC32Algorithm: Sendable {
    /// CRC-32C (Castagnoli): every chunk, summary, log record and manifest carries it.
    package static let castagnoli = CRC32Algorithm(reflectedPolynomial: 0x82F6_3B78)
    /// The CRC-32 of zip archives (ISO-HDLC).
    package static let zip = CRC32Algorithm(reflectedPolynomial: 0xEDB8_8320)

    /// Eight tables of 256 entries; table `k` advances a byte that is `k` bytes further on.
    private let tables: [UInt32]

    private init(reflectedPolynomial polynomial: UInt32) {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ polynomial : crc >> 1 }
            tables[byte] = crc
        }
        for slice in 1..<8 {
            for byte in 0..<256 {
                let previous = tables[(slice - 1) * 256 + byte]
                tables[slice * 256 + byte] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        self.tables = tables
    }

    /// Advances a register (the complemented running CRC) over `bytes`.
    ///
    /// - Complexity: O(*n*) in the number of bytes.
    package func update(_ register: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        tables.withUnsafeBufferPointer { table in
            var crc = register
            var index = 0
            let count = bytes.count
            while index + 8 <= count {
                let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self).littleEndian ^ UInt64(crc)
                crc = table[7 * 256 + Int(word & 0xFF)] ^ table[6 * 256 + Int((word >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((word >> 16) & 0xFF)] ^ table[4 * 256 + Int((word >> 24) & 0xFF)]
                    ^ table[3 * 256 + Int((word >> 32) & 0xFF)] ^ table[2 * 256 + Int((word >> 40) & 0xFF)]
                    ^ table[1 * 256 + Int((word >> 48) & 0xFF)] ^ table[Int(word >> 56)]
                index &+= 8
            }
            while index < count {
                crc = (crc >> 8) ^ table[Int((crc ^ UInt32(bytes[index])) & 0xFF)]
                index &+= 1
            }
            return crc
        }
    }
}

/// CRC-32C (Castagnoli), the checksum on every chunk, summary, log record and manifest;
/// `CRC32C.checksum("123456789".utf8) == 0xE306_9283`.
package enum CRC32C {
    /// The checksum of `bytes`, continuing from `crc` (pass the previous result to checksum in pieces).
    ///
    /// - Complexity: O(*n*) in the number of bytes.
    package static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        ~CRC32Algorithm.castagnoli.update(~crc, bytes)
    }

    /// The checksum of a byte sequence.
    package static func checksum<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        Array(bytes).withUnsafeBytes { checksum($0) }
    }
}
