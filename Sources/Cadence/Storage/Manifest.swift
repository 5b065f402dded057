//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// The store's table of contents, replaced atomically on every flush and compaction: which
/// chunk files hold which type's samples (with their summaries), the provenance dictionary, the
/// retained deletions, and where the write-ahead log resumes.
package struct Manifest: Sendable {
    /// A chunk as the manifest lists it.
    package struct ChunkEntry: Sendable {
        package var number: UInt64
        package var byteCount: Int
        package var summary: SampleSummary
    }

    /// A type and its chunks, in file order.
    package struct TypeEntry: Sendable {
        package var type: QuantityType
        package var chunks: [ChunkEntry]
        /// The last change when the type was compacted: the samples deleted up to it are no
        /// longer in its chunk files, so their deletions hide nothing.
        package var compactedSequence: Int64 = 0
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
    package var tombstones: [Tombstone] = []

    package init(storeIdentifier: UUID) { self.storeIdentifier = storeIdentifier }

    /// The chunk file name for a number.
    package static func chunkFileName(_ number: UInt64) -> String {
        let digits = String(number)
        return "chunk-" + String(repeating: "0", count: max(0, 10 - digits.count)) + digits + ".cdc"
    }

    /// The chunk number of a file name that is exactly what ``chunkFileName(_:)`` gives, else `nil`.
    package static func chunkNumber(_ name: String) -> UInt64? {
        guard name.hasPrefix("chunk-"), name.hasSuffix(".cdc"), let number = UInt64(name.dropFirst(6).dropLast(4)),
              chunkFileName(number) == name else { return nil }
        return number
    }

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
            body.writeVarint(UInt64(entry.chunks.count))
            for chunk in entry.chunks {
                body.writeVarint(chunk.number)
                body.writeVarint(UInt64(chunk.byteCount))
                chunk.summary.write(to: &body)
            }
        }
        body.writeVarint(UInt64(tombstones.count))
        for tombstone in tombstones { tombstone.write(to: &body) }
        // Appended last, so a manifest written before it existed still reads (as 0: nothing compacted).
        body.writeVarint(UInt64(types.count))
        for entry in types { body.write(entry.compactedSequence) }
        var writer = BinaryWriter(capacity: body.count + 32)
        writer.write(bytes: Self.magic)
        writer.write(FormatVersion.current)
        ChecksummedSection.write(body.bytes, into: &writer)
        return writer.bytes
    }

    package init(decoding bytes: [UInt8], path: String) throws {
        var outer = try FormatVersion.readHeader(bytes, magic: Self.magic, kind: "store manifest", path: path)
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
        types = try (0..<reader.readCount()).map { _ in
            let type = try QuantityType(from: &reader)
            let chunks = try (0..<reader.readCount()).map { _ in
                ChunkEntry(number: try reader.readVarint(), byteCount: Int(clamping: try reader.readVarint()),
                           summary: try SampleSummary(from: &reader))
            }
            return TypeEntry(type: type, chunks: chunks)
        }
        tombstones = try (0..<reader.readCount(minimumItemSize: 34)).map { _ in try Tombstone(from: &reader) }
        if !reader.isAtEnd {
            guard try reader.readCount(minimumItemSize: 8) == types.count else {
                throw reader.corrupt("the compaction sequences do not match the types")
            }
            for index in types.indices { types[index].compactedSequence = try reader.read() }
        }
        guard reader.isAtEnd else { throw reader.corrupt("trailing bytes in the manifest body") }
    }
}
