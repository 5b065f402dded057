//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Synchronization

/// One type's chunks, as the manifest lists them: known in outline when the store opens (how many,
/// their samples, bytes and merged summary), the list itself — a ``ChunkHandle`` with its summary
/// per chunk — read from its own immutable list file the first time the type is used, once.
///
/// Opening a store therefore reads no chunk summary: its cost does not grow with the chunks. A
/// list is shared by the writer's manifest and every snapshot that has the type unchanged, so
/// whichever reads it first reads it for all; a writer reads a type's list before it replaces
/// the list's file, so a snapshot of this process never looks for a file that is gone.
package final class ChunkList: Sendable {
    /// What the manifest keeps of a type's chunks besides the list.
    package struct Outline: Sendable, Equatable {
        /// The number of chunks.
        package var chunkCount = 0
        /// Their bytes on disk.
        package var byteCount = 0
        /// The summary of all their samples (every chunk's summary merged).
        package var summary = SampleSummary()

        package init() {}

        /// The outline of `chunks`.
        package init(_ chunks: [ChunkHandle]) {
            for chunk in chunks {
                chunkCount += 1
                byteCount += chunk.byteCount
                summary.formUnion(chunk.summary)
            }
        }

        func write(to writer: inout BinaryWriter) {
            writer.writeVarint(UInt64(chunkCount))
            writer.writeVarint(UInt64(byteCount))
            summary.write(to: &writer)
        }

        init(from reader: inout BinaryReader) throws {
            // Not a count of bytes that follow: the chunks are listed elsewhere.
            chunkCount = Int(clamping: try reader.readVarint())
            byteCount = Int(clamping: try reader.readVarint())
            summary = try SampleSummary(from: &reader, maximumCount: SampleSummary.maximumCount * max(1, chunkCount))
        }
    }

    /// Where a list not yet read lies.
    private struct Source: Sendable {
        var path: String
        var typeIdentifier: String
        var directory: String
        var fileSystem: any FileSystem
    }

    static let magic: [UInt8] = Array("CDNCLIST".utf8)

    /// The outline (always known).
    package let outline: Outline
    /// The number of the list file that holds the list (see ``Manifest/chunkListFileName(_:)``),
    /// or `nil` for a list only in memory, which the next manifest written gets a file for.
    package let fileNumber: UInt64?
    private let source: Source?
    private let loaded: Mutex<[ChunkHandle]?>

    /// A list held in memory (new chunks, or a manifest of version 2 that carried its lists).
    package init(_ chunks: [ChunkHandle], fileNumber: UInt64? = nil) {
        outline = Outline(chunks)
        self.fileNumber = chunks.isEmpty ? nil : fileNumber
        source = nil
        loaded = Mutex(chunks)
    }

    /// A list to read from file `fileNumber` in `directory` on first use.
    init(outline: Outline, fileNumber: UInt64, typeIdentifier: String, directory: String, fileSystem: any FileSystem) {
        self.outline = outline
        self.fileNumber = fileNumber
        source = Source(path: directory + "/" + Manifest.chunkListFileName(fileNumber), typeIdentifier: typeIdentifier,
                        directory: directory, fileSystem: fileSystem)
        loaded = Mutex(nil)
    }

    /// No chunks.
    package static var empty: ChunkList { ChunkList([]) }

    /// Whether the list is in memory (held, or read once).
    package var isLoaded: Bool { loaded.withLock { $0 != nil } }

    /// The chunks, in file order, read and checked on first use (threads asking meanwhile wait
    /// for that one read).
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming the list file when it fails its checksum
    ///   or does not match the manifest's outline; ``CadenceError/Code/notFound`` when it is gone
    ///   (a writer in another process replaced it). A failure is not kept: the next use reads again.
    /// - Complexity: O(*c*) for *c* chunks the first time, O(1) after.
    package func chunks() throws -> [ChunkHandle] {
        try loaded.withLock { loaded in
            if let loaded { return loaded }
            guard let source else { return [] }
            let chunks = try Self.read(source, outline: outline)
            loaded = chunks
            return chunks
        }
    }

    /// The chunks for a reader that cannot throw: when the list cannot be read, one stand-in
    /// chunk carrying the outline's summary, whose every read throws the failure — so spans and
    /// counts taken from summaries stay true, and any use of the samples reports the damage.
    package var chunksOrStandIn: [ChunkHandle] {
        // A list without a file is held in memory and never fails.
        guard let source else { return loaded.withLock { $0 } ?? [] }
        do {
            return try chunks()
        } catch {
            let failure = error as? CadenceError ?? CadenceError(.io, "\(error)", path: source.path)
            return [ChunkHandle(unreadable: failure, byteCount: outline.byteCount, summary: outline.summary,
                                fileSystem: source.fileSystem)]
        }
    }

    /// Reads the list's file again from disk (bypassing what was read) and checks it.
    ///
    /// - Throws: What ``chunks()`` throws.
    package func verifyOnDisk() throws {
        if let source { _ = try Self.read(source, outline: outline) }
    }

    /// The bytes of a list file holding `chunks` of a type.
    package static func encode(_ chunks: [ChunkHandle], typeIdentifier: String) -> [UInt8] {
        var body = BinaryWriter(capacity: 64 + chunks.count * 160)
        body.write(typeIdentifier)
        body.writeVarint(UInt64(chunks.count))
        for chunk in chunks { chunk.write(to: &body) }
        var writer = BinaryWriter(capacity: body.count + 32)
        writer.write(bytes: magic)
        writer.write(FormatVersion.current)
        ChecksummedSection.write(body.bytes, into: &writer)
        return writer.bytes
    }

    private static func read(_ source: Source, outline: Outline) throws -> [ChunkHandle] {
        let path = source.path
        let bytes = try source.fileSystem.readFile(path)
        var outer = try FormatVersion.readHeader(bytes, magic: magic, kind: "chunk list", path: path, oldest: 3).reader
        var reader = BinaryReader(Array(try ChecksummedSection.read(&outer, name: "chunk list")), path: path)
        guard outer.isAtEnd else { throw CadenceError(.corruptFile, "trailing bytes after the chunk list", path: path) }
        guard try reader.readString() == source.typeIdentifier else {
            throw reader.corrupt("the chunk list is not the list of \(source.typeIdentifier)")
        }
        let chunks = try (0..<reader.readCount(minimumItemSize: 20)).map { _ in
            try ChunkHandle(from: &reader, directory: source.directory, fileSystem: source.fileSystem)
        }
        guard reader.isAtEnd else { throw reader.corrupt("trailing bytes in the chunk list") }
        guard Outline(chunks) == outline else { throw reader.corrupt("the chunk list does not match the manifest") }
        return chunks
    }
}
