//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// A collection's result says which kind it is: a quantity collection's carries the quantity
/// measures, a category collection's the category measures, with start counts that agree with a
/// naive count over random samples (<doc:HowCadenceComputes#Category-durations>).
@Suite("Collection results say their kind")
struct CollectionResultKindTests {
    @Test("a quantity collection's result is the quantity kind, with a duration only when requested",
          arguments: [
              // The sum alone: no duration measured.
              [.cumulativeSum] as StatisticsOptions,
              // The sum and the duration, per source too.
              [.cumulativeSum, .duration, .separateBySource],
          ])
    func quantity(options: StatisticsOptions) throws {
        let (store, _) = try QueryPropertyTests.makeStore(type: .stepCount, seed: 71, total: 1_500)
        let query = try StatisticsCollectionQuery(
            quantityType: .stepCount, options: options, anchorDate: Date(timestamp: CategoryQueryPropertyTests.base),
            intervalComponents: .days(1), calendar: CategoryDurationTests.utc)
        let output = try store.execute(query).output
        #expect(output.category == nil)
        let measures = try #require(output.quantity)
        #expect(!output.merged.isEmpty)
        #expect((measures.duration != nil) == options.contains(.duration))
        if let duration = measures.duration {
            #expect(duration.merged.count == output.merged.count)
            #expect(duration.perSource.count == output.perSource.count)
        }
    }

    @Test("a category collection's result is the category kind, with start counts equal to a naive count",
          arguments: [
              // Asleep stages, hourly, per source.
              (UInt64(1), [1, 3, 5], IntervalComponents.hours(1), true),
              // In bed, daily, sources merged.
              (UInt64(2), [0], IntervalComponents.days(1), false),
              // One stage, every six hours, per source.
              (UInt64(3), [4], IntervalComponents.hours(6), true),
          ] as [(UInt64, Set<Int>, IntervalComponents, Bool)])
    func category(seed: UInt64, values: Set<Int>, components: IntervalComponents, separate: Bool) throws {
        let (store, samples) = try CategoryQueryPropertyTests.makeStore(seed: seed)
        let query = try StatisticsCollectionQuery(
            categoryType: .sleepAnalysis, values: values, options: separate ? [.duration, .separateBySource] : [.duration],
            anchorDate: Date(timestamp: CategoryQueryPropertyTests.base), intervalComponents: components, calendar: CategoryDurationTests.utc)
        let output = try store.execute(query).output
        #expect(output.quantity == nil)
        let measures = try #require(output.category)
        let edges = output.edges
        #expect(edges.count > 1)
        #expect(measures.startCounts.merged.count == edges.count - 1)
        #expect(measures.duration.merged.count == edges.count - 1)
        #expect(measures.startCounts.perSource.count == (separate ? output.sources.count : 0))
        // The naive count: the samples with a value in the set that start in each interval.
        let inSet = samples.filter { values.contains($0.value) }
        for interval in 0..<edges.count - 1 {
            let starting = inSet.filter { (edges[interval]..<edges[interval + 1]).contains($0.startDate.timestamp) }
            #expect(measures.startCounts.merged[interval] == starting.count, "interval \(interval)")
            for (source, counts) in measures.startCounts.perSource.enumerated() {
                #expect(counts[interval] == starting.filter { $0.source == output.sources[source] }.count,
                        "interval \(interval) source \(output.sources[source].name)")
            }
        }
        #expect(measures.startCounts.merged.reduce(0, +) == inSet.filter { (edges[0]..<edges[edges.count - 1]).contains($0.startDate.timestamp) }.count)
    }
}
