//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// The UUIDs of the samples a store holds, per type, for refusing a second copy of a sample
/// (<doc:HowCadenceComputes#Identity>): built from storage the first time a save of that type
/// needs a lookup the stored rows at its own starts cannot answer (see
/// ``newRows(of:stored:provenances:storeProvenances:replacesByStart:budget:)``), then kept up to
/// date with every save and delete. Owned by the writer.
///
/// Its memory is bounded whatever the store holds: each type's UUIDs are a ``UUIDSet`` (at most
/// 131,072 UUIDs and an 8 MiB filter in memory with the standard budget, the rest in temporary
/// files), and at most ``maximumTypes`` types are held at once, the least recently used let go
/// (and built again from storage if a later save needs it).
struct UUIDIndex: Sendable {
    /// The most types whose UUIDs are held at once.
    static let maximumTypes = 16

    private var byType: [String: UUIDSet] = [:]
    /// When each held type was last used (a count of uses), to let go of the least recent.
    private var lastUse: [String: Int] = [:]
    private var uses = 0

    /// Adds the rows of a committed save, if the type's index was built. When its temporary file
    /// cannot be written, the type's index is let go, to be built again from storage.
    mutating func insert(_ columns: SampleColumns, of type: String, provenances: [Provenance]) {
        guard byType[type] != nil else { return }
        let identity = SampleIdentity(type: type, provenances: provenances)
        let metadataDigests = SampleIdentity.metadataDigests(of: columns)
        do throws(CadenceError) {
            for row in 0..<columns.count {
                try byType[type]?.insert(identity.uuid(of: columns, row: row, metadataDigests: metadataDigests))
            }
        } catch {
            forget(type)
        }
    }

    /// Forgets a deleted sample; when its UUID may be in a temporary file (which never changes),
    /// the type's index is let go instead, to be built again from storage.
    mutating func remove(_ uuid: UUID, of type: String) {
        if byType[type]?.remove(uuid) == false { forget(type) }
    }

    private mutating func forget(_ type: String) {
        byType[type] = nil
        lastUse[type] = nil
    }

    /// The type's index, built from `typeSnapshot` if it is not held, letting go of the least
    /// recently used type's when ``maximumTypes`` are held.
    private mutating func index(of type: String, stored typeSnapshot: TypeSnapshot?, provenances: [Provenance],
                                budget: SpillBudget) throws -> UUIDSet {
        uses += 1
        if let index = byType[type] {
            lastUse[type] = uses
            return index
        }
        if byType.count >= Self.maximumTypes, let oldest = lastUse.min(by: { $0.value < $1.value }) { forget(oldest.key) }
        var index = UUIDSet(budget: budget)
        if let typeSnapshot {
            let identity = SampleIdentity(type: typeSnapshot.type.identifier, provenances: provenances)
            // Every chunk is read once here and rarely again: none is kept loaded.
            try StoredSample.forEachRow(of: typeSnapshot, details: true, keepingFiles: false) { columns, row in
                try index.insert(identity.uuid(of: columns, row: row, metadataDigests: nil))
            }
        }
        byType[type] = index
        lastUse[type] = uses
        return index
    }

