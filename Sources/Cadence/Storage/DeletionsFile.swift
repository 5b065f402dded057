//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A file of deletion records that a flush appends to instead of rewriting them with the
/// manifest: a store that remembers hundreds of thousands of deletions keeps a small manifest,
/// and a flush writes only the deletions made since the last one.
///
/// From version 6 on each type has a file of its own, so a save, a delete or an anchored query of
/// one type reads only that type's records (see ``TypeDeletions``); versions 4 and 5 kept one file
/// for every type, read whole when the manifest is.
///
/// The manifest names the file and how many of its bytes (and records) it covers; bytes after
/// them were appended by a flush that never committed, are not read, and are cut off by the next
/// append. Forgetting deletions writes a new file under a new number instead, so the manifest
/// before and the one after each find their own. See FORMAT.md, Deletions file.
package struct DeletionsFile: Sendable, Equatable {
    /// The file's number, taken from the chunk numbers (no chunk or chunk list shares it).
    package var number: UInt64
    /// The bytes of the file the manifest covers.
    package var length: UInt64
    /// The deletion records in those bytes.
    package var count: UInt64
    /// Version 6: where the records that hide rows still in the type's chunk files start (those
    /// made after the type's last compaction), read when the store is opened; `length` when there
    /// are none. The records before it are read only when the type's deletions are asked for.
    package var hiddenFrom: UInt64

    static let magic: [UInt8] = Array("CDNDELET".utf8)
    /// The first format version with a deletions file.
    static let firstVersion: UInt16 = 4
    /// The first format version with a deletions file per type.
    static let perTypeVersion: UInt16 = 6
    /// The bytes before the first record: magic and version.
    static let headerLength = UInt64(magic.count + 2)

    /// The file name for a number: `deletions-` ten digits `.cdd`.
    package static func fileName(_ number: UInt64) -> String {
        Manifest.numberedFileName(number, prefix: "deletions-", suffix: ".cdd")
    }

    /// The number of a name that is exactly what ``fileName(_:)`` gives, else `nil`.
    package static func number(ofFileNamed name: String) -> UInt64? {
        Manifest.fileNumber(name, prefix: "deletions-", suffix: ".cdd")
    }

    /// The path of the file in `directory`.
    func path(in directory: String) -> String { directory + "/" + Self.fileName(number) }

    /// One appended record: a checksummed section holding a count and the deletion records.
    private static func record(_ tombstones: ArraySlice<Tombstone>) -> [UInt8] {
        var body = BinaryWriter(capacity: 64 * tombstones.count + 8)
        body.writeVarint(UInt64(tombstones.count))
        for tombstone in tombstones { tombstone.write(to: &body) }
        var writer = BinaryWriter(capacity: body.count + 8)
        ChecksummedSection.write(body.bytes, into: &writer)
        return writer.bytes
    }

    /// Reads the records the manifest covers from byte `offset` on (a record boundary: the start
    /// of the records, or ``hiddenFrom``), checking every record's checksum, and, when reading
    /// them all, their count.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming the file when it is shorter than the
    ///   manifest says, fails a checksum or holds another number of records.
    /// - Complexity: O(*d*) for *d* deletion records read.
    func read(in directory: String, fileSystem: any FileSystem, from offset: UInt64? = nil) throws -> [Tombstone] {
        let read = try readIntact(in: directory, fileSystem: fileSystem, from: offset)
        if let damage = read.damage { throw damage }
        return read.records
    }

    /// The records before the first damaged one, and the damage (`nil` when the file is whole):
    /// what ``read(in:fileSystem:from:)`` reads, for repair to keep what is intact.
    ///
    /// - Throws: What reading the file throws; ``CadenceError/Code/unsupportedFormatVersion``.
    func readIntact(in directory: String, fileSystem: any FileSystem, from offset: UInt64? = nil) throws
        -> (records: [Tombstone], damage: CadenceError?)
    {
        let path = path(in: directory)
        let bytes = try fileSystem.readFile(path)
        let header: (reader: BinaryReader, version: UInt16)
        do {
            header = try FormatVersion.readHeader(Array(bytes.prefix(Int(length))), magic: Self.magic, kind: "deletions file",
                                                  path: path, oldest: Self.firstVersion)
        } catch let error as CadenceError where error.code == .corruptFile {
            return ([], error)
        }
        guard UInt64(bytes.count) >= length else {
            return ([], CadenceError(.corruptFile, "the deletions file is shorter (\(bytes.count) bytes) than the manifest says (\(length))",
                                     path: path))
        }
        let start = Int(offset ?? Self.headerLength)
        guard start >= Int(Self.headerLength), start <= Int(length) else {
            throw CadenceError(.corruptFile, "the manifest's record offset \(start) is outside the deletions file", path: path)
        }
        var reader = BinaryReader(header.reader, range: start..<Int(length))
        var tombstones: [Tombstone] = []
        tombstones.reserveCapacity(Int(min(count, UInt64(bytes.count / 34))))
        while !reader.isAtEnd {
            do {
                var body = BinaryReader(Array(try ChecksummedSection.read(&reader, name: "deletion record")), path: path)
                var record: [Tombstone] = []
                for _ in 0..<(try body.readCount(minimumItemSize: 34)) { record.append(try Tombstone(from: &body)) }
                guard body.isAtEnd else { throw body.corrupt("trailing bytes in a deletion record") }
                tombstones += record
            } catch let error as CadenceError where error.code == .corruptFile {
                return (tombstones, error)
            }
        }
        guard offset != nil || UInt64(tombstones.count) == count else {
            return (tombstones, CadenceError(.corruptFile, "the deletions file holds \(tombstones.count) records, the manifest says \(count)",
                                             path: path))
        }
        return (tombstones, nil)
    }

    /// Makes `added` (deletions of one type, in sequence order, made since `file` was covered)
    /// durable for the next manifest to cover, and returns the file it names.
    ///
    /// They are appended to `file` — cut back to the bytes it covered first — and synced; without
    /// a file, a new one numbered `nextNumber` is written and synced (its name is durable after
    /// the caller's directory sync, which comes before the manifest's). Records made after
    /// `compactedSequence` go into a record of their own, so ``hiddenFrom`` stays a record boundary;
    /// `compactedSince` says the type was compacted since `file` was covered (none of its records
    /// then hides a row).
    ///
    /// - Complexity: O(*a*) for *a* added records.
    static func persist(_ added: [Tombstone], to file: DeletionsFile?, compactedSequence: Int64, compactedSince: Bool,
                        nextNumber: inout UInt64,
                        directory: String, fileSystem: any FileSystem) throws -> DeletionsFile? {
        let split = added.firstIndex { $0.deletionSequence > compactedSequence } ?? added.count
        var bytes: [UInt8] = []
        if split > 0 { bytes += record(added[..<split]) }
        let hiddenStart = UInt64(bytes.count)
        if split < added.count { bytes += record(added[split...]) }
        if var file {
            // Rows hidden before stay hidden unless a compaction (which covers every record) came since.
            let hidden = file.hiddenFrom < file.length && !compactedSince ? file.hiddenFrom : file.length + hiddenStart
            guard !added.isEmpty else {
                file.hiddenFrom = hidden
                return file
            }
            let path = file.path(in: directory)
            try fileSystem.truncate(path, to: Int(file.length))
            let appending = try fileSystem.openForAppending(path)
            defer { appending.close() }
            try appending.append(bytes)
            try appending.sync()
            file.hiddenFrom = hidden
            file.length += UInt64(bytes.count)
            file.count += UInt64(added.count)
            return file
        }
        guard !added.isEmpty else { return nil }
        var writer = BinaryWriter(capacity: bytes.count + 16)
        writer.write(bytes: magic)
        writer.write(FormatVersion.current)
        writer.write(bytes: bytes)
        let number = nextNumber
        nextNumber += 1
        try fileSystem.writeFile(directory + "/" + fileName(number), writer.bytes)
        return DeletionsFile(number: number, length: UInt64(writer.count), count: UInt64(added.count),
                             hiddenFrom: headerLength + hiddenStart)
    }

    /// Removes every deletions file in `directory` but those numbered in `kept`: the ones a
    /// previous manifest named and this one does not, and any a crash left before its manifest
    /// was installed. Called once the manifest naming `kept` is durable.
    static func removeOthers(than kept: Set<UInt64>, in directory: String, fileSystem: any FileSystem) throws {
        for name in try fileSystem.contentsOfDirectory(directory) {
            guard let number = Self.number(ofFileNamed: name), !kept.contains(number) else { continue }
            try fileSystem.remove(directory + "/" + name)
        }
    }

    /// Writes what the manifest keeps of the file.
    func write(to writer: inout BinaryWriter) {
        writer.writeVarint(number)
        writer.writeVarint(length)
        writer.writeVarint(count)
        writer.writeVarint(hiddenFrom)
    }

    /// Reads what ``write(to:)`` wrote, checking that the lengths fit together.
    init(from reader: inout BinaryReader) throws {
        number = try reader.readVarint()
        length = try reader.readVarint()
        count = try reader.readVarint()
        hiddenFrom = try reader.readVarint()
        guard number != 0, count > 0, length > Self.headerLength, hiddenFrom >= Self.headerLength, hiddenFrom <= length else {
            throw reader.corrupt("a type's deletions file entry is malformed")
        }
    }

    init(number: UInt64, length: UInt64, count: UInt64, hiddenFrom: UInt64) {
        self.number = number
        self.length = length
        self.count = count
        self.hiddenFrom = hiddenFrom
    }
}
