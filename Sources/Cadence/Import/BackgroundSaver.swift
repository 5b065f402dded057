//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Dispatch

/// Saves an import's batches on a thread of its own, so that the file is read on while the last
/// batches are logged, and the store's head flushed into chunks, every ``flushInterval`` samples.
///
/// One save is in flight at a time: ``save(_:)`` first waits for the one before, so saves land
/// in file order and memory holds at most two rounds of batches. A save's error comes out of
/// the next ``save(_:)`` or ``finish()``, and nothing is saved after it.
final class BackgroundSaver: @unchecked Sendable {
    // The fields below are written by the save thread only while a save is in flight, and read
    // by the caller only after `inFlight.wait()`, which orders the two.
    private let store: HealthStore
    private let flushInterval: Int
    /// Roughly the bytes (``SampleColumns/approximateByteCount``) saved between flushes.
    private let flushBytes: Int
    private let queue = DispatchQueue(label: "cadence.import.save")
    private let inFlight = DispatchGroup()
    private var outcome = Outcome()
    private var savedSinceFlush = 0
    private var bytesSinceFlush = 0
    /// Look-alike records counted so far, in the order batches were handed over (the file's).
    private var occurrences: OccurrenceCounter
    private let occurrenceBudget: SpillBudget

    /// What the saves did so far.
    struct Outcome {
        var saved = SaveSummary()
        var failure: (any Error)?
    }

    /// Whether samples deleted earlier are stored again (``HealthStore/save(_:restoringDeleted:)``).
    private let restoringDeleted: Bool

    /// Creates a saver into `store` that flushes its head every `flushInterval` saved samples, or
    /// `flushBytes` of them, and numbers look-alike records within `occurrenceBudget`.
    init(store: HealthStore, flushInterval: Int, flushBytes: Int = HealthDataImporter.standardFlushBytes,
         restoringDeleted: Bool = false, occurrenceBudget: SpillBudget = .standard) {
        self.store = store
        occurrences = OccurrenceCounter(budget: occurrenceBudget)
        self.occurrenceBudget = occurrenceBudget
        self.flushInterval = flushInterval
        self.flushBytes = flushBytes
        self.restoringDeleted = restoringDeleted
    }

    /// Waits for the save in flight, then starts saving `batches`.
    ///
    /// - Parameters:
    ///   - batches: The batches, saved in one transaction.
    ///   - numberingOccurrences: Whether the batches' look-alike records are numbered
    ///     first (<doc:HowCadenceComputes#Identity>), on the save thread, counting every batch so numbered before, so the
    ///     numbering costs the reading nothing.
    ///   - weight: Samples' worth of memory the batches hold beyond one a row (a workout's route
    ///     points, each about a sample's size in the store's head), counted toward the flush.
    /// - Throws: The error of an earlier save; `batches` are then not saved.
    func save(_ batches: [QuantitySampleBatch], numberingOccurrences: Bool = false, weight: Int = 0) throws {
        try finish()
        inFlight.enter()
        queue.async { [self] in
            defer { inFlight.leave() }
            do {
                var batches = batches
                if numberingOccurrences {
                    for index in batches.indices { try occurrences.number(&batches[index]) }
                }
                let summary = try store.save(batches, restoringDeleted: restoringDeleted)
                outcome.saved.saved += summary.saved
                outcome.saved.duplicates += summary.duplicates
                outcome.saved.keptDeleted += summary.keptDeleted
                savedSinceFlush += summary.saved + weight
                bytesSinceFlush += batches.reduce(0) { $0 + $1.columns.approximateByteCount }
                if savedSinceFlush >= flushInterval || bytesSinceFlush >= flushBytes {
                    try store.flush()
                    savedSinceFlush = 0
                    bytesSinceFlush = 0
                }
            } catch {
                outcome.failure = error
            }
        }
    }

    /// The look-alike records counted by every save so far, after the one in flight.
    ///
    /// - Throws: The error of a save.
    func countedOccurrences() throws -> OccurrenceCounter {
        try finish()
        return occurrences
    }

    /// Waits for the save in flight, then lets go of the look-alike records counted so far and of
    /// their temporary files, at once rather than whenever the save thread lets go of the saver;
    /// saves after it number records from 0 again.
    func releaseOccurrences() {
        inFlight.wait()
        occurrences = OccurrenceCounter(budget: occurrenceBudget)
    }

    /// Waits for the save in flight.
    ///
    /// - Returns: What every save so far stored and skipped.
    /// - Throws: The error of a save.
    @discardableResult
    func finish() throws -> SaveSummary {
        inFlight.wait()
        if let failure = outcome.failure { throw failure }
        return outcome.saved
    }
}
