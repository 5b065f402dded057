//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Synchronization

/// An immutable view of the store at one committed change: what every query reads. Writers
/// publish a new snapshot after each commit, so readers never see a half-applied transaction.
package final class StoreSnapshot: Sendable {
    package let storeIdentifier: UUID
    /// The last committed change sequence.
    package let lastSequence: Int64
    /// Anchors before this sequence may have lost deletions.
    package let deletionHorizon: Int64
    package let provenances: [Provenance]
    package let sourcePriority: SourcePriorities
    package let types: [String: TypeSnapshot]

    package init(storeIdentifier: UUID, lastSequence: Int64, deletionHorizon: Int64, provenances: [Provenance],
                 sourcePriority: SourcePriorities, types: [String: TypeSnapshot]) {
        self.storeIdentifier = storeIdentifier
        self.lastSequence = lastSequence
        self.deletionHorizon = deletionHorizon
        self.provenances = provenances
        self.sourcePriority = sourcePriority
        self.types = types
    }

    /// A copy of this snapshot with the given parts replaced (the store's identity never changes).
    package func with(lastSequence: Int64? = nil, deletionHorizon: Int64? = nil, provenances: [Provenance]? = nil,
                      sourcePriority: SourcePriorities? = nil, types: [String: TypeSnapshot]? = nil) -> StoreSnapshot {
        StoreSnapshot(storeIdentifier: storeIdentifier, lastSequence: lastSequence ?? self.lastSequence,
                      deletionHorizon: deletionHorizon ?? self.deletionHorizon, provenances: provenances ?? self.provenances,
                      sourcePriority: sourcePriority ?? self.sourcePriority, types: types ?? self.types)
    }

    /// The retained deletion records of every type, counted without reading them.
    package var deletedObjectCount: Int { types.values.reduce(0) { $0 + $1.deletions.count } }

    /// The snapshot of a type, by full or short identifier.
    package func type(_ identifier: String) -> TypeSnapshot? { types[QuantityType.fullIdentifier(identifier)] }
}

/// One type's data in a snapshot: immutable chunk files plus the unflushed head batches.
package struct TypeSnapshot: Sendable {
    package var type: QuantityType
    /// The chunk files, listed lazily (see ``ChunkList``).
    package var flushed: ChunkList
    package var head: [HeadBatch]
    /// Sequences of deleted samples that are still physically present (until compaction).
    package var hiddenSequences: Set<Int64>
    /// The last change when the type was compacted (deletions up to it are out of the files).
    package var compactedSequence: Int64 = 0
    /// The type's retained deletion records, in change order (read on first use).
    package var deletions = TypeDeletions()

    package init(type: QuantityType) {
        self.type = type
        flushed = .empty
        head = []
        hiddenSequences = []
    }

    /// The chunk files, in the manifest's order; the type's chunk list is read on first use. When
    /// it cannot be read, one stand-in chunk with the type's overall summary stands for them and
    /// throws the failure when it is read (see ``ChunkList/chunksOrStandIn``).
    package var chunks: [ChunkHandle] { flushed.chunksOrStandIn }

    /// Samples present, not counting hidden ones.
    package var sampleCount: Int {
        flushed.outline.summary.count + head.reduce(0) { $0 + $1.columns.count } - hiddenSequences.count
    }

    /// The summaries of every chunk together, then of each unflushed batch: a cover of the
    /// type's samples read without the chunk list.
    package var outlineSummaries: [SampleSummary] { [flushed.outline.summary] + head.map(\.summary) }

    /// The head's sample count.
    package var headCount: Int { head.reduce(0) { $0 + $1.columns.count } }
}

/// A saved batch not yet flushed into chunk files: columns (sequence order) and their summary.
package final class HeadBatch: Sendable {
    package let columns: SampleColumns
    package let summary: SampleSummary

    package init(columns: SampleColumns, style: AggregationStyle) {
        self.columns = columns
        summary = SampleSummary(columns, rows: 0..<columns.count, style: style)
    }
}

