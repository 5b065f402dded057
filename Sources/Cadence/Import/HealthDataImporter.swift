//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// What an import did (`cadence import` prints it).
public struct ImportSummary: Sendable, Codable {
    /// A record that was not imported, and why: where it starts and one sentence.
    public typealias Rejection = ImportIssue

    /// The file imported.
    public var file: String
    /// Samples stored.
    public var imported = 0
    /// Records skipped because the store already had them (same UUID, <doc:HowCadenceComputes#Identity>).
    public var duplicates = 0
    /// Records skipped because the user deleted them from the store since an earlier import
    /// (see ``HealthDataImporter/restoresDeleted``).
    public var keptDeleted = 0
    /// Records that could not be read or converted.
    public var rejected = 0
    /// The first rejections, in file order.
    public var rejections: [Rejection] = []
    /// Types Cadence does not know, with their record counts: quantity types stored with the unit
    /// they arrived in and the discrete arithmetic style (<doc:HowCadenceComputes#Types-and-units>), category types with their
    /// value names verbatim (<doc:HowCadenceComputes#Categories-workouts-and-correlations>).
    public var unknownTypes: [String: Int] = [:]
    /// Category value names a known type's table does not hold, as `type name`, with their
    /// record counts: stored verbatim (<doc:HowCadenceComputes#Categories-workouts-and-correlations>).
    public var unknownCategoryValues: [String: Int] = [:]
    /// Records of other kinds (`HKDataType…`, correlation types as records), counted and not stored.
    public var otherRecords = 0
    /// Records inside `<Correlation>`s that are copies of top-level records (exports repeat them
    /// there), so not stored twice; a nested record without a top-level twin is imported.
    public var correlationRecords = 0
    /// `<Correlation>` elements (stored, with their members' UUIDs); `<Workout>` elements
    /// (stored, each with its events, statistics, activities and route, and counted in `imported`);
    /// `<ActivitySummary>` elements (stored: see ``activitySummariesImported``).
    public var correlations = 0
    public var workouts = 0
    /// CDA documents read (standalone files, `export_cda.xml`), whether new or already stored.
    public var documents = 0
    /// FHIR resources read as clinical records (`clinical-records/*.json`), whether new or already stored.
    public var clinicalRecords = 0
    public var activitySummaries = 0
    /// Activity summaries stored for days the store had none of (<doc:HowCadenceComputes#Activity-summaries>); not counted in ``imported``.
    public var activitySummariesImported = 0
    /// Activity summaries that replaced the store's summary of their day, whose values differed.
    public var activitySummariesUpdated = 0
    /// Activity summaries identical to the store's summary of their day, so not stored again.
    public var activitySummariesUnchanged = 0
    /// Workout route files (GPX) read.
    public var workoutRoutes = 0
    /// Route files that are missing or could not be read whole, route points skipped, and routes
    /// cut at the point limits; the workouts themselves are still read.
    public var routeIssueCount = 0
    /// The first of those problems, with the line of their workout.
    public var routeIssues: [Rejection] = []
    /// Bytes read (of the uncompressed XML for a zip).
    public var bytesRead = 0
    /// Of ``imported``, the samples stored of each kind: what `cadence info` counts of this import.
    public var importedByKind: [SampleKind: Int] = [:]
    /// Where reading stopped when damage (a truncated or corrupt file) cut the import short: the
    /// line (0 when the damage names none, as a CSV file that cannot be read further) and the
    /// reason. Everything this summary counts was read before it, and is committed.
    public var stoppedAt: ImportIssue?

    /// Whether records were read and every one of them was rejected, so that nothing was stored.
    public var rejectedEveryRecord: Bool {
        rejected > 0 && imported == 0 && duplicates == 0
            && activitySummariesImported + activitySummariesUpdated + activitySummariesUnchanged == 0
    }

    /// Whether the import failed: damage stopped it (``stoppedAt``), or it rejected every record
    /// (``rejectedEveryRecord``). What it stored before then stays stored, and is counted here.
    public var failed: Bool { stoppedAt != nil || rejectedEveryRecord }

    /// The most rejections kept with their reasons.
    static let keptRejections = 20

