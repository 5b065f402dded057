//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import Cadence

/// A statistics query over a date window [S, E) equals the collection interval [S, E) with the
/// same predicate and options (<doc:HowCadenceComputes#Collections-and-windows>).
@Suite("Statistics over a date window")
struct StatisticsWindowTests {
    static let base = Date(timeIntervalSince1970: 1_704_067_200)  // 2024-01-01 00:00 UTC

    /// Random samples of `type` from three overlapping sources over two days, some long, some instants.
    static func store(_ type: QuantityType, seed: UInt64) throws -> HealthStore {
        var random = SeededRandom(seed: seed)
        let store = HealthStore.inMemory()
        var samples: [QuantitySample] = []
        for _ in 0..<400 {
            let start = base + Double(random.below(2 * 86_400))
            let length = [0, 0, 30, 600, 5_400, 30_000][Int(random.below(6))]
            samples.append(try QuantitySample(
                type: type, value: Double(random.below(200) + 1), start: start, end: start + Double(length),
                source: Source(name: ["Phone", "Watch", "App"][Int(random.below(3))])))
        }
        _ = try store.save(samples)
        return store
    }

    @Test("Random windows: the statistics query equals the collection interval, merged and per source",
          arguments: [(QuantityType.stepCount, StatisticsOptions([.cumulativeSum, .separateBySource, .duration])),
                      (QuantityType.heartRate, StatisticsOptions([.discreteAverage, .discreteMin, .discreteMax, .mostRecent]))])
    func windowsEqualIntervals(type: QuantityType, options: StatisticsOptions) throws {
        let store = try Self.store(type, seed: 17)
        var random = SeededRandom(seed: 5)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        for _ in 0..<40 {
            let minutes = Int(random.below(600)) + 1
            let start = Self.base + Double(random.below(2 * 1_440)) * 60
            let end = start + Double(minutes * 60)
            let dateOptions = [SamplePredicate.DateOptions(), .strictStartDate, .strictEndDate][Int(random.below(3))]
            let predicate = SamplePredicate.samples(start: start, end: end, options: dateOptions)
            let statistics = try store.execute(StatisticsQuery(quantityType: type, quantitySamplePredicate: predicate,
                                                               options: options))
            let collection = try store.execute(StatisticsCollectionQuery(
                quantityType: type, quantitySamplePredicate: predicate, options: options, anchorDate: start,
                intervalComponents: .minutes(minutes), calendar: calendar))
            let interval = collection.statistics(for: start)
            #expect(statistics.startDate == start && statistics.endDate == end)
            #expect(statistics.sumQuantity()?.value == interval?.sumQuantity()?.value)
            #expect(statistics.duration()?.value == interval?.duration()?.value)
            #expect(statistics.averageQuantity()?.value == interval?.averageQuantity()?.value)
            #expect(statistics.minimumQuantity()?.value == interval?.minimumQuantity()?.value)
            #expect(statistics.maximumQuantity()?.value == interval?.maximumQuantity()?.value)
            #expect(statistics.mostRecentQuantity()?.value == interval?.mostRecentQuantity()?.value)
            for source in statistics.sources ?? [] {
                #expect(statistics.sumQuantity(for: source)?.value == interval?.sumQuantity(for: source)?.value)
            }
        }
    }

    @Test("A sample straddling the window's edge is prorated; without a window it counts in full")
    func straddlingSample() throws {
        let store = HealthStore.inMemory()
        // 100 steps over 13:57–14:02 (How Cadence computes: Intervals and contributions): 60 before 14:00, 40 after.
        let start = Self.base + 13 * 3_600 + 57 * 60
        _ = try store.save([try QuantitySample(type: .stepCount, value: 100, start: start, end: start + 300,
                                               source: Source(name: "Phone"))])
        let two = Self.base + 14 * 3_600
        let window = try StatisticsQuery(quantityType: .stepCount, quantitySamplePredicate: .samples(start: two, end: two + 3_600),
                                         options: .cumulativeSum)
        let result = try store.execute(window)
        #expect(abs((result.sumQuantity()?.value ?? 0) - 40) < 1e-9)
        #expect(result.startDate == two && result.endDate == two + 3_600)
        let whole = try store.execute(StatisticsQuery(quantityType: .stepCount, options: .cumulativeSum))
        #expect(whole.sumQuantity()?.value == 100 && whole.startDate == start && whole.endDate == start + 300)
        let empty = try store.execute(StatisticsQuery(quantityType: .stepCount, quantitySamplePredicate: .samples(start: two, end: two),
                                                      options: .cumulativeSum))
        #expect(empty.sumQuantity() == nil)
    }
}

extension SeededRandom {
    /// A number in `0..<bound`.
    fileprivate mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
