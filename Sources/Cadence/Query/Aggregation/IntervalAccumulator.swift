//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The mergeable partial aggregate of one interval: what a worker accumulates from the samples
/// (or summaries) it sees, and what workers' partials combine into.
///
/// `sum` is the prorated sum of values (SPEC §4, no source merging); `valueSum`, `weightedSum` and
/// `weight` hold Σ f(v), Σ f(v)·w and Σ w with w in seconds of overlap, as in ``SampleSummary``.
package struct IntervalAccumulator: Sendable {
    package var count = 0
    package var sum = 0.0
    package var valueSum = 0.0
    package var weightedSum = 0.0
    package var weight = 0.0
    package var minimum = Double.infinity
    package var maximum = -Double.infinity
    package var mostRecentEnd = Int64.min
    package var mostRecentStart = Int64.min
    package var mostRecentSequence = Int64.min
    package var mostRecentValue = 0.0
    package var earliestStart = Int64.max
    package var latestEnd = Int64.min

    package init() {}

    /// Adds a sample's contribution: `overlap` microseconds of its [start, end) fall in the interval
    /// (a zero-length sample passes 0 and contributes its whole value to the sum).
    @inline(__always)
    package mutating func add(start: Int64, end: Int64, value: Double, energy: Double, sequence: Int64, overlap: Int64) {
        count &+= 1
        let length = end &- start
        sum += length == 0 ? value : value * (Double(overlap) / Double(length))
        valueSum += energy
        let seconds = Double(overlap) * 1e-6
        weightedSum += energy * seconds
        weight += seconds
        noteExtremes(start: start, end: end, value: value, sequence: sequence)
    }

    /// Adds a sample that lies wholly inside the interval (no proration needed).
    @inline(__always)
    package mutating func addContained(start: Int64, end: Int64, value: Double, energy: Double, sequence: Int64) {
        count &+= 1
        sum += value
        valueSum += energy
        if end != start {
            let seconds = Double(end &- start) * 1e-6
            weightedSum += energy * seconds
            weight += seconds
        }
        noteExtremes(start: start, end: end, value: value, sequence: sequence)
    }

    /// Updates minimum, maximum, most recent and the time bounds with one contributing sample.
    @inline(__always)
    private mutating func noteExtremes(start: Int64, end: Int64, value: Double, sequence: Int64) {
        minimum = Swift.min(minimum, value)
        maximum = Swift.max(maximum, value)
        if end > mostRecentEnd || (end == mostRecentEnd && (start, sequence) > (mostRecentStart, mostRecentSequence)) {
            mostRecentEnd = end
            mostRecentStart = start
            mostRecentSequence = sequence
            mostRecentValue = value
        }
        earliestStart = Swift.min(earliestStart, start)
        latestEnd = Swift.max(latestEnd, end)
    }

    /// The partial of a run of samples that lie wholly inside one interval, from its summary.
    package init(_ summary: SampleSummary) {
        count = summary.count
        sum = summary.valueSum
        valueSum = summary.valueSum
        weightedSum = summary.weightedSum
        weight = summary.durationSum
        minimum = summary.minimum
        maximum = summary.maximum
        (mostRecentEnd, mostRecentStart, mostRecentSequence, mostRecentValue) =
            (summary.mostRecentEnd, summary.mostRecentStart, summary.mostRecentSequence, summary.mostRecentValue)
        earliestStart = summary.minimumStart
        latestEnd = summary.maximumEnd
    }

    /// Adds a run of samples that lie wholly inside the interval, from its summary.
    package mutating func add(_ summary: SampleSummary) { merge(IntervalAccumulator(summary)) }

    private mutating func mergeMostRecent(end: Int64, start: Int64, sequence: Int64, value: Double) {
        if (end, start, sequence) > (mostRecentEnd, mostRecentStart, mostRecentSequence) {
            (mostRecentEnd, mostRecentStart, mostRecentSequence, mostRecentValue) = (end, start, sequence, value)
        }
    }

    /// Combines another worker's partial for the same interval.
    package mutating func merge(_ other: IntervalAccumulator) {
        guard other.count > 0 else { return }
        count += other.count
        sum += other.sum
        valueSum += other.valueSum
        weightedSum += other.weightedSum
        weight += other.weight
        minimum = Swift.min(minimum, other.minimum)
        maximum = Swift.max(maximum, other.maximum)
        mergeMostRecent(end: other.mostRecentEnd, start: other.mostRecentStart, sequence: other.mostRecentSequence,
                        value: other.mostRecentValue)
        earliestStart = Swift.min(earliestStart, other.earliestStart)
        latestEnd = Swift.max(latestEnd, other.latestEnd)
    }

    /// The average for a style (SPEC §4), or `nil` without samples.
    package func average(style: AggregationStyle) -> Double? {
        guard count > 0 else { return nil }
        switch style {
        case .cumulative, .discreteArithmetic:
            return valueSum / Double(count)
        case .discreteTemporallyWeighted:
            return weight > 0 ? weightedSum / weight : valueSum / Double(count)
        case .discreteEquivalentContinuousLevel:
            let energy = weight > 0 ? weightedSum / weight : valueSum / Double(count)
            return 10 * log10(energy)
        }
    }
}

import Foundation
