//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Synchronization

/// An embedded, durable store of quantity samples in a directory (HealthKit's `HKHealthStore`).
///
///     let store = try HealthStore.open(at: "health.cadence")
///     try store.save([sample])
///     let days = try store.execute(StatisticsCollectionQuery(...))
///
/// Samples live per type in immutable, sorted, LZ4-compressed columnar chunk files with
/// precomputed summaries. A save is written to a checksummed write-ahead log and `fsync`ed before
/// it returns: what a call acknowledged survives a crash. The unflushed head is moved into chunk
/// files when it grows past ``Options/flushThreshold`` (or on ``flush()``), and the manifest that
/// lists the chunks is replaced atomically.
///
/// The store is safe to share between threads and tasks: queries read an immutable snapshot while
/// a writer commits. One process at a time may open a store for writing (a file lock enforces
/// it, naming the holder's pid); read-only opens work beside it, in this process or others, and
/// catch up with its commits before each query.
///
/// ## Topics
/// ### Opening
/// - ``open(at:options:)``
/// - ``inMemory(options:)``
/// - ``refresh()``
/// ### Writing
/// - ``save(_:)-([QuantitySample])``
/// - ``save(_:)-(QuantitySampleBatch)``
/// - ``flush()``
/// - ``compact(discardingDeletionsBefore:)``
/// - ``upgrade()``
public final class HealthStore: Sendable {
    /// How a store is opened.
    public struct Options: Sendable {
        /// Open for reading only: no lock is taken, nothing is written, saves throw ``CadenceError/Code/readOnly``.
        /// The store follows the commits of the process writing it (see ``refresh()``).
        public var readOnly = false
        /// When another process has the store open for writing, wait until it closes it instead
        /// of throwing ``CadenceError/Code/storeLocked``.
        public var waitForWriter = false
        /// Read-only: how often, in seconds, a store with long-running queries checks whether
        /// the process writing it committed, to update them.
        public var refreshInterval: TimeInterval = 0.2
        /// Unflushed samples (all types) after which a save flushes the head into chunk files.
        public var flushThreshold = 2_000_000
        /// The most samples in one chunk file (a chunk may end a little earlier, on a UTC hour
        /// edge, so that the next starts on a whole hour).
        public var chunkCapacity = 65_536
        /// Unflushed bytes (all types: columns, metadata and payloads such as workout routes, roughly
        /// counted) after which a save flushes the head into chunk files, so that a few samples with
        /// large payloads do not fill memory before ``flushThreshold`` is reached.
        public var flushByteThreshold = 64 << 20
        /// The most bytes a compressed section of a chunk file may hold before compression; more
        /// rows go into more chunk files. Kept well under LZ4's 2 GiB block limit; tests lower it.
        package var sectionLimit = ChunkFile.sectionLimit
        /// The memory each type's index of stored UUIDs may use before it moves UUIDs to temporary
        /// files, and where they go; tests lower it.
        package var uuidIndexBudget = SpillBudget.standard
        /// The fraction of a type's samples in chunk files that may be deleted (hidden, but still
        /// in the files) before a delete compacts that type, rewriting its chunks without them.
        public var compactionThreshold = 0.25

        /// The default options.
        public init() {}

        /// Options for read-only access.
        public static var readOnly: Options {
            var options = Options()
            options.readOnly = true
            return options
        }
    }

    /// The store's directory.
    public let path: String
    /// The options it was opened with.
    public let options: Options
    package let fileSystem: any FileSystem
    private let current: Mutex<StoreSnapshot>
    private let writer: Mutex<StoreWriter>
    package let observers = ObserverRegistry()
    /// Read-only: whether a thread polls for other processes' commits (while observers exist).
    private let isWatching = Mutex(false)

    private init(path: String, options: Options, fileSystem: any FileSystem, snapshot: StoreSnapshot,
                 writer: StoreWriter) {
        self.path = path
        self.options = options
        self.fileSystem = fileSystem
        self.current = Mutex(snapshot)
        self.writer = Mutex(writer)
    }