    /// The rows of `batch` whose UUID is neither stored nor repeated earlier in the batch.
    ///
    /// A batch of rows newer than everything stored, sorted and with derived UUIDs only (the
    /// common import and ingest case) can repeat only itself, and only among rows with equal
    /// starts: those alone are hashed, and nothing stored is read.
    ///
    /// Otherwise a derived UUID, which hashes its row's start, can only be stored at that start:
    /// when the stored rows in the batch's span are few beside the batch (at most four times its
    /// rows and half the index's rows in memory: a file in time order, backwards or imported
    /// again), or the series is replaced by start, the UUIDs of the stored rows at the batch's
    /// starts are read, and only rows with UUIDs of their own not found there are looked up in
    /// the type's index. A batch whose span covers many more stored rows than it has (a file in
    /// no order) is looked up in the index alone, rather than reading them all for each batch.
    ///
    /// - Parameters:
    ///   - provenances: The batch's provenances, by the batch's provenance numbers.
    ///   - replacesByStart: Whether a saved row replaces the stored rows with its start.
    ///   - budget: The memory the type's index may use, and where its temporary files go.
    /// - Complexity: O(*n*) expected for the batch's *n* rows, plus the stored rows at its starts
    ///   (O(*n*) for a batch in the chunks' order), plus O(*s*) once to build the type's index
    ///   from its *s* stored samples when a lookup needs it (see ``UUIDSet`` for the reads of its
    ///   temporary files).
    mutating func newRows(of batch: QuantitySampleBatch, stored typeSnapshot: TypeSnapshot?, provenances: [Provenance],
                          storeProvenances: [Provenance], replacesByStart: Bool = false,
                          budget: SpillBudget = .standard) throws -> [Int] {
        let columns = batch.columns
        let identifier = batch.quantityType.identifier
        let identity = SampleIdentity(type: identifier, provenances: provenances)
        let metadataDigests = SampleIdentity.metadataDigests(of: columns)
        guard let first = columns.start.min(), let last = columns.start.max() else { return [] }
        let latestStored = typeSnapshot?.outlineSummaries.map(\.maximumStart).max() ?? .min
        // Rows with explicit UUIDs, or starting no later than stored data, may repeat stored samples.
        let mayRepeatStored = !columns.explicitUUIDs.isEmpty || first <= latestStored
        let isSorted = zip(columns.start, columns.start.dropFirst()).allSatisfy { $0 <= $1 }
        if !mayRepeatStored && isSorted {
            return Self.unrepeatedSortedRows(of: columns, identity: identity, metadataDigests: metadataDigests)
        }
        let uuids = (0..<columns.count).map { identity.uuid(of: columns, row: $0, metadataDigests: metadataDigests) }
        guard mayRepeatStored else { return Self.unrepeatedRows(uuids, stored: nil) }
        let span = first...last
        if let typeSnapshot,
           try replacesByStart || Self.storedRows(of: typeSnapshot, startingIn: span) <= 4 * columns.count + budget.tableKeys / 2 {
            let atStarts = try Self.uuids(of: typeSnapshot, startingAt: Set(columns.start), in: span,
                                          provenances: storeProvenances, keepingFiles: replacesByStart)
            var stored = uuids.map(atStarts.contains)
            // A UUID of its own not found at its row's start may be stored at another.
            let elsewhere = uuids.indices.filter { !stored[$0] && columns.explicitUUID(at: $0) != nil }
            if !elsewhere.isEmpty {
                let held = try index(of: identifier, stored: typeSnapshot, provenances: storeProvenances, budget: budget)
                    .contains(each: elsewhere.map { uuids[$0] })
                for (position, row) in elsewhere.enumerated() where held[position] { stored[row] = true }
            }
            return Self.unrepeatedRows(uuids, stored: stored)
        }
        let stored = try index(of: identifier, stored: typeSnapshot, provenances: storeProvenances, budget: budget)
        return Self.unrepeatedRows(uuids, stored: try stored.contains(each: uuids))
    }

    /// The rows of sorted `columns` with derived UUIDs that no earlier row repeats: only rows
    /// sharing a start with another are hashed.
    private static func unrepeatedSortedRows(of columns: SampleColumns, identity: SampleIdentity,
                                             metadataDigests: [UInt64]) -> [Int] {
        var keep: [Int] = []
        keep.reserveCapacity(columns.count)
        var runUUIDs: Set<UUID> = []
        for row in 0..<columns.count {
            let startsRun = row == 0 || columns.start[row - 1] != columns.start[row]
            let endsRun = row + 1 == columns.count || columns.start[row + 1] != columns.start[row]
            if startsRun && endsRun {
                keep.append(row)
                continue
            }
            if startsRun { runUUIDs.removeAll(keepingCapacity: true) }
            if runUUIDs.insert(identity.uuid(of: columns, row: row, metadataDigests: metadataDigests)).inserted {
                keep.append(row)
            }
        }
        return keep
    }

    /// The rows whose UUID (`uuids`, by row) is not stored (`stored`, by row; nothing when `nil`)
    /// and that no earlier row repeats.
    private static func unrepeatedRows(_ uuids: [UUID], stored: [Bool]?) -> [Int] {
        var keep: [Int] = []
        keep.reserveCapacity(uuids.count)
        var seen = Set<UUID>(minimumCapacity: uuids.count)
        for row in uuids.indices where stored?[row] != true && seen.insert(uuids[row]).inserted { keep.append(row) }
        return keep
    }

    /// How many stored rows the chunks and unflushed batches whose starts reach `span` hold.
    private static func storedRows(of type: TypeSnapshot, startingIn span: ClosedRange<Int64>) throws -> Int {
        let summaries = try type.flushed.chunks().map(\.summary) + type.head.map(\.summary)
        return summaries.reduce(0) { total, summary in
            summary.count > 0 && summary.minimumStart <= span.upperBound && summary.maximumStart >= span.lowerBound
                ? total + summary.count : total
        }
    }

    /// The UUIDs of the stored rows of `type` starting at one of `starts` (which lie in `span`),
    /// read from the chunks and head batches whose starts reach `span` only.
    ///
    /// - Complexity: O(*n*) for the *n* rows of those portions.
    private static func uuids(of type: TypeSnapshot, startingAt starts: Set<Int64>, in span: ClosedRange<Int64>,
                              provenances: [Provenance], keepingFiles: Bool) throws -> Set<UUID> {
        let identity = SampleIdentity(type: type.type.identifier, provenances: provenances)
        var uuids = Set<UUID>()
        try StoredSample.forEachRow(of: type, details: true, startingIn: span, keepingFiles: keepingFiles) { columns, row in
            if starts.contains(columns.start[row]) { uuids.insert(identity.uuid(of: columns, row: row, metadataDigests: nil)) }
        }
        return uuids
    }
}
