//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// The writer's side of a store: the lock, the open log segment, the persisted manifest and the
/// UUID index. Only ever used under the store's writer mutex.
///
/// Its jobs, a file each: opening and recovery (`StoreWriter+Recovery.swift`: the manifest, the
/// log replayed onto it, a reader catching up), writing (this file: saves, deletes, the log),
/// and flushing and compaction (`StoreWriter+Flush.swift`).
struct StoreWriter: Sendable {
    let directory: String
    let options: HealthStore.Options
    let fileSystem: any FileSystem
    var lock: (any FileLock)?
    var log: (any AppendableFile)?
    var manifest: Manifest
    var provenanceNumbers: [Provenance: UInt32] = [:]
    /// UUIDs of stored samples per type, built the first time a save needs them.
    var uuidIndex = UUIDIndex()
    /// UUIDs of deleted samples per type, which a save does not store again unless restoring.
    var deletionMemory = DeletionMemory()
    /// Set when a write failed in a way that leaves the log's state unknown (a failed fsync).
    var failure: CadenceError?
    var headCount = 0
    /// Roughly the bytes the head holds (``SampleColumns/approximateByteCount``): a head of few
    /// rows with large payloads flushes by this.
    var headBytes = 0
    /// Read-only: the version of the MANIFEST read (another version, even of the same size, means
    /// the writing process replaced it), and the bytes of the last log segment replayed.
    var manifestVersion: FileVersion?
    var replayedLength = 0
    /// Whether what a crash may have left in the directory was removed (see ``removeLeftovers()``).
    var leftoversRemoved = false
    /// Whether the log segment's name may not be on disk yet (opened without replaying a record):
    /// the first append syncs the directory before it is acknowledged.
    var logDirectoryEntryUnsynced = false

    var manifestPath: String { directory + "/" + Manifest.fileName }
    func chunkPath(_ number: UInt64) -> String { directory + "/" + Manifest.chunkFileName(number) }
    func logPath(_ segment: UInt64) -> String { directory + "/" + WriteAheadLog.segmentName(segment) }
    /// The log segment appended to (or, read-only, replayed last).
    var currentLogPath: String { logPath(manifest.logSegment) }

    // MARK: Writing

    func checkWritable() throws {
        if let failure { throw CadenceError(.closed, "the store stopped accepting writes after an I/O failure: \(failure.message)", path: failure.path) }
        guard !options.readOnly else { throw CadenceError(.readOnly, "the store was opened read-only", path: directory) }
        guard log != nil else { throw CadenceError(.closed, "the store is closed", path: directory) }
    }

    /// Appends a record and syncs it; any failure poisons the writer, since after a failed write
    /// or fsync the log's content on disk is unknown.
    mutating func append(_ entry: LogEntry) throws {
        guard let log else { throw CadenceError(.closed, "the store is closed", path: directory) }
        do {
            let record = try WriteAheadLog.record(entry)
            try log.append(record)
            try log.sync()
            if logDirectoryEntryUnsynced {
                try fileSystem.syncDirectory(directory)
                logDirectoryEntryUnsynced = false
            }
        } catch let error as CadenceError {
            failure = error
            throw error
        }
    }