    /// Opens the store in `path`, creating it when it does not exist (unless read-only), replaying
    /// its write-ahead log.
    ///
    /// - Throws: ``CadenceError/Code/storeLocked`` when another process has it open for writing,
    ///   or this process does (share that ``HealthStore`` instead);
    ///   ``CadenceError/Code/corruptFile`` naming the damaged file;
    ///   ``CadenceError/Code/unsupportedFormatVersion`` for a store of an unknown format.
    /// - Complexity: O(*t* + *p* + *h* + *w*) for *t* types, *p* sources, *h* deletions that hide
    ///   rows still in chunk files and *w* bytes of log, whatever the chunks: the manifest keeps each
    ///   type's chunks in outline, a type's chunk list is read the first time the type is used (a
    ///   store written by format version 2 reads every list at once), and the directory is not listed
    ///   (files a crash left are removed before the first flush).
    public static func open(at path: String, options: Options = Options()) throws -> HealthStore {
        try open(at: path, options: options, fileSystem: POSIXFileSystem())
    }

    /// Creates an empty store held in memory, with the same API and code paths as an on-disk one.
    public static func inMemory(options: Options = Options()) -> HealthStore {
        var options = options
        options.readOnly = false
        do {
            return try open(at: "/memory", options: options, fileSystem: MemoryFileSystem())
        } catch {
            // Creating an empty store in a fresh memory file system performs no fallible I/O.
            preconditionFailure("an in-memory store could not be created: \(error)")
        }
    }

    package static func open(at path: String, options: Options, fileSystem: any FileSystem) throws -> HealthStore {
        let opened = try StoreWriter.open(path: path, options: options, fileSystem: fileSystem)
        return HealthStore(path: path, options: options, fileSystem: fileSystem, snapshot: opened.snapshot,
                           writer: opened.writer)
    }

    /// The path of the log segment the store appends to (or, read-only, replayed last).
    package func currentLogPath() -> String { writer.withLock { $0.currentLogPath } }

    /// The current snapshot: what a query started now sees. A read-only store first catches up
    /// with the process writing it (see ``refresh()``); when that fails, it answers from the
    /// last state it read.
    package func snapshot() -> StoreSnapshot {
        if options.readOnly { try? refresh() }
        return current.withLock { $0 }
    }

    /// Runs a query on the current snapshot. On a read-only store the writing process may remove
    /// a chunk file the snapshot lists (a compaction replaced it) while the query runs: when a
    /// file is missing and the store has moved on, the query runs again on the store as it now
    /// is (a few times at most).
    package func read<Result>(_ body: (StoreSnapshot) throws -> Result) throws -> Result {
        var snapshot = snapshot()
        for _ in 0..<3 where options.readOnly {
            do {
                return try body(snapshot)
            } catch let error as CadenceError where error.code == .notFound {
                let now = self.snapshot()
                guard now !== snapshot else { throw error }
                snapshot = now
            }
        }
        return try body(snapshot)
    }

    /// Brings a read-only store up to the last commit of the process writing it, and tells the
    /// long-running queries what changed. Every query on a read-only store starts with this
    /// (two `stat`s when nothing changed) and long-running queries poll it, so calling it is only
    /// needed to learn why the store could not be read again. Does nothing on a writable store.
    ///
    /// - Throws: What opening throws, when the store cannot be read again; it then keeps the
    ///   last state it read.
    /// - Complexity: O(1) when nothing changed; O(*w*) for *w* new bytes of log; after the
    ///   writer flushed, what opening costs.
    public func refresh() throws {
        guard options.readOnly else { return }
        let change: StoreChange? = try writer.withLock { writer in
            guard let caughtUp = try writer.catchUp(current.withLock { $0 }) else { return nil }
            current.withLock { $0 = caughtUp.snapshot }
            return caughtUp.change
        }
        if let change { observers.notify(change) }
    }

    /// The store's identity (anchors carry it).
    public var identifier: UUID { snapshot().storeIdentifier }

