//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Variable-size payloads of a run of rows (a workout's routes), kept apart from the columns so
/// that reading the rows reads none of them, and reading one decodes only the block that holds it
/// (layout in FORMAT.md, "Payload section").
///
/// The payloads are packed, in row order, into blocks of up to ``blockSize`` bytes (a larger
/// payload has a block of its own), each LZ4-compressed and checksummed on its own; a checksummed
/// directory says which rows have a payload and where it is (block, offset, length). A chunk file
/// of format version 5 ends with one, and so does a write-ahead log save record that carries
/// payloads.
package struct PayloadSection: Sendable {
    /// Where one row's payload is.
    package struct Location: Sendable, Equatable {
        /// The block that holds it.
        package var block: Int
        /// Its first byte in the block, uncompressed.
        package var offset: Int
        /// Its length.
        package var length: Int
    }

    /// The bytes of blocks are filled up to before a new one is started.
    package static let blockSize = 256 * 1024

    /// The rows that have a payload, ascending.
    package let rows: [Int]
    /// Where each of ``rows``' payloads is.
    package let locations: [Location]
    /// Each block's framed bytes in ``bytes``.
    private let blockRanges: [Range<Int>]
    /// Each block's uncompressed length.
    private let blockLengths: [Int]
    /// The file's bytes (shared, not copied).
    private let bytes: [UInt8]
    /// The file, for error messages.
    package let path: String

    // MARK: Writing

    /// The section for `payloads`, one per row (an empty array: the row has none).
    ///
    /// - Parameter limit: The most bytes one block may hold: a payload larger than it cannot be stored.
    /// - Throws: ``CadenceError/Code/invalidArgument`` for a payload over `limit`.
    /// - Complexity: O(*b*) in the payloads' bytes.
    package static func encode(_ payloads: [[UInt8]], blockSize: Int = blockSize, limit: Int) throws -> [UInt8] {
        var blocks: [[UInt8]] = []
        var current: [UInt8] = []
        var entries: [(row: Int, location: Location)] = []
        for (row, payload) in payloads.enumerated() where !payload.isEmpty {
            guard payload.count <= limit else {
                throw CadenceError(.invalidArgument, "a payload of \(payload.count) bytes is over the \(limit) bytes a block may hold")
            }
            if !current.isEmpty, current.count + payload.count > min(blockSize, limit) {
                blocks.append(current)
                current = []
            }
            entries.append((row, Location(block: blocks.count, offset: current.count, length: payload.count)))
            current += payload
        }
        if !current.isEmpty { blocks.append(current) }
        var framed = BinaryWriter()
        var compressedLengths: [Int] = []
        for block in blocks {
            let start = framed.bytes.count
            try ChecksummedSection.writeCompressed(block, into: &framed)
            compressedLengths.append(framed.bytes.count - start - frameOverhead)
        }
        var directory = BinaryWriter()
        directory.writeVarint(UInt64(blocks.count))
        for (block, compressed) in zip(blocks, compressedLengths) {
            directory.writeVarint(UInt64(block.count))
            directory.writeVarint(UInt64(compressed))
        }
        directory.writeVarint(UInt64(entries.count))
        var next = 0
        for (row, location) in entries {
            directory.writeVarint(UInt64(row - next))
            directory.writeVarint(UInt64(location.block))
            directory.writeVarint(UInt64(location.offset))
            directory.writeVarint(UInt64(location.length))
            next = row + 1
        }
        var writer = BinaryWriter(capacity: framed.bytes.count + directory.bytes.count + 32)
        try ChecksummedSection.writeCompressed(directory.bytes, into: &writer)
        writer.write(UInt64(framed.bytes.count))
        writer.write(bytes: framed.bytes)
        return writer.bytes
    }

    /// The bytes a compressed section's framing adds: uncompressed length, length, checksum.
    private static let frameOverhead = 12

    // MARK: Reading

    /// Steps over a section, checking only its framing (its checksums are checked when it is read).
    ///
    /// - Returns: The section's bytes in the reader's storage.
    /// - Throws: ``CadenceError/Code/corruptFile`` when the section runs past the end.
    package static func skip(_ reader: inout BinaryReader) throws -> Range<Int> {
        let start = reader.offset
        _ = try reader.read(UInt32.self)
        let directoryLength = Int(try reader.read(UInt32.self))
        _ = try reader.readBytes(4 + directoryLength)
        let blocksLength = try reader.read(UInt64.self)
        guard blocksLength <= UInt64(reader.remaining) else { throw reader.corrupt("the payload blocks are truncated") }
        _ = try reader.readBytes(Int(blocksLength))
        return start..<reader.offset
    }

    /// Reads the directory of the section at `range` of `bytes`, for a run of `rowCount` rows.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming `path` when the directory fails its
    ///   checksum or does not describe the blocks that follow it.
    /// - Complexity: O(*p*) for the *p* rows with a payload; no block is decompressed.
    package init(bytes: [UInt8], range: Range<Int>, rowCount: Int, path: String) throws {
        var reader = BinaryReader(bytes, path: path, range: range)
        let raw = try ChecksummedSection.readCompressed(&reader, name: "payload directory")
        let blocksLength = Int(clamping: try reader.read(UInt64.self))
        guard blocksLength == reader.remaining else { throw reader.corrupt("the payload blocks do not fill the section") }
        var directory = BinaryReader(raw, path: path)
        let blockCount = try directory.readCount(minimumItemSize: 2)
        var blockRanges: [Range<Int>] = []
        var blockLengths: [Int] = []
        var position = reader.offset
        for _ in 0..<blockCount {
            let length = Int(clamping: try directory.readVarint())
            let compressed = Int(clamping: try directory.readVarint())
            guard compressed <= range.upperBound - position - Self.frameOverhead else {
                throw directory.corrupt("a payload block runs past the section")
            }
            blockLengths.append(length)
            blockRanges.append(position..<position + Self.frameOverhead + compressed)
            position += Self.frameOverhead + compressed
        }
        guard position == range.upperBound else { throw directory.corrupt("the payload blocks do not fill the section") }
        let entryCount = try directory.readCount(minimumItemSize: 4)
        var rows: [Int] = []
        var locations: [Location] = []
        rows.reserveCapacity(entryCount)
        locations.reserveCapacity(entryCount)
        var next = 0
        for _ in 0..<entryCount {
            let gap = try directory.readVarint()
            guard gap < UInt64(rowCount - next) else { throw directory.corrupt("a payload of a row past the rows") }
            let row = next + Int(gap)
            let block = try directory.readVarint()
            let offset = try directory.readVarint()
            let length = try directory.readVarint()
            guard block < UInt64(blockCount), length > 0, offset <= UInt64(blockLengths[Int(block)]),
                  length <= UInt64(blockLengths[Int(block)]) - offset else {
                throw directory.corrupt("a payload lies outside its block")
            }
            rows.append(row)
            locations.append(Location(block: Int(block), offset: Int(offset), length: Int(length)))
            next = row + 1
        }
        guard directory.isAtEnd else { throw directory.corrupt("the payload directory has trailing bytes") }
        self.rows = rows
        self.locations = locations
        self.blockRanges = blockRanges
        self.blockLengths = blockLengths
        self.bytes = bytes
        self.path = path
    }

    /// The number of payload blocks.
    package var blockCount: Int { blockRanges.count }

    /// Decompresses block `index`, or only its first `prefix` bytes, checking the checksum of
    /// its whole compressed bytes.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming the file.
    package func block(_ index: Int, prefix: Int? = nil) throws -> [UInt8] {
        var reader = BinaryReader(bytes, path: path, range: blockRanges[index])
        let rawLength = Int(try reader.read(UInt32.self))
        guard rawLength == blockLengths[index] else {
            throw CadenceError(.corruptFile, "payload block \(index) is not the length its directory says", path: path)
        }
        let compressed = try ChecksummedSection.read(&reader, name: "payload block \(index)")
        return try LZ4Codec.decompress(compressed, decompressedCount: rawLength, prefix: prefix, path: path)
    }

    /// The payload of `row`, or `nil` when it has none; only its block is decompressed, and of it
    /// only as far as the payload reaches.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming the file when the block is damaged.
    /// - Complexity: O(log *p*) to find it, plus O(*s*) for a block of *s* bytes.
    package func payload(atRow row: Int) throws -> [UInt8]? {
        let index = rows.partitionPoint { $0 >= row }
        guard index < rows.count, rows[index] == row else { return nil }
        let location = locations[index]
        let end = location.offset + location.length
        let block = try block(location.block, prefix: end)
        return location.offset == 0 ? block : Array(block[location.offset..<end])
    }

    /// Every row's payload (an empty array for a row without one), each block decompressed once.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming the file when a block is damaged.
    /// - Complexity: O(*b*) in the payloads' bytes.
    package func allPayloads(rowCount: Int) throws -> [[UInt8]] {
        guard !rows.isEmpty else { return [] }
        var payloads = [[UInt8]](repeating: [], count: rowCount)
        var decoded: (index: Int, bytes: [UInt8])?
        for (row, location) in zip(rows, locations) {
            if decoded?.index != location.block { decoded = (location.block, try block(location.block)) }
            if let bytes = decoded?.bytes { payloads[row] = Array(bytes[location.offset..<location.offset + location.length]) }
        }
        return payloads
    }

    /// Checks every block's checksum.
    package func verify() throws {
        for index in blockRanges.indices { _ = try block(index) }
    }
}
