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
/// inside samples.
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
        for components in [try IntervalComponents.days(1), try .hours(3)] {
            let edges = try IntervalEdges(calendar: calendar, anchor: base + 5_400_000_000, components: components,
                                          covering: (base - 86_400_000_000)...(base + 45 * 86_400_000_000)).edges
            for parallelism in [1, 2, 3] {
                var aggregator = Aggregator(snapshot: store.snapshot(), type: .stepCount, predicate: .all,
                                            options: [.cumulativeSum, .duration], edges: edges, sourcePriority: priority)
                aggregator.parallelism = parallelism
                aggregator.minimumPartRows = 50
                let output = try aggregator.run()
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
}