    /// The quantity types that have ever been saved, sorted by identifier.
    public var quantityTypes: [QuantityType] {
        snapshot().types.values.map(\.type)
            .filter { $0.kind == .quantity && !QuantitySeriesStorage.isOwnerSeries($0.identifier) }.sorted { $0.identifier < $1.identifier }
    }

    /// Read-only: starts polling for the commits of the process writing the store, so that
    /// long-running queries see them; the polling stops when the last one ends.
    package func watchOtherProcesses() {
        guard options.readOnly, isWatching.withLock({ watching in defer { watching = true }; return !watching }) else { return }
        let interval = max(0.001, options.refreshInterval)
        Thread.detachNewThread { [weak self] in
            while true {
                guard let store = self else { return }
                // Stopped under the flag's lock, so an observer added meanwhile starts a new poller.
                if store.isWatching.withLock({ watching in
                    if store.observers.isEmpty { watching = false }
                    return !watching
                }) { return }
                try? store.refresh()
                Thread.sleep(forTimeInterval: interval)
            }
        }
    }

    // MARK: Writing

    /// Runs a write under the writer lock, publishes the snapshot it produces and notifies observers.
    func commit(_ body: (inout StoreWriter, StoreSnapshot) throws -> (StoreSnapshot, StoreChange?)) throws {
        let change: StoreChange? = try writer.withLock { writer in
            let (snapshot, change) = try body(&writer, current.withLock { $0 })
            current.withLock { $0 = snapshot }
            return change
        }
        if let change { observers.notify(change) }
    }

    /// Saves samples in one transaction; a sample whose UUID is already stored is skipped and
    /// counted as a duplicate (<doc:HowCadenceComputes#Identity>).
    ///
    /// - Returns: How many samples were saved and how many were duplicates.
    /// - Throws: ``CadenceError/Code/readOnly``; ``CadenceError/Code/io`` when the log cannot be
    ///   written or synced (the call is not acknowledged: after reopening, its samples are either all
    ///   there or none), or when the automatic flush after a synced save fails (its samples are
    ///   saved); either way the store refuses further writes until reopened.
    /// - Complexity: O(*n*) plus, the first time samples overlap stored ones in time, one pass over
    ///   that type's stored samples to index their UUIDs.
    @discardableResult
    public func save(_ samples: [QuantitySample]) throws -> SaveSummary {
        try save(QuantitySampleBatch.grouping(samples, series: \.quantityType) { try $0.append($1) })
    }

    /// Saves a columnar batch in one transaction.
    @discardableResult
    public func save(_ batch: QuantitySampleBatch) throws -> SaveSummary { try save([batch]) }

    /// Saves several batches in one transaction.
    ///
    /// A sample whose UUID was deleted is not stored again (re-importing a file does not bring
    /// back what the user deleted since) unless `restoringDeleted`; it is counted in
    /// ``SaveSummary/keptDeleted``. ``compact(discardingDeletionsBefore:)`` forgets deletions.
    ///
    /// - Parameters:
    ///   - batches: The samples.
    ///   - restoringDeleted: Whether samples deleted earlier are stored again.
    /// - Complexity: O(*n*) in the batches' rows, plus O(*d*) once for the *d* deletion records
    ///   of the types saved (read the first time a save of the type meets them).
    @discardableResult
    public func save(_ batches: [QuantitySampleBatch], restoringDeleted: Bool = false) throws -> SaveSummary {
        try save(batches, restoringDeleted: restoringDeleted, replacingByStart: [])
    }

    /// Saves several batches in one transaction, in which a row of a series named in
    /// `replacingByStart` replaces the stored rows with its start, deleted in the same log record.
    package func save(_ batches: [QuantitySampleBatch], restoringDeleted: Bool, replacingByStart: Set<String>) throws
        -> SaveSummary
    {
        var summary = SaveSummary()
        var shouldFlush = false
        try commit { writer, snapshot in
            let result = try writer.save(batches, snapshot: snapshot, restoringDeleted: restoringDeleted,
                                         replacingByStart: replacingByStart)
            summary = result.summary
            shouldFlush = writer.headCount >= options.flushThreshold || writer.headBytes >= options.flushByteThreshold
            return (result.snapshot, result.change)
        }
        if shouldFlush { try flush() }
        return summary
    }

