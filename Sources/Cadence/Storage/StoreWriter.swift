//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// The writer's side of a store: the lock, the open log segment, the persisted manifest and the
/// UUID indexes. Only ever used under the store's writer mutex.
struct StoreWriter: Sendable {
    let directory: String
    let options: HealthStore.Options
    let fileSystem: any FileSystem
    private var lock: (any FileLock)?
    private var log: (any AppendableFile)?
    private(set) var manifest: Manifest
    private var provenanceNumbers: [Provenance: UInt32] = [:]
    /// UUIDs of stored samples per type, built the first time a save needs them.
    private var uuidIndex = UUIDIndex()
    /// Set when a write failed in a way that leaves the log's state unknown (a failed fsync).
    private var failure: CadenceError?
    private(set) var headCount = 0
    /// Read-only: the bytes of the MANIFEST read, and of the last log segment replayed; a file
    /// of another size means the writing process moved on.
    private var manifestLength = 0
    private var replayedLength = 0

    private var manifestPath: String { directory + "/" + Manifest.fileName }
    private func chunkPath(_ number: UInt64) -> String { directory + "/" + Manifest.chunkFileName(number) }
    private func logPath(_ segment: UInt64) -> String { directory + "/" + WriteAheadLog.segmentName(segment) }
    /// The log segment appended to (or, read-only, replayed last).
    var currentLogPath: String { logPath(manifest.logSegment) }

    // MARK: Opening and recovery

    static func open(path: String, options: HealthStore.Options, fileSystem: any FileSystem) throws
        -> (writer: StoreWriter, snapshot: StoreSnapshot)
    {
        if options.readOnly { return try openForReading(path: path, options: options, fileSystem: fileSystem) }
        let manifestPath = path + "/" + Manifest.fileName
        if fileSystem.exists(path) {
            // Checked before the lock is taken, so that a directory that is not a store gets no LOCK file.
            if !fileSystem.exists(manifestPath) { try requireNoForeignFiles(path, fileSystem: fileSystem) }
        } else {
            try fileSystem.createDirectory(path)
        }
        let lock = try takeLock(path, waiting: options.waitForWriter, fileSystem: fileSystem)
        let manifest: Manifest
        if fileSystem.exists(manifestPath) {
            manifest = try Manifest(decoding: try fileSystem.readFile(manifestPath), path: manifestPath)
        } else {
            // Checked again under the lock: another process may have been creating a store here.
            try requireNoForeignFiles(path, fileSystem: fileSystem)
            manifest = Manifest(storeIdentifier: UUID())
            try fileSystem.replaceFile(manifestPath, manifest.encode())
        }
        var writer = StoreWriter(directory: path, options: options, fileSystem: fileSystem, lock: lock, log: nil,
                                 manifest: manifest)
        let snapshot = try writer.load()
        try writer.removeOrphans()
        return (writer, snapshot)
    }

    /// The name of the writer's lock file.
    static let lockFileName = "LOCK"
    /// The files an interrupted creation of a store may leave before its first MANIFEST.
    private static let creationLeftovers: Set<String> = [lockFileName, Manifest.fileName + ".tmp"]
    /// How often a reader starts again when a writer changed the store under it.
    private static let maximumReadAttempts = 100

