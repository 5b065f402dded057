//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The store's deletion records, in a file of their own that a flush appends to instead of
/// rewriting them with the manifest: a store that remembers hundreds of thousands of deletions
/// keeps a small manifest, and a flush writes only the deletions made since the last one.
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

    static let magic: [UInt8] = Array("CDNDELET".utf8)
    /// The first format version with a deletions file.
    static let firstVersion: UInt16 = 4

    /// The file name for a number: `deletions-` ten digits `.cdd`.
    package static func fileName(_ number: UInt64) -> String {
        Manifest.numberedFileName(number, prefix: "deletions-", suffix: ".cdd")
    }

    /// The number of a name that is exactly what ``fileName(_:)`` gives, else `nil`.
    package static func number(ofFileNamed name: String) -> UInt64? {
        Manifest.fileNumber(name, prefix: "deletions-", suffix: ".cdd")
    }

    /// One appended record: a checksummed section holding a count and the deletion records.
    private static func record(_ tombstones: ArraySlice<Tombstone>) -> [UInt8] {
        var body = BinaryWriter(capacity: 64 * tombstones.count + 8)
        body.writeVarint(UInt64(tombstones.count))
        for tombstone in tombstones { tombstone.write(to: &body) }
        var writer = BinaryWriter(capacity: body.count + 8)
        ChecksummedSection.write(body.bytes, into: &writer)
        return writer.bytes
    }

    /// Reads the records the manifest covers, checking every record's checksum.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming the file when it is shorter than the
    ///   manifest says, fails a checksum or holds another number of records.
    /// - Complexity: O(*d*) for *d* deletion records.
    func read(in directory: String, fileSystem: any FileSystem) throws -> [Tombstone] {
        let path = directory + "/" + Self.fileName(number)
        let bytes = try fileSystem.readFile(path)
        guard UInt64(bytes.count) >= length else {
            throw CadenceError(.corruptFile, "the deletions file is shorter (\(bytes.count) bytes) than the manifest says (\(length))",
                               path: path)
        }
        var reader = try FormatVersion.readHeader(Array(bytes.prefix(Int(length))), magic: Self.magic, kind: "deletions file",
                                                  path: path, oldest: Self.firstVersion).reader
        var tombstones: [Tombstone] = []
        tombstones.reserveCapacity(Int(min(count, UInt64(bytes.count / 34))))
        while !reader.isAtEnd {
            var body = BinaryReader(Array(try ChecksummedSection.read(&reader, name: "deletion record")), path: path)
            for _ in 0..<(try body.readCount(minimumItemSize: 34)) { tombstones.append(try Tombstone(from: &body)) }
            guard body.isAtEnd else { throw body.corrupt("trailing bytes in a deletion record") }
        }
        guard UInt64(tombstones.count) == count else {
            throw CadenceError(.corruptFile, "the deletions file holds \(tombstones.count) records, the manifest says \(count)",
                               path: path)
        }
        return tombstones
    }

    /// Makes `tombstones` durable for the next manifest to cover, and returns the file it names.
    ///
    /// When the previous manifest's records are where `tombstones` start (deletions since were
    /// only added), the new ones are appended to its file — cut back to the bytes it covered
    /// first — and synced. Otherwise (deletions were forgotten, or the store had no file) a new
    /// file numbered `nextNumber` is written and synced; its name is durable after the caller's
    /// directory sync, which comes before the manifest's.
    ///
    /// - Complexity: O(new records), or O(*d*) when a new file is written.
    static func persist(_ tombstones: [Tombstone], after previous: (file: DeletionsFile?, tombstones: [Tombstone]),
                        nextNumber: inout UInt64, directory: String, fileSystem: any FileSystem) throws -> DeletionsFile? {
        let kept = previous.tombstones.count
        if let file = previous.file, UInt64(kept) == file.count, tombstones.count >= kept,
           kept == 0 || (tombstones[0] == previous.tombstones[0] && tombstones[kept - 1] == previous.tombstones[kept - 1]) {
            guard tombstones.count > kept else { return file }
            let path = directory + "/" + fileName(file.number)
            let bytes = record(tombstones[kept...])
            try fileSystem.truncate(path, to: Int(file.length))
            let appending = try fileSystem.openForAppending(path)
            defer { appending.close() }
            try appending.append(bytes)
            try appending.sync()
            return DeletionsFile(number: file.number, length: file.length + UInt64(bytes.count), count: UInt64(tombstones.count))
        }
        guard !tombstones.isEmpty else { return nil }
        var writer = BinaryWriter(capacity: 64 * tombstones.count + 32)
        writer.write(bytes: magic)
        writer.write(FormatVersion.current)
        writer.write(bytes: record(tombstones[...]))
        let number = nextNumber
        nextNumber += 1
        try fileSystem.writeFile(directory + "/" + fileName(number), writer.bytes)
        return DeletionsFile(number: number, length: UInt64(writer.count), count: UInt64(tombstones.count))
    }

    /// Removes every deletions file in `directory` but `kept`'s: the previous manifest's, and any a
    /// crash left before its manifest was installed. Called once the manifest naming `kept` is durable.
    static func removeOthers(than kept: DeletionsFile?, in directory: String, fileSystem: any FileSystem) throws {
        for name in try fileSystem.contentsOfDirectory(directory) {
            guard let number = Self.number(ofFileNamed: name), number != kept?.number else { continue }
            try fileSystem.remove(directory + "/" + name)
        }
    }
}
