//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The central directory of a zip archive, read with bounds checks on every field.
///
/// ZIPFoundation's `Archive` does not make public what a careful reader must check (the
/// encryption flag, where an entry's data starts), and its inflater reads past an entry and
/// never ends on a deflate stream cut short. So Cadence reads the directory itself and uses
/// ZIPFoundation only to inflate, through a bounded provider (see ``ExportArchive``).
struct ZIPDirectory {
    /// One entry of the central directory.
    struct Entry {
        /// The path as stored (UTF-8 or code page 437; only ASCII matters here).
        var pathBytes: [UInt8]
        /// General purpose flags; bit 0 means encrypted.
        var flags: UInt16
        /// The compression method: 0 stored, 8 deflated.
        var method: UInt16
        /// The CRC-32 of the uncompressed data.
        var crc32: UInt32
        /// The size of the data as stored.
        var compressedSize: UInt64
        /// The size of the data once inflated, as declared.
        var uncompressedSize: UInt64
        /// Where the entry's local header starts.
        var localHeaderOffset: UInt64
        /// Which system made the entry (high byte) and the zip version.
        var versionMadeBy: UInt16
        /// File mode and attributes, as the making system writes them.
        var externalAttributes: UInt32

        /// The path, for messages and matching.
        var path: String { String(decoding: pathBytes, as: UTF8.self) }
        /// Whether the entry is encrypted.
        var isEncrypted: Bool { flags & 0x0001 != 0 }
        /// Whether the entry is a directory.
        var isDirectory: Bool { pathBytes.last == UInt8(ascii: "/") || pathBytes.last == UInt8(ascii: "\\") }
        /// Whether the entry is a symbolic link (a Unix or macOS mode of `S_IFLNK`).
        var isSymbolicLink: Bool {
            let system = versionMadeBy >> 8
            guard system == 3 || system == 19 else { return false }
            return (externalAttributes >> 16) & 0o170000 == 0o120000
        }
        /// The path split at `/` and `\`.
        var components: [ArraySlice<UInt8>] {
            pathBytes.split(omittingEmptySubsequences: false) {
                $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\")
            }
        }
        /// Why the path is refused, if it is: it climbs out (`..`), is absolute, or holds NUL.
        var pathProblem: String? {
            if pathBytes.contains(0) { return "holds a NUL byte" }
            if let first = pathBytes.first, first == UInt8(ascii: "/") || first == UInt8(ascii: "\\") {
                return "is absolute"
            }
            if pathBytes.count >= 2 && pathBytes[1] == UInt8(ascii: ":") { return "starts with a drive letter" }
            if components.contains(where: { $0.elementsEqual("..".utf8) }) { return "climbs out with '..'" }
            return nil
        }
    }

    /// Where the central directory lies.
    var directoryOffset: UInt64
    /// Its size in bytes.
    var directorySize: UInt64
    /// The number of entries it declares.
    var entryCount: UInt64

    /// Locates the central directory of the archive.
    ///
    /// - Parameters:
    ///   - source: The archive.
    ///   - maxDirectoryBytes: The largest directory accepted.
    /// - Throws: ``CadenceError`` with ``CadenceError/Code/malformedInput`` if the file is not
    ///   a zip archive or is truncated, ``CadenceError/Code/hostileInput`` if the directory is
    ///   larger than `maxDirectoryBytes`.
    init(source: FileByteSource, maxDirectoryBytes: Int) throws {
        let path = source.path
        let endRecordSize: Int64 = 22
        guard source.size >= endRecordSize else {
            throw CadenceError(.malformedInput, "is not a zip archive: it is too short", path: path)
        }
        let tailCount = Int(min(source.size, endRecordSize + 0xFFFF))
        let tailOffset = source.size - Int64(tailCount)
        let tail = try source.bytes(count: tailCount, at: tailOffset)
        var found: Int?
        var position = tailCount - Int(endRecordSize)
        while position >= 0 {
            if Self.uint32(tail, position) == 0x0605_4B50 {
                let commentLength = Int(Self.uint16(tail, position + 20))
                if position + Int(endRecordSize) + commentLength <= tailCount {
                    found = position
                    break
                }
            }
            position -= 1
        }
        guard let end = found else {
            throw CadenceError(
                .malformedInput,
                "is not a zip archive, or is truncated: it has no end of central directory record",
                path: path)
        }
        let endOffset = tailOffset + Int64(end)
        let disk = Self.uint16(tail, end + 4)
        let directoryDisk = Self.uint16(tail, end + 6)
        var count = UInt64(Self.uint16(tail, end + 10))
        var size = UInt64(Self.uint32(tail, end + 12))
        var offset = UInt64(Self.uint32(tail, end + 16))
        if count == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF {
            // ZIP64: a locator sits right before the end record and points at the real one.
            guard endOffset >= 20 else {
                throw CadenceError(.malformedInput, "has a broken ZIP64 end record", path: path)
            }
            let locator = try source.bytes(count: 20, at: endOffset - 20)
            guard Self.uint32(locator, 0) == 0x0706_4B50 else {
                throw CadenceError(.malformedInput, "has a broken ZIP64 end record locator", path: path)
            }
            let recordOffset = Self.uint64(locator, 8)
            guard endOffset >= 56, recordOffset <= UInt64(endOffset - 56) else {
                throw CadenceError(.malformedInput, "has a ZIP64 end record outside the file", path: path)
            }
            let record = try source.bytes(count: 56, at: Int64(recordOffset))
            guard Self.uint32(record, 0) == 0x0606_4B50 else {
                throw CadenceError(.malformedInput, "has a broken ZIP64 end record", path: path)
            }
            count = Self.uint64(record, 32)
            size = Self.uint64(record, 40)
            offset = Self.uint64(record, 48)
        } else if disk != 0 || directoryDisk != 0 {
            throw CadenceError(.malformedInput, "is a multi-part (spanned) zip archive, which is not supported", path: path)
        }
        guard offset <= UInt64(endOffset), size <= UInt64(endOffset) - offset else {
            throw CadenceError(
                .malformedInput, "is truncated or corrupt: its central directory lies outside the file", path: path)
        }
        guard size <= UInt64(maxDirectoryBytes) else {
            throw CadenceError(
                .hostileInput, "has a central directory of \(size) bytes, more than \(maxDirectoryBytes)", path: path)
        }
        directoryOffset = offset
        directorySize = size
        entryCount = count
    }