    /// Saves batches in one log record. In the series named in `replacingByStart`, a saved row
    /// replaces the stored rows with its start (a day's activity summary): they are deleted in the
    /// same record, before the new rows in the change sequence, so a crash leaves both or neither.
    mutating func save(_ batches: [QuantitySampleBatch], snapshot: StoreSnapshot, restoringDeleted: Bool = false,
                       replacingByStart: Set<String> = [])
        throws -> (snapshot: StoreSnapshot, summary: SaveSummary, change: StoreChange?)
    {
        try checkWritable()
        var summary = SaveSummary()
        var newProvenances: [(number: UInt32, provenance: Provenance)] = []
        var pendingNumbers: [Provenance: UInt32] = [:]
        var prepared: [(type: QuantityType, columns: SampleColumns)] = []
        var sequence = snapshot.lastSequence
        var allProvenances = snapshot.provenances
        var typeNames = Dictionary(snapshot.types.keys.map { ($0, $0) }, uniquingKeysWith: { first, _ in first })
        for batch in batches where batch.count > 0 {
            // Types are keyed by `String`, whose `==` would merge two identifiers differing only in
            // Unicode normalisation: refuse the second rather than mix their samples.
            let identifier = batch.quantityType.identifier
            if let other = typeNames[identifier], !other.isIdentical(to: identifier) {
                throw CadenceError(.invalidArgument,
                                   "the type '\(identifier)' differs from the type '\(other)' only in Unicode normalisation; "
                                       + "Cadence keeps types apart byte for byte and cannot store both")
            }
            if typeNames.updateValue(identifier, forKey: identifier) == nil, typeNames.count > HealthStore.maximumTypes {
                throw CadenceError(.invalidArgument,
                                   "the store already holds \(HealthStore.maximumTypes) types; '\(identifier)' would be one "
                                       + "more. Every open reads each type's entry in the manifest, so a store holds at most "
                                       + "\(HealthStore.maximumTypes): split the data into several stores", path: directory)
            }
            // Map the batch's provenance indexes to store-wide numbers. The dictionary keeps each
            // device description without its object address, the rows keep the address
            // (How Cadence computes, Identity).
            let split = batch.provenances.map(\.splittingDeviceAddress)
            let addresses = split.map(\.address)
            let numbers: [UInt32] = try split.map(\.provenance).map { provenance in
                if let number = provenanceNumbers[provenance] ?? pendingNumbers[provenance] { return number }
                guard allProvenances.count < HealthStore.maximumSources else {
                    throw CadenceError(.invalidArgument,
                                       "the store already holds \(HealthStore.maximumSources) sources (distinct source, version "
                                           + "and device); '\(provenance.source.name)' would be one more. Every query reads the "
                                           + "source dictionary, so a store holds at most \(HealthStore.maximumSources): split the "
                                           + "data into several stores", path: directory)
                }
                let number = UInt32(allProvenances.count)
                allProvenances.append(provenance)
                pendingNumbers[provenance] = number
                newProvenances.append((number, provenance))
                return number
            }
            let type = snapshot.types[batch.quantityType.identifier]?.type ?? batch.quantityType
            let batchProvenances = numbers.map { allProvenances[Int($0)] }
            var keep = try uuidIndex.newRows(of: batch, stored: snapshot.types[type.identifier],
                                             provenances: batchProvenances, storeProvenances: allProvenances,
                                             replacesByStart: replacingByStart.contains(type.identifier),
                                             budget: options.uuidIndexBudget)
            summary.duplicates += batch.count - keep.count
            if !restoringDeleted, !keep.isEmpty, let deletions = snapshot.types[type.identifier]?.deletions,
               let deleted = try deletionMemory.deleted(of: type.identifier, in: deletions) {
                let identity = SampleIdentity(type: type.identifier, provenances: batchProvenances)
                let digests = SampleIdentity.metadataDigests(of: batch.columns)
                let before = keep.count
                keep.removeAll { deleted.contains(identity.uuid(of: batch.columns, row: $0, metadataDigests: digests)) }
                summary.keptDeleted += before - keep.count
            }
            guard !keep.isEmpty else { continue }
            var columns = keep.count == batch.count ? batch.columns : batch.columns.selecting(keep)
            // Whole columns mapped at once: no per-row uniqueness check on the columns' arrays.
            let batchNumbers = columns.provenance
            if addresses.contains(where: { $0 != 0 }) { columns.deviceAddress = batchNumbers.map { addresses[Int($0)] } }
            columns.provenance = batchNumbers.map { numbers[Int($0)] }
            prepared.append((type, columns))
        }
        guard !prepared.isEmpty else { return (snapshot, summary, nil) }
        var replaced: [Tombstone] = []
        var extents: [String: StoreChange.Extent] = [:]
        for (type, columns) in prepared {
            extents[type.identifier, default: StoreChange.Extent()].formUnion(StoreChange.Extent(columns))
            guard replacingByStart.contains(type.identifier), let stored = snapshot.types[type.identifier] else { continue }
            let starts = Set(columns.start)
            replaced += try Self.tombstones(of: stored, provenances: snapshot.provenances, sequence: &sequence,
                                            extent: &extents[type.identifier, default: StoreChange.Extent()],
                                            startingIn: Self.range(of: starts)) {
                starts.contains($0.start[$1])
            }
        }
        for index in prepared.indices {
            // The whole column at once: a write per row into the array of batches checked the
            // uniqueness of both arrays each time.
            let count = Int64(prepared[index].columns.count)
            prepared[index].columns.sequence = Array((sequence + 1)..<(sequence + 1 + count))
            sequence += count
            summary.saved += prepared[index].columns.count
        }
        summary.replaced = replaced.count
        let entry = replaced.isEmpty ? LogEntry.save(newProvenances: newProvenances, batches: prepared)
            : LogEntry.replace(replaced, newProvenances: newProvenances, batches: prepared)
        try append(entry)
        let updated = try apply(entry, to: snapshot)
        let change = StoreChange(firstSequence: snapshot.lastSequence + 1, lastSequence: updated.lastSequence, types: extents)
        return (updated, summary, change)
    }

