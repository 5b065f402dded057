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
}
