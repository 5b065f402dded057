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
/// inside samples (down to one interval a partition), and the joining of the gathered columns
/// against a plain sort.
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
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try timeZone(named: "Australia/Lord_Howe")
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
                if let serial {
                    #expect(output.mergedSum == serial.mergedSum, "seed \(seed) \(components) partitions \(String(describing: partitions))")
                    #expect(output.duration == serial.duration, "seed \(seed) \(components) partitions \(String(describing: partitions))")
                } else {
                    #expect(output.mergedSum != nil)
                    serial = output
                }
                for interval in 0..<edges.count - 1 {
                    let expected = ReferenceInterval(samples: samples, start: edges[interval], end: edges[interval + 1],
                                                     style: .cumulative)
                    let context = Comment(rawValue: "seed \(seed) \(components) parallelism \(parallelism) interval \(interval)")
                    #expect(output.merged[interval].count == expected.count, context)
                    guard expected.count > 0 else { continue }
                    #expect(nearlyEqual(output.mergedSum?[interval] ?? output.merged[interval].sum, expected.mergedSum), context)
                    #expect(nearlyEqual(output.duration?[interval], expected.duration), context)
                }
            }
        }
    }

    @Test("Joined columns are the pieces' rows sorted by start, ties in piece order, with the running maximum of ends",
          arguments: [UInt64(71), 72, 73, 74])
    func joinedColumns(seed: UInt64) {
        var random = TestRandom(seed: seed)
        // Pieces as the scan gives them: mostly sorted chunks, which may overlap in time; some
        // unsorted (unflushed batches); some empty.
        var pieces: [SweepColumns] = []
        var rows: [(start: Int64, end: Int64, value: Double, rank: Int32, source: Int32)] = []
        var previousStart: Int64 = 0
        for _ in 0..<Int.random(in: 1...12, using: &random) {
            var piece = SweepColumns()
            let count = Int.random(in: 0...300, using: &random)
            let sorted = Int.random(in: 0..<4, using: &random) != 0
            // Either after the previous piece (in order) or anywhere.
            let from = Int.random(in: 0..<3, using: &random) == 0 ? Int64.random(in: 0...10_000, using: &random) : previousStart
            var start = from
            for _ in 0..<count {
                start = sorted ? start + Int64.random(in: 0...20, using: &random) : Int64.random(in: 0...20_000, using: &random)
                let row = (start: start, end: start + Int64.random(in: 0...500, using: &random),
                           value: Double(Int.random(in: 0...99, using: &random)), rank: Int32.random(in: 0...3, using: &random),
                           source: Int32.random(in: 0...2, using: &random))
                piece.start.append(row.start)
                piece.end.append(row.end)
                piece.value.append(row.value)
                piece.rank.append(row.rank)
                piece.source.append(row.source)
                rows.append(row)
            }
            piece.isSortedByStart = sorted
            if sorted { previousStart = start }
            pieces.append(piece)
        }
        let expected = rows.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        for parallelism in [1, 2] {
            let joined = SweepColumns.joined(pieces, parallelism: parallelism)
            #expect(joined.start == expected.map(\.start))
            #expect(joined.end == expected.map(\.end))
            #expect(joined.value == expected.map(\.value))
            #expect(joined.rank == expected.map(\.rank))
            #expect(joined.source == expected.map(\.source))
            var running = Int64.min
            #expect(joined.maximumEndOfPrefix == expected.map { running = max(running, $0.end); return running })
        }
    }
}
