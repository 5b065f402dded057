//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// The source-merging sweep against the naive reference on random overlapping samples of three
/// sources with a priority list, swept serially and in parallel partitions whose seams fall
/// inside samples (down to one interval a partition), hand-made seams across, at and between
/// samples, and the rows each range of the sweep takes from the gathered pieces against a plain
/// sort.
@Suite("Source-merging sweep")
struct SourceMergingSweepTests {
    @Test("Merged sums and durations agree with the reference for any priority list and worker count",
          arguments: [(UInt64(61), ["Scale", "iPhone"]), (UInt64(62), ["iPhone"]), (UInt64(63), ["Watch", "Scale", "iPhone"]),
                      (UInt64(64), [String]())])
    func mergedSums(seed: UInt64, priority: [String]) throws {
        let (store, saved) = try QueryPropertyTests.makeStore(type: .stepCount, seed: seed, total: 3_000)
        // The reference's ranks under the list: listed sources first, in its order (their
        // user-entered samples too); the others keep the ranks the rules give them.
        let samples = saved.map { sample in
            var ranked = sample
            if let position = priority.firstIndex(of: sample.source) { ranked.rank = position }
            return ranked
        }
        let calendar = try TimeTestSupport.calendar("Australia/Lord_Howe")
        let base: Int64 = 1_709_251_200_000_000
        for components in [IntervalComponents.days(1), .hours(3)] {
            let edges = try IntervalEdges(calendar: calendar, anchor: base + 5_400_000_000, components: components,
                                          covering: (base - 86_400_000_000)...(base + 45 * 86_400_000_000)).edges
            // Serial sweep in one partition; the others must give its results bit for bit.
            var serial: AggregationOutput?
            // (parallelism, forced partitions): one partition, the default cuts by samples, two,
            // and one interval a partition (a seam at every edge).
            for (parallelism, partitions) in [(1, 1), (2, nil), (3, nil), (2, 2), (3, edges.count - 1)] {
                var aggregator = Aggregator(snapshot: store.snapshot(), type: .stepCount, predicate: .all,
                                            options: [.cumulativeSum, .duration], edges: edges, sourcePriority: priority)
                aggregator.parallelism = parallelism
                aggregator.minimumPartRows = 50
                aggregator.sweepPartitionCount = partitions
                let output = try aggregator.run()
                let measures = try #require(output.quantity)
                if let serial = serial?.quantity {
                    #expect(measures.mergedSum == serial.mergedSum, "seed \(seed) \(components) partitions \(String(describing: partitions))")
                    #expect(measures.duration == serial.duration, "seed \(seed) \(components) partitions \(String(describing: partitions))")
                } else {
                    #expect(measures.mergedSum != nil)
                    serial = output
                }
                for interval in 0..<edges.count - 1 {
                    let expected = ReferenceInterval(samples: samples, start: edges[interval], end: edges[interval + 1],
                                                     style: .cumulative)
                    let context = Comment(rawValue: "seed \(seed) \(components) parallelism \(parallelism) interval \(interval)")
                    #expect(output.merged[interval].count == expected.count, context)
                    guard expected.count > 0 else { continue }
                    #expect(nearlyEqual(measures.mergedSum?[interval] ?? output.merged[interval].sum, expected.mergedSum), context)
                    #expect(nearlyEqual(measures.duration?.merged[interval], expected.duration), context)
                }
            }
        }
    }