    mutating func reject(line: Int, _ reason: String) {
        rejected += 1
        if rejections.count < Self.keptRejections { rejections.append(Rejection(line: line, reason: reason)) }
    }
}

/// How far an import has come, for progress bars.
public struct ImportProgress: Sendable {
    /// Bytes read so far.
    public var bytesRead: Int
    /// The input's size, when known (an `export.xml` or CSV file; not a zip's inflated size).
    public var totalBytes: Int?
    /// Records read so far.
    public var records: Int
}

/// Imports Apple Health exports (`export.zip`, `export.xml`) and CSV files into a store, with
/// bounded memory whatever the input's size.
///
/// An export is read on ``parallelism`` cores (segments cut at top-level `<Record>` tags), with exactly the
/// result of a serial reading; CSV is read on one. Batches of ``batchSize`` samples are saved on a
/// thread of their own while reading goes on (one save at a time, in file order), and the store's
/// head is flushed every ``flushInterval`` samples, so a long import holds a bounded number of
/// samples in memory. When the call returns or throws, no save is still running.
///
///     let summary = try HealthDataImporter(store: store).importFile(atPath: "export.zip")
///
/// Display units are converted to each type's canonical unit; a record without a UUID gets the
/// derived one, so importing the same file twice adds nothing and a newer export adds only what
/// is new. A record that cannot be read is counted and reported with its line, and the rest
/// imports; with `strict`, any such record fails the whole file and the store is left exactly as
/// it was (the file is checked in a first pass, then imported in a second).
///
/// CSV columns: `type,sourceName,unit,startDate,endDate,value` required;
/// `uuid,sourceVersion,device,creationDate` optional; `metadata:KEY` columns for metadata. Dates
/// are RFC 3339 or the export's `yyyy-MM-dd HH:mm:ss Z`.
public struct HealthDataImporter: Sendable {
    /// The store to import into.
    public let store: HealthStore
    /// Whether one bad record fails the whole file.
    public var strict: Bool
    /// Samples buffered before each save.
    public var batchSize: Int
    /// Roughly the bytes of samples buffered before each save, whatever their number: records with
    /// large metadata are saved in smaller batches, so a batch stays a few megabytes.
    package var batchBytes = 8 << 20
    /// Samples saved between flushes of the store's head into chunk files, which keeps an
    /// import's memory bounded whatever the size of the file.
    public var flushInterval = 524_288
    /// Roughly the bytes of samples (``SampleColumns/approximateByteCount``) saved between flushes
    /// of the store's head, whatever their number: a flush copies the head a few times over while
    /// it sorts and encodes it, so rows with large or many distinct metadata values flush sooner
    /// than the store's own byte threshold would. ``standardFlushBytes`` by default.
    package var flushBytes = standardFlushBytes
    /// 24 MiB: what ``flushInterval`` samples without metadata take, so that such files flush as
    /// often as before.
    package static let standardFlushBytes = 24 << 20
    /// Called every few thousand records.
    public var progress: (@Sendable (ImportProgress) -> Void)?
    /// The cores a file is read on (1 reads it on the calling thread alone).
    public var parallelism: Int
    /// Whether records whose samples were deleted from the store are stored again. Off by
    /// default: re-importing a file does not bring back what the user deleted since.
    public var restoresDeleted = false
    /// The bytes of a file each core reads at a time: large enough that a window's bookkeeping is
    /// noise, small enough that the window and its batches stay a few tens of megabytes (small in
    /// tests and fuzzing, to cut often).
    package var segmentBytes = 8 << 20
    /// The bounds on reading one workout route file (GPX); a route of more than its
    /// ``GPXReader/Limits/maxPoints`` keeps its first points and is reported.
    package var routeLimits = GPXReader.Limits()
    /// The most route points one import keeps, all routes together (each workout's copy of a shared
    /// file counted): this bounds the chunk bytes an import's routes take (8 Mi points: over 2,300
    /// hours at one point a second), while their memory is bounded by the points saved at a time.
    /// Routes past it are cut or not read, and reported.
    package var routePointBudget = 1 << 23
    /// The most sources the store may hold once the file is imported: a record that would add one
    /// more stops the import at its line (small in tests; ``HealthStore/maximumSources`` otherwise).
    package var sourceLimit = HealthStore.maximumSources
    /// The most types the store may hold once the file is imported, likewise (``HealthStore/maximumTypes``).
    package var typeLimit = HealthStore.maximumTypes
    /// The memory that numbering look-alike records may use (<doc:HowCadenceComputes#Identity>),
    /// and where it puts the keys that do not fit: small in tests, to use the disk after a few keys.
    var occurrenceBudget = SpillBudget.standard
    /// What waits for the end of the file (records inside correlations and the correlations,
    /// activity summaries) waits in temporary files in ``occurrenceBudget``'s directory, and is
    /// then resolved and saved this many at a time: small in tests, to cut often.
    package var heldBatch = 32_768
    /// Receives each batch's workouts, numbered and with their routes read, in file order, once
    /// they are handed to the store to be saved.
    package var workoutHandler: (@Sendable ([Workout]) throws -> Void)?

