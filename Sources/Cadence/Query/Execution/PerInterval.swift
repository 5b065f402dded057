//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// One measure per interval: with all sources merged, and each source's own when the query
/// separates by source.
package struct PerInterval<Value: Sendable>: Sendable {
    /// The measure of every source together, per interval.
    package var merged: [Value]
    /// Per source (numbered as ``AggregationOutput/sources``), per interval; empty unless the
    /// query separates by source.
    package var perSource: [[Value]]

    /// The measures as they are.
    package init(merged: [Value], perSource: [[Value]]) {
        self.merged = merged
        self.perSource = perSource
    }

    /// `value` for each of `intervals` intervals, merged and for each of `sources` sources.
    ///
    /// - Complexity: O(*m* · (1 + *s*)) for *m* intervals and *s* sources.
    package init(repeating value: Value, intervals: Int, sources: Int) {
        merged = [Value](repeating: value, count: intervals)
        perSource = [[Value]](repeating: [Value](repeating: value, count: intervals), count: sources)
    }
}

extension PerInterval: Equatable where Value: Equatable {}
