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
/// - Complexity: O(1) expected per record; memory grows by one key (8 bytes, in a table at most 70%
///   full) per distinct record of the file.
struct OccurrenceCounter {
    /// Keys of the records met once or more, in an open-addressing table (0 marks an empty slot;
    /// a key of 0 is stored as 1). The keys are hashes already, so their low bits index it directly
    /// (a `Set` would hash each one again).
    private var slots = [UInt64](repeating: 0, count: 1 << 12)
    private var occupied = 0
    /// For keys met more than once: how many times beyond the first.
    private var repeats: [UInt64: UInt32] = [:]

    /// The number of top-level records met with this key so far.
    func count(of key: UInt64) -> UInt32 {
        let key = key == 0 ? 1 : key
        guard slots[slot(of: key)] == key else { return 0 }
        return 1 + (repeats[key] ?? 0)
    }

    /// Counts one more record with this key and returns its occurrence number.
    mutating func next(_ key: UInt64) -> UInt32 {
        let key = key == 0 ? 1 : key
        let index = slot(of: key)
        if slots[index] == 0 {
            slots[index] = key
            occupied += 1
            if occupied * 10 > slots.count * 7 { grow() }
            return 0
        }
        let occurrence = (repeats[key] ?? 0) &+ 1
        repeats[key] = occurrence
        return occurrence
    }

    /// The slot holding `key`, or the empty one where it would go.
    @inline(__always)
    private func slot(of key: UInt64) -> Int {
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: key) & mask
        while slots[index] != 0 && slots[index] != key { index = (index &+ 1) & mask }
        return index
    }

    /// Doubles the table, keeping it at most 70% full (short probes, 12 to 23 bytes a key).
    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        for key in old where key != 0 { slots[slot(of: key)] = key }
    }

    /// Numbers the rows of `batch` (in file order, after every earlier batch of the file) that have
    /// no explicit UUID.
    mutating func number(_ batch: inout QuantitySampleBatch) {
        let columns = batch.columns
        let identity = SampleIdentity(type: batch.quantityType.identifier, provenances: batch.provenances)
        let metadataDigests = SampleIdentity.metadataDigests(of: columns)
        var occurrences = [UInt32](repeating: 0, count: columns.count)
        for row in 0..<columns.count where columns.explicitUUID(at: row) == nil {
            occurrences[row] = next(identity.attributes(of: columns, row: row, metadataDigests: metadataDigests).key)
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
    static func resolveNested(_ batch: inout QuantitySampleBatch, against topLevel: OccurrenceCounter,
                              nestedCounts: inout [UInt64: UInt32]) -> (dropped: Int, uuids: [UUID]) {
        let columns = batch.columns
        let identity = SampleIdentity(type: batch.quantityType.identifier, provenances: batch.provenances)
        let metadataDigests = SampleIdentity.metadataDigests(of: columns)
        var keep: [Int] = []
        var occurrences: [UInt32] = []
        var uuids: [UUID] = []
        for row in 0..<columns.count {
            let attributes = identity.attributes(of: columns, row: row, metadataDigests: metadataDigests)
            let key = attributes.key
            let occurrence = nestedCounts[key, default: 0]
            nestedCounts[key] = occurrence &+ 1
            uuids.append(columns.explicitUUID(at: row) ?? attributes.uuid(occurrence: occurrence))
            if occurrence < topLevel.count(of: key) { continue }
            keep.append(row)
            occurrences.append(occurrence)
        }
        batch.keepRows(keep)
        batch.setOccurrences(occurrences)
        return (columns.count - keep.count, uuids)
    }
}