    /// The smallest range holding `starts` (an empty range's stand-in when there are none).
    private static func range(of starts: Set<Int64>) -> ClosedRange<Int64> {
        guard let first = starts.min(), let last = starts.max() else { return Int64.max...Int64.max }
        return first...last
    }

    /// A tombstone for each row of `type` that `matches` selects, their deletions numbered on from
    /// `sequence`, and the rows' span added to `extent`. Only the chunks and head batches holding
    /// a start in `starts` are read: `matches` must select no row starting outside it.
    static func tombstones(of type: TypeSnapshot, provenances: [Provenance], sequence: inout Int64,
                           extent: inout StoreChange.Extent,
                           startingIn starts: ClosedRange<Int64> = Int64.min...Int64.max,
                           where matches: (SampleColumns, Int) throws -> Bool) throws
        -> [Tombstone]
    {
        let identifier = type.type.identifier
        let identity = SampleIdentity(type: identifier, provenances: provenances)
        var tombstones: [Tombstone] = []
        try StoredSample.forEachRow(of: type, details: true, startingIn: starts) { columns, row in
            guard try matches(columns, row) else { return }
            sequence += 1
            let metadata = columns.metadata(at: row)
            tombstones.append(Tombstone(
                typeIdentifier: identifier,
                uuid: identity.uuid(of: columns, row: row, metadataDigests: nil),
                sampleSequence: columns.sequence[row], deletionSequence: sequence,
                syncIdentifier: metadata[QuantitySeriesStorage.ownerKey] == nil ? metadata[MetadataKey.syncIdentifier]
                    : QuantitySeriesStorage.entryDeletionMarker,
                syncVersion: metadata[MetadataKey.syncVersion]))
            extent.include(start: columns.start[row], end: columns.end[row])
        }
        return tombstones
    }

    /// Deletes the rows `matches` selects, reading only the types in `types` (every type when `nil`).
    mutating func delete(snapshot: StoreSnapshot, types: Set<String>? = nil,
                         where matches: (TypeSnapshot, SampleColumns, Int) throws -> Bool)
        throws -> (snapshot: StoreSnapshot, count: Int, change: StoreChange?)
    {
        try checkWritable()
        var tombstones: [Tombstone] = []
        var extents: [String: StoreChange.Extent] = [:]
        var sequence = snapshot.lastSequence
        for (identifier, type) in snapshot.types.sorted(by: { $0.key < $1.key }) where types?.contains(identifier) ?? true {
            var extent = StoreChange.Extent()
            let deleted = try Self.tombstones(of: type, provenances: snapshot.provenances, sequence: &sequence,
                                              extent: &extent) { try matches(type, $0, $1) }
            guard !deleted.isEmpty else { continue }
            tombstones += deleted
            extents[identifier] = extent
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

    /// Writes `updated` and its new chunk lists, and makes it the store's manifest.
    mutating func installManifest(_ updated: Manifest) throws {
        try removeLeftovers()
        var updated = updated
        let previous = manifest
        let directory = self.directory
        try guarded { try updated.install(replacing: previous, in: directory, fileSystem: $0) }
        manifest = updated
    }

    /// Runs an I/O step; a failure poisons the writer (its files' state is then unknown until reopened).
    mutating func guarded<T>(_ body: (any FileSystem) throws -> T) throws -> T {
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
