//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// An immutable chunk of samples of one type, sorted by start time: its summaries, its query
/// columns and its compressed detail columns (layout in FORMAT.md).
///
/// The summary section is read without decompressing anything; the query columns are decoded for
/// statistics (from version 5 in groups of consecutive blocks, so a block is decoded with a few
/// neighbours, not the whole chunk); the detail section only for sample listings.
///
/// A class: a loaded chunk is shared by every query that reads it, and handing one out then
/// costs one reference count, not one for each of its arrays.
package final class ChunkFile: Sendable {
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
    /// Each block's earliest start, side by side: a scan searches them for an interval's last
    /// block, which over the summaries themselves (some 200 bytes apart) missed the cache at each step.
    package let blockStarts: [Int64]
    /// The block summaries merged in aligned runs of blocks, derived when the file is opened.
    package let pyramid: SummaryPyramid
    /// The file's bytes, the query and detail columns compressed in them.
    let bytes: [UInt8]
    private let query: QueryLayout
    private let detailRange: Range<Int>
    /// The metadata sets, apart from the detail section (version 7 on; `nil` before).
    private let metadataSetGroups: MetadataSetGroups?
    /// The payload section (version 5 on; see ``payloads()``).
    private let payloadRange: Range<Int>?
    /// The hour-grain summaries of blocks that hold several hours (an optional section, written
    /// from version 6 on and read from version 5 on; `nil` when the file has none).
    package let hourSummaries: HourSummaries?
    /// The column sections that passed their checksums: the query section or each query block
    /// group, then the detail section (``detailSectionNumber``), then each metadata set group.
    private let checked: CheckedSections

    /// Where the query columns are in ``bytes``.
    private enum QueryLayout: Sendable {
        /// Versions 2 to 4: one compressed section holding every block.
        case section(Range<Int>)
        /// Version 5 on: runs of consecutive blocks, each run stored as one compression group.
        case groups(QueryGroups)
    }

    /// The query block directory of a chunk file of version 5 on, resolved to positions in the file.
    private struct QueryGroups: Sendable {
        /// The groups in block order.
        var groups: [StoredQueryGroup]
        /// Per block, its group and its bytes within the group's encoded bytes.
        var blocks: [(group: Int, encoded: Range<Int>)]
    }

    /// Consecutive blocks' query columns compressed together, as a version 5 chunk file stores them.
    private struct StoredQueryGroup: Sendable {
        /// The stored bytes in the file: an LZ4 block of the blocks' encoded bytes one after
        /// another, or those bytes themselves when compressing did not make them smaller (then as
        /// long as ``rawLength``).
        let stored: Range<Int>
        /// The length of the group's encoded bytes.
        let rawLength: Int
        /// The CRC-32C of the stored bytes.
        let checksum: UInt32

        var isCompressed: Bool { stored.count != rawLength }
    }

    /// The most blocks, and the most encoded bytes, one compression group of a version 5 chunk
    /// file holds (a single block over the byte bound is a group of its own).
    ///
    /// LZ4 matches within a group only, so larger groups compress better while a query decodes
    /// more neighbours of the blocks it needs (FORMAT.md, "Query blocks", has the measurements).
    package struct QueryGroupBound: Sendable {
        /// The most blocks in a group.
        package var blocks: Int
        /// The most encoded bytes in a group.
        package var bytes: Int

        /// A bound of at most `blocks` blocks and `bytes` encoded bytes a group.
        package init(blocks: Int, bytes: Int) {
            self.blocks = blocks
            self.bytes = bytes
        }

        /// The bound chunk files are written with: LZ4 matches at most 64 KiB back, so a larger
        /// group would gain little, and the benchmark's dense chunks (about 24 KiB encoded) then
        /// compress as well as one section.
        package static let standard = QueryGroupBound(blocks: 128, bytes: 64 << 10)

        /// Splits blocks of the given encoded lengths into runs within the bound, in order.
        func groups(_ lengths: [Int]) -> [Range<Int>] {
            var groups: [Range<Int>] = []
            var start = 0
            var length = 0
            for (index, blockLength) in lengths.enumerated() {
                if index > start, index - start >= blocks || length + blockLength > bytes {
                    groups.append(start..<index)
                    start = index
                    length = 0
                }
                length += blockLength
            }
            if start < lengths.count { groups.append(start..<lengths.count) }
            return groups
        }
    }

    /// Serialises sorted `columns` into a chunk file's bytes.
    ///
    /// - Parameter sectionLimit: The most bytes a compressed section's input may hold
    ///   (``SectionOverLimit`` is thrown past it, so the caller splits the rows).
    package static func encode(_ columns: SampleColumns, typeIdentifier: String, style: AggregationStyle,
                               sectionLimit: Int = sectionLimit) throws -> (bytes: [UInt8], summary: SampleSummary)
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
        try writeQueryBlocks(blockRanges.map { ColumnCodec.encodeQueryBlock(columns, rows: $0) }, into: &writer)
        try ChecksummedSection.writeCompressed(
            SectionOverLimit.check(ColumnCodec.encodeDetailColumns(columns, metadataSetsApart: true), limit: sectionLimit),
            into: &writer)
        try MetadataSetGroups.write(columns.metadataIndex.isEmpty ? [] : columns.metadataSets, limit: sectionLimit, into: &writer)
        try writePayloadSection(columns, limit: sectionLimit, into: &writer)
        HourSummaries.write(columns, blocks: blockRanges, style: style, into: &writer)
        return (writer.bytes, summary)
    }

    /// Writes encoded query blocks as version 6 stores them: a checksummed directory, then each
    /// group's stored bytes (an LZ4 block of its blocks' encoded bytes, or those bytes themselves
    /// when LZ4 does not make them smaller). The directory is the packed one (see
    /// `ChunkFile+QueryDirectory.swift`); a chunk of no blocks has the first layout's, which is as short.
    package static func writeQueryBlocks(_ blocks: [[UInt8]], bound: QueryGroupBound = .standard,
                                         into writer: inout BinaryWriter) throws {
        let groups = bound.groups(blocks.map(\.count))
        let stored = try groups.map { group in
            let encoded = Array(blocks[group].joined())
            let compressed = try encoded.withUnsafeBytes { try LZ4Codec.compress($0) }
            return compressed.count < encoded.count ? compressed : encoded
        }
        var directory = BinaryWriter(capacity: groups.count * 12 + blocks.count * 2 + 16)
        if blocks.isEmpty {
            directory.writeVarint(0)
            directory.writeVarint(0)
        } else {
            QueryDirectoryLayout.writePacked(groups: zip(groups, stored).map { ($1.count, $1.withUnsafeBytes { CRC32C.checksum($0) }, $0.count) },
                                             blockLengths: blocks.map(\.count), into: &directory)
        }
        ChecksummedSection.write(directory.bytes, into: &writer)
        for group in stored { writer.write(bytes: group) }
    }

    /// Parses a chunk file's header and summaries, checking the summary checksum (and in version 5
    /// the query block directory's) and the framing of the column sections (their checksums are
    /// checked when they are decoded).
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
        blockStarts = blocks.map(\.minimumStart)
        pyramid = SummaryPyramid(blocks: blocks)
        if version >= 5 {
            query = .groups(try Self.readQueryDirectory(&reader, blockCount: blockCount))
        } else {
            let queryStart = reader.offset
            _ = try reader.read(UInt32.self)
            let queryLength = Int(try reader.read(UInt32.self))
            _ = try reader.readBytes(4 + queryLength)
            query = .section(queryStart..<reader.offset)
        }
        let detailStart = reader.offset
        _ = try reader.read(UInt32.self)
        let detailLength = Int(try reader.read(UInt32.self))
        _ = try reader.readBytes(4 + detailLength)
        detailRange = detailStart..<reader.offset
        metadataSetGroups = version >= 7 ? try MetadataSetGroups(reading: &reader) : nil
        payloadRange = version >= 5 ? try PayloadSection.skip(&reader) : nil
        hourSummaries = version >= 5 && !reader.isAtEnd ? try Self.readHourSummaries(&reader, bytes: bytes, blocks: blocks) : nil
        guard reader.isAtEnd else { throw CadenceError(.corruptFile, "trailing bytes after the chunk", path: path) }
        checked = CheckedSections(count: Self.querySectionCount(query) + 1 + (metadataSetGroups?.groups.count ?? 0))
        self.bytes = bytes
        self.path = path
    }

    /// Reads the optional trailing section of a version 5 chunk file: a tag, then the section.
    private static func readHourSummaries(_ reader: inout BinaryReader, bytes: [UInt8],
                                          blocks: [SampleSummary]) throws -> HourSummaries {
        let tag = try reader.read(UInt8.self)
        guard tag == HourSummaries.tag else {
            throw CadenceError(.corruptFile, "an unknown section (tag \(tag)) after the payload section", path: reader.path)
        }
        return try HourSummaries(reading: &reader, bytes: bytes, blocks: blocks)
    }

    /// Reads a version 5 query block directory (either layout), and steps over the groups it describes.
    private static func readQueryDirectory(_ reader: inout BinaryReader, blockCount: Int) throws -> QueryGroups {
        var directory = BinaryReader(Array(try ChecksummedSection.read(&reader, name: "query block directory")),
                                     path: reader.path)
        let listed = try QueryDirectoryLayout.read(&directory, blockCount: blockCount)
        var groups: [StoredQueryGroup] = []
        groups.reserveCapacity(listed.groups.count)
        var blocks: [(group: Int, encoded: Range<Int>)] = []
        blocks.reserveCapacity(blockCount)
        var offset = reader.offset
        let end = reader.offset + reader.remaining
        var block = 0
        for (index, group) in listed.groups.enumerated() {
            guard group.storedLength <= end - offset else {
                throw CadenceError(.corruptFile, "the query block groups run past the end of the file", path: reader.path)
            }
            // A group is stored raw when LZ4 does not shrink it, and LZ4 expands at most 255 times.
            guard group.storedLength > 0, group.rawLength >= group.storedLength,
                  group.rawLength <= group.storedLength * LZ4Codec.maximumExpansion + 16 else {
                throw directory.corrupt("a query block group of \(group.storedLength) stored bytes claims \(group.rawLength) bytes")
            }
            groups.append(StoredQueryGroup(stored: offset..<offset + group.storedLength, rawLength: group.rawLength,
                                           checksum: group.checksum))
            offset += group.storedLength
            var start = 0
            for _ in 0..<group.blockCount {
                let length = listed.blockLengths[block]
                guard length > 0, length <= group.rawLength - start else {
                    throw directory.corrupt("query block \(block) runs past its group's encoded bytes")
                }
                blocks.append((index, start..<start + length))
                start += length
                block += 1
            }
            guard start == group.rawLength else {
                throw directory.corrupt("the blocks of query block group \(index) do not fill its encoded bytes")
            }
        }
        _ = try reader.readBytes(offset - reader.offset)
        return QueryGroups(groups: groups, blocks: blocks)
    }

    /// The number of checksummed query sections: one, or one a query block group.
    private static func querySectionCount(_ query: QueryLayout) -> Int {
        switch query {
        case .section: 1
        case .groups(let stored): stored.groups.count
        }
    }

    /// The number by which ``checked`` knows the detail section.
    private var detailSectionNumber: Int { Self.querySectionCount(query) }

    /// Runs `body` with whether section `number` passed its checksum before, and records that it
    /// has once `body` returns (`body` checks it when it had not).
    private func checkingOnce<Result>(_ number: Int, _ body: (_ isChecked: Bool) throws -> Result) rethrows -> Result {
        let result = try body(checked.contains(number))
        checked.insert(number)
        return result
    }

    /// Reads the sets numbered `numbers` (all when `nil`) from `groups`, this file's metadata set
    /// groups, into `setCount` sets, decompressing only the groups that hold them.
    private func metadataSets(_ groups: MetadataSetGroups) -> ColumnCodec.MetadataSetsApart {
        { numbers, setCount in
            guard setCount == groups.setCount else {
                throw CadenceError(.corruptFile, "the detail section counts \(setCount) metadata sets, its groups hold \(groups.setCount)",
                                   path: self.path)
            }
            var sets = [[String: String]](repeating: [:], count: setCount)
            for group in numbers.map(groups.groups(holding:)) ?? Array(groups.groups.indices) {
                try self.checkingOnce(self.detailSectionNumber + 1 + group) { isChecked in
                    try groups.decode(group: group, of: self.bytes, path: self.path, isChecked: isChecked, into: &sets)
                }
            }
            return sets
        }
    }

    /// The detail section's compressed bytes, their checksum checked (once a loaded file), and
    /// its uncompressed length.
    func detailSection() throws -> (compressed: ArraySlice<UInt8>, rawLength: Int) {
        var reader = BinaryReader(bytes, path: path, range: detailRange)
        let rawLength = Int(try reader.read(UInt32.self))
        let compressed = try checkingOnce(detailSectionNumber) {
            try ChecksummedSection.read(&reader, name: "detail columns", isChecked: $0)
        }
        return (compressed, rawLength)
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
        switch query {
        case .section(let range):
            var reader = BinaryReader(bytes, path: path, range: range)
            let raw = try checkingOnce(0) { try ChecksummedSection.readCompressed(&reader, name: "query columns", isChecked: $0) }
            var rawReader = BinaryReader(raw, path: path)
            try ColumnCodec.decodeQueryColumns(&rawReader, count: count, into: &columns)
            guard rawReader.isAtEnd else { throw CadenceError(.corruptFile, "the query columns have trailing bytes", path: path) }
        case .groups(let stored):
            try decodeQueryBlocks(Array(stored.blocks.indices), into: &columns)
        }
    }

    /// Decodes only the query columns of some blocks (see ``blockRows``), concatenated in the
    /// order given, into `columns`.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming the file when a block is out of range,
    ///   fails its checksum or does not decode.
    /// - Complexity: O(*k*) for the *k* rows decoded, read straight from the file's bytes; a
    ///   version 2 to 4 file first decompresses its whole query section, O(*n*).
    package func decodeQueryBlocks(_ blocks: [Int], needs: ColumnCodec.QueryColumnNeeds = .all,
                                   into columns: inout SampleColumns) throws {
        switch query {
        case .section(let range):
            var reader = BinaryReader(bytes, path: path, range: range)
            let raw = try checkingOnce(0) { try ChecksummedSection.readCompressed(&reader, name: "query columns", isChecked: $0) }
            try ColumnCodec.decodeQueryBlocks(raw, count: count, blocks: blocks, path: path, needs: needs, into: &columns)
        case .groups(let stored):
            for block in blocks where !stored.blocks.indices.contains(block) {
                throw CadenceError(.corruptFile, "query block \(block) out of range", path: path)
            }
            try ColumnCodec.decodeQueryBlocks(try readers(of: blocks, stored), needs: needs, into: &columns)
        }
    }

    /// Readers over the encoded bytes of version 5 query blocks. Each group holding a needed
    /// block is checked against its checksum once; a group stored raw is read in place, a
    /// compressed one is decompressed once into a shared buffer, only as far as its last needed
    /// block.
    private func readers(of blocks: [Int], _ stored: QueryGroups) throws
        -> [(number: Int, reader: BinaryReader, rows: Int)]
    {
        // Per needed group, how far into its encoded bytes the needed blocks reach.
        var reach: [Int: Int] = [:]
        for block in blocks {
            let (group, encoded) = stored.blocks[block]
            reach[group] = max(reach[group] ?? 0, encoded.upperBound)
        }
        let needed = reach.keys.sorted()
        var decompressedLength = 0
        for group in needed where stored.groups[group].isCompressed { decompressedLength += reach[group] ?? 0 }
        var starts: [Int: Int] = [:]
        let decompressed = try bytes.withUnsafeBytes { file in
            try [UInt8](unsafeUninitializedCapacity: decompressedLength) { buffer, initialized in
                let output = UnsafeMutableRawBufferPointer(buffer)
                for group in needed {
                    let location = stored.groups[group]
                    let input = UnsafeRawBufferPointer(rebasing: file[location.stored])
                    try checkingOnce(group) { isChecked in
                        guard isChecked || CRC32C.checksum(input) == location.checksum else {
                            throw CadenceError(.corruptFile, "query block group \(group) fails its checksum", path: path)
                        }
                    }
                    guard location.isCompressed else { continue }
                    let length = reach[group] ?? 0
                    let end = initialized + length
                    try LZ4Codec.decompress(input, into: UnsafeMutableRawBufferPointer(rebasing: output[initialized..<end]),
                                            whole: length == location.rawLength, path: path)
                    starts[group] = initialized
                    initialized = end
                }
            }
        }
        return blocks.map { block in
            let (group, encoded) = stored.blocks[block]
            let reader = if let start = starts[group] {
                BinaryReader(decompressed, path: path, range: start + encoded.lowerBound..<start + encoded.upperBound)
            } else {
                BinaryReader(bytes, path: path,
                             range: stored.groups[group].stored.lowerBound + encoded.lowerBound..<stored.groups[group].stored.lowerBound + encoded.upperBound)
            }
            return (block, reader, blockRows[block].count)
        }
    }

    /// Decodes every column; the rows' payloads are read into ``SampleColumns/payloads`` when
    /// `readingPayloads`, else left in the file for ``SampleColumns/payload(at:)``.
    ///
    /// - Parameter metadataRows: Given the query columns, the rows whose metadata is made into
    ///   strings, or `nil` for every row; other rows' metadata may read as empty. A listing of a
    ///   month of a chunk's workouts then builds thirty rows' attributes, not a thousand.
    package func decodeAllColumns(readingPayloads: Bool = false,
                                  metadataRows: (SampleColumns) -> [Int]? = { _ in nil }) throws -> SampleColumns {
        var columns = SampleColumns()
        try decodeQueryColumns(into: &columns)
        let detail = try detailSection()
        try decodeDetailColumns(try LZ4Codec.decompress(detail.compressed, decompressedCount: detail.rawLength, path: path),
                                into: &columns, metadataRows: metadataRows(columns))
        try attachPayloads(to: &columns, reading: readingPayloads)
        return columns
    }

    /// Decodes the decompressed detail section `raw` into `columns`, whose query columns are
    /// decoded (see ``ColumnCodec/decodeDetailColumns(_:into:deviceAddresses:metadataRows:)`` for
    /// `metadataRows`).
    func decodeDetailColumns(_ raw: [UInt8], into columns: inout SampleColumns, metadataRows: [Int]? = nil) throws {
        var reader = BinaryReader(raw, path: path)
        try ColumnCodec.decodeDetailColumns(&reader, into: &columns, deviceAddresses: version >= 5 ? .present : .absent,
                                            metadataRows: metadataRows, metadataSetsApart: metadataSetGroups.map(metadataSets))
        guard reader.isAtEnd else { throw CadenceError(.corruptFile, "the detail columns have trailing bytes", path: path) }
    }

    /// The payload section's directory (see `ChunkFile+Payloads.swift`), or `nil` for a file
    /// written before version 5, whose rows keep everything in their columns.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming the file when the directory is damaged.
    /// - Complexity: O(*p*) for the *p* rows with a payload; no payload block is decompressed.
    package func payloads() throws -> PayloadSection? {
        guard let payloadRange else { return nil }
        return try PayloadSection(bytes: bytes, range: payloadRange, rowCount: count, path: path)
    }

    /// Checks every checksum by decoding everything.
    package func verify() throws {
        _ = try decodeAllColumns()
        try payloads()?.verify()
    }
}

/// The on-disk format version written into every file; FORMAT.md documents it.
package enum FormatVersion {
    /// Version 7: chunk files keep their metadata sets apart from the detail section, in groups
    /// compressed on their own (FORMAT.md, Version 7), so that listing a few rows decompresses
    /// only their metadata. A store of an older version is moved to version 7 when first opened
    /// for writing, so that an older build refuses it by its version rather than misreading the
    /// chunk files it then writes; its older chunk files are still read, and `cadence upgrade`
    /// rewrites them.
    package static let current: UInt16 = 7
    /// Version 6 (still read): the manifest names a deletions file per type, and chunk files may
    /// hold a packed query block directory and hour summaries (FORMAT.md, Version 6).
    /// Version 5 (still read): chunk files laid out as FORMAT.md's version 5 describes, with the
    /// first query block directory layout; the manifest names one deletions file for every type.
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