/// A chunk file listed in the manifest; loaded on first use and kept.
package final class ChunkHandle: Sendable {
    package let number: UInt64
    package let path: String
    package let byteCount: Int
    package let summary: SampleSummary
    private let fileSystem: any FileSystem
    /// Why the chunk cannot be read, for the stand-in of a chunk list that could not be read.
    private let unreadable: CadenceError?
    private let loaded = Mutex<ChunkFile?>(nil)
    /// Whether ``checkPresent()`` found the file with its listed size.
    private let foundWhole = Mutex(false)

    package init(number: UInt64, path: String, byteCount: Int, summary: SampleSummary, fileSystem: any FileSystem,
                 file: ChunkFile? = nil) {
        self.number = number
        self.path = path
        self.byteCount = byteCount
        self.summary = summary
        self.fileSystem = fileSystem
        unreadable = nil
        loaded.withLock { $0 = file }
    }

    /// A stand-in for chunks that cannot be read: every read throws `failure`.
    init(unreadable failure: CadenceError, byteCount: Int, summary: SampleSummary, fileSystem: any FileSystem) {
        number = 0
        path = failure.path ?? ""
        self.byteCount = byteCount
        self.summary = summary
        self.fileSystem = fileSystem
        unreadable = failure
    }

    /// Reads a chunk as a manifest or chunk list lists it: number, size and summary.
    convenience init(from reader: inout BinaryReader, directory: String, fileSystem: any FileSystem) throws {
        let number = try reader.readVarint()
        self.init(number: number, path: directory + "/" + Manifest.chunkFileName(number),
                  byteCount: Int(clamping: try reader.readVarint()), summary: try SampleSummary(from: &reader),
                  fileSystem: fileSystem)
    }

    /// Writes what ``init(from:directory:fileSystem:)`` reads.
    func write(to writer: inout BinaryWriter) {
        writer.writeVarint(number)
        writer.writeVarint(UInt64(byteCount))
        summary.write(to: &writer)
    }

    /// The parsed chunk file, kept loaded for later reads when `keeping` (queries), or read
    /// without being kept when it is not loaded yet (the writer's passes over every chunk, which
    /// thereby hold one chunk at a time).
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` (or `notFound`) naming the file when it is missing,
    ///   damaged, or does not match the manifest's summary.
    package func file(keeping: Bool = true) throws -> ChunkFile {
        if let unreadable { throw unreadable }
        if let file = loaded.withLock({ $0 }) { return file }
        let file = try readFromDisk()
        if keeping { loaded.withLock { $0 = file } }
        return file
    }

    /// Checks, with a `stat`, that the file is there with the size the manifest gives, so that an
    /// answer from the summary alone is never one about a file that is gone or was replaced.
    /// Nothing is checked once the file is loaded (its samples are then in memory) or was found
    /// whole once: a query over every chunk of a large store would otherwise pay a `stat` per
    /// chunk each time (0.5 ms for 10 M samples, where the summaries answer in 0.3 ms).
    ///
    /// - Throws: ``CadenceError/Code/notFound`` or ``CadenceError/Code/corruptFile`` naming the file.
    package func checkPresent() throws {
        if let unreadable { throw unreadable }
        if loaded.withLock({ $0 != nil }) || foundWhole.withLock({ $0 }) { return }
        let size = try fileSystem.fileSize(path)
        guard size == byteCount else {
            throw CadenceError(.corruptFile, "the chunk file has \(size) bytes but the manifest lists \(byteCount)", path: path)
        }
        foundWhole.withLock { $0 = true }
    }

    /// Reads the file again from disk (bypassing the cache) and checks every checksum in it.
    package func verifyOnDisk() throws { try readFromDisk().verify() }

    /// The file as it is on disk, parsed and checked against the manifest's summary, and not
    /// kept: a pass over every chunk of a store then holds one chunk at a time.
    ///
    /// - Throws: What ``file()`` throws.
    package func readFromDisk() throws -> ChunkFile {
        if let unreadable { throw unreadable }
        let bytes = try fileSystem.readFile(path)
        let file = try ChunkFile(bytes: bytes, path: path)
        guard file.summary == summary, bytes.count == byteCount else {
            throw CadenceError(.corruptFile, "the chunk does not match the manifest's summary", path: path)
        }
        return file
    }

    /// The format version the file was written in, from its header alone.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming the file for a header that is not a
    ///   chunk file's; ``CadenceError/Code/unsupportedFormatVersion``; `notFound`.
    package func formatVersion() throws -> UInt16 {
        if let unreadable { throw unreadable }
        if let file = loaded.withLock({ $0 }) { return file.version }
        let header = try fileSystem.readPrefix(path, count: ChunkFile.magic.count + MemoryLayout<UInt16>.size)
        return try FormatVersion.readHeader(header, magic: ChunkFile.magic, kind: "chunk file", path: path).version
    }
}
