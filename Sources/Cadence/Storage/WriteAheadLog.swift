//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What one log record says happened. Replaying the records in order rebuilds the unflushed part
/// of the store.
package enum LogEntry: Sendable {
    /// Samples saved in one transaction, per type, with their sequences and store-wide provenance
    /// numbers already assigned, and the provenances first used by them.
    case save(newProvenances: [(number: UInt32, provenance: Provenance)], batches: [(type: QuantityType, columns: SampleColumns)])
    /// Samples deleted in one transaction.
    case delete([Tombstone])
    /// Stored samples deleted and samples saved in one transaction (a save that replaces what
    /// it supersedes, such as a day's activity summary): the deletions come first in the change
    /// sequence. Written since format version 5.
    case replace([Tombstone], newProvenances: [(number: UInt32, provenance: Provenance)],
                 batches: [(type: QuantityType, columns: SampleColumns)])

    private static let saveTag: UInt8 = 1
    private static let deleteTag: UInt8 = 2
    /// A save whose batches each end with a payload section (format version 5; written only when
    /// a row has a payload, so a save without one is the record version 4 wrote and reads).
    private static let saveWithPayloadsTag: UInt8 = 3
    private static let replaceTag: UInt8 = 4

    /// The entry's parts in the order they apply: a replacement is its deletion, then its save.
    package var parts: [LogEntry] {
        guard case .replace(let tombstones, let newProvenances, let batches) = self else { return [self] }
        return [.delete(tombstones), .save(newProvenances: newProvenances, batches: batches)]
    }

    package func encode() throws -> [UInt8] {
        var writer = BinaryWriter()
        switch self {
        case .save(let newProvenances, let batches):
            let hasPayloads = Self.hasPayloads(batches)
            writer.write(hasPayloads ? Self.saveWithPayloadsTag : Self.saveTag)
            try Self.writeSave(newProvenances, batches, withPayloads: hasPayloads, into: &writer)
        case .delete(let tombstones):
            writer.write(Self.deleteTag)
            Self.writeDeletions(tombstones, into: &writer)
        case .replace(let tombstones, let newProvenances, let batches):
            writer.write(Self.replaceTag)
            Self.writeDeletions(tombstones, into: &writer)
            let hasPayloads = Self.hasPayloads(batches)
            writer.write(UInt8(hasPayloads ? 1 : 0))
            try Self.writeSave(newProvenances, batches, withPayloads: hasPayloads, into: &writer)
        }
        return writer.bytes
    }

    private static func writeDeletions(_ tombstones: [Tombstone], into writer: inout BinaryWriter) {
        writer.writeVarint(UInt64(tombstones.count))
        for tombstone in tombstones { tombstone.write(to: &writer) }
    }

    private static func hasPayloads(_ batches: [(type: QuantityType, columns: SampleColumns)]) -> Bool {
        batches.contains { !$0.columns.payloads.isEmpty }
    }

    private static func writeSave(_ newProvenances: [(number: UInt32, provenance: Provenance)],
                                  _ batches: [(type: QuantityType, columns: SampleColumns)],
                                  withPayloads: Bool, into writer: inout BinaryWriter) throws {
        writer.writeVarint(UInt64(newProvenances.count))
        for (number, provenance) in newProvenances {
            writer.writeVarint(UInt64(number))
            provenance.write(to: &writer)
        }
        writer.writeVarint(UInt64(batches.count))
        for (type, columns) in batches {
            type.write(to: &writer)
            writer.writeVarint(UInt64(columns.count))
            try ChecksummedSection.writeCompressed(ColumnCodec.encodeQueryColumns(columns), into: &writer)
            try ChecksummedSection.writeCompressed(ColumnCodec.encodeDetailColumns(columns), into: &writer)
            if withPayloads {
                writer.write(bytes: try PayloadSection.encode(columns.payloads, limit: ChunkFile.sectionLimit))
            }
        }
    }

    package init(decoding bytes: [UInt8], path: String) throws {
        var reader = BinaryReader(bytes, path: path)
        switch try reader.read(UInt8.self) {
        case let tag where tag == Self.saveTag || tag == Self.saveWithPayloadsTag:
            let (provenances, batches) = try Self.readSave(&reader, bytes: bytes, path: path,
                                                           withPayloads: tag == Self.saveWithPayloadsTag)
            self = .save(newProvenances: provenances, batches: batches)
        case Self.deleteTag:
            self = .delete(try Self.readDeletions(&reader))
        case Self.replaceTag:
            let tombstones = try Self.readDeletions(&reader)
            let flag = try reader.read(UInt8.self)
            guard flag <= 1 else { throw reader.corrupt("bad payload flag \(flag) in a replace record") }
            let (provenances, batches) = try Self.readSave(&reader, bytes: bytes, path: path, withPayloads: flag == 1)
            self = .replace(tombstones, newProvenances: provenances, batches: batches)
        case let tag:
            throw reader.corrupt("unknown log record tag \(tag)")
        }
    }

    private static func readDeletions(_ reader: inout BinaryReader) throws -> [Tombstone] {
        let count = try reader.readCount(minimumItemSize: 34)
        return try (0..<count).map { _ in try Tombstone(from: &reader) }
    }

    /// - Parameter bytes: The whole record, which `reader` reads (payload sections are read in place).
    private static func readSave(_ reader: inout BinaryReader, bytes: [UInt8], path: String, withPayloads: Bool) throws
        -> ([(number: UInt32, provenance: Provenance)], [(type: QuantityType, columns: SampleColumns)])
    {
        let provenanceCount = try reader.readCount()
        var provenances: [(UInt32, Provenance)] = []
        for _ in 0..<provenanceCount {
            guard let number = UInt32(exactly: try reader.readVarint()) else { throw reader.corrupt("bad provenance number") }
            provenances.append((number, try Provenance(from: &reader)))
        }
        var batches: [(QuantityType, SampleColumns)] = []
        for _ in 0..<(try reader.readCount()) {
            let type = try QuantityType(from: &reader)
            let count = Int(clamping: try reader.readVarint())
            var columns = SampleColumns()
            let query = try ChecksummedSection.readCompressed(&reader, name: "log query columns")
            var queryReader = BinaryReader(query, path: path)
            try ColumnCodec.decodeQueryColumns(&queryReader, count: count, into: &columns)
            let detail = try ChecksummedSection.readCompressed(&reader, name: "log detail columns")
            var detailReader = BinaryReader(detail, path: path)
            // Records written before format version 5 end their detail columns before the device addresses.
            try ColumnCodec.decodeDetailColumns(&detailReader, into: &columns, deviceAddresses: .trailing)
            if withPayloads {
                let range = try PayloadSection.skip(&reader)
                columns.payloads = try PayloadSection(bytes: bytes, range: range, rowCount: columns.count, path: path)
                    .allPayloads(rowCount: columns.count)
            }
            batches.append((type, columns))
        }
        return (provenances, batches)
    }
}

