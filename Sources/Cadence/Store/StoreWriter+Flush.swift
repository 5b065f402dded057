//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Flushing unflushed samples into chunk files, and compaction (rewriting chunks without deleted rows).
extension StoreWriter {
    // MARK: Flushing and compaction

    /// Writes the head (and the chunks of the types in `rewriting`, without their deleted rows)
    /// into new chunk files, installs a new manifest, then starts a new log segment and removes
    /// the replaced files.
    mutating func flush(snapshot: StoreSnapshot, rewriting: Set<String> = [], deletionHorizon: Int64? = nil) throws
        -> StoreSnapshot
    {
        try checkWritable()
        // Deletions since the last flush count too: they go to the deletions file, and the log
        // that holds them is retired.
        guard !rewriting.isEmpty || headCount > 0 || deletionHorizon != nil || snapshot.lastSequence > manifest.flushedSequence
        else { return snapshot }
        try removeLeftovers()
        var updated = manifest
        updated.provenances = snapshot.provenances
        updated.lastSequence = snapshot.lastSequence
        updated.flushedSequence = snapshot.lastSequence
        updated.logSegment = manifest.logSegment + 1
        var types = snapshot.types
        if let horizon = deletionHorizon, horizon > updated.deletionHorizon {
            // Forgetting reads every type's records once, and writes a new file for each type that loses some.
            for (identifier, type) in types where !type.deletions.isEmpty {
                let records = try type.deletions.records()
                let kept = records.filter { $0.deletionSequence > horizon }
                if kept.count < records.count { types[identifier]?.deletions = TypeDeletions(unfiled: kept) }
            }
            updated.deletionHorizon = horizon
        }
        var replaced: [String] = []
        // Gather each rewritten type's rows and cut them into chunks; the chunks are then encoded
        // (sorted summaries, LZ4) on every core, and written in order.
        var pieces: [(identifier: String, style: AggregationStyle, columns: SampleColumns)] = []
        var rewritten: [String: Int] = [:]
        for identifier in snapshot.types.keys.sorted() {
            guard let type = snapshot.types[identifier] else { continue }
            let rewrite = rewriting.contains(identifier) ? try type.flushed.chunks() : []
            guard !type.head.isEmpty || !rewrite.isEmpty else { continue }
            var columns = SampleColumns()
            for chunk in rewrite { columns.append(contentsOf: try chunk.file().decodeForRewriting()) }
            for batch in type.head { columns.append(contentsOf: batch.columns) }
            // Only a compaction drops deleted rows: a flush keeps them, hidden, so that every
            // deletion after a type's last compaction still hides a row that is there.
            if rewriting.contains(identifier), !type.hiddenSequences.isEmpty {
                columns = columns.selecting((0..<columns.count).filter { !type.hiddenSequences.contains(columns.sequence[$0]) })
            }
            columns = columns.sortedByStart()
            rewritten[identifier] = 0
            for rows in ColumnCodec.chunkBoundaries(columns, capacity: options.chunkCapacity) {
                pieces.append((identifier, type.type.aggregationStyle, rows.count == columns.count ? columns : columns.selecting(rows)))
                rewritten[identifier, default: 0] += 1
            }
        }
        // A piece whose sections would be over the limit is cut into more chunks.
        let sectionLimit = options.sectionLimit
        let encodedPieces = try concurrentMap(pieces, parallelism: ProcessInfo.processInfo.activeProcessorCount) { piece in
            try ChunkFile.encodeSplitting(piece.columns, typeIdentifier: piece.identifier, style: piece.style,
                                          sectionLimit: sectionLimit)
        }
        var nextPiece = 0
        var entries: [Manifest.TypeEntry] = []
        let listed = Dictionary(manifest.types.map { ($0.type.identifier, $0.chunks) }, uniquingKeysWith: { first, _ in first })
        for identifier in snapshot.types.keys.sorted() {
            guard var type = types[identifier] else { continue }
            if let count = rewritten[identifier] {
                let compacting = rewriting.contains(identifier)
                // Read before the list's file is replaced (snapshots share the list, so it is read for them too).
                let oldChunks = try type.flushed.chunks()
                var newChunks = compacting ? [] : oldChunks
                for encoded in encodedPieces[nextPiece..<nextPiece + count].joined() {
                    let number = updated.nextChunkNumber
                    updated.nextChunkNumber += 1
                    let path = chunkPath(number)
                    try guarded { try $0.writeFile(path, encoded.bytes) }
                    // Not kept in memory: a long import would otherwise hold every chunk it wrote.
                    // The first query reads it back (from the page cache, usually).
                    newChunks.append(ChunkHandle(number: number, path: path, byteCount: encoded.bytes.count,
                                                 summary: encoded.summary, fileSystem: fileSystem))
                }
                nextPiece += count
                if compacting { replaced += oldChunks.map(\.path) }
                type.flushed = ChunkList(newChunks)
                type.head = []
                if compacting {
                    type.hiddenSequences = []
                    type.compactedSequence = snapshot.lastSequence
                }
                types[identifier] = type
            }
            // An unchanged type keeps the manifest's list, and so its list file.
            let chunks = rewritten[identifier] == nil ? listed[identifier] ?? type.flushed : type.flushed
            entries.append(Manifest.TypeEntry(type: type.type, chunks: chunks, compactedSequence: type.compactedSequence,
                                              deletions: type.deletions))
        }
        updated.types = entries
        let directory = self.directory
        try installManifest(updated)
        for entry in manifest.types {
            types[entry.type.identifier]?.flushed = entry.chunks
            types[entry.type.identifier]?.deletions = entry.deletions
        }
        // The manifest now covers everything in the log: start a new segment, drop the old ones.
        let oldSegment = manifest.logSegment - 1
        log?.close()
        let newLogPath = logPath(manifest.logSegment)
        let oldLogPath = logPath(oldSegment)
        log = try guarded { try $0.openForAppending(newLogPath) }
        try guarded { fileSystem in
            try fileSystem.remove(oldLogPath)
            for path in replaced { try fileSystem.remove(path) }
            try fileSystem.syncDirectory(directory)
        }
        logDirectoryEntryUnsynced = false
        headCount = 0
        headBytes = 0
        return snapshot.with(deletionHorizon: updated.deletionHorizon, types: types)
    }

    /// The types whose chunk files hold deleted rows past `threshold` (a fraction of their rows).
    func typesToCompact(_ snapshot: StoreSnapshot, threshold: Double) -> Set<String> {
        Set(snapshot.types.compactMap { identifier, type in
            let rows = type.flushed.outline.summary.count
            return rows > 0 && Double(type.hiddenSequences.count) > threshold * Double(rows) ? identifier : nil
        })
    }
}
