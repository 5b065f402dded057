//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The CRC-32 that zip archives store (ISO-HDLC, reflected polynomial `0xEDB88320`), computed
/// eight bytes a step so that checking an inflated export costs little next to parsing it.
struct ZIPChecksum {
    /// The running register, complemented.
    private var register: UInt32 = 0xFFFF_FFFF

    /// The checksum of the bytes so far.
    var value: UInt32 { ~register }

    /// Adds bytes to the checksum.
    ///
    /// - Complexity: O(*n*) in the number of bytes.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        register = CRC32Algorithm.zip.update(register, bytes)
    }
}
