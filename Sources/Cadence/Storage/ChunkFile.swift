//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// An immutable chunk of samples of one type, sorted by start time: its summaries and its two
/// compressed column sections (layout in FORMAT.md).
///
/// The summary section is read without decompressing anything; the query section is decoded for
/// statistics; the detail section only for sample listings.
package struct ChunkFile: Sendable {
    /// The magic bytes at the start of every chunk file.
    static let magic: [UInt8] = Array("CDNCHUNK".utf8)

    /// The path of the file, for error messages.
    package let path: String
    /// The format version the file was written in (older chunk files are still read).
    package let version: UInt16
    /// The type's identifier.
    package let typeIdentifier: String
    /// The whole chunk's summary.
    package let summary: SampleSummary
    /// One summary per block of rows (see ``ColumnCodec/blockBoundaries(_:)``).
    package let blocks: [SampleSummary]
    /// The rows of each block.
    package let blockRows: [Range<Int>]
    /// The query columns, LZ4-compressed (decoded by ``decodeQueryColumns(into:)``).
    private let bytes: [UInt8]
    private let queryRange: Range<Int>
    private let detailRange: Range<Int>

    /// Serialises sorted `columns` into a chunk file's bytes.
    package static func encode(_ columns: SampleColumns, typeIdentifier: String, style: AggregationStyle) throws
        -> (bytes: [UInt8], summary: SampleSummary)
    {
        let summary = SampleSummary(columns, rows: 0..<columns.count, style: style)
        var summaryWriter = BinaryWriter()
        summaryWriter.write(typeIdentifier)
        summaryWriter.writeVarint(UInt64(columns.count))
        summary.write(to: &summaryWriter)
        let blockRanges = ColumnCodec.blockBoundaries(columns)
        summaryWriter.writeVarint(UInt64(blockRanges.count))
        for rows in blockRanges {
            SampleSummary(columns, rows: rows, style: style).write(to: &summaryWriter)
        }
        var writer = BinaryWriter(capacity: columns.count + 4096)
        writer.write(bytes: magic)
        writer.write(FormatVersion.current)
        ChecksummedSection.write(summaryWriter.bytes, into: &writer)
        try ChecksummedSection.writeCompressed(ColumnCodec.encodeQueryColumns(columns), into: &writer)
        try ChecksummedSection.writeCompressed(ColumnCodec.encodeDetailColumns(columns), into: &writer)
        return (writer.bytes, summary)
    }

    /// Parses a chunk file's header and summaries, checking the summary checksum and the framing of
    /// the column sections (their checksums are checked when they are decoded).
    package init(bytes: [UInt8], path: String) throws {
        let header = try FormatVersion.readHeader(bytes, magic: Self.magic, kind: "chunk file", path: path)
        var reader = header.reader
        version = header.version
        let summaryBytes = try ChecksummedSection.read(&reader, name: "summary")
        var summaryReader = BinaryReader(Array(summaryBytes), path: path)
        typeIdentifier = try summaryReader.readString()
        let count = Int(clamping: try summaryReader.readVarint())
        summary = try SampleSummary(from: &summaryReader)
        let blockCount = try summaryReader.readCount()
        blocks = try (0..<blockCount).map { _ in try SampleSummary(from: &summaryReader) }
        var rows = 0
        var ranges: [Range<Int>] = []
        for block in blocks {
            guard block.count > 0 else { throw CadenceError(.corruptFile, "an empty block summary", path: path) }
            ranges.append(rows..<rows + block.count)
            rows += block.count
        }
        guard summary.count == count, rows == count else {
            throw CadenceError(.corruptFile, "the summary does not match the chunk's row count", path: path)
        }
        blockRows = ranges
        let queryStart = reader.offset
        _ = try reader.read(UInt32.self)
        let queryLength = Int(try reader.read(UInt32.self))
        _ = try reader.readBytes(4 + queryLength)
        queryRange = queryStart..<reader.offset
        let detailStart = reader.offset
        _ = try reader.read(UInt32.self)
        let detailLength = Int(try reader.read(UInt32.self))
        _ = try reader.readBytes(4 + detailLength)
        detailRange = detailStart..<reader.offset
        guard reader.isAtEnd else { throw CadenceError(.corruptFile, "trailing bytes after the chunk", path: path) }
        self.bytes = bytes
        self.path = path
    }

    /// The number of samples.
    package var count: Int { summary.count }

    /// The size of the file.
    package var byteCount: Int { bytes.count }

    /// Decodes the query columns (start, end, value, provenance, sequence, flags) into `columns`,
    /// replacing what it held.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming the file when a checksum fails.
    /// - Complexity: O(*n*).
    package func decodeQueryColumns(into columns: inout SampleColumns) throws {
        var reader = BinaryReader(bytes, path: path, range: queryRange)
        let raw = try ChecksummedSection.readCompressed(&reader, name: "query columns")
        var rawReader = BinaryReader(raw, path: path)
        try ColumnCodec.decodeQueryColumns(&rawReader, count: count, into: &columns)
        guard rawReader.isAtEnd else { throw CadenceError(.corruptFile, "the query columns have trailing bytes", path: path) }
    }

    /// Decodes only the query columns of some blocks (see ``blockRows``), concatenated in the
    /// order given, into `columns`.
    ///
    /// - Complexity: O(*b*) to decompress the section, plus O(*k*) for the *k* rows decoded.
    package func decodeQueryBlocks(_ blocks: [Int], needs: ColumnCodec.QueryColumnNeeds = .all,
                                   into columns: inout SampleColumns) throws {
        var reader = BinaryReader(bytes, path: path, range: queryRange)
        let raw = try ChecksummedSection.readCompressed(&reader, name: "query columns")
        try ColumnCodec.decodeQueryBlocks(raw, count: count, blocks: blocks, path: path, needs: needs, into: &columns)
    }

    /// Decodes every column.
    package func decodeAllColumns() throws -> SampleColumns {
        var columns = SampleColumns()
        try decodeQueryColumns(into: &columns)
        var reader = BinaryReader(bytes, path: path, range: detailRange)
        let raw = try ChecksummedSection.readCompressed(&reader, name: "detail columns")
        var rawReader = BinaryReader(raw, path: path)
        try ColumnCodec.decodeDetailColumns(&rawReader, into: &columns, deviceAddresses: version >= 5 ? .present : .absent)
        guard rawReader.isAtEnd else { throw CadenceError(.corruptFile, "the detail columns have trailing bytes", path: path) }
        return columns
    }

    /// Checks every checksum by decoding everything.
    package func verify() throws { _ = try decodeAllColumns() }
}

