//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// A collection's intervals read as they are held (``StatisticsCollection/forEachInterval(_:)``,
/// ``StatisticsCollection/enumerateIntervals(from:to:_:)``) say what its ``Statistics`` say, on
/// random quantity and category stores, with and without sources, for every option.
@Suite("Statistics intervals")
struct StatisticsIntervalTests {

    static let anchor = Date(timestamp: 1_709_251_200_000_000)  // 2024-03-01T00:00:00Z

    /// Every statistic of `values` equals the same one read from `statistics` for `source`.
    static func expectSame(_ values: StatisticsValues?, _ statistics: Statistics, source: Source?, _ context: String) {
        #expect(values?.sum == statistics.sumQuantity(for: source)?.value, "sum \(context)")
        #expect(values?.average == statistics.averageQuantity(for: source)?.value, "average \(context)")
        #expect(values?.minimum == statistics.minimumQuantity(for: source)?.value, "minimum \(context)")
        #expect(values?.maximum == statistics.maximumQuantity(for: source)?.value, "maximum \(context)")
        #expect(values?.mostRecent == statistics.mostRecentQuantity(for: source)?.value, "mostRecent \(context)")
        #expect(values?.mostRecentDateInterval == statistics.mostRecentQuantityDateInterval(for: source), "interval \(context)")
        #expect(values?.duration == statistics.duration(for: source)?.value, "duration \(context)")
        #expect(values?.count == statistics.count(for: source), "count \(context)")
    }

    /// The intervals of `collection` against its statistics: the listed ones, the ones of a range
    /// reaching past the data on both sides, and the one holding each interval's start.
    static func check(_ collection: StatisticsCollection, _ context: String) throws {
        let statistics = collection.statistics()
        var listed: [StatisticsCollection.Interval] = []
        collection.forEachInterval { listed.append($0) }
        #expect(listed.count == statistics.count, "\(context)")
        for (interval, expected) in zip(listed, statistics) {
            #expect(!interval.isEmpty && interval.startDate == expected.startDate && interval.endDate == expected.endDate, "\(context)")
            expectSame(interval.values, expected, source: nil, context)
            let built = collection.statistics(of: interval)
            #expect(built.sources == expected.sources, "\(context)")
            for source in expected.sources ?? [] {
                expectSame(built.values(for: source), expected, source: source, "\(context) \(source.name)")
            }
            let holding = try #require(collection.statistics(for: interval.startDate))
            #expect(holding.startDate == expected.startDate, "\(context)")
            expectSame(holding.values(), expected, source: nil, context)
        }
        guard let first = statistics.first, let last = statistics.last else { return }
        let from = first.startDate.addingTimeInterval(-2 * 86_400), to = last.endDate.addingTimeInterval(2 * 86_400)
        var ranged: [StatisticsCollection.Interval] = []
        try collection.enumerateIntervals(from: from, to: to) { interval, _ in ranged.append(interval) }
        let enumerated = try collection.statistics(from: from, to: to)
        #expect(ranged.count == enumerated.count && ranged.count > listed.count, "\(context)")
        for (interval, expected) in zip(ranged, enumerated) {
            #expect(interval.startDate == expected.startDate && interval.endDate == expected.endDate, "\(context)")
            #expect(interval.isEmpty == expected.isEmpty, "\(context)")
            expectSame(interval.values, expected, source: nil, context)
            #expect(collection.statistics(of: interval).sources == expected.sources, "\(context)")
        }
        var visited = 0
        try collection.enumerateIntervals(from: from, to: to) { _, stop in
            visited += 1
            stop = visited == 3
        }
        #expect(visited == 3, "\(context)")
    }

    @Test("quantity collections: intervals as held equal their statistics", arguments: [
        (QuantityType.stepCount, [StatisticsOptions.cumulativeSum, .mostRecent, .duration]),
        (QuantityType.heartRate, [StatisticsOptions.discreteAverage, .discreteMin, .discreteMax, .mostRecent, .duration]),
    ])
    func quantity(type: QuantityType, applicable: [StatisticsOptions]) throws {
        for seed: UInt64 in 1...3 {
            let (store, _) = try QueryPropertyTests.makeStore(type: type, seed: seed, total: 600)
            var random = TestRandom(seed: seed &* 31)
            for separate in [false, true] {
                for components in [IntervalComponents.hours(1), .days(1)] {
                    var options = StatisticsOptions(applicable.filter { _ in Bool.random(using: &random) })
                    if options.isEmpty { options = applicable[0] }
                    if separate { options.insert(.separateBySource) }
                    let query = try StatisticsCollectionQuery(quantityType: type, options: options, anchorDate: Self.anchor,
                                                              intervalComponents: components, calendar: try TimeTestSupport.calendar("Europe/Berlin"))
                    try Self.check(try store.execute(query), "\(type.shortIdentifier) seed \(seed) \(options) \(components)")
                }
            }
        }
    }

    @Test("category collections: intervals as held equal their statistics")
    func category() throws {
        let sources = ["Watch", "AutoSleep", "iPhone"].map { Source(name: $0) }
        let names = ["inBed", "asleepCore", "asleepDeep", "awake"]
        for seed: UInt64 in 1...3 {
            var random = TestRandom(seed: seed)
            let store = HealthStore.inMemory()
            var samples: [CategorySample] = []
            for _ in 0..<300 {
                let start = Self.anchor.addingTimeInterval(Double(Int.random(in: 0..<(10 * 1_440), using: &random)) * 60)
                let end = start.addingTimeInterval(Double(Int.random(in: 0...240, using: &random)) * 60)
                samples.append(try CategorySample(type: .sleepAnalysis, valueName: names.randomElement(using: &random) ?? "inBed",
                                                  start: start, end: end,
                                                  source: sources.randomElement(using: &random) ?? sources[0]))
            }
            try store.save(samples)
            let values = Set(["asleepCore", "asleepDeep"].compactMap(CategoryType.sleepAnalysis.value(named:)))
            for options in [[], StatisticsOptions.duration, [.separateBySource], [.duration, .separateBySource]] {
                let query = try StatisticsCollectionQuery(categoryType: .sleepAnalysis, values: values, options: options,
                                                          anchorDate: Self.anchor, intervalComponents: .hours(6),
                                                          calendar: try TimeTestSupport.calendar("Europe/Berlin"))
                try Self.check(try store.execute(query), "sleep seed \(seed) \(options)")
            }
        }
    }
}