    /// Deletes the samples with these UUIDs (of any type), recording a deleted object for each; a
    /// series sample's entries go with it.
    ///
    /// - Returns: The number of samples deleted (unknown UUIDs are ignored).
    /// - Complexity: O(*n*) over the stored samples.
    @discardableResult
    public func deleteSamples(withUUIDs uuids: some Sequence<UUID>) throws -> Int {
        let wanted = Set(uuids)
        var identities: [String: SampleIdentity] = [:]
        return try delete { provenances, type, columns, row in
            let identifier = type.type.identifier
            let identity = identities[identifier] ?? SampleIdentity(type: identifier, provenances: provenances)
            identities[identifier] = identity
            return wanted.contains(identity.uuid(of: columns, row: row, metadataDigests: nil))
                || QuantitySeriesStorage.owner(ofEntry: columns, row: row).map(wanted.contains) == true
        }
    }

    /// Deletes every sample of `type` that `predicate` selects; only that type's samples are read.
    ///
    /// - Returns: The number of samples deleted.
    /// - Throws: ``CadenceError/Code/incompatibleUnits`` or ``CadenceError/Code/invalidArgument`` for a
    ///   predicate that cannot apply to the type (a quantity in another dimension, a workout condition).
    @discardableResult
    public func deleteSamples(of type: QuantityType, matching predicate: SamplePredicate = .all) throws -> Int {
        try deleteQuantitySamples(of: type, matching: predicate)
    }

    /// Deletes every sample of a storage series that `predicate` selects.
    func deleteSamples(ofSeries type: QuantityType, matching predicate: SamplePredicate) throws -> Int {
        try predicate.validate(for: type)
        let identifier = type.identifier
        // Only the type's rows are decoded: the other types' chunks are not read.
        return try delete(types: [identifier]) { provenances, typeSnapshot, columns, row in
            predicate.matches(columns: columns, row: row, provenances: provenances, typeIdentifier: identifier,
                                     canonicalUnit: typeSnapshot.type.canonicalUnit)
        }
    }

    /// Deletes the rows `matches` selects among the types in `types` (every type when `nil`),
    /// then compacts the types that are over the threshold.
    private func delete(types: Set<String>? = nil,
                        where matches: @escaping ([Provenance], TypeSnapshot, SampleColumns, Int) throws -> Bool) throws -> Int {
        try delete(types: types) { _ in matches }
    }

    /// Deletes the rows, among the types in `types` (every type when `nil`), that the matcher
    /// `prepare` makes from the snapshot the deletion applies to selects, then compacts the types
    /// that are over the threshold.
    func delete(types: Set<String>? = nil,
                preparing prepare: (StoreSnapshot) throws -> ([Provenance], TypeSnapshot, SampleColumns, Int) throws -> Bool)
        throws -> Int {
        var deleted = 0
        var compacting: Set<String> = []
        try commit { writer, snapshot in
            let matches = try prepare(snapshot)
            let result = try writer.delete(snapshot: snapshot, types: types) { try matches(snapshot.provenances, $0, $1, $2) }
            deleted = result.count
            compacting = writer.typesToCompact(result.snapshot, threshold: options.compactionThreshold)
            return (result.snapshot, result.change)
        }
        if !compacting.isEmpty {
            try commit { writer, snapshot in (try writer.flush(snapshot: snapshot, rewriting: compacting), nil) }
        }
        return deleted
    }

    /// Moves every unflushed sample into chunk files and truncates the log.
    public func flush() throws {
        try commit { writer, snapshot in (try writer.flush(snapshot: snapshot), nil) }
    }