/// The on-disk format version written into every file; FORMAT.md documents it.
package enum FormatVersion {
    /// Version 5: a store of this version may hold chunk files laid out as FORMAT.md's version 5
    /// describes; everything else is as in version 4, whose chunk files are still read. A version 4
    /// store is moved to version 5 when first opened for writing, so that an older build refuses it
    /// by its version.
    package static let current: UInt16 = 5
    /// Version 4: each write-ahead log record's header carries a checksum of its own, so a torn
    /// append and a damaged record are told apart (a version 3 log is still replayed); and the
    /// deletion records are in a deletions file the manifest names, appended to by each flush,
    /// not in the manifest. Chunk files and chunk lists are as in version 3.
    /// Version 3 (still read): the manifest lists each type's chunks in outline, the chunks
    /// themselves in a chunk list file per type (read when the type is first used). Chunk files
    /// are as in version 2.
    /// Version 2: derived UUIDs include every attribute and an occurrence number (<doc:HowCadenceComputes#Identity>), and
    /// the manifest keeps per-type source priority lists and every chunk's summary. Still read.
    package static let oldestRead: UInt16 = 2

    /// Checks a file's magic bytes and version, and returns a reader positioned after them, with
    /// the version.
    ///
    /// - Parameter oldest: The oldest version of this kind of file (chunk lists began with 3).
    /// - Throws: ``CadenceError/Code/corruptFile`` for wrong magic bytes,
    ///   ``CadenceError/Code/unsupportedFormatVersion`` for another version.
    package static func readHeader(_ bytes: [UInt8], magic: [UInt8], kind: String, path: String,
                                   oldest: UInt16 = oldestRead) throws -> (reader: BinaryReader, version: UInt16) {
        guard bytes.count >= magic.count + 2, Array(bytes[0..<magic.count]) == magic else {
            throw CadenceError(.corruptFile, "not a Cadence \(kind) (bad magic)", path: path)
        }
        var reader = BinaryReader(bytes, path: path)
        _ = try reader.readBytes(magic.count)
        let version = try reader.read(UInt16.self)
        if version == 1 {
            throw CadenceError(.unsupportedFormatVersion,
                               "this store was written by an earlier Cadence whose sample identities merged distinct look-alike records; it is not migrated: re-import your data into a new store",
                               path: path)
        }
        guard (oldest...current).contains(version) else {
            throw CadenceError(.unsupportedFormatVersion,
                               "\(kind) format version \(version) is not supported (this build reads \(oldest) to \(current))",
                               path: path)
        }
        return (reader, version)
    }
}
