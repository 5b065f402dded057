//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What an import may still add to its store of something a store holds a bounded number of
/// (sources, ``HealthStore/maximumSources``; types, ``HealthStore/maximumTypes``): what the store
/// holds and what the file added so far, so that the record that would be one too many is refused
/// where it is read, before a batch of them is collected and saved.
///
/// Elements are counted as the store keeps them (a source without its device's object address),
/// so the ledger refuses exactly what the store would.
struct ImportLedger<Element: Hashable> {
    /// The most elements the store may hold.
    let limit: Int
    /// The store's elements and those met since.
    private var known: Set<Element>
    /// Elements met that were not known when this ledger was copied for a segment of the file.
    private(set) var added: [Element] = []

    /// A ledger of the `stored` elements, of which the store holds at most `limit`.
    init(stored: some Sequence<Element>, limit: Int) {
        self.limit = limit
        known = Set(stored)
    }

    /// Whether `element` is known or there is room for it; a new one is then counted.
    ///
    /// - Complexity: O(1) hashing.
    mutating func admits(_ element: Element) -> Bool {
        if known.contains(element) { return true }
        guard known.count < limit else { return false }
        known.insert(element)
        added.append(element)
        return true
    }

    /// A copy for a later segment of the same file: the same elements, none added yet.
    func segmentCopy() -> ImportLedger {
        var copy = self
        copy.added = []
        return copy
    }

    /// Whether the sources a segment copy added fit beside this ledger's.
    func hasRoom(for segment: ImportLedger) -> Bool {
        known.count + segment.added.count <= limit
            || known.count + segment.added.lazy.filter { !known.contains($0) }.count <= limit
    }

    /// Counts the sources a segment copy added (see ``hasRoom(for:)``).
    mutating func absorb(_ segment: ImportLedger) {
        for element in segment.added where known.insert(element).inserted { added.append(element) }
    }
}
