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

    private static let saveTag: UInt8 = 1
    private static let deleteTag: UInt8 = 2

    package func encode() throws -> [UInt8] {
        var writer = BinaryWriter()
        switch self {
        case .save(let newProvenances, let batches):
            writer.write(Self.saveTag)
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
            }
        case .delete(let tombstones):
            writer.write(Self.deleteTag)
            writer.writeVarint(UInt64(tombstones.count))
            for tombstone in tombstones { tombstone.write(to: &writer) }
        }
        return writer.bytes
    }

    package init(decoding bytes: [UInt8], path: String) throws {
        var reader = BinaryReader(bytes, path: path)
        switch try reader.read(UInt8.self) {
        case Self.saveTag:
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
                try ColumnCodec.decodeDetailColumns(&detailReader, into: &columns)
                batches.append((type, columns))
            }
            self = .save(newProvenances: provenances, batches: batches)
        case Self.deleteTag:
            let count = try reader.readCount(minimumItemSize: 34)
            self = .delete(try (0..<count).map { _ in try Tombstone(from: &reader) })
        case let tag:
            throw reader.corrupt("unknown log record tag \(tag)")
        }
    }
}

/// The write-ahead log: numbered segment files of checksummed records. A record is
/// `magic (UInt32) · length (UInt32) · CRC-32C (UInt32) · payload`; a save returns only after its
/// record is written and `fsync`ed.
package enum WriteAheadLog {
    static let recordMagic: UInt32 = 0x4C44_4E43  // "CNDL"
    static let headerSize = 12

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
        var writer = BinaryWriter(capacity: payload.count + headerSize)
        writer.write(recordMagic)
        writer.write(UInt32(payload.count))
        writer.write(payload.withUnsafeBytes { CRC32C.checksum($0) })
        writer.write(bytes: payload)
        return writer.bytes
    }

    /// What starts at an offset of a segment: the one place a record's framing
    /// (`magic · length · CRC-32C · payload`) is parsed, for opening, `verify` and `repair` alike.
    package enum Frame {
        /// A whole record that passes its checksum and decodes; the next one starts at `end`.
        case record(LogEntry, end: Int)
        /// The header or the payload runs past the end of the bytes.
        case truncated
        /// The first four bytes are not a record's magic.
        case badHeader
        /// A whole record that fails its checksum; what follows it starts at `end`.
        case badChecksum(end: Int)
        /// A whole record that passes its checksum but does not decode.
        case malformed(String)
    }

    /// The frame starting at `offset` of `bytes`.
    package static func frame(at offset: Int, in bytes: [UInt8], path: String) -> Frame {
        guard bytes.count - offset >= headerSize else { return .truncated }
        var reader = BinaryReader(bytes, path: path)
        guard (try? reader.readBytes(offset)) != nil, let magic = try? reader.read(UInt32.self),
              let length = try? reader.read(UInt32.self), let checksum = try? reader.read(UInt32.self)
        else { return .truncated }
        guard magic == recordMagic else { return .badHeader }
        guard Int(length) <= reader.remaining, let payload = try? reader.readBytes(Int(length)) else { return .truncated }
        let end = reader.offset
        guard payload.withUnsafeBytes({ CRC32C.checksum($0) }) == checksum else { return .badChecksum(end: end) }
        do {
            return .record(try LogEntry(decoding: Array(payload), path: path), end: end)
        } catch let error as CadenceError {
            return .malformed(error.message)
        } catch {
            return .malformed("\(error)")
        }
    }

    /// Whether a record's magic starts at `offset` (as far as the bytes go).
    package static func startsWithRecordMagic(_ bytes: ArraySlice<UInt8>) -> Bool {
        var magic = BinaryWriter()
        magic.write(recordMagic)
        return !bytes.isEmpty && bytes.prefix(4).elementsEqual(magic.bytes.prefix(bytes.count))
    }

    /// Reads the records of one segment, as opening does.
    ///
    /// A torn tail — a record whose header or payload runs past the end of the file, or the
    /// file's last record failing its checksum — ends the segment: the records before it are
    /// returned with `validLength`, the offset to truncate to. Damage followed by further data is
    /// corruption and throws ``CadenceError/Code/corruptFile`` naming the file.
    package static func readSegment(_ bytes: [UInt8], path: String) throws -> (entries: [LogEntry], validLength: Int) {
        var entries: [LogEntry] = []
        var offset = 0
        while offset < bytes.count {
            switch frame(at: offset, in: bytes, path: path) {
            case .record(let entry, let end):
                entries.append(entry)
                offset = end
            case .truncated:
                return (entries, offset)
            case .badHeader:
                // Zeros or garbage at the very end are a torn append; anywhere else, corruption.
                if bytes[offset...].allSatisfy({ $0 == 0 }) { return (entries, offset) }
                throw CadenceError(.corruptFile, "log record at byte \(offset) has a bad header", path: path)
            case .badChecksum(let end):
                if end == bytes.count { return (entries, offset) }
                throw CadenceError(.corruptFile, "log record at byte \(offset) fails its checksum", path: path)
            case .malformed(let message):
                throw CadenceError(.corruptFile, "log record at byte \(offset) is malformed: \(message)", path: path)
            }
        }
        return (entries, bytes.count)
    }

    /// The length of a segment's longest prefix of whole, valid records: what `repair` keeps.
    package static func validLength(of bytes: [UInt8], path: String) -> Int {
        var offset = 0
        while offset < bytes.count, case .record(_, let end) = frame(at: offset, in: bytes, path: path) { offset = end }
        return offset
    }

    /// How many records start in the damaged bytes from `offset` on, for `repair`'s report: every
    /// record header (the record magic) that begins a valid record, which is skipped whole, or a
    /// damaged one, counted once. Bytes without a record header (garbage appended to the file)
    /// hold no record.
    package static func recordsStarting(from offset: Int, in bytes: [UInt8], path: String) -> Int {
        var count = 0
        var offset = offset
        while offset + 4 <= bytes.count {
            if case .record(_, let end) = frame(at: offset, in: bytes, path: path) {
                count += 1
                offset = end
            } else if startsWithRecordMagic(bytes[offset..<offset + 4]) {
                count += 1
                offset += headerSize
            } else {
                offset += 1
            }
        }
        return count
    }

    /// How the last segment of a log ends, for `verify`.
    ///
    /// Opening forgives any bad ending of the last segment (a writer cuts it), since a crash may
    /// tear the append that was in flight. Only a *clean* torn append — the file ends inside its
    /// last record, whose header, as far as it got, is a record's — is what a crash leaves; a
    /// whole-length record that fails its checksum, or zeros and garbage, are damage done after
    /// the record was written, and would silently undo an acknowledged change.
    ///
    /// - Returns: The bytes of a torn final append (0 when the segment ends cleanly), or the damage.
    package static func inspectTail(_ bytes: [UInt8], path: String) -> Result<Int, CadenceError> {
        let validLength: Int
        do {
            validLength = try readSegment(bytes, path: path).validLength
        } catch let error as CadenceError {
            return .failure(error)
        } catch {
            return .failure(CadenceError(.corruptFile, "\(error)", path: path))
        }
        let tail = bytes[validLength...]
        guard !tail.isEmpty else { return .success(0) }
        // A clean tear: a record's header, as far as it got, whose record runs past the end.
        let headerIsARecords = startsWithRecordMagic(tail)
        var runsPastEnd = false
        if case .truncated = frame(at: validLength, in: bytes, path: path) { runsPastEnd = true }
        guard headerIsARecords && runsPastEnd else {
            return .failure(CadenceError(.corruptFile, "the last log record, at byte \(validLength), is damaged, not torn by an unfinished write; opening the store for writing would drop the change it holds (run repair to see it counted)", path: path))
        }
        return .success(tail.count)
    }
}
