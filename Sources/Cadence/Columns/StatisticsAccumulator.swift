//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// The mergeable partial statistics of a set of samples, with add, merge and evaluate (the shape
/// of DataFusion's `Accumulator` and ClickHouse's `-State`/`-Merge`): what a block's summary
/// stores, what a worker accumulates for an interval, and what partials combine into — across
/// cores, or across machines through ``serialized()``.
///
/// `sum` is the prorated sum of values (<doc:HowCadenceComputes#Intervals-and-contributions>, no source merging); `valueSum`, `weightedSum` and
/// `weight` hold Σ f(v), Σ f(v)·w and Σ w with w in seconds of overlap, where f is the identity
/// except for the equivalent-continuous-level style, whose f(L) = 10^(L/10) (sound energy), so
/// every style's average can be formed from them.
package struct StatisticsAccumulator: Sendable, Equatable {
    package var count = 0
    package var sum = 0.0
    package var valueSum = 0.0
    package var weightedSum = 0.0
    package var weight = 0.0
    package var minimum = Double.infinity
    package var maximum = -Double.infinity
    package var mostRecent = MostRecentSample()
    package var earliestStart = Int64.max
    package var latestEnd = Int64.min

    package init() {}

    /// The value transform of a style (see the type's discussion).
    @inline(__always)
    package static func energy(_ value: Double, style: AggregationStyle) -> Double {
        style == .discreteEquivalentContinuousLevel ? exp(value / 10 * 2.302585092994046) : value
    }

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

    /// The accumulator of sorted rows that all lie inside one interval, built column by column:
    /// equal to a new accumulator given each row's ``addContained(start:end:value:energy:sequence:)``
    /// in order (the same additions in the same order, the same ties for the most recent sample),
    /// in a fraction of the instructions — the per-sample work of intervals smaller than a block.
    ///
    /// - Parameters:
    ///   - rows: The rows, sorted by start; every one must end at or before the interval's end.
    ///   - latestEnd: The greatest end among the rows (the caller found it to know they fit).
    ///   - sequences: The rows' change sequence numbers, or empty to take every row's as 0.
    ///   - hasLength: Whether any row has a non-zero length (else no weights are added).
    /// - Complexity: O(*n*) for *n* rows, in two or three passes without branches per row on the
    ///   common path.
    @inline(__always)
    init(sortedContainedRows rows: Range<Int>, starts: UnsafeBufferPointer<Int64>, ends: UnsafeBufferPointer<Int64>,
         values: UnsafeBufferPointer<Double>, sequences: UnsafeBufferPointer<Int64>, latestEnd: Int64, hasLength: Bool,
         style: AggregationStyle) {
        self.init()
        guard !rows.isEmpty else { return }
        count = rows.count
        earliestStart = starts[rows.lowerBound]
        self.latestEnd = latestEnd
        (sum, minimum, maximum) = Self.sumAndExtremes(of: values, rows)
        let levels = style == .discreteEquivalentContinuousLevel
        if levels {
            var energies = 0.0
            for row in rows { energies += Self.energy(values[row], style: style) }
            valueSum = energies
        } else {
            valueSum = sum
        }
        if hasLength {
            for row in rows where ends[row] != starts[row] {
                let seconds = Double(ends[row] &- starts[row]) * 1e-6
                weightedSum += (levels ? Self.energy(values[row], style: style) : values[row]) * seconds
                weight += seconds
            }
        }
        // Only a row ending last can be the most recent; the first of equals wins, as in `consider`.
        // Without lengths, ends are the sorted starts: those rows are the run's last ones.
        var candidates = rows.lowerBound
        if !hasLength {
            candidates = rows.upperBound
            while candidates > rows.lowerBound && ends[candidates &- 1] == latestEnd { candidates &-= 1 }
        }
        for row in candidates..<rows.upperBound where ends[row] == latestEnd {
            mostRecent.consider(MostRecentSample(end: latestEnd, start: starts[row],
                                                 sequence: sequences.isEmpty ? 0 : sequences[row], value: values[row]))
        }
    }

    /// The sum of a run's values, added in row order (the rounding of adding them one by one),
    /// with their minimum and maximum, eight lanes at a time.
    ///
    /// Equal to `Swift.min` and `Swift.max` taken row by row: lanes pick the same values except
    /// among equal ones, and equal doubles (NaN aside, which neither keeps) differ in their bits
    /// only when they are zeros of two signs, so an extreme of zero is taken again row by row.
    ///
    /// - Complexity: O(*n*) for *n* rows.
    @inline(__always)
    static func sumAndExtremes(of values: UnsafeBufferPointer<Double>, _ rows: Range<Int>)
        -> (sum: Double, minimum: Double, maximum: Double) {
        var total = 0.0
        var low = Double.infinity
        var high = -Double.infinity
        var row = rows.lowerBound
        if let base = values.baseAddress, rows.count >= 8 {
            var lows = SIMD8<Double>(repeating: .infinity)
            var highs = SIMD8<Double>(repeating: -.infinity)
            while row &+ 8 <= rows.upperBound {
                let lanes = UnsafeRawPointer(base + row).loadUnaligned(as: SIMD8<Double>.self)
                for lane in 0..<8 { total += lanes[lane] }
                lows.replace(with: lanes, where: lanes .< lows)
                highs.replace(with: lanes, where: lanes .> highs)
                row &+= 8
            }
            for lane in 0..<8 {
                low = Swift.min(low, lows[lane])
                high = Swift.max(high, highs[lane])
            }
        }
        for tail in row..<rows.upperBound {
            let value = values[tail]
            total += value
            low = Swift.min(low, value)
            high = Swift.max(high, value)
        }
        if low == 0 || high == 0 {
            (low, high) = (Double.infinity, -Double.infinity)
            for row in rows {
                low = Swift.min(low, values[row])
                high = Swift.max(high, values[row])
            }
        }
        return (total, low, high)
    }

    /// Updates minimum, maximum, most recent and the time bounds with one contributing sample.
    @inline(__always)
    private mutating func noteExtremes(start: Int64, end: Int64, value: Double, sequence: Int64) {
        minimum = Swift.min(minimum, value)
        maximum = Swift.max(maximum, value)
        mostRecent.consider(MostRecentSample(end: end, start: start, sequence: sequence, value: value))
        earliestStart = Swift.min(earliestStart, start)
        latestEnd = Swift.max(latestEnd, end)
    }

    /// Adds a run of samples that lie wholly inside the interval, from its summary.
    package mutating func add(_ summary: SampleSummary) { merge(summary.statistics) }

    /// Combines another partial of the same interval.
    package mutating func merge(_ other: StatisticsAccumulator) {
        guard other.count > 0 else { return }
        count += other.count
        sum += other.sum
        valueSum += other.valueSum
        weightedSum += other.weightedSum
        weight += other.weight
        minimum = Swift.min(minimum, other.minimum)
        maximum = Swift.max(maximum, other.maximum)
        mostRecent.consider(other.mostRecent)
        earliestStart = Swift.min(earliestStart, other.earliestStart)
        latestEnd = Swift.max(latestEnd, other.latestEnd)
    }

    /// The average for a style (<doc:HowCadenceComputes#Intervals-and-contributions>), or `nil` without samples.
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

    /// The most recent sample's value.
    package var mostRecentValue: Double { mostRecent.value }
    /// The most recent sample's start.
    package var mostRecentStart: Int64 { mostRecent.start }
    /// The most recent sample's end.
    package var mostRecentEnd: Int64 { mostRecent.end }

    // MARK: Serialising

    /// The accumulator as bytes, for merging partials computed elsewhere (``init(serialized:)``).
    package func serialized() -> [UInt8] {
        var writer = BinaryWriter()
        writer.writeVarint(UInt64(count))
        for value in [earliestStart, latestEnd, mostRecent.end, mostRecent.start, mostRecent.sequence] { writer.write(value) }
        for value in [sum, valueSum, weightedSum, weight, minimum, maximum, mostRecent.value] { writer.write(value) }
        return writer.bytes
    }

    /// An accumulator from ``serialized()``'s bytes.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` for bytes that are not one.
    package init(serialized bytes: [UInt8]) throws {
        var reader = BinaryReader(bytes, path: "accumulator")
        count = Int(clamping: try reader.readVarint())
        earliestStart = try reader.read()
        latestEnd = try reader.read()
        mostRecent = MostRecentSample(end: try reader.read(), start: try reader.read(), sequence: try reader.read(), value: 0)
        sum = try reader.readDouble()
        valueSum = try reader.readDouble()
        weightedSum = try reader.readDouble()
        weight = try reader.readDouble()
        minimum = try reader.readDouble()
        maximum = try reader.readDouble()
        mostRecent.value = try reader.readDouble()
        guard reader.isAtEnd else { throw reader.corrupt("trailing bytes after an accumulator") }
    }
}

/// The most recent sample of a set (<doc:HowCadenceComputes#Intervals-and-contributions> **[Cadence rule]**): the greatest end, then the
/// greatest start, then the latest saved (greatest sequence). The one place that ordering lives.
package struct MostRecentSample: Sendable, Equatable {
    package var end = Int64.min
    package var start = Int64.min
    package var sequence = Int64.min
    package var value = 0.0

    package init() {}

    package init(end: Int64, start: Int64, sequence: Int64, value: Double) {
        (self.end, self.start, self.sequence, self.value) = (end, start, sequence, value)
    }

    /// Keeps `other` if it is more recent.
    @inline(__always)
    package mutating func consider(_ other: MostRecentSample) {
        if (other.end, other.start, other.sequence) > (end, start, sequence) { self = other }
    }
}
