//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// The summary pyramid (`SummaryPyramid.swift`): collections whose intervals hold runs of whole
/// blocks, answered by merged summaries, agree with the naive reference, and the merges are used.
@Suite("Summary pyramid")
struct SummaryPyramidTests {
    static let sources = [Provenance(source: Source(name: "Watch")), Provenance(source: Source(name: "iPhone"))]

    /// Days of dense readings (about one block an hour or two) from `sourceCount` sources over
    /// `days` days from `base`, with quiet hours and a few samples crossing an hour, saved in
    /// batches (two swapped, so chunks overlap) into a store whose last saves stay unflushed,
    /// with some of one source's samples deleted. Returns the survivors.
    static func makeStore(type: QuantityType, seed: UInt64, base: Int64, days: Int = 10,
                          sourceCount: Int) throws -> (HealthStore, [ReferenceSample]) {
        var random = TestRandom(seed: seed)
        let hour = HourSummaries.hour
        var samples: [ReferenceSample] = []
        for index in 0..<(days * 24) {
            let hourStart = base + Int64(index) * hour
            let count = [0, 60, 300, 600, 600, 600][Int.random(in: 0..<6, using: &random)]
            for row in 0..<count {
                let source = sourceCount == 1 ? 0 : (index / 30 + (row % 97 == 0 ? 1 : 0)) % sourceCount
                let start = hourStart + Int64(row) * (3_600_000_000 / Int64(count)) + Int64(source) * 1_000
                var length: Int64 = Bool.random(using: &random) ? 0 : 1_000_000
                if row == count - 1, Int.random(in: 0..<20, using: &random) == 0 { length = hour }
                let value = type.aggregationStyle == .cumulative ? Double(Int.random(in: 0...40, using: &random))
                    : Double(Int.random(in: 400...1_900, using: &random)) / 10
                samples.append(ReferenceSample(start: start, end: start + length, value: value,
                                               source: sources[source].source.name, rank: 0, sequence: 0))
            }
        }
        let store = HealthStore.inMemory(chunkCapacity: 12_000, flushThreshold: 9_000)
        var saved = try store.saveInOverlappingBatches(samples, type: type, sources: sources, sourceCount: sourceCount,
                                                       batchSizes: 2_000...9_000, using: &random)
        let lower = base + Int64.random(in: 0..<Int64(days * 24), using: &random) * hour + 600_000_000
        try store.deleteWatchSamples(of: type, startingIn: lower..<lower + 3 * hour, from: &saved)
        return (store, saved)
    }

    /// The spring change in Berlin and Adelaide's autumn change (31 March and 7 April 2024) fall
    /// inside the ten stored days from the first base; the autumn change in Berlin from the second.
    static let bases: [Int64] = [1_711_670_400_000_000, 1_729_728_000_000_000]  // 2024-03-29T00:00Z, 2024-10-24T00:00Z
    static let zones = ["Europe/Berlin", "Asia/Kolkata", "Australia/Adelaide", "America/New_York", "UTC"]

    @Test("Collections answered by merged runs of blocks agree with the reference, in every zone and interval",
          arguments: [(QuantityType.heartRate, UInt64(1), 1), (.heartRate, UInt64(2), 2), (.stepCount, UInt64(3), 1),
                      (.bodyMass, UInt64(4), 2)])
    func collections(type: QuantityType, seed: UInt64, sourceCount: Int) throws {
        let base = Self.bases[Int(seed) % Self.bases.count]
        let (store, samples) = try Self.makeStore(type: type, seed: seed, base: base, sourceCount: sourceCount)
        var random = TestRandom(seed: seed &* 7_919)
        let intervals: [IntervalComponents] = [.days(1), .hours(1), .days(2), .months(1), .hours(6)]
        let discrete = type.aggregationStyle.isDiscrete
        let allOptions: StatisticsOptions = discrete ? [.discreteAverage, .discreteMin, .discreteMax, .mostRecent]
            : [.cumulativeSum, .mostRecent]
        for round in 0..<15 {
            let components = intervals[round % intervals.count]
            let calendar = try TimeTestSupport.calendar(Self.zones[round % Self.zones.count])
            // Whole UTC hours, an odd minute now and then, and half hours in the half-hour zones.
            let halfHour: Int64 = round % 5 == 1 || round % 5 == 2 ? 1_800_000_000 : 0
            let minutes = round % 4 == 3 ? Int64.random(in: 1..<60, using: &random) * 60_000_000 : 0
            let anchor = Date(timestamp: base + Int64.random(in: -40...40, using: &random) * 86_400_000_000
                              + Int64([0, 3, 22][round % 3]) * HourSummaries.hour + minutes + halfHour)
            let sourceFilter: Set<String>? = round % 5 == 4 && sourceCount > 1 ? ["iPhone"] : nil
            var predicate = SamplePredicate.all
            if let sourceFilter { predicate = .sources(named: sourceFilter) }
            var options = allOptions
            if round % 2 == 0 { options.insert(.separateBySource) }
            let query = try StatisticsCollectionQuery(quantityType: type, quantitySamplePredicate: predicate, options: options,
                                                      anchorDate: anchor, intervalComponents: components, calendar: calendar)
            let collection = try store.execute(query)
            // Sorted by start, so that each interval's reference reads only the samples near it
            // (none lasts more than an hour).
            let selected = samples.filter { sourceFilter?.contains($0.source) ?? true }.sorted { $0.start < $1.start }
            func near(_ b0: Int64, _ b1: Int64) -> [ReferenceSample] {
                let first = selected.partitionPoint { $0.start >= b0 - 2 * HourSummaries.hour }
                let end = selected.partitionPoint { $0.start >= b1 }
                return Array(selected[first..<max(first, end)])
            }
            var nonEmpty = 0
            for statistics in collection.statistics() {
                let context = Comment(rawValue: "seed \(seed) round \(round) \(components) \(calendar.timeZone.identifier) \(statistics.startDate)")
                if expectAgreesWithReference(statistics, samples: near(statistics.startDate.timestamp, statistics.endDate.timestamp),
                                             type: type, options: options, sources: Array(Self.sources.prefix(sourceCount)),
                                             context: context) {
                    nonEmpty += 1
                }
            }
            #expect(nonEmpty > 0, "seed \(seed) round \(round)")
        }
    }

