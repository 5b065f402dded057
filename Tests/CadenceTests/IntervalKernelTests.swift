//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import Cadence

/// The per-sample kernel against the naive reference: every row added, in order, to every
/// interval it overlaps. Random rows in blocks (runs inside blocks, across blocks, empty and of
/// one row), edges of zones with daylight-saving changes, values with both zeros and extremes.
@Suite("The interval kernel")
struct IntervalKernelTests {
    struct Row {
        var start: Int64
        var end: Int64
        var value: Double
        var sequence: Int64
    }

    /// Values the kernel must keep bit for bit: both zeros, the extremes, the smallest magnitude.
    static let extremes: [Double] = [0, -0.0, 1e300, -1e300, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 72, 72]

    /// Rows sorted by start over `span`, some zero-length, some crossing edges, a few on the
    /// same start; values mostly ordinary, one in eight from ``extremes``.
    static func rows(seed: UInt64, count: Int, span: ClosedRange<Int64>, lengths: [Int64]) -> [Row] {
        var random = SeededRandom(seed: seed)
        let step = max(1, (span.upperBound - span.lowerBound) / Int64(max(count, 1)))
        var start = span.lowerBound - step * 3
        return (0..<count).map { _ in
            start += Int64(random.next() % UInt64(2 * step + 1))
            let length = lengths[Int(random.next() % UInt64(lengths.count))]
            let value = random.next() % 8 == 0 ? extremes[Int(random.next() % UInt64(extremes.count))]
                : Double(Int64(random.next() % 4_000) - 2_000) / 16
            return Row(start: start, end: start + length, value: value, sequence: Int64(random.next() % 20))
        }
    }

    /// The reference: each row added to each interval it overlaps, in row order.
    static func reference(_ rows: [Row], edges: [Int64], style: AggregationStyle, absolute: Bool = false)
        -> [StatisticsAccumulator] {
        var intervals = [StatisticsAccumulator](repeating: StatisticsAccumulator(), count: edges.count - 1)
        for row in rows {
            let value = absolute ? abs(row.value) : row.value
            let energy = StatisticsAccumulator.energy(value, style: style)
            for index in intervals.indices {
                let (low, high) = (edges[index], edges[index + 1])
                if row.start == row.end {
                    if row.start >= low && row.start < high {
                        intervals[index].add(start: row.start, end: row.end, value: value, energy: energy,
                                             sequence: row.sequence, overlap: 0)
                    }
                } else {
                    let overlap = min(row.end, high) - max(row.start, low)
                    if overlap > 0 {
                        intervals[index].add(start: row.start, end: row.end, value: value, energy: energy,
                                             sequence: row.sequence, overlap: overlap)
                    }
                }
            }
        }
        return intervals
    }

    /// The kernel's intervals for `rows` taken block by block (`cuts` between blocks).
    static func kernel(_ rows: [Row], cuts: [Int], edges: [Int64], style: AggregationStyle, sorted: Bool = true)
        -> [StatisticsAccumulator] {
        var columns = SampleColumns()
        for row in rows {
            columns.append(start: row.start, end: row.end, value: row.value, provenance: 0, sequence: row.sequence)
        }
        var kernel = IntervalKernel(edges: edges, range: 0...(edges.count - 2), style: style, separate: false,
                                    ranking: SourceRanking(provenances: [], priority: []))
        let bounds = [0] + cuts + [rows.count]
        for block in 0..<bounds.count - 1 {
            kernel.add(columns, rows: bounds[block]..<bounds[block + 1], selection: nil, sortedByStart: sorted,
                       notesSources: false)
        }
        return kernel.merged
    }

    /// Compares exactly what is not a sum (bits of the extremes included), sums within rounding.
    static func expectAgree(_ found: [StatisticsAccumulator], _ expected: [StatisticsAccumulator],
                            magnitudes: [StatisticsAccumulator], _ context: String) {
        #expect(found.count == expected.count, "\(context): interval count")
        for (index, (found, expected)) in zip(found, expected).enumerated() {
            let place = "\(context), interval \(index)"
            #expect(found.count == expected.count, "\(place): count")
            guard expected.count > 0 else { continue }
            #expect(found.minimum.bitPattern == expected.minimum.bitPattern, "\(place): minimum \(found.minimum) \(expected.minimum)")
            #expect(found.maximum.bitPattern == expected.maximum.bitPattern, "\(place): maximum \(found.maximum) \(expected.maximum)")
            #expect(found.mostRecent == expected.mostRecent, "\(place): most recent")
            #expect(found.earliestStart == expected.earliestStart && found.latestEnd == expected.latestEnd, "\(place): bounds")
            let magnitude = magnitudes[index]
            for (name, a, b, scale) in [("sum", found.sum, expected.sum, magnitude.sum),
                                        ("value sum", found.valueSum, expected.valueSum, magnitude.valueSum),
                                        ("weighted sum", found.weightedSum, expected.weightedSum, magnitude.weightedSum),
                                        ("weight", found.weight, expected.weight, magnitude.weight)] {
                #expect(abs(a - b) <= 1e-12 * (scale + 1), "\(place): \(name) \(a) \(b)")
            }
        }
    }

    /// Random cuts into blocks: some empty, some of one row.
    static func cuts(seed: UInt64, count: Int) -> [Int] {
        var random = SeededRandom(seed: seed)
        var cuts = (0..<6).map { _ in Int(random.next() % UInt64(count + 1)) }
        cuts += cuts.prefix(2).map { min($0 + 1, count) }
        return cuts.sorted()
    }