    /// Takes the store's writer lock, or throws ``CadenceError/Code/storeLocked`` naming the
    /// process that holds it.
    static func takeLock(_ path: String, waiting: Bool, fileSystem: any FileSystem) throws -> any FileLock {
        let lockPath = path + "/" + lockFileName
        if let lock = try fileSystem.lockExclusively(lockPath, waiting: waiting) { return lock }
        let holder = (try? fileSystem.readFile(lockPath)).flatMap {
            Int32(String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        throw CadenceError(.storeLocked, "another process\(holder.map { " (pid \($0))" } ?? "") has this store open for writing",
                           path: path)
    }

    /// Refuses a directory without a MANIFEST that holds anything but what creating a store leaves:
    /// the files are someone else's, and a store never touches files it did not create.
    private static func requireNoForeignFiles(_ path: String, fileSystem: any FileSystem) throws {
        let foreign = try fileSystem.contentsOfDirectory(path).filter { !creationLeftovers.contains($0) }
        guard foreign.isEmpty else {
            throw CadenceError(.corruptFile, "the directory is not empty but has no MANIFEST (\(foreign.count) files); "
                               + "choose an empty or new directory for a store", path: path)
        }
    }

    /// Opens without the lock. A writer may flush meanwhile — install a new MANIFEST, start a new
    /// log segment and remove the old one — so the manifest is read again after the log is
    /// replayed: when it changed, or a segment vanished under the reader, it starts again, and
    /// what it returns is one state the store was in.
    private static func openForReading(path: String, options: HealthStore.Options, fileSystem: any FileSystem) throws
        -> (writer: StoreWriter, snapshot: StoreSnapshot)
    {
        guard fileSystem.exists(path) else { throw CadenceError(.notFound, "there is no store here", path: path) }
        let manifestPath = path + "/" + Manifest.fileName
        for _ in 0..<maximumReadAttempts {
            let bytes: [UInt8]
            do {
                bytes = try fileSystem.readFile(manifestPath)
            } catch let error as CadenceError where error.code == .notFound {
                throw CadenceError(.notFound, "there is no store manifest", path: manifestPath)
            }
            do {
                var writer = StoreWriter(directory: path, options: options, fileSystem: fileSystem, lock: nil, log: nil,
                                         manifest: try Manifest(decoding: bytes, path: manifestPath))
                let snapshot = try writer.load()
                writer.manifestLength = bytes.count
                if try fileSystem.readFile(manifestPath) == bytes { return (writer, snapshot) }
            } catch let error as CadenceError where error.code == .notFound || error.code == .corruptFile {
                // A vanished (or half-replaced) segment is only a writer moving on if the manifest did.
                guard (try? fileSystem.readFile(manifestPath)) != bytes else { throw error }
            }
        }
        throw CadenceError(.io, "the store kept changing while it was read (\(maximumReadAttempts) attempts); try again",
                           path: path)
    }

    /// Read-only: the snapshot brought up to what the writing process committed since it was
    /// read, with the change for observers (`nil` when no commit is new: a flush only moves
    /// samples), or `nil` when the files did not change.
    ///
    /// Costs two `stat`s and an existence check when nothing changed. Records appended to the
    /// same segment are read and applied; after a flush (a new manifest and segment) the store is
    /// read again, as at opening.
    mutating func catchUp(_ snapshot: StoreSnapshot) throws -> (snapshot: StoreSnapshot, change: StoreChange?)? {
        let logPath = currentLogPath
        let manifestSize = try? fileSystem.fileSize(directory + "/" + Manifest.fileName)
        let logSize = try? fileSystem.fileSize(logPath)
        let flushed = fileSystem.exists(self.logPath(manifest.logSegment + 1))
        if manifestSize == manifestLength, !flushed, let logSize, logSize >= replayedLength {
            guard logSize > replayedLength else { return nil }
            do {
                let bytes = try fileSystem.readFile(logPath)
                if bytes.count >= replayedLength {
                    let (entries, validLength) = try WriteAheadLog.readSegment(Array(bytes[replayedLength...]), path: logPath)
                    guard !entries.isEmpty else { return nil }
                    var updated = snapshot
                    var extents: [String: StoreChange.Extent] = [:]
                    for entry in entries {
                        updated = try apply(entry, to: updated)
                        switch entry {
                        case .save(_, let batches):
                            for (type, columns) in batches {
                                extents[type.identifier, default: StoreChange.Extent()].formUnion(StoreChange.Extent(columns))
                            }
                        case .delete(let tombstones):
                            // A deletion does not carry the sample's dates: the type's whole span.
                            for identifier in Set(tombstones.map(\.typeIdentifier)) {
                                extents[identifier, default: StoreChange.Extent()].formUnion(StoreChange.Extent(updated.types[identifier]))
                            }
                        }
                    }
                    replayedLength += validLength
                    return (updated, StoreChange(firstSequence: snapshot.lastSequence + 1, lastSequence: updated.lastSequence,
                                                 types: extents))
                }
            } catch let error as CadenceError where error.code == .notFound {
                // Flushed between the `stat` and the read: read the store again below.
            }
        }
        let reopened = try Self.openForReading(path: directory, options: options, fileSystem: fileSystem)
        self = reopened.writer
        let updated = reopened.snapshot
        guard updated.lastSequence != snapshot.lastSequence else { return (updated, nil) }
        let identifiers = Set(updated.types.keys).union(snapshot.types.keys)
        let extents = Dictionary(uniqueKeysWithValues: identifiers.map { identifier in
            (identifier, StoreChange.Extent(updated.types[identifier]).union(StoreChange.Extent(snapshot.types[identifier])))
        })
        return (updated, StoreChange(firstSequence: snapshot.lastSequence + 1, lastSequence: updated.lastSequence,
                                     types: extents))
    }

    /// Builds the snapshot from the manifest and the log segments it does not cover.
    private mutating func load() throws -> StoreSnapshot {
        for (number, provenance) in manifest.provenances.enumerated() { provenanceNumbers[provenance] = UInt32(number) }
        return try replayLog(onto: snapshotFromManifest())
    }

    private func snapshotFromManifest() -> StoreSnapshot {
        var types: [String: TypeSnapshot] = [:]
        for entry in manifest.types {
            var type = TypeSnapshot(type: entry.type)
            type.compactedSequence = entry.compactedSequence
            type.chunks = entry.chunks.map {
                ChunkHandle(number: $0.number, path: chunkPath($0.number), byteCount: $0.byteCount, summary: $0.summary,
                            fileSystem: fileSystem)
            }
            types[entry.type.identifier] = type
        }
        for tombstone in manifest.tombstones
        where tombstone.deletionSequence > types[tombstone.typeIdentifier]?.compactedSequence ?? .max {
            types[tombstone.typeIdentifier]?.hiddenSequences.insert(tombstone.sampleSequence)
        }
        return StoreSnapshot(storeIdentifier: manifest.storeIdentifier, lastSequence: manifest.lastSequence,
                             deletionHorizon: manifest.deletionHorizon, provenances: manifest.provenances,
                             sourcePriority: manifest.sourcePriority, types: types, tombstones: manifest.tombstones)
    }

    private mutating func replayLog(onto snapshot: StoreSnapshot) throws -> StoreSnapshot {
        let segments = try fileSystem.contentsOfDirectory(directory).compactMap(WriteAheadLog.segmentNumber).sorted()
        var snapshot = snapshot
        var lastSegment = manifest.logSegment
        for (position, segment) in segments.enumerated() {
            if segment < manifest.logSegment {
                if !options.readOnly { try fileSystem.remove(logPath(segment)) }
                continue
            }
            let path = logPath(segment)
            let bytes = try fileSystem.readFile(path)
            let (entries, validLength) = try WriteAheadLog.readSegment(bytes, path: path)
            if validLength < bytes.count {
                guard position == segments.count - 1 else {
                    throw CadenceError(.corruptFile, "a log segment before the last one is torn", path: path)
                }
                if !options.readOnly { try fileSystem.truncate(path, to: validLength) }
            }
            for entry in entries { snapshot = try apply(entry, to: snapshot) }
            replayedLength = validLength
            if !options.readOnly && segment != segments.last {
                // What is replayed must be on disk: a record whose fsync failed before a crash of
                // this process may still sit only in the page cache.
                let replayed = try fileSystem.openForAppending(path)
                defer { replayed.close() }
                try replayed.sync()
            }
            lastSegment = segment
        }
        if !options.readOnly {
            let current = try fileSystem.openForAppending(logPath(lastSegment))
            try current.sync()
            log = current
            try fileSystem.syncDirectory(directory)
        }
        manifest.logSegment = lastSegment
        return snapshot
    }

    /// Removes what a crash left behind: chunk files the manifest does not list (written before
    /// the manifest that would have listed them) and the manifest's temporary file. Only names
    /// Cadence gives its files count; anything else in the directory is left alone.
    private func removeOrphans() throws {
        let listed = Set(manifest.types.flatMap { $0.chunks.map(\.number) })
        for name in try fileSystem.contentsOfDirectory(directory) {
            let isOrphan = Manifest.chunkNumber(name).map { !listed.contains($0) } ?? (name == Manifest.fileName + ".tmp")
            if isOrphan { try fileSystem.remove(directory + "/" + name) }
        }
    }

    /// Applies a log entry (during replay, or right after writing it) and returns the new snapshot.
    private mutating func apply(_ entry: LogEntry, to snapshot: StoreSnapshot) throws -> StoreSnapshot {
        var types = snapshot.types
        var provenances = snapshot.provenances
        var tombstones = snapshot.tombstones
        var lastSequence = snapshot.lastSequence
        switch entry {
        case .save(let newProvenances, let batches):
            for (number, provenance) in newProvenances {
                if Int(number) == provenances.count {
                    provenances.append(provenance)
                    provenanceNumbers[provenance] = number
                } else if Int(number) > provenances.count || provenances[Int(number)] != provenance {
                    throw CadenceError(.corruptFile, "the log's provenance \(number) conflicts with the store's",
                                       path: directory)
                }
            }
            for (type, columns) in batches where !columns.isEmpty {
                guard columns.provenance.allSatisfy({ Int($0) < provenances.count }) else {
                    throw CadenceError(.corruptFile, "a log record refers to an unknown provenance", path: directory)
                }
                let last = columns.sequence.max() ?? 0
                if last <= manifest.flushedSequence { continue }
                var typeSnapshot = types[type.identifier] ?? TypeSnapshot(type: type)
                typeSnapshot.head.append(HeadBatch(columns: columns, style: typeSnapshot.type.aggregationStyle))
                types[type.identifier] = typeSnapshot
                headCount += columns.count
                lastSequence = max(lastSequence, last)
                uuidIndex.insert(columns, of: type.identifier, provenances: provenances)
            }
        case .delete(let deleted):
            for tombstone in deleted where tombstone.deletionSequence > manifest.flushedSequence {
                types[tombstone.typeIdentifier]?.hiddenSequences.insert(tombstone.sampleSequence)
                uuidIndex.remove(tombstone.uuid, of: tombstone.typeIdentifier)
                tombstones.append(tombstone)
                lastSequence = max(lastSequence, tombstone.deletionSequence)
            }
        }
        return snapshot.with(lastSequence: lastSequence, provenances: provenances, types: types, tombstones: tombstones)
    }

    // MARK: Writing

    private func checkWritable() throws {
        if let failure { throw CadenceError(.closed, "the store stopped accepting writes after an I/O failure: \(failure.message)", path: failure.path) }
        guard !options.readOnly else { throw CadenceError(.readOnly, "the store was opened read-only", path: directory) }
        guard log != nil else { throw CadenceError(.closed, "the store is closed", path: directory) }
    }

    /// Appends a record and syncs it; any failure poisons the writer, since after a failed write
    /// or fsync the log's content on disk is unknown.
    private mutating func append(_ entry: LogEntry) throws {
        guard let log else { throw CadenceError(.closed, "the store is closed", path: directory) }
        do {
            let record = try WriteAheadLog.record(entry)
            try log.append(record)
            try log.sync()
        } catch let error as CadenceError {
            failure = error
            throw error
        }
    }

    mutating func save(_ batches: [QuantitySampleBatch], snapshot: StoreSnapshot)
        throws -> (snapshot: StoreSnapshot, summary: SaveSummary, change: StoreChange?)
    {
        try checkWritable()
        var summary = SaveSummary()
        var newProvenances: [(number: UInt32, provenance: Provenance)] = []
        var pendingNumbers: [Provenance: UInt32] = [:]
        var prepared: [(type: QuantityType, columns: SampleColumns)] = []
        var sequence = snapshot.lastSequence
        var allProvenances = snapshot.provenances
        for batch in batches where batch.count > 0 {
            // Map the batch's provenance indexes to store-wide numbers.
            let numbers: [UInt32] = batch.provenances.map { provenance in
                if let number = provenanceNumbers[provenance] ?? pendingNumbers[provenance] { return number }
                let number = UInt32(allProvenances.count)
                allProvenances.append(provenance)
                pendingNumbers[provenance] = number
                newProvenances.append((number, provenance))
                return number
            }
            let type = snapshot.types[batch.quantityType.identifier]?.type ?? batch.quantityType
            let keep = try uuidIndex.newRows(of: batch, stored: snapshot.types[type.identifier],
                                             provenances: numbers.map { allProvenances[Int($0)] },
                                             storeProvenances: allProvenances)
            summary.duplicates += batch.count - keep.count
            guard !keep.isEmpty else { continue }
            var columns = keep.count == batch.count ? batch.columns : batch.columns.selecting(keep)
            for row in 0..<columns.count {
                columns.provenance[row] = numbers[Int(columns.provenance[row])]
                sequence += 1
                columns.sequence[row] = sequence
            }
            summary.saved += columns.count
            prepared.append((type, columns))
        }
        guard !prepared.isEmpty else { return (snapshot, summary, nil) }
        let entry = LogEntry.save(newProvenances: newProvenances, batches: prepared)
        try append(entry)
        let updated = try apply(entry, to: snapshot)
        let change = StoreChange(
            firstSequence: snapshot.lastSequence + 1, lastSequence: updated.lastSequence,
            types: Dictionary(prepared.map { ($0.type.identifier, StoreChange.Extent($0.columns)) }, uniquingKeysWith: { $0.union($1) }))
        return (updated, summary, change)
    }

    mutating func delete(snapshot: StoreSnapshot, where matches: (TypeSnapshot, SampleColumns, Int) throws -> Bool)
        throws -> (snapshot: StoreSnapshot, count: Int, change: StoreChange?)
    {
        try checkWritable()
        var tombstones: [Tombstone] = []
        var extents: [String: StoreChange.Extent] = [:]
        var sequence = snapshot.lastSequence
        for (identifier, type) in snapshot.types.sorted(by: { $0.key < $1.key }) {
            try StoredSample.forEachRow(of: type, details: true) { columns, row in
                guard try matches(type, columns, row) else { return }
                sequence += 1
                let metadata = columns.metadata(at: row)
                tombstones.append(Tombstone(
                    typeIdentifier: identifier,
                    uuid: StoredSample.uuid(of: columns, row: row, type: identifier, snapshotProvenances: snapshot.provenances),
                    sampleSequence: columns.sequence[row], deletionSequence: sequence,
                    syncIdentifier: metadata[MetadataKey.syncIdentifier], syncVersion: metadata[MetadataKey.syncVersion]))
                extents[identifier, default: StoreChange.Extent()].include(start: columns.start[row], end: columns.end[row])
            }
        }
        guard !tombstones.isEmpty else { return (snapshot, 0, nil) }
        let entry = LogEntry.delete(tombstones)
        try append(entry)
        let updated = try apply(entry, to: snapshot)
        let change = StoreChange(firstSequence: snapshot.lastSequence + 1, lastSequence: updated.lastSequence, types: extents)
        return (updated, tombstones.count, change)
    }

    mutating func setSourcePriority(_ priorities: SourcePriorities, snapshot: StoreSnapshot) throws -> StoreSnapshot {
        try checkWritable()
        var updated = manifest
        updated.sourcePriority = priorities
        try installManifest(updated)
        return snapshot.with(sourcePriority: priorities)
    }

    // MARK: Flushing and compaction

    /// Writes the head (and the chunks of the types in `rewriting`, without their deleted rows)
    /// into new chunk files, installs a new manifest, then starts a new log segment and removes
    /// the replaced files.
    mutating func flush(snapshot: StoreSnapshot, rewriting: Set<String> = [], deletionHorizon: Int64? = nil) throws
        -> StoreSnapshot
    {
        try checkWritable()
        guard !rewriting.isEmpty || headCount > 0 || deletionHorizon != nil else { return snapshot }
        var updated = manifest
        updated.provenances = snapshot.provenances
        updated.lastSequence = snapshot.lastSequence
        updated.flushedSequence = snapshot.lastSequence
        updated.logSegment = manifest.logSegment + 1
        var tombstones = snapshot.tombstones
        if let horizon = deletionHorizon, horizon > updated.deletionHorizon {
            tombstones.removeAll { $0.deletionSequence < horizon }
            updated.deletionHorizon = horizon
        }
        updated.tombstones = tombstones
        var types = snapshot.types
        var replaced: [String] = []
        // Gather each rewritten type's rows and cut them into chunks; the chunks are then encoded
        // (sorted summaries, LZ4) on every core, and written in order.
        var pieces: [(identifier: String, style: AggregationStyle, columns: SampleColumns)] = []
        var rewritten: [String: Int] = [:]
        for identifier in snapshot.types.keys.sorted() {
            guard let type = snapshot.types[identifier] else { continue }
            let rewrite = rewriting.contains(identifier) ? type.chunks : []
            guard !type.head.isEmpty || !rewrite.isEmpty else { continue }
            var columns = SampleColumns()
            for chunk in rewrite { columns.append(contentsOf: try chunk.file().decodeAllColumns()) }
            for batch in type.head { columns.append(contentsOf: batch.columns) }
            // Only a compaction drops deleted rows: a flush keeps them, hidden, so that every
            // deletion after a type's last compaction still hides a row that is there.
            if rewriting.contains(identifier), !type.hiddenSequences.isEmpty {
                columns = columns.selecting((0..<columns.count).filter { !type.hiddenSequences.contains(columns.sequence[$0]) })
            }
            columns = columns.sortedByStart()
            var offset = 0
            rewritten[identifier] = 0
            while offset < columns.count {
                let rows = offset..<min(columns.count, offset + options.chunkCapacity)
                pieces.append((identifier, type.type.aggregationStyle, rows.count == columns.count ? columns : columns.selecting(rows)))
                rewritten[identifier, default: 0] += 1
                offset = rows.upperBound
            }
        }
        let encoded = try concurrentMap(pieces, parallelism: ProcessInfo.processInfo.activeProcessorCount) { piece in
            try ChunkFile.encode(piece.columns, typeIdentifier: piece.identifier, style: piece.style)
        }
        var nextPiece = 0
        var entries: [Manifest.TypeEntry] = []
        for identifier in snapshot.types.keys.sorted() {
            guard var type = snapshot.types[identifier] else { continue }
            if let count = rewritten[identifier] {
                let compacting = rewriting.contains(identifier)
                var newChunks = compacting ? [] : type.chunks
                for encoded in encoded[nextPiece..<nextPiece + count] {
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
                if compacting { replaced += type.chunks.map(\.path) }
                type.chunks = newChunks
                type.head = []
                if compacting {
                    type.hiddenSequences = []
                    type.compactedSequence = snapshot.lastSequence
                }
                types[identifier] = type
            }
            entries.append(Manifest.TypeEntry(type: type.type, chunks: type.chunks.map {
                Manifest.ChunkEntry(number: $0.number, byteCount: $0.byteCount, summary: $0.summary)
            }, compactedSequence: type.compactedSequence))
        }
        updated.types = entries
        let directory = self.directory
        try guarded { try $0.syncDirectory(directory) }
        try installManifest(updated)
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
        headCount = 0
        return snapshot.with(deletionHorizon: updated.deletionHorizon, types: types, tombstones: tombstones)
    }

    /// The types whose chunk files hold deleted rows past `threshold` (a fraction of their rows).
    func typesToCompact(_ snapshot: StoreSnapshot, threshold: Double) -> Set<String> {
        Set(snapshot.types.compactMap { identifier, type in
            let rows = type.chunks.reduce(0) { $0 + $1.summary.count }
            return rows > 0 && Double(type.hiddenSequences.count) > threshold * Double(rows) ? identifier : nil
        })
    }

    private mutating func installManifest(_ updated: Manifest) throws {
        let path = manifestPath
        try guarded { try $0.replaceFile(path, updated.encode()) }
        manifest = updated
    }

    /// Runs an I/O step; a failure poisons the writer (its files' state is then unknown until reopened).
    private mutating func guarded<T>(_ body: (any FileSystem) throws -> T) throws -> T {
        do {
            return try body(fileSystem)
        } catch let error as CadenceError {
            failure = error
            throw error
        }
    }

    mutating func close() {
        log?.close()
        log = nil
        lock?.unlock()
        lock = nil
    }
}
