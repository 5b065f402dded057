//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Finds intervals among sorted integer edges (interval `j` is `[edges[j], edges[j + 1])`) by
/// binary search: no calendar work per sample or block.
package struct IntervalLookup: Sendable {
    /// The sorted edges.
    package let edges: [Int64]

    /// A lookup among `edges`, which must be sorted.
    package init(edges: [Int64]) { self.edges = edges }

    /// The number of intervals.
    package var count: Int { max(edges.count - 1, 0) }

    /// The number of edges `<= time`.
    @inline(__always)
    package func upperBound(_ time: Int64) -> Int {
        edges.withUnsafeBufferPointer { edges in edges.partitionPoint { $0 > time } }
    }

    /// The first and last interval samples starting at or after `minimumStart` and ending by
    /// `maximumEnd` can touch, or nil when they touch none.
    package func range(from minimumStart: Int64, to maximumEnd: Int64) -> ClosedRange<Int>? {
        let first = max(upperBound(minimumStart) - 1, 0)
        let last = min(upperBound(maximumEnd) - 1, count - 1)
        return first <= last ? first...last : nil
    }

    /// The interval that wholly contains a run (zero-length samples at the run's end included), if
    /// any, found by walking forward from `position` (the interval of the previous run, updated;
    /// `-1` at first): runs taken in order of start cost no binary search.
    ///
    /// - Complexity: O(1) amortised over runs in order of start; O(log *m*) otherwise.
    @inline(__always)
    package func containing(_ summary: borrowing SampleSummary, from position: inout Int) -> Int? {
        let start = summary.minimumStart
        if position < 0 || position >= edges.count || edges[position] > start {
            position = upperBound(start) - 1
        } else {
            while position + 1 < edges.count && edges[position + 1] <= start { position += 1 }
        }
        let index = position
        guard index >= 0, index < count else { return nil }
        let end = edges[index + 1]
        return summary.maximumStart < end && summary.maximumEnd <= end ? index : nil
    }
}
