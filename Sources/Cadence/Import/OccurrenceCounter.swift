//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Numbers the identical records of one file in file order (<doc:HowCadenceComputes#Identity>): the first record with a
/// given set of attributes is occurrence 0, the next identical one 1, and so on. The number is
/// part of the record's derived UUID, so look-alike records all stay while a re-import of the
/// same file (which numbers them the same way) adds nothing.
///
/// Records are told apart by a 64-bit key of their attributes. Two different records whose keys
/// collide would only get a higher occurrence number than they need — their UUIDs still differ,
/// since they hash every attribute — and a re-import numbers them the same way again.
///
/// Its memory does not grow with the file: it counts keys exactly in a table of at most
/// ``SpillBudget/tableKeys`` keys; when that is full, the table's keys and counts go to disk, sorted,
/// as a ``SortedRun`` (a temporary file with no name), and from then on a Bloom filter of
/// ``SpillBudget/filterBits`` bits (a ``KeyFilter``) remembers every key met. A key that is not
/// in the table is looked for on disk only when the filter says it may be there: only the
/// records that look like an earlier one, and the filter's rare false positives, cost a read.
/// Runs of similar size are merged, so there are about log₂(*n* / ``SpillBudget/tableKeys``) of them.
/// The counts are those of a plain dictionary of every key, whatever the budget.
///
/// Copies share the runs on disk, which never change once written: each copy counts on its own.
///
/// - Complexity: O(1) expected per record, plus a read of one block per run for a key the filter
///   cannot rule out, and O(*n* log(*n* / *t*)) bytes written to disk in all for *n* distinct keys
///   and a table of *t*. Memory: at most about 12 bytes a key of the table (with the standard
///   budget, 3 MiB), the filter (8 MiB) once the table first fills, and 32 KiB for each run's index.
struct OccurrenceCounter: Sendable {
    private let budget: SpillBudget
    /// The keys met since the last move to disk, with their counts so far.
    private var table: KeyCountTable
    /// Every key met since the table first filled (so every key on disk), created then.
    private var filter: KeyFilter?
    /// The keys moved to disk: a key's count is that of the newest run holding it.
    private var runs = SortedRuns<KeyCountTable.Entry>()

    /// Creates an empty counter that uses at most `budget`.
    init(budget: SpillBudget = .standard) {
        self.budget = budget
        table = KeyCountTable(limit: budget.tableKeys)
    }

    /// The runs on disk (for tests).
    var spilledRuns: Int { runs.count }

    /// The number of top-level records met with this key so far.
    ///
    /// - Throws: ``CadenceError`` (`io`) naming a temporary file that cannot be read.
    func count(of key: UInt64) throws(CadenceError) -> UInt32 {
        let key = key == 0 ? 1 : key
        if let count = table.find(key).count { return count }
        guard filter?.mayContain(key) == true else { return 0 }
        return try countInRuns(of: key) ?? 0
    }

    /// Counts one more record with this key and returns its occurrence number.
    ///
    /// - Throws: ``CadenceError`` (`io`) naming a temporary file that cannot be read or written.
    mutating func next(_ key: UInt64) throws(CadenceError) -> UInt32 {
        // The key 0 marks an empty slot of the table; it is counted as 1.
        let key = key == 0 ? 1 : key
        let (slot, count) = table.find(key)
        if let count {
            table.incrementCount(at: slot)
            return count
        }
        // Once there is a filter, every key met goes into it as it enters the table (the block the
        // look-up just read), rather than in a second pass when the table moves to disk.
        var occurrence: UInt32 = 0
        if filter?.insert(key) == true { occurrence = try countInRuns(of: key) ?? 0 }
        table.insert(key, count: occurrence &+ 1, at: slot)
        if table.isFull { try moveTableToDisk() }
        return occurrence
    }

    /// The count of `key` in the newest run that holds it, if any does.
    private func countInRuns(of key: UInt64) throws(CadenceError) -> UInt32? {
        try runs.newest(for: key)?.count
    }

    /// Writes the table to a new run (see ``SortedRuns`` for how runs are merged).
    private mutating func moveTableToDisk() throws(CadenceError) {
        let entries = table.removeAllSorted()
        if filter == nil {
            var created = KeyFilter(bits: budget.filterBits)
            for entry in entries { created.insert(entry.key) }
            filter = created
        }
        try runs.add(entries, in: budget.directory)
    }

    /// Numbers the rows of `batch` (in file order, after every earlier batch of the file) that have
    /// no explicit UUID.
    ///
    /// - Throws: ``CadenceError`` (`io`) naming a temporary file that cannot be read or written.
    mutating func number(_ batch: inout QuantitySampleBatch) throws(CadenceError) {
        let columns = batch.columns
        let identity = SampleIdentity(type: batch.quantityType.identifier, provenances: batch.provenances)
        let metadataDigests = SampleIdentity.metadataDigests(of: columns)
        var occurrences = [UInt32](repeating: 0, count: columns.count)
        for row in 0..<columns.count where columns.explicitUUID(at: row) == nil {
            occurrences[row] = try next(identity.attributes(of: columns, row: row, metadataDigests: metadataDigests).key)
        }
        batch.setOccurrences(occurrences)
    }

    /// Resolves the copies of records found inside `<Correlation>`s (<doc:HowCadenceComputes#Importing-Apple-Health-exports>) against the
    /// top-level records counted so far: the *n*-th nested copy of an attribute set is its *n*-th
    /// top-level occurrence and is dropped; a nested record with no top-level twin stays, numbered
    /// after the twins. Returns how many rows were dropped, and every row's UUID (its twin's, or
    /// its own), by its row before the drop: what a correlation refers to.
    ///
    /// - Parameter nestedCounts: The nested copies met so far, by key, across all of the file's batches.
    /// - Throws: ``CadenceError`` (`io`) naming a temporary file of `topLevel` that cannot be read.
    static func resolveNested(_ batch: inout QuantitySampleBatch, against topLevel: OccurrenceCounter,
                              nestedCounts: inout OccurrenceCounter) throws(CadenceError) -> (dropped: Int, uuids: [UUID]) {
        let columns = batch.columns
        let identity = SampleIdentity(type: batch.quantityType.identifier, provenances: batch.provenances)
        let metadataDigests = SampleIdentity.metadataDigests(of: columns)
        var keep: [Int] = []
        var occurrences: [UInt32] = []
        var uuids: [UUID] = []
        for row in 0..<columns.count {
            let attributes = identity.attributes(of: columns, row: row, metadataDigests: metadataDigests)
            let key = attributes.key
            let occurrence = try nestedCounts.next(key)
            uuids.append(columns.explicitUUID(at: row) ?? attributes.uuid(occurrence: occurrence))
            if try occurrence < topLevel.count(of: key) { continue }
            keep.append(row)
            occurrences.append(occurrence)
        }
        batch.keepRows(keep)
        batch.setOccurrences(occurrences)
        return (columns.count - keep.count, uuids)
    }
}
