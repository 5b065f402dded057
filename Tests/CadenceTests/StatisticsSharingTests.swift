//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// The ``Statistics`` of a collection share its numbers instead of copying them: they stay right
/// after the collection and its store are gone, an interval of another collection is looked up
/// by its edges, and one costs a few words.
@Suite("Statistics sharing their collection's numbers")
struct StatisticsSharingTests {
    /// Every statistic of `statistics` for `source`, as plain numbers.
    private static func numbers(_ statistics: Statistics, source: Source? = nil) -> [Double?] {
        [statistics.sumQuantity(for: source)?.value, statistics.averageQuantity(for: source)?.value,
         statistics.minimumQuantity(for: source)?.value, statistics.maximumQuantity(for: source)?.value,
         statistics.mostRecentQuantity(for: source)?.value, statistics.duration(for: source)?.value,
         statistics.startDate.timeIntervalSince1970, statistics.endDate.timeIntervalSince1970]
    }

    private static func query(_ type: QuantityType, _ options: StatisticsOptions,
                              _ components: IntervalComponents) throws -> StatisticsCollectionQuery {
        try StatisticsCollectionQuery(quantityType: type, options: options, anchorDate: StatisticsIntervalTests.anchor,
                                      intervalComponents: components, calendar: try TimeTestSupport.calendar("Europe/Berlin"))
    }

    @Test("statistics read the same after their collection and store are gone")
    func outliveCollection() throws {
        var kept: [Statistics] = []
        var expected: [[Double?]] = []
        var sources: [[Source]?] = []
        do {
            let (store, _) = try QueryPropertyTests.makeStore(type: .stepCount, seed: 5, total: 400)
            let collection = try store.execute(try Self.query(.stepCount, [.cumulativeSum, .duration, .separateBySource], .hours(6)))
            // What the collection's own intervals say, read before anything is released.
            collection.forEachInterval { interval in
                let statistics = collection.statistics(of: interval)
                expected.append(Self.numbers(statistics) + (statistics.sources ?? []).flatMap { Self.numbers(statistics, source: $0) })
                sources.append(statistics.sources)
            }
            kept = collection.statistics()
            try store.close()
        }
        #expect(kept.count == expected.count && kept.count > 10)
        #expect(kept.contains { ($0.sources?.count ?? 0) > 1 })
        for (index, statistics) in kept.enumerated() {
            #expect(statistics.sources == sources[index])
            #expect(Self.numbers(statistics) + (statistics.sources ?? []).flatMap { Self.numbers(statistics, source: $0) }
                    == expected[index], "interval \(index)")
        }
    }

    @Test("an interval of another collection is answered by this one's interval with the same edges")
    func intervalOfAnotherCollection() throws {
        let (store, _) = try QueryPropertyTests.makeStore(type: .heartRate, seed: 9, total: 300)
        let hourly = try store.execute(try Self.query(.heartRate, [.discreteAverage, .discreteMax], .hours(1)))
        let everything = try store.execute(try Self.query(.heartRate, [.discreteMin], .hours(1)))
        let daily = try store.execute(try Self.query(.heartRate, [.discreteMin], .days(1)))
        var checked = 0
        hourly.forEachInterval { interval in
            // Same edges in another collection: its numbers, not the interval's.
            let other = everything.statistics(of: interval)
            let own = try? #require(everything.statistics(for: interval.startDate))
            #expect(other.minimumQuantity()?.value == own?.minimumQuantity()?.value && other.minimumQuantity() != nil)
            #expect(other.averageQuantity() == nil)
            // No interval with those edges: no values.
            #expect(daily.statistics(of: interval).isEmpty)
            checked += 1
        }
        #expect(checked > 20)
    }

    @Test("a statistics value is a few words, whatever the collection holds")
    func size() {
        // The reference, an optional place and two edges: copying one copies no accumulator.
        #expect(MemoryLayout<Statistics>.size <= 40)
    }
}
