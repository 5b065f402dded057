//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Where an import source's records go, in three steps: the collector normalises them (types,
/// units, validation) into batches; the batches' look-alike records are numbered in file order
/// (their identity, <doc:HowCadenceComputes#Identity>) and saved, both on a thread of their own while reading goes on.
///
/// A source reads its bytes, feeds ``collector``, and calls ``didRead(bytes:)`` after each block;
/// ``finish()`` saves the rest, resolves the records met inside correlations, and waits for the saves.
struct ImportPipeline {
    /// Turns records into checked batches; sources feed it directly.
    var collector: SampleCollector
    /// The import's settings (batch size, progress callback, cores, segment size).
    let importer: HealthDataImporter
    /// Whether records are only checked, never saved (strict mode's first pass).
    let dryRun: Bool
    /// Saves the collected batches while reading goes on.
    let saver: BackgroundSaver
    /// Bytes read so far, and the input's size when known.
    private(set) var bytesRead = 0
    var totalBytes: Int?
    /// Records read when progress was last reported.
    private var reportedRecords = 0
    /// Numbers look-alike workouts in file order (see `ImportPipeline+Workouts.swift`).
    var workoutOccurrences = OccurrenceCounter()
    /// Where the GPX files of workout routes are, if the source has any.
    var routeFiles: WorkoutRouteFiles?
    /// Route points kept so far, against ``HealthDataImporter/routePointBudget``.
    var routePointsKept = 0
    /// The route files read so far, for workouts that name the same file.
    var routeCache = RouteFileCache()
    /// Route files that could not be read, so that one named by several routes is reported once.
    var unreadableRouteFiles: Set<String> = []
    /// The store's samples of each type before the import: the import's own, by kind, are the
    /// difference once it is done.
    private let samplesBefore: [String: Int]
    /// The records met inside correlations, and the correlations, waiting on disk for the end of the file.
    var heldCorrelations: HeldCorrelations
    /// The activity summaries read, waiting on disk for the end of the file.
    var heldSummaries: HeldActivitySummaries

    /// Records between progress reports.
    static let progressInterval = 10_000

    init(importer: HealthDataImporter, path: String, dryRun: Bool) {
        self.importer = importer
        self.dryRun = dryRun
        collector = SampleCollector(store: importer.store, path: path, dryRun: dryRun, sourceLimit: importer.sourceLimit,
                                    typeLimit: importer.typeLimit)
        saver = BackgroundSaver(store: importer.store, flushInterval: importer.flushInterval,
                                flushBytes: importer.flushBytes, restoringDeleted: importer.restoresDeleted, occurrenceBudget: importer.occurrenceBudget)
        samplesBefore = Self.sampleCounts(of: importer.store)
        heldCorrelations = HeldCorrelations(directory: importer.occurrenceBudget.directory)
        heldSummaries = HeldActivitySummaries(directory: importer.occurrenceBudget.directory)
    }

    /// The samples of each type the store holds.
    ///
    /// - Complexity: O(*t*) for *t* types; nothing is read from disk.
    private static func sampleCounts(of store: HealthStore) -> [String: Int] {
        store.snapshot().types.mapValues(\.sampleCount)
    }

    /// Whether the import read any record (stored, a duplicate or rejected) or activity summary
    /// (waiting to be saved, or saved) before it ended.
    var hasReadRecords: Bool {
        collector.records > 0 || summary.imported > 0 || summary.duplicates > 0 || summary.rejected > 0
            || !collector.activitySummaries.isEmpty || heldSummaries.count > 0
            || summary.activitySummariesImported + summary.activitySummariesUpdated + summary.activitySummariesUnchanged > 0
    }

    /// What the import did so far.
    var summary: ImportSummary { collector.summary }

    /// Counts a block of input read, reports progress, and saves the collected samples once there
    /// are enough of them, or they hold enough bytes.
    mutating func didRead(bytes count: Int) throws {
        bytesRead += count
        try stopIfRefused()
        try holdForEnd()
        if collector.records - reportedRecords >= Self.progressInterval {
            reportedRecords = collector.records
            importer.progress?(ImportProgress(bytesRead: bytesRead, totalBytes: totalBytes, records: collector.records))
        }
        if collector.pending >= importer.batchSize || collector.pendingBytes >= importer.batchBytes { try saveCollected() }
    }

