//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Counts of 64-bit keys in an open-addressing table that holds at most ``limit`` keys, so its
/// memory never exceeds what that limit sets; ``OccurrenceCounter`` moves the keys to disk when
/// it is full.
///
/// The keys are hashes already, so their low bits index the table directly (a `Dictionary` would
/// hash each one again). 0 marks an empty slot: callers never store the key 0.
///
/// - Complexity: O(1) expected per key; at most 12 bytes a slot, the table at most 70% full,
///   starting small and doubling up to what ``limit`` needs.
struct KeyCountTable: Sendable {
    /// A key and its count, as the table hands them over.
    struct Entry: Sendable, Equatable {
        var key: UInt64
        var count: UInt32
    }

    /// The most keys the table holds.
    let limit: Int
    private var keys: [UInt64]
    private var counts: [UInt32]
    /// The keys held.
    private(set) var count = 0

    /// Creates an empty table for at most `limit` keys (at least one).
    init(limit: Int) {
        self.limit = max(1, limit)
        let slots = min(1 << 12, Self.slots(for: self.limit))
        keys = [UInt64](repeating: 0, count: slots)
        counts = [UInt32](repeating: 0, count: slots)
    }

    /// The smallest power of two that holds `keys` keys at most 70% full.
    private static func slots(for keys: Int) -> Int {
        var slots = 2
        while slots * 7 < keys * 10 { slots *= 2 }
        return slots
    }

    /// Whether the table holds ``limit`` keys.
    var isFull: Bool { count >= limit }

    /// Where `key` is, or would go, and its count if the table holds it: what ``incrementCount(at:)``
    /// and ``insert(_:count:at:)`` take, so that counting a key probes the table once.
    func find(_ key: UInt64) -> (slot: Int, count: UInt32?) {
        let index = slot(of: key)
        return (index, keys[index] == key ? counts[index] : nil)
    }

    /// Counts one more of the key that ``find(_:)`` found at `slot`.
    mutating func incrementCount(at slot: Int) {
        counts[slot] &+= 1
    }

    /// Adds `key`, which ``find(_:)`` did not find but placed at `slot`, with `count` (even when full:
    /// the caller empties a full table).
    mutating func insert(_ key: UInt64, count value: UInt32, at slot: Int) {
        var index = slot
        if (count + 1) * 10 > keys.count * 7 {
            grow()
            index = self.slot(of: key)
        }
        keys[index] = key
        counts[index] = value
        count += 1
    }

    /// Takes every key out, sorted by key, and leaves the table empty (at its size).
    mutating func removeAllSorted() -> [Entry] {
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for index in keys.indices where keys[index] != 0 {
            entries.append(Entry(key: keys[index], count: counts[index]))
            keys[index] = 0
        }
        count = 0
        entries.sort { $0.key < $1.key }
        return entries
    }

    /// The slot holding `key`, or the empty one where it would go.
    @inline(__always)
    private func slot(of key: UInt64) -> Int {
        let mask = keys.count - 1
        var index = Int(truncatingIfNeeded: key) & mask
        while keys[index] != 0 && keys[index] != key { index = (index &+ 1) & mask }
        return index
    }

    /// Doubles the table (never past what ``limit`` keys need).
    private mutating func grow() {
        let oldKeys = keys
        let oldCounts = counts
        keys = [UInt64](repeating: 0, count: oldKeys.count * 2)
        counts = [UInt32](repeating: 0, count: oldKeys.count * 2)
        for index in oldKeys.indices where oldKeys[index] != 0 {
            let slot = slot(of: oldKeys[index])
            keys[slot] = oldKeys[index]
            counts[slot] = oldCounts[index]
        }
    }
}

/// An entry of a run on disk: the key, then the count, both little-endian (12 bytes).
extension KeyCountTable.Entry: SortedRunEntry {
    static var byteCount: Int { 12 }

    init(loadingFrom bytes: UnsafeRawBufferPointer, at offset: Int) {
        self.init(key: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)),
                  count: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)))
    }

    func store(into bytes: UnsafeMutableRawBufferPointer, at offset: Int) {
        bytes.storeBytes(of: key.littleEndian, toByteOffset: offset, as: UInt64.self)
        bytes.storeBytes(of: count.littleEndian, toByteOffset: offset + 8, as: UInt32.self)
    }
}