    @Test("Sorted rows in blocks agree with the reference, in zones with daylight-saving changes",
          arguments: ["Europe/Berlin", "America/New_York", "UTC", "Australia/Lord_Howe"])
    func agreesWithReference(zone: String) throws {
        let calendar = try TimeTestSupport.calendar(zone)
        let anchor = try TimeTestSupport.instant("2024-03-30T00:00:00Z")
        let span = anchor...(try TimeTestSupport.instant("2024-04-01T12:00:00Z"))
        for (seed, components) in [(UInt64(1), IntervalComponents.hours(1)), (2, .minutes(5)), (3, .days(1)),
                                   (4, .minutes(1))] {
            let edges = try IntervalEdges(calendar: calendar, anchor: anchor, components: components, covering: span).edges
            for lengths in [[Int64(0)], [0, 60_000_000], [0, 0, 1, 7_200_000_000], [300_000_000]] {
                for style in [AggregationStyle.discreteArithmetic, .discreteTemporallyWeighted, .cumulative,
                              .discreteEquivalentContinuousLevel] {
                    let count = 40 + Int(seed) * 300
                    var rows = Self.rows(seed: seed &* 97 &+ UInt64(lengths.count), count: count, span: span, lengths: lengths)
                    if style == .discreteEquivalentContinuousLevel {
                        // Levels far beyond any sound would make their energies infinite.
                        for index in rows.indices { rows[index].value = min(max(rows[index].value, -200), 200) }
                    }
                    let cuts = Self.cuts(seed: seed &+ 5, count: count)
                    let expected = Self.reference(rows, edges: edges, style: style)
                    let magnitudes = Self.reference(rows, edges: edges, style: style, absolute: true)
                    let context = "\(zone) \(components) lengths \(lengths) \(style)"
                    Self.expectAgree(Self.kernel(rows, cuts: cuts, edges: edges, style: style), expected,
                                     magnitudes: magnitudes, context)
                    // The general path alone (rows not known to be sorted) agrees too.
                    Self.expectAgree(Self.kernel(rows, cuts: cuts, edges: edges, style: style, sorted: false), expected,
                                     magnitudes: magnitudes, context + " general path")
                }
            }
        }
    }

    @Test("Runs of one row, many rows on one instant, and intervals without rows")
    func edgeCases() {
        let edges: [Int64] = [0, 10, 20, 30, 40]
        let rows = [Row(start: -5, end: -5, value: 1, sequence: 1),       // before the first edge
                    Row(start: 0, end: 0, value: -0.0, sequence: 1),      // on an edge, a negative zero
                    Row(start: 19, end: 19, value: 0, sequence: 2),
                    Row(start: 19, end: 19, value: 0, sequence: 2),       // a tie on every field
                    Row(start: 19, end: 19, value: 5, sequence: 1),
                    Row(start: 35, end: 35, value: .greatestFiniteMagnitude, sequence: 1),
                    Row(start: 40, end: 40, value: 3, sequence: 1)]       // on the last edge: outside
        let expected = Self.reference(rows, edges: edges, style: .discreteArithmetic)
        let magnitudes = Self.reference(rows, edges: edges, style: .discreteArithmetic, absolute: true)
        for cuts in [[], [1], [2, 3], [3, 3, 4], [0, 7], [1, 2, 3, 4, 5, 6]] {
            Self.expectAgree(Self.kernel(rows, cuts: cuts, edges: edges, style: .discreteArithmetic), expected,
                             magnitudes: magnitudes, "cuts \(cuts)")
        }
        #expect(expected[2].count == 0)
    }

    @Test("Sums, minima and maxima eight lanes at a time equal a pass row by row, bit for bit",
          arguments: [UInt64(1), 2, 3])
    func lanesEqualRows(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let pool: [Double] = [0, -0.0, 1e308, -1e308, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                              .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .infinity, -.infinity, 1, -1, 0.1]
        for _ in 0..<400 {
            let count = Int(random.next() % 40)
            let values = (0..<count).map { _ in
                random.next() % 3 == 0 ? pool[Int(random.next() % UInt64(pool.count))]
                    : Double(Int64(random.next() % 2_000) - 1_000) / 7
            }
            let lower = count == 0 ? 0 : Int(random.next() % UInt64(count))
            let rows = lower..<count
            var (sum, low, high) = (0.0, Double.infinity, -Double.infinity)
            for row in rows {
                sum += values[row]
                low = min(low, values[row])
                high = max(high, values[row])
            }
            let lanes = values.withUnsafeBufferPointer { StatisticsAccumulator.sumAndExtremes(of: $0, rows) }
            #expect(lanes.sum.bitPattern == sum.bitPattern, "\(values[rows])")
            #expect(lanes.minimum.bitPattern == low.bitPattern, "\(values[rows])")
            #expect(lanes.maximum.bitPattern == high.bitPattern, "\(values[rows])")
        }
    }

    @Test("The end of a run is found from its first row, whatever the run's length")
    func firstStartAtOrAfter() {
        let starts: [Int64] = (0..<300).map { Int64($0 / 3) }
        starts.withUnsafeBufferPointer { starts in
            for lower in [0, 1, 5, 150, 299] {
                for time in [Int64(-1), 0, 1, 2, 50, 99, 100, 1_000] {
                    let expected = (lower..<300).first { starts[$0] >= time } ?? 300
                    #expect(IntervalKernel.firstStart(atOrAfter: time, in: starts, from: lower, to: 300) == expected,
                            "from \(lower), time \(time)")
                }
            }
        }
    }
}
