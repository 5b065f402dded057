//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Numbers the identical records of one file in file order (SPEC §1): the first record with a
/// given set of attributes is occurrence 0, the next identical one 1, and so on. The number is
/// part of the record's derived UUID, so look-alike records all stay while a re-import of the
/// same file (which numbers them the same way) adds nothing.
///
/// Records are told apart by a 64-bit key of their attributes. Two different records whose keys
/// collide would only get a higher occurrence number than they need — their UUIDs still differ,
/// since they hash every attribute — and a re-import numbers them the same way again.
///
/// - Complexity: O(1) expected per record; memory grows by one key (about 16 bytes) per distinct
///   record of the file.
struct OccurrenceCounter {
    /// Keys of the records met once or more.
    private var seen: Set<UInt64> = []
    /// For keys met more than once: how many times beyond the first.
    private var repeats: [UInt64: UInt32] = [:]

    /// The number of top-level records met with this key so far.
    func count(of key: UInt64) -> UInt32 {
        guard seen.contains(key) else { return 0 }
        return 1 + (repeats[key] ?? 0)
    }

    /// Counts one more record with this key and returns its occurrence number.
    mutating func next(_ key: UInt64) -> UInt32 {
        if seen.insert(key).inserted { return 0 }
        let occurrence = (repeats[key] ?? 0) &+ 1
        repeats[key] = occurrence
        return occurrence
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

    /// Resolves the copies of records found inside `<Correlation>`s (SPEC §11) against the
    /// top-level records counted so far: the *n*-th nested copy of an attribute set is its *n*-th
    /// top-level occurrence and is dropped; a nested record with no top-level twin stays, numbered
    /// after the twins. Returns how many rows were dropped.
    ///
    /// - Parameter nestedCounts: The nested copies met so far, by key, across all of the file's batches.
    static func resolveNested(_ batch: inout QuantitySampleBatch, against topLevel: OccurrenceCounter,
                              nestedCounts: inout [UInt64: UInt32]) -> Int {
        let columns = batch.columns
        let identity = SampleIdentity(type: batch.quantityType.identifier, provenances: batch.provenances)
        let metadataDigests = SampleIdentity.metadataDigests(of: columns)
        var keep: [Int] = []
        var occurrences: [UInt32] = []
        for row in 0..<columns.count {
            let key = identity.attributes(of: columns, row: row, metadataDigests: metadataDigests).key
            let occurrence = nestedCounts[key, default: 0]
            nestedCounts[key] = occurrence &+ 1
            if occurrence < topLevel.count(of: key) { continue }
            keep.append(row)
            occurrences.append(occurrence)
        }
        batch.keepRows(keep)
        batch.setOccurrences(occurrences)
        return columns.count - keep.count
    }
}