    @Test("A node is the union of the blocks under it, and levels stop where runs do")
    func nodesAreUnions() throws {
        var random = TestRandom(seed: 11)
        for blockCount in [0, 1, 2, 3, 7, 8, 13] {
            let blocks = (0..<blockCount).map { index -> SampleSummary in
                var columns = SampleColumns()
                for row in 0..<3 {
                    let start = Int64(index) * HourSummaries.hour + Int64(row) * 1_000_000
                    columns.append(start: start, end: start, value: Double(Int.random(in: 1...99, using: &random)),
                                   provenance: UInt32(index % 2), sequence: Int64(index * 3 + row))
                }
                return SampleSummary(columns, rows: 0..<3, style: .discreteArithmetic)
            }
            let pyramid = SummaryPyramid(blocks: blocks)
            #expect(pyramid.topLevel == (blockCount < 2 ? 0 : Int.bitWidth - 1 - blockCount.leadingZeroBitCount))
            for level in 1...max(pyramid.topLevel + 1, 1) {
                for index in 0..<(blockCount + 1) {
                    let covered = (index << level)..<((index + 1) << level)
                    guard let place = pyramid.node(level: level, index: index) else {
                        #expect(covered.upperBound > blockCount || level > pyramid.topLevel)
                        continue
                    }
                    var union = blocks[covered.lowerBound]
                    for block in covered.dropFirst() { union.formUnion(blocks[block]) }
                    #expect(pyramid[place] == union, "level \(level) node \(index) of \(blockCount) blocks")
                }
            }
        }
    }

    @Test("Daily intervals in Berlin are answered by merged runs of blocks, a few scan blocks a day")
    func dailyUsesNodes() throws {
        let (store, _) = try Self.makeStore(type: .heartRate, seed: 5, base: Self.bases[0], sourceCount: 1)
        try store.flush()
        let snapshot = store.snapshot()
        let type = try #require(snapshot.types[QuantityType.heartRate.identifier])
        func answered(_ zone: String, anchor: Int64) throws -> (nodes: Int, blocks: Int) {
            let calendar = try TimeTestSupport.calendar(zone)
            let query = try StatisticsCollectionQuery(quantityType: .heartRate, options: .discreteAverage,
                                                      anchorDate: Date(timestamp: anchor),
                                                      intervalComponents: .days(1), calendar: calendar)
            let plan = try CollectionPlan(query, snapshot: snapshot)
            let aggregator = Aggregator(snapshot: snapshot, type: .heartRate, predicate: .all, options: .discreteAverage,
                                        edges: plan.edges.edges, sourcePriority: nil)
            let counts = try type.scan(aggregator.plan(for: type, separate: false), parallelism: 1) { run in
                var counts = (0, 0)
                try run.forEach { portion in
                    counts.0 += portion.blocks.filter { $0.pyramidNode != nil }.count
                    counts.1 += portion.blocks.count
                }
                return counts
            }
            return (counts.map(\.0).reduce(0, +), counts.map(\.1).reduce(0, +))
        }
        let berlin = try answered("Europe/Berlin", anchor: Self.bases[0] + 2 * HourSummaries.hour)
        // Local midnight in Kolkata is 18:30 UTC: every edge is on a half hour.
        let kolkata = try answered("Asia/Kolkata", anchor: Self.bases[0] - 5 * HourSummaries.hour - 1_800_000_000)
        let blockCount = try type.chunks.map { try $0.file().blocks.count }.reduce(0, +)
        #expect(berlin.nodes > 0)
        // Each local day's run of blocks becomes a few merged summaries.
        #expect(berlin.blocks * 2 < blockCount, "\(berlin.blocks) scan blocks for \(blockCount) blocks")
        // On half hours a block holding a day's edge is decoded, the runs between still merge.
        #expect(kolkata.nodes > 0)
    }
}