/// The write-ahead log: numbered segment files of records. A record is
/// `magic · length · payload CRC-32C · header CRC-32C · payload` (four `UInt32`s, then the
/// payload); a save returns only after its record is written and `fsync`ed.
///
/// The header checksum covers the magic, the length and the payload checksum, so a record's
/// framing proves itself: a complete header that fails it is damage wherever it is, and a header
/// that passes it, whose payload runs past the end of the file, is an append a crash tore. Logs
/// written before the header checksum (format version 3 and earlier, `legacyRecordMagic`) are
/// still read, with the weaker rule their framing allows.
package enum WriteAheadLog {
    /// The magic that starts a record ("CNDR").
    package static let recordMagic: UInt32 = 0x5244_4E43
    /// The magic of a record without a header checksum ("CNDL"): `magic · length · CRC-32C · payload`.
    package static let legacyRecordMagic: UInt32 = 0x4C44_4E43
    /// The bytes of a record's header: magic, length, payload checksum, header checksum.
    package static let headerSize = 16
    /// The bytes of a legacy record's header: magic, length, payload checksum.
    package static let legacyHeaderSize = 12

    /// The file name of segment `number`.
    package static func segmentName(_ number: UInt64) -> String {
        let digits = String(number)
        return "wal-" + String(repeating: "0", count: max(0, 10 - digits.count)) + digits + ".log"
    }

    /// The segment number in a file name, if it is one.
    package static func segmentNumber(_ name: String) -> UInt64? {
        guard name.hasPrefix("wal-"), name.hasSuffix(".log") else { return nil }
        return UInt64(name.dropFirst(4).dropLast(4))
    }

    /// Frames an entry as a record.
    package static func record(_ entry: LogEntry) throws -> [UInt8] {
        let payload = try entry.encode()
        guard let length = UInt32(exactly: payload.count) else {
            throw CadenceError(.invalidArgument, "a log record of \(payload.count) bytes is over the 4 GiB a record can hold")
        }
        var writer = BinaryWriter(capacity: payload.count + headerSize)
        writer.write(recordMagic)
        writer.write(length)
        writer.write(payload.withUnsafeBytes { CRC32C.checksum($0) })
        writer.write(CRC32C.checksum(writer.bytes))
        writer.write(bytes: payload)
        return writer.bytes
    }

    /// What starts at an offset of a segment: the one place a record's framing is parsed, for
    /// opening, `verify` and `repair` alike.
    package enum Frame: Sendable {
        /// A whole record that passes its checksums and decodes; the next one starts at `end`.
        case record(LogEntry, end: Int)
        /// A record cut short by the end of the bytes, as a crash tears the append in flight: a
        /// prefix of a header, or a header that passes its checksum whose payload runs past the
        /// end. (Of the legacy framing, any header whose length runs past the end.)
        case torn
        /// Zero bytes from here to the end, where no record starts.
        case zeros
        /// A whole legacy record at the very end that fails its checksum: its framing cannot
        /// tell a tear from damage.
        case legacyBadTail
        /// Proven damage: a complete header that fails its checksum, a payload that fails its
        /// checksum under a good header, a payload that does not decode, or bytes that are no
        /// record followed by more than zeros. `isRecord` says whether a record starts here.
        case damaged(String, isRecord: Bool)
    }

    /// The little-endian `UInt32` at `offset` (which must leave four bytes).
    private static func word(at offset: Int, in bytes: [UInt8]) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    /// Whether the bytes from `offset` on (at most four) are the start of `magic`.
    private static func startsWith(_ magic: UInt32, at offset: Int, in bytes: [UInt8]) -> Bool {
        (offset..<min(offset + 4, bytes.count)).allSatisfy { bytes[$0] == UInt8(truncatingIfNeeded: magic >> (8 * ($0 - offset))) }
    }

    /// Whether a complete header of the current framing that passes its checksum starts at `offset`.
    private static func hasSoundHeader(at offset: Int, in bytes: [UInt8]) -> Bool {
        bytes.count - offset >= headerSize && word(at: offset, in: bytes) == recordMagic
            && CRC32C.checksum(bytes[offset..<offset + 12]) == word(at: offset + 12, in: bytes)
    }

    /// The frame starting at `offset` of `bytes` (`offset < bytes.count`).
    package static func frame(at offset: Int, in bytes: [UInt8], path: String) -> Frame {
        let remaining = bytes.count - offset
        guard remaining >= 4 else {
            if startsWith(recordMagic, at: offset, in: bytes) || startsWith(legacyRecordMagic, at: offset, in: bytes) {
                return .torn
            }
            return bytes[offset...].allSatisfy { $0 == 0 } ? .zeros
                : .damaged("the bytes after the last record are not a record", isRecord: false)
        }
        switch word(at: offset, in: bytes) {
        case recordMagic:
            guard remaining >= headerSize else { return .torn }
            guard hasSoundHeader(at: offset, in: bytes) else {
                return .damaged("its header (length and checksum) fails its checksum", isRecord: true)
            }
            let length = Int(word(at: offset + 4, in: bytes))
            guard length <= remaining - headerSize else { return .torn }
            return payload(at: offset + headerSize, length: length, checksum: word(at: offset + 8, in: bytes),
                           in: bytes, path: path, isLegacyTail: false)
        case legacyRecordMagic:
            guard remaining >= legacyHeaderSize else { return .torn }
            let length = Int(word(at: offset + 4, in: bytes))
            guard length <= remaining - legacyHeaderSize else { return .torn }
            return payload(at: offset + legacyHeaderSize, length: length, checksum: word(at: offset + 8, in: bytes),
                           in: bytes, path: path, isLegacyTail: offset + legacyHeaderSize + length == bytes.count)
        case let magic:
            if bytes[offset...].allSatisfy({ $0 == 0 }) { return .zeros }
            // A magic a bit or two away from a record's is that record's, damaged; garbage rarely is.
            let isRecord = (magic ^ recordMagic).nonzeroBitCount <= 2 || (magic ^ legacyRecordMagic).nonzeroBitCount <= 2
            return .damaged(isRecord ? "its header's magic is damaged" : "bytes where a record should start are not one",
                            isRecord: isRecord)
        }
    }

    /// The frame of a payload whose header was read: a record, or its damage.
    /// - Parameter isLegacyTail: A legacy record ending the bytes, whose bad checksum proves nothing.
    private static func payload(at start: Int, length: Int, checksum: UInt32, in bytes: [UInt8], path: String,
                                isLegacyTail: Bool) -> Frame {
        let end = start + length
        guard CRC32C.checksum(bytes[start..<end]) == checksum else {
            return isLegacyTail ? .legacyBadTail : .damaged("it fails its checksum", isRecord: true)
        }
        do {
            return .record(try LogEntry(decoding: Array(bytes[start..<end]), path: path), end: end)
        } catch let error as CadenceError {
            return .damaged("it is malformed: \(error.message)", isRecord: true)
        } catch {
            return .damaged("it is malformed: \(error)", isRecord: true)
        }
    }

    /// One segment read as far as its records are whole and valid.
    package struct Segment: Sendable {
        /// How a segment ends after its last valid record.
        package enum Ending: Sendable {
            /// At the end of the file.
            case clean
            /// In an append a crash tore (never acknowledged): cut when the store is next opened
            /// for writing, noted by `verify`.
            case torn
            /// In bytes that cannot hold an acknowledged record as far as the framing tells
            /// (zeros, or a legacy record at the end failing its checksum): cut when the store is
            /// next opened for writing, as a tear may leave them, but damage to `verify`; they
            /// hold `records` (1 for the legacy record, 0 for zeros).
            case unproven(CadenceError, records: Int)
            /// In a damaged record (what is wrong: `reason`): every open refuses the store, and
            /// only `repair` cuts it, with the `records` from it on (it included).
            case damaged(CadenceError, reason: String, records: Int)
        }

        /// The records up to `validLength`.
        package var entries: [LogEntry] = []
        /// Where the valid records end.
        package var validLength: Int
        package var ending: Ending = .clean
    }

    /// Reads the records of one segment from `start` on.
    ///
    /// - Complexity: O(*n*) in the bytes, plus a scan of what follows damage.
    package static func readSegment(_ bytes: [UInt8], from start: Int = 0, path: String) -> Segment {
        var segment = Segment(validLength: start)
        while segment.validLength < bytes.count {
            let offset = segment.validLength
            switch frame(at: offset, in: bytes, path: path) {
            case .record(let entry, let end):
                segment.entries.append(entry)
                segment.validLength = end
                continue
            case .torn:
                segment.ending = .torn
            case .zeros:
                let message = "the log ends in \(bytes.count - offset) zero bytes after its last record, at byte "
                    + "\(offset), where a crash may or may not have left them"
                segment.ending = .unproven(CadenceError(.corruptFile, message, path: path), records: 0)
            case .legacyBadTail:
                let message = "the last log record, at byte \(offset), fails its checksum; its framing (format version 3) "
                    + "cannot tell a torn write from damage"
                segment.ending = .unproven(CadenceError(.corruptFile, message, path: path), records: 1)
            case .damaged(let reason, let isRecord):
                let records = (isRecord ? 1 : 0) + recordsStarting(after: offset, in: bytes, path: path)
                let what = "the log record at byte \(offset) is damaged (\(reason))"
                let lost = "\(records) record\(records == 1 ? "" : "s") (\(bytes.count - offset) bytes) from there on"
                let message = "\(what); \(lost) cannot be replayed: only repair (`cadence repair`) cuts them, reporting what is lost"
                segment.ending = .damaged(CadenceError(.corruptFile, message, path: path), reason: what, records: records)
            }
            return segment
        }
        return segment
    }

    /// How many whole records start after `offset`, for counting what damage there costs: every
    /// header of the current framing that passes its checksum, and every legacy record that
    /// passes its checksum, found byte by byte past damage (a damaged length tells nothing).
    package static func recordsStarting(after offset: Int, in bytes: [UInt8], path: String) -> Int {
        var count = 0
        var position = offset + 1
        while position + 4 <= bytes.count {
            if hasSoundHeader(at: position, in: bytes) {
                let end = position + headerSize + Int(word(at: position + 4, in: bytes))
                guard end <= bytes.count else { break }
                count += 1
                position = end
            } else if word(at: position, in: bytes) == legacyRecordMagic,
                      case .record(_, let end) = frame(at: position, in: bytes, path: path) {
                count += 1
                position = end
            } else {
                position += 1
            }
        }
        return count
    }

    /// How the last segment of a log ends, for `verify`: the bytes of a torn final append (0
    /// when it ends cleanly), or the damage (bytes that may hold an acknowledged change).
    package static func inspectTail(_ bytes: [UInt8], path: String) -> Result<Int, CadenceError> {
        let segment = readSegment(bytes, path: path)
        switch segment.ending {
        case .clean: return .success(0)
        case .torn: return .success(bytes.count - segment.validLength)
        case .unproven(let error, _), .damaged(let error, _, _): return .failure(error)
        }
    }
}