    /// Throws the collector's refusal, once a record was refused for the store's sake: reading
    /// stops there, and what was collected before it is saved.
    func stopIfRefused() throws {
        if let refusal = collector.refusal { throw refusal }
    }

    /// Counts as read only the `count` bytes of the input before the damage its reader stopped
    /// at: blocks read ahead of the reader, or the rest of the block it stopped in, were not read
    /// into records, and a serial and a segmented reading then report the same.
    mutating func readerStopped(afterBytes count: Int) {
        bytesRead = count
    }

    /// Hands the collected batches to the saver, to be saved in one transaction once their
    /// look-alike records are numbered; moves what waits for the end of the file to disk.
    private mutating func saveCollected() throws {
        try holdForEnd()
        try saveWorkouts()
        guard collector.pending > 0, !dryRun else { return }
        try saver.save(collector.takeBatches(), numberingOccurrences: true)
    }

    /// Saves what is collected, then the records met inside correlations that have no top-level
    /// twin, and waits for the saves; the summary then counts what was stored.
    mutating func finish() throws {
        try saveCollected()
        try saveNestedRecords()
        let saved = try saver.finish()
        // Documents and clinical records were saved as they were read (DocumentFiles): added to.
        collector.summary.imported += saved.saved
        collector.summary.duplicates += saved.duplicates
        collector.summary.keptDeleted += saved.keptDeleted
        collector.summary.bytesRead = bytesRead
        guard !dryRun else { return }
        try saveActivitySummaries()
        var byKind: [SampleKind: Int] = [:]
        for (identifier, count) in Self.sampleCounts(of: importer.store)
        where count != samplesBefore[identifier] && SampleKind(identifier: identifier) != .activitySummary {
            byKind[SampleKind(identifier: identifier), default: 0] += count - (samplesBefore[identifier] ?? 0)
        }
        collector.summary.importedByKind = byKind
    }

    /// Moves the records met inside correlations, the correlations and the activity summaries the
    /// collector holds to their temporary files, where they wait for the end of the file.
    private mutating func holdForEnd() throws {
        guard !dryRun else { return }
        let (nested, correlations) = collector.takeNestedRecords()
        try heldCorrelations.hold(nested, correlations: correlations)
        try heldSummaries.hold(collector.takeActivitySummaries())
    }

    /// Saves the last activity summary of each day of the file, in batches of
    /// ``HealthDataImporter/heldBatch``, once every other save is done: a summary of a day the
    /// store holds with other values replaces it (<doc:HowCadenceComputes#Activity-summaries>).
    private mutating func saveActivitySummaries() throws {
        try holdForEnd()
        var saved = SaveSummary()
        var bytesSinceFlush = 0
        try heldSummaries.lastOfEachDay(batch: importer.heldBatch) { summaries in
            let batch = try importer.store.save(summaries, restoringDeleted: importer.restoresDeleted)
            saved.saved += batch.saved
            saved.replaced += batch.replaced
            saved.duplicates += batch.duplicates
            saved.keptDeleted += batch.keptDeleted
            // Flushed as the saver flushes samples, so that the head never holds many batches.
            bytesSinceFlush += summaries.reduce(0) { $0 + SampleColumns.rowBytes + SampleColumns.byteCount(of: $1.storedAttributes) }
            if bytesSinceFlush >= importer.flushBytes {
                try importer.store.flush()
                bytesSinceFlush = 0
            }
        }
        guard heldSummaries.count > 0 else { return }
        collector.summary.activitySummariesImported = max(0, saved.saved - saved.replaced)
        collector.summary.activitySummariesUpdated = saved.replaced
        collector.summary.activitySummariesUnchanged = saved.duplicates
        collector.summary.keptDeleted += saved.keptDeleted
    }

    /// Waits for any save still running (after a failure, one that is reported instead), and lets
    /// go of the temporary files of the numbering: called however the import ends.
    func abandon() {
        _ = try? saver.finish()
        saver.releaseOccurrences()
    }
}