    /// Rewrites every type's chunks: merges small chunks, physically removes deleted samples, and
    /// optionally forgets deleted objects recorded at or before `sequence` (anchors older than that
    /// then get ``CadenceError/Code/anchorExpired``; a save stores those samples again).
    ///
    /// Deletes compact a type on their own once more than ``Options/compactionThreshold`` of
    /// its samples are deleted. Like a flush, a compaction is crash-safe: the new chunk files are
    /// synced before the manifest that lists them replaces the old one, and the old files are
    /// removed only after that.
    public func compact(discardingDeletionsBefore sequence: Int64? = nil) throws {
        try commit { writer, snapshot in
            (try writer.flush(snapshot: snapshot, rewriting: Set(snapshot.types.keys), deletionHorizon: sequence), nil)
        }
    }

    /// Sets the store-wide source priority list, used when merging sources of a type that has no
    /// list of its own (<doc:HowCadenceComputes#Merging-sources>).
    public func setSourcePriority(_ names: [String]) throws {
        try commit { writer, snapshot in
            var priorities = snapshot.sourcePriority
            priorities.storeWide = names
            return (try writer.setSourcePriority(priorities, snapshot: snapshot), nil)
        }
    }

    /// Sets one type's source priority list, as the Health app keeps one per data type (<doc:HowCadenceComputes#Merging-sources>);
    /// `nil` removes it, so the type follows the store-wide list again.
    ///
    ///     try store.setSourcePriority(["Jane’s Apple Watch", "Jane’s iPhone"], for: .stepCount)
    public func setSourcePriority(_ names: [String]?, for type: QuantityType) throws {
        try commit { writer, snapshot in
            var priorities = snapshot.sourcePriority
            priorities.byType[type.identifier] = names
            return (try writer.setSourcePriority(priorities, snapshot: snapshot), nil)
        }
    }

    /// The store-wide source priority list.
    public var sourcePriority: [String] { snapshot().sourcePriority.storeWide }

    /// Every source priority list the store keeps: the store-wide one and those of single types.
    public var sourcePriorities: SourcePriorities { snapshot().sourcePriority }

    /// Flushes, releases the writer lock and closes the log. Further writes throw ``CadenceError/Code/closed``.
    ///
    /// The lock and the log are released even when the flush fails (the log still holds every
    /// acknowledged change), so the store can be reopened at once.
    public func close() throws {
        defer { writer.withLock { $0.close() } }
        if !options.readOnly { try flush() }
    }
}

extension HealthStore {
    /// The most sources (distinct source name, source version and device) one store holds.
    ///
    /// The source dictionary is in the manifest, which every open and every query's source
    /// ranking read whole: capped, a query never pays for millions of sources. A save that would
    /// add one more throws ``CadenceError/Code/invalidArgument`` naming the store.
    public static let maximumSources = 65_536

    /// The most types (quantity, category and the other kinds' series) one store holds.
    ///
    /// Every open reads each type's entry in the manifest and keeps each type's unflushed head: capped, an
    /// open never pays for a type per sample. HealthKit has a few hundred types. A save that would
    /// add one more throws ``CadenceError/Code/invalidArgument`` naming the store.
    public static let maximumTypes = 4_096
}

/// What a save did.
public struct SaveSummary: Sendable, Equatable {
    /// Samples stored.
    public var saved = 0
    /// Samples skipped because their UUID was already stored.
    public var duplicates = 0
    /// Samples skipped because a sample with their UUID was deleted (saving with
    /// `restoringDeleted` stores them again).
    public var keptDeleted = 0
    /// Stored samples the save replaced (deleted in the same transaction): activity summaries of
    /// the days it saved other values for (<doc:HowCadenceComputes#Activity-summaries>). Counted apart from ``saved``.
    public var replaced = 0

    /// Creates a summary.
    public init(saved: Int = 0, duplicates: Int = 0, keptDeleted: Int = 0, replaced: Int = 0) {
        self.saved = saved
        self.duplicates = duplicates
        self.keptDeleted = keptDeleted
        self.replaced = replaced
    }
}
