//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import Cadence

/// The one mergeable accumulator: partials merged in any grouping equal one pass, survive
/// serialisation, and a block summary is the accumulator of its rows.
@Suite("The statistics accumulator")
struct StatisticsAccumulatorTests {
    struct Row {
        var start: Int64
        var end: Int64
        var value: Double
        var sequence: Int64
    }

    static func rows(seed: UInt64, count: Int) -> [Row] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { index in
            let start = Int64(random.next() % 1_000_000) * 1_000_000
            let length = [0, 0, 60, 3_600][Int(random.next() % 4)] * 1_000_000
            return Row(start: start, end: start + Int64(length), value: Double(random.next() % 1_000) / 8,
                       sequence: Int64(index + 1))
        }
    }

    static func accumulate(_ rows: some Sequence<Row>) -> StatisticsAccumulator {
        var accumulator = StatisticsAccumulator()
        for row in rows {
            accumulator.addContained(start: row.start, end: row.end, value: row.value, energy: row.value,
                                     sequence: row.sequence)
        }
        return accumulator
    }

    @Test("Merging partials of any split equals one pass; serialised partials merge the same", arguments: [1, 2, 3])
    func mergeAndSerialise(seed: UInt64) throws {
        let rows = Self.rows(seed: seed, count: 500)
        let whole = Self.accumulate(rows)
        var random = SeededRandom(seed: seed &+ 7)
        var cuts = (0..<5).map { _ in Int(random.next() % 500) }.sorted()
        cuts = [0] + cuts + [500]
        var merged = StatisticsAccumulator()
        var mergedFromBytes = StatisticsAccumulator()
        // Partials merged in reverse order: merging must not depend on it.
        for index in (0..<cuts.count - 1).reversed() {
            let partial = Self.accumulate(rows[cuts[index]..<cuts[index + 1]])
            merged.merge(partial)
            mergedFromBytes.merge(try StatisticsAccumulator(serialized: partial.serialized()))
        }
        #expect(merged.count == whole.count && merged.mostRecent == whole.mostRecent)
        #expect(merged.minimum == whole.minimum && merged.maximum == whole.maximum)
        #expect(merged.earliestStart == whole.earliestStart && merged.latestEnd == whole.latestEnd)
        #expect(abs(merged.sum - whole.sum) < 1e-9 * abs(whole.sum))
        #expect(abs(merged.weightedSum - whole.weightedSum) <= 1e-9 * abs(whole.weightedSum))
        #expect(mergedFromBytes == merged)
        #expect(try StatisticsAccumulator(serialized: whole.serialized()) == whole)
    }

    @Test("Damaged bytes are refused, not read as an accumulator")
    func damagedBytes() {
        let bytes = Self.accumulate(Self.rows(seed: 4, count: 10)).serialized()
        #expect(throws: CadenceError.self) { try StatisticsAccumulator(serialized: Array(bytes.dropLast())) }
        #expect(throws: CadenceError.self) { try StatisticsAccumulator(serialized: bytes + [0]) }
    }

    @Test("A block summary's statistics are the accumulator of its rows")
    func summaryIsTheAccumulator() {
        let rows = Self.rows(seed: 9, count: 200)
        var columns = SampleColumns()
        for row in rows {
            columns.append(start: row.start, end: row.end, value: row.value, provenance: 0, sequence: row.sequence)
        }
        let summary = SampleSummary(columns, rows: 0..<columns.count, style: .discreteArithmetic)
        var expected = Self.accumulate(rows)
        expected.sum = expected.valueSum
        #expect(summary.statistics == expected)
        var writer = BinaryWriter()
        summary.write(to: &writer)
        var reader = BinaryReader(writer.bytes, path: "summary")
        #expect((try? SampleSummary(from: &reader)) == summary)
    }

    /// Rows sorted by start, as the kernel meets them: zero-length runs (a heart-rate series), runs
    /// with lengths, and ties on the latest end broken by start and then by sequence.
    static func sortedRows(seed: UInt64, count: Int, lengths: [Int64]) -> [Row] {
        var random = SeededRandom(seed: seed)
        var start: Int64 = 1_700_000_000_000_000
        return (0..<count).map { _ in
            start += Int64(random.next() % 3) * 5_000_000
            let length = lengths[Int(random.next() % UInt64(lengths.count))] * 1_000_000
            return Row(start: start, end: start + length, value: Double(random.next() % 2_000) / 16 - 20,
                       sequence: Int64(random.next() % 50))
        }
    }

    @Test("Sorted contained rows taken column by column equal the same rows added one by one",
          arguments: [[Int64(0)], [0, 5], [0, 0, 10, 60], [300]])
    func sortedContainedRows(lengths: [Int64]) {
        let seed = UInt64(lengths.count * 1_000) + UInt64(lengths.reduce(0, +))
        for style in [AggregationStyle.discreteArithmetic, .discreteTemporallyWeighted, .discreteEquivalentContinuousLevel,
                      .cumulative] {
            for count in [1, 2, 7, 60, 720] {
                let rows = Self.sortedRows(seed: seed &* 31 &+ UInt64(count), count: count, lengths: lengths)
                var expected = StatisticsAccumulator()
                for row in rows {
                    expected.addContained(start: row.start, end: row.end, value: row.value,
                                          energy: StatisticsAccumulator.energy(row.value, style: style), sequence: row.sequence)
                }
                let starts = rows.map(\.start)
                let ends = rows.map(\.end)
                let values = rows.map(\.value)
                let sequences = rows.map(\.sequence)
                let latestEnd = ends.max() ?? .min
                let hasLength = zip(starts, ends).contains { $0 != $1 }
                let columnWise = starts.withUnsafeBufferPointer { starts in
                    ends.withUnsafeBufferPointer { ends in
                        values.withUnsafeBufferPointer { values in
                            sequences.withUnsafeBufferPointer { sequences in
                                StatisticsAccumulator(sortedContainedRows: 0..<rows.count, starts: starts, ends: ends,
                                                      values: values, sequences: sequences, latestEnd: latestEnd,
                                                      hasLength: hasLength, style: style)
                            }
                        }
                    }
                }
                // Bit for bit: the same additions in the same order.
                #expect(columnWise == expected, "style \(style), \(count) rows, lengths \(lengths)")
            }
        }
    }
}
