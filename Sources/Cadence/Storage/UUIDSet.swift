//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// A set of UUIDs whose memory does not grow with its size: what ``UUIDIndex`` keeps of a type's
/// stored samples.
///
/// It holds at most ``SpillBudget/tableKeys`` UUIDs in memory; when that many are held, they go
/// to disk, sorted, as a ``SortedRun`` (a temporary file with no name, 16 bytes a UUID), and from
/// then on a Bloom filter of ``SpillBudget/filterBits`` bits (a ``KeyFilter``) remembers every
/// UUID added. A UUID that is not in memory is looked for on disk only when the filter says it may
/// be there: a new sample costs no read but for the filter's rare false positives, and a batch of
/// repeats one read of each block of a run they fall in. Membership is exact, whatever the budget.
///
/// Copies share the runs on disk, which never change once written.
///
/// - Complexity: O(1) expected per UUID, plus O(*k* log *k*) for the *k* UUIDs of a look-up the
///   filter cannot rule out and a read of each block of a run they fall in. Memory: at most about 32 bytes a UUID held in memory (4 MiB with the
///   standard budget), the filter (8 MiB) once the first UUIDs go to disk, and one key a block of
///   each run.
struct UUIDSet: Sendable {
    /// A UUID as a run's entry: its two halves, compared as unsigned numbers, big-endian in the
    /// file.
    struct Key: SortedRunEntry, Hashable, Comparable {
        var high: UInt64
        var low: UInt64

        init(_ uuid: UUID) { (high, low) = uuid.halves }

        static var byteCount: Int { 16 }
        var key: Key { self }
        /// The 64 bits the filter places the UUID by (UUIDs are random or hashes: both halves are).
        var filterKey: UInt64 { high ^ low }

        init(loadingFrom bytes: UnsafeRawBufferPointer, at offset: Int) {
            high = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            low = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
        }

        func store(into bytes: UnsafeMutableRawBufferPointer, at offset: Int) {
            bytes.storeBytes(of: high.bigEndian, toByteOffset: offset, as: UInt64.self)
            bytes.storeBytes(of: low.bigEndian, toByteOffset: offset + 8, as: UInt64.self)
        }

        static func < (left: Key, right: Key) -> Bool { (left.high, left.low) < (right.high, right.low) }
    }

    private let budget: SpillBudget
    /// The UUIDs added since the last move to disk.
    private var table: Set<Key> = []
    /// Every UUID added since the table first filled (so every UUID on disk), created then.
    private var filter: KeyFilter?
    /// The UUIDs moved to disk.
    private var runs = SortedRuns<Key>()

    /// Creates an empty set that uses at most `budget`.
    init(budget: SpillBudget = .standard) {
        self.budget = budget
    }

    /// The runs on disk (for tests).
    var spilledRuns: Int { runs.count }

    /// Whether the set holds each of `uuids`. Those neither in memory nor ruled out by the filter
    /// are looked for on disk together, in key order, each block of a run read once.
    ///
    /// - Throws: ``CadenceError`` (`io`) naming a temporary file that cannot be read.
    func contains(each uuids: [UUID]) throws(CadenceError) -> [Bool] {
        let keys = uuids.map(Key.init)
        var held = keys.map { table.contains($0) }
        guard let filter else { return held }
        let onDisk = keys.indices.filter { !held[$0] && filter.mayContain(keys[$0].filterKey) }.sorted { keys[$0] < keys[$1] }
        let found = try runs.holdAny(sorted: onDisk.map { keys[$0] })
        for (position, index) in onDisk.enumerated() where found[position] { held[index] = true }
        return held
    }

    /// Adds `uuid` (adding one already held changes nothing).
    ///
    /// - Throws: ``CadenceError`` (`io`) naming a temporary file that cannot be written; the set
    ///   may then have lost UUIDs and must not be used again.
    mutating func insert(_ uuid: UUID) throws(CadenceError) {
        let key = Key(uuid)
        guard table.insert(key).inserted else { return }
        filter?.insert(key.filterKey)
        if table.count >= max(1, budget.tableKeys) { try moveTableToDisk() }
    }

    /// Removes `uuid` if it is held in memory; false when it may be on disk, where runs never
    /// change: the set then still holds it, and the caller must stop using the set.
    mutating func remove(_ uuid: UUID) -> Bool {
        let key = Key(uuid)
        guard filter?.mayContain(key.filterKey) != true else { return false }
        table.remove(key)
        return true
    }

    /// Writes the table to a new run (see ``SortedRuns`` for how runs are merged).
    private mutating func moveTableToDisk() throws(CadenceError) {
        let keys = table.sorted()
        table.removeAll(keepingCapacity: true)
        if filter == nil {
            var created = KeyFilter(bits: budget.filterBits)
            for key in keys { created.insert(key.filterKey) }
            filter = created
        }
        try runs.add(keys, in: budget.directory)
    }
}
