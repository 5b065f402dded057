//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// The store's table of contents, replaced atomically on every flush and compaction: which
/// types the store holds, with each type's chunks in outline and the number of the file that lists
/// them (see ``ChunkList``), the provenance dictionary, each type's deletions file, and where the
/// write-ahead log resumes. Opening reads and checks only this; a type's chunk list is read when
/// the type is first used.
package struct Manifest: Sendable {
    /// A type and its chunks, in file order.
    package struct TypeEntry: Sendable {
        package var type: QuantityType
        package var chunks: ChunkList
        /// The last change when the type was compacted: the samples deleted up to it are no
        /// longer in its chunk files, so their deletions hide nothing.
        package var compactedSequence: Int64 = 0
        /// The type's retained deletions (version 6: in a file of its own, read on first use).
        package var deletions = TypeDeletions()
        /// The sample sequences of the deletions made after the type's last compaction: rows
        /// still in its chunk files that queries skip. Read when the manifest is.
        package var hiddenSequences: Set<Int64> = []
    }

    static let magic: [UInt8] = Array("CDNMANIF".utf8)
    /// The manifest's file name inside the store directory.
    package static let fileName = "MANIFEST"

    package var storeIdentifier: UUID
    /// The last change sequence handed out.
    package var lastSequence: Int64 = 0
    /// Every change up to this one is in chunk files; log records up to it are obsolete.
    package var flushedSequence: Int64 = 0
    /// The next chunk file number.
    package var nextChunkNumber: UInt64 = 1
    /// The first log segment to replay.
    package var logSegment: UInt64 = 1
    /// Anchors before this sequence may have lost deletions.
    package var deletionHorizon: Int64 = 0
    package var sourcePriority = SourcePriorities()
    package var provenances: [Provenance] = []
    package var types: [TypeEntry] = []

    package init(storeIdentifier: UUID) { self.storeIdentifier = storeIdentifier }

    /// The chunk file name for a number.
    package static func chunkFileName(_ number: UInt64) -> String {
        numberedFileName(number, prefix: "chunk-", suffix: ".cdc")
    }

    /// The file name of chunk list `number` (numbered from the chunk numbers: no file shares one).
    package static func chunkListFileName(_ number: UInt64) -> String {
        numberedFileName(number, prefix: "list-", suffix: ".cdl")
    }

    /// The list number of a file name that is exactly what ``chunkListFileName(_:)`` gives, else `nil`.
    package static func chunkListNumber(_ name: String) -> UInt64? {
        fileNumber(name, prefix: "list-", suffix: ".cdl")
    }

    /// The chunk number of a file name that is exactly what ``chunkFileName(_:)`` gives, else `nil`.
    package static func chunkNumber(_ name: String) -> UInt64? {
        fileNumber(name, prefix: "chunk-", suffix: ".cdc")
    }

    /// `prefix`, the number in at least ten digits, `suffix`.
    static func numberedFileName(_ number: UInt64, prefix: String, suffix: String) -> String {
        let digits = String(number)
        return prefix + String(repeating: "0", count: max(0, 10 - digits.count)) + digits + suffix
    }

    /// The number of a name that is exactly what ``numberedFileName(_:prefix:suffix:)`` gives for
    /// it (so names Cadence did not give are never taken for its files), else `nil`.
    ///
    /// Read byte by byte: the sweep before a writer's first write reads every name in the
    /// directory, and parsing a substring as an integer costs about 12,000 instructions a name.
    static func fileNumber(_ name: String, prefix: String, suffix: String) -> UInt64? {
        guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return nil }
        let digits = name.utf8.dropFirst(prefix.utf8.count).dropLast(suffix.utf8.count)
        // At least ten digits, and no zero before the padding (so that the name is the number's).
        guard digits.count >= 10, digits.count == 10 || digits.first != UInt8(ascii: "0") else { return nil }
        var number: UInt64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times10, overflowed) = number.multipliedReportingOverflow(by: 10)
            let (sum, carried) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflowed, !carried else { return nil }
            number = sum
        }
        return number
    }

    /// The numbers of the chunk list files the manifest refers to.
    package var chunkListNumbers: Set<UInt64> { Set(types.compactMap(\.chunks.fileNumber)) }

    /// The numbers of the deletions files the manifest refers to.
    var deletionsFileNumbers: Set<UInt64> { Set(types.compactMap(\.deletions.file?.number)) }

    /// Makes this the store's manifest: appends each type's deletion records made since
    /// `previous` to its deletions file (or writes a new one for a type that had none, or after
    /// deletions were forgotten), writes a file for
    /// every chunk list held only in memory (numbered from ``nextChunkNumber``), syncs the
    /// directory, replaces the MANIFEST atomically, and then removes the list files of `previous`
    /// that it no longer refers to (and the deletions files it replaced). A crash leaves the old
    /// manifest or the new one, each with its lists and its deletion records; list files no
    /// manifest refers to are removed before a writer next writes a file.
    package mutating func install(replacing previous: Manifest, in directory: String, fileSystem: any FileSystem) throws {
        let compacted = Dictionary(previous.types.map { ($0.type.identifier, $0.compactedSequence) },
                                   uniquingKeysWith: { first, _ in first })
        for index in types.indices {
            let entry = types[index]
            let file = try DeletionsFile.persist(entry.deletions.added, to: entry.deletions.file,
                                                 compactedSequence: entry.compactedSequence,
                                                 compactedSince: compacted[entry.type.identifier] != entry.compactedSequence,
                                                 nextNumber: &nextChunkNumber, directory: directory, fileSystem: fileSystem)
            types[index].deletions = entry.deletions.filed(as: file, directory: directory, fileSystem: fileSystem)
        }
        for index in types.indices where types[index].chunks.fileNumber == nil && types[index].chunks.outline.chunkCount > 0 {
            let chunks = try types[index].chunks.chunks()
            let number = nextChunkNumber
            nextChunkNumber += 1
            try fileSystem.writeFile(directory + "/" + Self.chunkListFileName(number),
                                     ChunkList.encode(chunks, typeIdentifier: types[index].type.identifier))
            types[index].chunks = ChunkList(chunks, fileNumber: number)
        }
        try fileSystem.syncDirectory(directory)
        try fileSystem.replaceFile(directory + "/" + Self.fileName, encode())
        for number in previous.chunkListNumbers.subtracting(chunkListNumbers) {
            try fileSystem.remove(directory + "/" + Self.chunkListFileName(number))
        }
        if deletionsFileNumbers != previous.deletionsFileNumbers {
            try DeletionsFile.removeOthers(than: deletionsFileNumbers, in: directory, fileSystem: fileSystem)
        }
    }

    /// The manifest's bytes. Every type with chunks must have its list in a file, and the
    /// deletion records theirs (see ``install(replacing:in:fileSystem:)``).
    package func encode() -> [UInt8] {
        var body = BinaryWriter(capacity: 4096)
        let halves = storeIdentifier.halves
        body.write(halves.high)
        body.write(halves.low)
        for value in [lastSequence, flushedSequence, deletionHorizon] { body.write(value) }
        body.write(nextChunkNumber)
        body.write(logSegment)
        body.writeVarint(UInt64(sourcePriority.storeWide.count))
        for name in sourcePriority.storeWide { body.write(name) }
        body.writeVarint(UInt64(sourcePriority.byType.count))
        for (identifier, names) in sourcePriority.byType.sorted(by: { $0.key < $1.key }) {
            body.write(identifier)
            body.writeVarint(UInt64(names.count))
            for name in names { body.write(name) }
        }
        body.writeVarint(UInt64(provenances.count))
        for provenance in provenances { provenance.write(to: &body) }
        body.writeVarint(UInt64(types.count))
        for entry in types {
            entry.type.write(to: &body)
            body.write(entry.compactedSequence)
            body.writeVarint(entry.chunks.fileNumber ?? 0)
            entry.chunks.outline.write(to: &body)
        }
        let withDeletions = types.indices.filter { types[$0].deletions.file != nil }
        body.writeVarint(UInt64(withDeletions.count))
        for index in withDeletions {
            body.writeVarint(UInt64(index))
            types[index].deletions.file?.write(to: &body)
        }
        var writer = BinaryWriter(capacity: body.count + 32)
        writer.write(bytes: Self.magic)
        writer.write(FormatVersion.current)
        ChecksummedSection.write(body.bytes, into: &writer)
        return writer.bytes
    }

    /// Reads a manifest: from version 3 on, its types' chunk lists are read on first use, from
    /// files in the manifest's directory; of version 2, they are in the manifest and read at once.
    /// From version 6 on, each type's deletions file is named with the offset of the records that
    /// hide rows, and only those are read now; in versions 4 and 5 every type's records are in one
    /// deletions file, and before in the manifest, all read now.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming the file when it fails its checksum or
    ///   is malformed, or when its deletions file is (naming that file);
    ///   ``CadenceError/Code/unsupportedFormatVersion``.
    /// - Complexity: O(*t* + *p* + *h*) for *t* types, *p* provenances and *h* deletions made
    ///   since their type's last compaction (before version 6: every retained deletion; version 2:
    ///   plus O(*c*) for *c* chunks).
    /// - Parameter readingHidden: Whether the deletions that hide rows are read (repair reads
    ///   the deletions files itself, to keep what is intact in them).
    package init(decoding bytes: [UInt8], path: String, fileSystem: any FileSystem, readingHidden: Bool = true) throws {
        let header = try FormatVersion.readHeader(bytes, magic: Self.magic, kind: "store manifest", path: path)
        var outer = header.reader
        let body = try ChecksummedSection.read(&outer, name: "manifest")
        guard outer.isAtEnd else { throw CadenceError(.corruptFile, "trailing bytes after the manifest", path: path) }
        var reader = BinaryReader(Array(body), path: path)
        storeIdentifier = UUID(high: try reader.read(), low: try reader.read())
        lastSequence = try reader.read()
        flushedSequence = try reader.read()
        deletionHorizon = try reader.read()
        nextChunkNumber = try reader.read()
        logSegment = try reader.read()
        sourcePriority.storeWide = try (0..<reader.readCount()).map { _ in try reader.readString() }
        for _ in 0..<(try reader.readCount(minimumItemSize: 2)) {
            let identifier = try reader.readString()
            sourcePriority.byType[identifier] = try (0..<reader.readCount()).map { _ in try reader.readString() }
        }
        provenances = try (0..<reader.readCount()).map { _ in try Provenance(from: &reader) }
        let directory = directoryName(of: path)
        if header.version == 2 {
            types = try (0..<reader.readCount()).map { _ in
                let type = try QuantityType(from: &reader)
                let chunks = try (0..<reader.readCount()).map { _ in
                    try ChunkHandle(from: &reader, directory: directory, fileSystem: fileSystem)
                }
                return TypeEntry(type: type, chunks: ChunkList(chunks))
            }
        } else {
            types = try (0..<reader.readCount()).map { _ in
                let type = try QuantityType(from: &reader)
                let compactedSequence: Int64 = try reader.read()
                let fileNumber = try reader.readVarint()
                let outline = try ChunkList.Outline(from: &reader)
                guard (fileNumber == 0) == (outline.chunkCount == 0) else {
                    throw reader.corrupt("a type's chunk list file does not match its chunk count")
                }
                let chunks = fileNumber == 0 ? ChunkList.empty
                    : ChunkList(outline: outline, fileNumber: fileNumber, typeIdentifier: type.identifier,
                                directory: directory, fileSystem: fileSystem)
                return TypeEntry(type: type, chunks: chunks, compactedSequence: compactedSequence)
            }
        }
        var unfiled: [Tombstone] = []
        if header.version >= DeletionsFile.perTypeVersion {
            var previousIndex = -1
            for _ in 0..<(try reader.readCount(minimumItemSize: 5)) {
                let index = Int(clamping: try reader.readVarint())
                guard index > previousIndex, index < types.count else { throw reader.corrupt("a deletions file names no type") }
                previousIndex = index
                let file = try DeletionsFile(from: &reader)
                types[index].deletions = TypeDeletions(file: file, directory: directory, fileSystem: fileSystem)
                guard readingHidden, file.hiddenFrom < file.length else { continue }
                let compacted = types[index].compactedSequence
                for tombstone in try file.read(in: directory, fileSystem: fileSystem, from: file.hiddenFrom)
                where tombstone.deletionSequence > compacted {
                    types[index].hiddenSequences.insert(tombstone.sampleSequence)
                }
            }
        } else if header.version >= DeletionsFile.firstVersion {
            let number = try reader.readVarint()
            let file = DeletionsFile(number: number, length: try reader.readVarint(), count: try reader.readVarint(),
                                     hiddenFrom: DeletionsFile.headerLength)
            guard (file.number == 0) == (file.count == 0) else {
                throw reader.corrupt("the deletions file does not match its record count")
            }
            if file.number != 0 { unfiled = try file.read(in: directory, fileSystem: fileSystem) }
        } else {
            unfiled = try (0..<reader.readCount(minimumItemSize: 34)).map { _ in try Tombstone(from: &reader) }
        }
        if header.version == 2, !reader.isAtEnd {
            // Appended last in version 2, so a manifest written before it existed still reads (as 0).
            guard try reader.readCount(minimumItemSize: 8) == types.count else {
                throw reader.corrupt("the compaction sequences do not match the types")
            }
            for index in types.indices { types[index].compactedSequence = try reader.read() }
        }
        guard reader.isAtEnd else { throw reader.corrupt("trailing bytes in the manifest body") }
        if !unfiled.isEmpty { distribute(unfiled) }
    }

    /// Gives each type its records from the single list of a store before version 6, which the
    /// next flush writes into a file per type (a record of a type the manifest does not list
    /// could not be asked for, and is not kept).
    private mutating func distribute(_ records: [Tombstone]) {
        let positions = Dictionary(types.indices.map { (types[$0].type.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        var byType: [Int: [Tombstone]] = [:]
        for record in records {
            guard let index = positions[record.typeIdentifier] else { continue }
            byType[index, default: []].append(record)
            if record.deletionSequence > types[index].compactedSequence { types[index].hiddenSequences.insert(record.sampleSequence) }
        }
        for (index, list) in byType { types[index].deletions = TypeDeletions(unfiled: list) }
    }
}
