//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The framing of every stored section: `length` (UInt32), `CRC-32C` of the payload (UInt32),
/// then the payload. A mismatch is ``CadenceError/Code/corruptFile`` naming the file and the section.
package enum ChecksummedSection {
    /// Appends `payload` framed.
    package static func write(_ payload: [UInt8], into writer: inout BinaryWriter) {
        writer.write(UInt32(payload.count))
        writer.write(payload.withUnsafeBytes { CRC32C.checksum($0) })
        writer.write(bytes: payload)
    }

    /// Reads one framed payload and verifies its checksum unless `isChecked` (it passed before).
    package static func read(_ reader: inout BinaryReader, name: String, isChecked: Bool = false) throws -> ArraySlice<UInt8> {
        let length = Int(try reader.read(UInt32.self))
        let expected = try reader.read(UInt32.self)
        guard length <= reader.remaining else {
            throw CadenceError(.corruptFile, "the \(name) section is truncated", path: reader.path)
        }
        let payload = try reader.readBytes(length)
        guard isChecked || payload.withUnsafeBytes({ CRC32C.checksum($0) }) == expected else {
            throw CadenceError(.corruptFile, "the \(name) section fails its checksum", path: reader.path)
        }
        return payload
    }

    /// Frames LZ4-compressed `payload`: the uncompressed length, then the framed compressed bytes.
    package static func writeCompressed(_ payload: [UInt8], into writer: inout BinaryWriter) throws {
        writer.write(UInt32(payload.count))
        write(try payload.withUnsafeBytes { try LZ4Codec.compress($0) }, into: &writer)
    }

    /// Reads and decompresses what ``writeCompressed(_:into:)`` wrote, verifying its checksum
    /// unless `isChecked`.
    package static func readCompressed(_ reader: inout BinaryReader, name: String, isChecked: Bool = false) throws -> [UInt8] {
        let rawLength = Int(try reader.read(UInt32.self))
        let compressed = try read(&reader, name: name, isChecked: isChecked)
        return try LZ4Codec.decompress(compressed, decompressedCount: rawLength, path: reader.path)
    }
}