    @Test("Seams in and between samples, ties and instants at seams, empty ranges and more ranges than samples give the serial sweep's results bit for bit",
          arguments: [false, true])
    func seams(separate: Bool) throws {
        let store = HealthStore.inMemory(chunkCapacity: 3, flushThreshold: 4)
        let provenances = [QueryPropertyTests.watch, QueryPropertyTests.phone, QueryPropertyTests.scale]
        let hour: Int64 = 3_600_000_000
        // Midnight of 2024-03-30 in Berlin; the next day, the spring change's, lasts 23 hours.
        let midnight: Int64 = 1_711_753_200_000_000
        let day = 24 * hour
        // (source, start, end, value): Watch 0, iPhone 1, Scale 2; seams at the days' midnights.
        let rows: [(Int, Int64, Int64, Double)] = [
            (0, midnight + 20 * hour, midnight + 30 * hour, 600),  // across a seam
            (1, midnight + 22 * hour, midnight + 25 * hour, 300),  // across it, under the Watch
            (1, midnight + day, midnight + day + 1_800_000_000, 40),  // starting on the seam
            (1, midnight + day, midnight + day + 900_000_000, 7),  // the same start: a tie on the seam
            (2, midnight + day, midnight + day, 5),  // an instant on the seam, under the Watch
            (0, midnight + day, midnight + day, 9),  // an instant on the seam, winning it
            (0, midnight + 46 * hour, midnight + 48 * hour, 80),  // across the end of the 23-hour day
            (2, midnight + 6 * day, midnight + 9 * day, 900),  // after empty days, across three seams
            (1, midnight + 7 * day, midnight + 7 * day + 2 * hour, 50),  // inside it, ranked above the Scale
            (0, midnight + 8 * day - 2 * hour, midnight + 8 * day, 70),  // across a seam inside it
            (2, midnight + 12 * day - hour, midnight + 12 * day - hour, 3),  // a lone instant on a seam
        ]
        var samples: [ReferenceSample] = []
        // Saved one by one, newest first for some, so the scan has many pieces, some out of order.
        for (index, row) in rows.enumerated().reversed() where index % 3 == 0 {
            try save(row, index: index, provenances: provenances, store: store, samples: &samples)
        }
        for (index, row) in rows.enumerated() where index % 3 != 0 {
            try save(row, index: index, provenances: provenances, store: store, samples: &samples)
        }
        let calendar = try TimeTestSupport.calendar("Europe/Berlin")
        let edges = try IntervalEdges(calendar: calendar, anchor: midnight, components: .days(1),
                                      covering: (midnight - day)...(midnight + 16 * day)).edges
        var options: StatisticsOptions = [.cumulativeSum, .duration]
        if separate { options.insert(.separateBySource) }
        var serial: AggregationOutput?
        // One partition; the default cuts; two; one interval a partition (more partitions than
        // samples, most of them empty) on two, three and five workers.
        for (parallelism, partitions) in [(1, 1), (2, nil), (2, 2), (2, edges.count - 1), (3, edges.count - 1), (5, edges.count - 1)] {
            var aggregator = Aggregator(snapshot: store.snapshot(), type: .stepCount, predicate: .all, options: options,
                                        edges: edges, sourcePriority: nil)
            aggregator.parallelism = parallelism
            aggregator.minimumPartRows = 1
            aggregator.sweepPartitionCount = partitions
            let output = try aggregator.run()
            let measures = try #require(output.quantity)
            let duration = try #require(measures.duration)
            let context = Comment(rawValue: "separate \(separate) parallelism \(parallelism) partitions \(String(describing: partitions))")
            if let serial = serial?.quantity {
                #expect(measures.mergedSum == serial.mergedSum, context)
                #expect(measures.duration == serial.duration, context)
            } else {
                serial = output
            }
            for interval in 0..<edges.count - 1 {
                let expected = ReferenceInterval(samples: samples, start: edges[interval], end: edges[interval + 1], style: .cumulative)
                #expect(nearlyEqual(measures.mergedSum?[interval], expected.mergedSum), "\(context) interval \(interval)")
                #expect(nearlyEqual(duration.merged[interval], expected.duration), "\(context) interval \(interval)")
                guard separate else { continue }
                for (source, provenance) in provenances.enumerated() {
                    let own = ReferenceInterval(samples: samples.filter { $0.source == provenance.source.name },
                                                start: edges[interval], end: edges[interval + 1], style: .cumulative)
                    let index = output.sources.firstIndex(of: provenance.source)
                    #expect(nearlyEqual(index.map { duration.perSource[$0][interval] }, own.duration),
                            "\(context) interval \(interval) source \(source)")
                    #expect(index.map { output.perSource[$0][interval].count } == own.count,
                            "\(context) interval \(interval) source \(source)")
                }
            }
        }
    }

    /// Saves one sample in a batch of its own, and its reference.
    private func save(_ row: (Int, Int64, Int64, Double), index: Int, provenances: [Provenance], store: HealthStore,
                      samples: inout [ReferenceSample]) throws {
        var batch = QuantitySampleBatch(type: .stepCount)
        for provenance in provenances { _ = batch.addProvenance(provenance) }
        try batch.append(startTimestamp: row.1, endTimestamp: row.2, value: row.3, provenanceIndex: row.0)
        _ = try store.save(batch)
        samples.append(ReferenceSample(start: row.1, end: row.2, value: row.3, source: provenances[row.0].source.name,
                                       rank: QueryPropertyTests.rank(source: row.0, userEntered: false), sequence: Int64(index)))
    }

    @Test("A range of time gets every row reaching it, in order of start, and only rows ending before it ahead of those",
          arguments: [UInt64(71), 72, 73, 74])
    func rowsOfRanges(seed: UInt64) {
        var random = TestRandom(seed: seed)
        // Pieces as the scan gives them: mostly sorted chunks, which may overlap in time; some
        // unsorted (unflushed batches); some empty.
        var pieces: [SweepColumns] = []
        var rows: [(start: Int64, end: Int64, value: Double, rank: Int32, source: Int32)] = []
        var previousStart: Int64 = 0
        for _ in 0..<Int.random(in: 1...12, using: &random) {
            let count = Int.random(in: 0...300, using: &random)
            let sorted = Int.random(in: 0..<4, using: &random) != 0
            // Either after the previous piece (in order) or anywhere.
            let from = Int.random(in: 0..<3, using: &random) == 0 ? Int64.random(in: 0...10_000, using: &random) : previousStart
            var start = from
            var piece: [(start: Int64, end: Int64, value: Double, rank: Int32, source: Int32)] = []
            for _ in 0..<count {
                start = sorted ? start + Int64.random(in: 0...20, using: &random) : Int64.random(in: 0...20_000, using: &random)
                // Mostly short rows, a few long ones.
                let length = Int.random(in: 0..<50, using: &random) == 0 ? Int64.random(in: 0...8_000, using: &random)
                    : Int64.random(in: 0...500, using: &random)
                piece.append((start: start, end: start + length, value: Double(Int.random(in: 0...99, using: &random)),
                              rank: Int32.random(in: 0...3, using: &random), source: Int32.random(in: 0...2, using: &random)))
            }
            pieces.append(SweepColumns(start: piece.map(\.start), end: piece.map(\.end), value: piece.map(\.value),
                                       rank: piece.map(\.rank), source: piece.map(\.source), isSortedByStart: sorted))
            rows += piece
            if sorted { previousStart = start }
        }
        let expected = rows.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        let sweepRows = SweepRows(pieces)
        #expect(sweepRows.count == expected.count)
        #expect((0..<expected.count).map(sweepRows.start(ofRow:)) == expected.map(\.start))
        for _ in 0..<200 {
            let low = Int64.random(in: -100...21_000, using: &random)
            let high = low + Int64.random(in: 1...3_000, using: &random)
            let range = sweepRows.rows(reaching: low, before: high)
            let (columns, span) = sweepRows.columns(range)
            // The first row reaching `low` and the first starting at or after `high`.
            let reaching = expected.firstIndex { $0.end >= low } ?? expected.count
            let stop = expected.firstIndex { $0.start >= high } ?? expected.count
            let context = Comment(rawValue: "seed \(seed) from \(low) to \(high)")
            #expect(range.upperBound == max(stop, range.lowerBound), context)
            // Rows starting at or after `high` end after `low`: no row reaches it past `stop`.
            #expect(range.lowerBound <= reaching, context)
            #expect(expected[min(range.lowerBound, reaching)..<reaching].allSatisfy { $0.end < low }, context)
            #expect(span.count == range.count, context)
            let wanted = expected[range]
            #expect(Array(columns.start[span]) == wanted.map(\.start), context)
            #expect(Array(columns.end[span]) == wanted.map(\.end), context)
            #expect(Array(columns.value[span]) == wanted.map(\.value), context)
            #expect(Array(columns.rank[span]) == wanted.map(\.rank), context)
            #expect(Array(columns.source[span]) == wanted.map(\.source), context)
        }
    }
}
