//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The distinct provenance numbers of a run of samples, in ascending order, as a summary holds
/// them: up to four inline, more in an array.
///
/// A scan copies summaries by the million (a daily query over a billion samples reads a few
/// hundred thousand). An array here made every copy count a reference on the array's header,
/// somewhere else in memory and rarely in cache: at that scale those retains were a quarter of
/// the query. Runs of up to four provenances (nearly every block and hour) hold no array, so a
/// copy counts no reference and reads no memory but the summary's own.
package struct ProvenanceSet: Sendable, Hashable, RandomAccessCollection, ExpressibleByArrayLiteral {
    /// How many provenances are kept inline.
    package static let inlineCapacity = 4

    /// The first ``count`` lanes hold the numbers when there are at most four; the rest are 0.
    private var inline = SIMD4<UInt32>()
    private var inlineCount: UInt8 = 0
    /// Every number, when there are more than four (``inline`` is then all 0), else `nil`.
    private var spilled: [UInt32]? = nil

    /// The empty set.
    package init() {}

    /// The set of `numbers`, which must be ascending and distinct.
    package init(ascending numbers: some Collection<UInt32>) {
        if numbers.count > Self.inlineCapacity {
            spilled = Array(numbers)
        } else {
            for (lane, number) in numbers.enumerated() { inline[lane] = number }
            inlineCount = UInt8(numbers.count)
        }
    }

    /// The set of `numbers`, in any order, repeats ignored.
    package init(arrayLiteral numbers: UInt32...) {
        self.init(ascending: Set(numbers).sorted())
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { spilled?.count ?? Int(inlineCount) }

    package subscript(position: Int) -> UInt32 {
        if let spilled { return spilled[position] }
        return inline[position]
    }

    /// The numbers in either set, ascending.
    ///
    /// - Complexity: O(*n* + *m*).
    package func union(_ other: ProvenanceSet) -> ProvenanceSet {
        if self == other || other.isEmpty { return self }
        if isEmpty { return other }
        var merged: [UInt32] = []
        merged.reserveCapacity(count + other.count)
        var mine = startIndex
        var theirs = other.startIndex
        while mine < endIndex || theirs < other.endIndex {
            let next: UInt32
            if theirs == other.endIndex || (mine < endIndex && self[mine] <= other[theirs]) {
                next = self[mine]
                if theirs < other.endIndex && other[theirs] == next { theirs += 1 }
                mine += 1
            } else {
                next = other[theirs]
                theirs += 1
            }
            merged.append(next)
        }
        return ProvenanceSet(ascending: merged)
    }

    /// The one source of the numbers, by `sourceOfProvenance` (a source index for each number),
    /// or `nil` when they have several, none, or a number with no source.
    ///
    /// - Complexity: O(*n*).
    package func singleSource(in sourceOfProvenance: [Int32]) -> Int? {
        guard let first, Int(first) < sourceOfProvenance.count else { return nil }
        let source = sourceOfProvenance[Int(first)]
        for index in indices.dropFirst()
        where Int(self[index]) >= sourceOfProvenance.count || sourceOfProvenance[Int(self[index])] != source {
            return nil
        }
        return Int(source)
    }
}
