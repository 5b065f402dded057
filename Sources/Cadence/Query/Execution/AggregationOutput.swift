//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// The result of aggregating one type over a list of intervals: the accumulators every collection
/// has, and the measures of its ``Kind`` (a quantity or a category collection), so a reader
/// switches on the kind instead of testing which optional arrays are present.
package struct AggregationOutput: Sendable {
    /// The intervals' edges: interval `j` is `[edges[j], edges[j + 1])`.
    package var edges: [Int64]
    /// The snapshot's sources, densely numbered.
    package var sources: [Source]
    /// Which of ``sources`` contributed to any interval (empty when nothing was scanned).
    package var sourcesSeen: [Bool]
    /// Every source's samples together, per interval.
    package var merged: [StatisticsAccumulator]
    /// Per source, per interval (only with `separateBySource`).
    package var perSource: [[StatisticsAccumulator]]
    /// Which kind of collection this is, with the measures that kind has.
    package var kind: Kind
}
