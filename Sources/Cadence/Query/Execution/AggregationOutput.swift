//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// The result of aggregating one type over a list of intervals.
package struct AggregationOutput: Sendable {
    /// The intervals' edges: interval `j` is `[edges[j], edges[j + 1])`.
    package var edges: [Int64]
    /// The snapshot's sources, densely numbered.
    package var sources: [Source]
    /// Every source's samples together, per interval.
    package var merged: [StatisticsAccumulator]
    /// The source-merged prorated sum per interval, when it differs from `merged[j].sum`.
    package var mergedSum: [Double]?
    /// Seconds covered by the union of contributing samples per interval, when requested.
    package var duration: [Double]?
    /// Per source, per interval (only with `separateBySource`).
    package var perSource: [[StatisticsAccumulator]]
    /// Per source, the union's seconds per interval (with `separateBySource` and `duration`).
    package var perSourceDuration: [[Double]]
    /// Category collections: the samples with a value in the set that start in each interval (<doc:HowCadenceComputes#Category-durations>).
    package var startCount: [Int]?
    /// Per source, the same (with `separateBySource`).
    package var perSourceStartCount: [[Int]] = []
    /// Which of ``sources`` contributed to any interval.
    package var sourcesSeen: [Bool] = []
}