    /// Creates an importer.
    public init(store: HealthStore, strict: Bool = false, batchSize: Int = 100_000,
                parallelism: Int = ProcessInfo.processInfo.activeProcessorCount,
                progress: (@Sendable (ImportProgress) -> Void)? = nil) {
        self.store = store
        self.strict = strict
        self.batchSize = max(1, batchSize)
        self.parallelism = max(1, parallelism)
        self.progress = progress
    }

    /// Imports one file, choosing the reader by its extension (`.zip`, `.xml`, `.csv`).
    ///
    /// A file that damage cuts short after records were read (a truncated or corrupt file) keeps
    /// what was complete before the damage: the summary counts what was committed and says where
    /// reading stopped (``ImportSummary/stoppedAt``). That, and a file whose every record was
    /// rejected, is a failed import (``ImportSummary/failed``), though not thrown.
    ///
    /// - Throws: ``CadenceError`` naming the file, with nothing stored: `notFound`/`io` when it
    ///   cannot be read, `malformedInput` when it is not what its name says or is damaged before
    ///   any record, `hostileInput` for a refused archive, and in strict mode `malformedInput` for
    ///   the first bad record or the damage; or the store's error when saving fails (what was
    ///   saved before it stays).
    public func importFile(atPath path: String) throws -> ImportSummary {
        let source = importSource(forFileAt: path)
        if strict {
            let check = try run(source, path: path, dryRun: true)
            if let first = check.rejections.first {
                throw CadenceError(.malformedInput,
                                   "\(check.rejected) record(s) cannot be imported (strict mode, nothing was imported); first: \(first.reason)",
                                   path: path, line: first.line)
            }
            if let damage = check.stoppedAt {
                throw CadenceError(.malformedInput, "\(damage.reason) (strict mode, nothing was imported)",
                                   path: path, line: damage.line)
            }
        }
        return try run(source, path: path, dryRun: false)
    }

    /// One pass over one file. When reading fails, what was complete before the damage is still
    /// saved (unless strict mode checked the file first) and the summary says where reading
    /// stopped; the error is thrown instead when no record was read before it.
    private func run(_ source: any ImportSource, path: String, dryRun: Bool) throws -> ImportSummary {
        var pipeline = ImportPipeline(importer: self, path: path, dryRun: dryRun)
        // However reading ends, no save is left running behind the caller's back (after an error,
        // the error being thrown says more than the save's).
        defer { pipeline.abandon() }
        do {
            try source.read(into: &pipeline)
            try pipeline.stopIfRefused()
        } catch {
            // A failed save throws here: the store's error, not the file's.
            try pipeline.finish()
            guard let damage = error as? CadenceError, pipeline.hasReadRecords else { throw error }
            var summary = pipeline.summary
            summary.stoppedAt = ImportIssue(line: damage.line ?? 0, reason: damage.message)
            return summary
        }
        try pipeline.finish()
        return pipeline.summary
    }
}

extension HealthStore {
    /// The stored type with this identifier, if any.
    package func snapshotType(_ identifier: String) -> QuantityType? { snapshot().type(identifier)?.type }
}