    /// Calls `body` with each entry of the central directory, in order.
    ///
    /// - Throws: ``CadenceError`` with ``CadenceError/Code/malformedInput`` if an entry is cut
    ///   or its fields are inconsistent; and whatever `body` throws.
    func forEachEntry(in source: FileByteSource, _ body: (Entry) throws -> Void) throws {
        let path = source.path
        let directory = try source.bytes(count: Int(directorySize), at: Int64(directoryOffset))
        var position = 0
        var seen: UInt64 = 0
        let fixedSize = 46
        while seen < entryCount {
            guard position + fixedSize <= directory.count,
                  Self.uint32(directory, position) == 0x0201_4B50 else {
                throw CadenceError(
                    .malformedInput, "is corrupt: central directory entry \(seen + 1) is broken", path: path)
            }
            let nameLength = Int(Self.uint16(directory, position + 28))
            let extraLength = Int(Self.uint16(directory, position + 30))
            let commentLength = Int(Self.uint16(directory, position + 32))
            let next = position + fixedSize + nameLength + extraLength + commentLength
            guard next <= directory.count else {
                throw CadenceError(
                    .malformedInput, "is corrupt: central directory entry \(seen + 1) is cut short", path: path)
            }
            var entry = Entry(
                pathBytes: Array(directory[(position + fixedSize)..<(position + fixedSize + nameLength)]),
                flags: Self.uint16(directory, position + 8),
                method: Self.uint16(directory, position + 10),
                crc32: Self.uint32(directory, position + 16),
                compressedSize: UInt64(Self.uint32(directory, position + 20)),
                uncompressedSize: UInt64(Self.uint32(directory, position + 24)),
                localHeaderOffset: UInt64(Self.uint32(directory, position + 42)),
                versionMadeBy: Self.uint16(directory, position + 4),
                externalAttributes: Self.uint32(directory, position + 38))
            let extraStart = position + fixedSize + nameLength
            try Self.applyZIP64Extra(
                directory, from: extraStart, to: extraStart + extraLength, to: &entry, path: path)
            try body(entry)
            position = next
            seen += 1
        }
    }

    /// Where the data of `entry` starts, after checking its local header.
    ///
    /// - Throws: ``CadenceError`` with ``CadenceError/Code/malformedInput`` if the header is
    ///   broken or the data runs into the central directory.
    func dataOffset(of entry: Entry, in source: FileByteSource) throws -> UInt64 {
        let path = source.path
        guard entry.localHeaderOffset <= directoryOffset, directoryOffset - entry.localHeaderOffset >= 30 else {
            throw CadenceError(.malformedInput, "is corrupt: entry \(entry.path) starts outside the archive", path: path)
        }
        let header = try source.bytes(count: 30, at: Int64(entry.localHeaderOffset))
        guard Self.uint32(header, 0) == 0x0403_4B50 else {
            throw CadenceError(.malformedInput, "is corrupt: entry \(entry.path) has no local header", path: path)
        }
        let start = entry.localHeaderOffset + 30 + UInt64(Self.uint16(header, 26)) + UInt64(Self.uint16(header, 28))
        guard start <= directoryOffset, entry.compressedSize <= directoryOffset - start else {
            throw CadenceError(
                .malformedInput, "is truncated or corrupt: the data of entry \(entry.path) runs past its end",
                path: path)
        }
        return start
    }

    /// Reads the ZIP64 extended information extra field (ID 1), which holds the sizes and
    /// offset that the fixed fields mark as `0xFFFFFFFF`.
    private static func applyZIP64Extra(
        _ bytes: [UInt8], from start: Int, to end: Int, to entry: inout Entry, path: String
    ) throws {
        var position = start
        while position + 4 <= end {
            let identifier = uint16(bytes, position)
            let length = Int(uint16(bytes, position + 2))
            let dataStart = position + 4
            guard dataStart + length <= end else { return }
            if identifier == 0x0001 {
                var field = dataStart
                func next() throws -> UInt64 {
                    guard field + 8 <= dataStart + length else {
                        throw CadenceError(
                            .malformedInput, "is corrupt: entry \(entry.path) has a short ZIP64 field", path: path)
                    }
                    defer { field += 8 }
                    return uint64(bytes, field)
                }
                if entry.uncompressedSize == 0xFFFF_FFFF { entry.uncompressedSize = try next() }
                if entry.compressedSize == 0xFFFF_FFFF { entry.compressedSize = try next() }
                if entry.localHeaderOffset == 0xFFFF_FFFF { entry.localHeaderOffset = try next() }
                return
            }
            position = dataStart + length
        }
    }

    /// The little-endian `UInt16` at `offset`.
    static func uint16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    /// The little-endian `UInt32` at `offset`.
    static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(uint16(bytes, offset)) | UInt32(uint16(bytes, offset + 2)) << 16
    }

    /// The little-endian `UInt64` at `offset`.
    static func uint64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        UInt64(uint32(bytes, offset)) | UInt64(uint32(bytes, offset + 4)) << 32
    }
}
