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

    /// Reads the records of one segment.
    ///
    /// A torn tail — a record whose header or payload runs past the end of the file, or the
    /// file's last record failing its checksum — ends the segment: the records before it are
    /// returned with `validLength`, the offset to truncate to. Damage followed by further data is
    /// corruption and throws ``CadenceError/Code/corruptFile`` naming the file.
    package static func readSegment(_ bytes: [UInt8], path: String) throws -> (entries: [LogEntry], validLength: Int) {
        var entries: [LogEntry] = []
        var reader = BinaryReader(bytes, path: path)
        while !reader.isAtEnd {
            let recordStart = reader.offset
            guard reader.remaining >= headerSize else { return (entries, recordStart) }
            let magic = try reader.read(UInt32.self)
            let length = Int(try reader.read(UInt32.self))
            let checksum = try reader.read(UInt32.self)
            guard magic == recordMagic else {
                // Zeros or garbage at the very end are a torn append; anywhere else, corruption.
                if bytes[recordStart...].allSatisfy({ $0 == 0 }) { return (entries, recordStart) }
                throw CadenceError(.corruptFile, "log record at byte \(recordStart) has a bad header", path: path)
            }
            guard length <= reader.remaining else { return (entries, recordStart) }
            let payload = try reader.readBytes(length)
            guard payload.withUnsafeBytes({ CRC32C.checksum($0) }) == checksum else {
                if reader.isAtEnd { return (entries, recordStart) }
                throw CadenceError(.corruptFile, "log record at byte \(recordStart) fails its checksum", path: path)
            }
            do {
                entries.append(try LogEntry(decoding: Array(payload), path: path))
            } catch let error as CadenceError {
                throw CadenceError(.corruptFile, "log record at byte \(recordStart) is malformed: \(error.message)", path: path)
            }
        }
        return (entries, bytes.count)
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
        var magic = BinaryWriter()
        magic.write(recordMagic)
        let headerIsARecords = tail.prefix(4).elementsEqual(magic.bytes.prefix(tail.count))
        var runsPastEnd = tail.count < headerSize
        if headerIsARecords && tail.count >= headerSize {
            var reader = BinaryReader(Array(tail.prefix(headerSize)), path: path)
            _ = try? reader.read(UInt32.self)
            let length = (try? reader.read(UInt32.self)).map(Int.init) ?? 0
            runsPastEnd = length > tail.count - headerSize
        }
        guard headerIsARecords && runsPastEnd else {
            return .failure(CadenceError(.corruptFile, "the last log record, at byte \(validLength), is damaged, not torn by an unfinished write; opening the store for writing would drop the change it holds (run repair to see it counted)", path: path))
        }
        return .success(tail.count)
    }
}
