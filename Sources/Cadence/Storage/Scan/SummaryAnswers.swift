//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// When a wholly selected summary answers for its rows in a scan, as a statistics collection asks:
/// its samples lie wholly inside one interval, and, when sources are kept apart, are all of one source.
///
/// A value the scan calls directly rather than a closure: a closure's argument is a copy, and a
/// summary is some 170 bytes and a reference (a daily query over a billion samples asks about a
/// few hundred thousand summaries).
package struct SummaryAnswers: Sendable {
    /// The intervals.
    package let intervals: IntervalLookup
    /// The source index of each provenance number, when an answering summary must be of one
    /// source; `nil` when sources are merged.
    package let sourceOfProvenance: [Int32]?

    /// Summaries answer for the intervals of `intervals`, of one source each by
    /// `sourceOfProvenance` when it is given.
    package init(intervals: IntervalLookup, sourceOfProvenance: [Int32]?) {
        self.intervals = intervals
        self.sourceOfProvenance = sourceOfProvenance
    }

    /// The end of the interval `summary` lies in when it answers, else `nil`: a later run,
    /// starting after this one, is answered together with it only if it starts before that end.
    ///
    /// `position` is the caller's cursor, `-1` at first and carried from call to call: runs asked
    /// about in order of start then cost no search.
    @inline(__always)
    package func end(of summary: borrowing SampleSummary, from position: inout Int) -> Int64? {
        guard let interval = intervals.containing(summary, from: &position) else { return nil }
        if let sourceOfProvenance, summary.provenances.singleSource(in: sourceOfProvenance) == nil { return nil }
        return intervals.edges[interval + 1]
    }
}
