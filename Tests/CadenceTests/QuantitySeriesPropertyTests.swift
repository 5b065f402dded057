//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// Random series against their entries saved as plain samples: statistics must agree interval by
/// interval, and the series query must list entries in the order a naive sort gives.
@Suite("Quantity series properties")
struct QuantitySeriesPropertyTests {
    static let watch = Device(description: "<<HKDevice: 0x1>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.1>")
    static let phone = Device(description: "<<HKDevice: 0x2>, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,2, software:17.1>")

    /// Random series of `type` from two sources around the 2024 spring DST change in New York;
    /// owners overlap one another, a cumulative series' entries never overlap each other.
    static func randomSeries(_ type: QuantityType, seed: UInt64) throws -> [QuantitySeriesSample] {
        var random = TestRandom(seed: seed)
        let base = date("2024-03-09T20:00:00Z")
        let cumulative = type.aggregationStyle == .cumulative
        return try (0..<Int.random(in: 3...12, using: &random)).map { index in
            let start = base.addingTimeInterval(Double(Int.random(in: 0..<(3 * 24 * 60), using: &random)) * 60)
            let length = Double(Int.random(in: 1...180, using: &random)) * 60
            var builder = try QuantitySeriesSampleBuilder(type: type, start: start, end: start.addingTimeInterval(length))
            var cursor = 0.0
            for _ in 0..<Int.random(in: 1...20, using: &random) {
                let entryStart = cumulative ? cursor + Double(Int.random(in: 0...3, using: &random)) * 30
                    : Double(Int.random(in: 0...Int(length), using: &random))
                guard entryStart <= length else { break }
                let entryLength = min(length - entryStart, Double([0, 30, 60, 300][Int.random(in: 0..<4, using: &random)]))
                let value = cumulative ? Double(Int.random(in: 0...200, using: &random)) : Double(Int.random(in: 50...150, using: &random))
                try builder.insert(Quantity(value: value, unit: type.canonicalUnit),
                                   dateInterval: DateInterval(start: start.addingTimeInterval(entryStart), duration: entryLength))
                cursor = entryStart + entryLength
            }
            guard !builder.entries.isEmpty else {
                try builder.insert(Quantity(value: 1, unit: type.canonicalUnit), dateInterval: DateInterval(start: start, duration: 0))
                return try builder.finishSeries(source: Source(name: "Watch"), device: watch)
            }
            let fromWatch = index % 2 == 0
            return try builder.finishSeries(source: Source(name: fromWatch ? "Watch" : "iPhone"),
                                            device: fromWatch ? watch : phone)
        }
    }

    /// The series' entries as plain samples with their owners' sources and devices.
    static func plainSamples(_ series: [QuantitySeriesSample]) throws -> [QuantitySample] {
        try series.flatMap { item in
            try item.entries.map {
                try QuantitySample(type: item.sample.quantityType, value: $0.quantity.value, start: $0.dateInterval.start,
                                   end: $0.dateInterval.end, source: item.sample.source, device: item.sample.device)
            }
        }
    }

    static func collection(_ store: HealthStore, _ type: QuantityType, _ components: IntervalComponents) throws
        -> StatisticsCollection {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/New_York") ?? .current
        let options: StatisticsOptions = type.aggregationStyle == .cumulative
            ? [.cumulativeSum, .separateBySource, .mostRecent, .duration]
            : [.discreteAverage, .discreteMin, .discreteMax, .separateBySource, .mostRecent, .duration]
        return try store.execute(StatisticsCollectionQuery(
            quantityType: type, options: options, anchorDate: date("2024-03-01T05:00:00Z"),
            intervalComponents: components, calendar: calendar))
    }

    @Test("Statistics over series entries equal those over the entries saved as plain samples",
          arguments: [(QuantityType.stepCount, UInt64(1)), (.stepCount, 2), (.heartRate, 3), (.heartRate, 4), (.bodyMass, 5)])
    func statisticsMatchPlainEntries(type: QuantityType, seed: UInt64) throws {
        let series = try Self.randomSeries(type, seed: seed)
        let seriesStore = HealthStore.inMemory()
        try seriesStore.save(series)
        let plainStore = HealthStore.inMemory()
        try plainStore.save(try Self.plainSamples(series))
        for components in [IntervalComponents.hours(1), .days(1)] {
            let expected = try Self.collection(plainStore, type, components).statistics()
            let actual = try Self.collection(seriesStore, type, components).statistics()
            #expect(!expected.isEmpty && actual.map(\.startDate) == expected.map(\.startDate))
            for (left, right) in zip(actual, expected) {
                for source in [nil, Source(name: "Watch"), Source(name: "iPhone")] {
                    #expect(nearlyEqual(left.sumQuantity(for: source)?.value, right.sumQuantity(for: source)?.value))
                    #expect(nearlyEqual(left.averageQuantity(for: source)?.value, right.averageQuantity(for: source)?.value))
                    #expect(left.minimumQuantity(for: source) == right.minimumQuantity(for: source))
                    #expect(left.maximumQuantity(for: source) == right.maximumQuantity(for: source))
                    #expect(left.mostRecentQuantity(for: source) == right.mostRecentQuantity(for: source))
                    #expect(nearlyEqual(left.duration(for: source)?.value, right.duration(for: source)?.value))
                }
            }
        }
        // Owners are listed, entries are not.
        let listed = try seriesStore.execute(SampleQuery(quantityType: type))
        #expect(Set(listed.map(\.uuid)) == Set(series.map(\.sample.uuid)))
        #expect(listed.map(\.count).reduce(0, +) == series.map(\.entries.count).reduce(0, +))
    }

    @Test("The series query lists entries as a naive sort does, grouped or merged", arguments: [UInt64(6), 7, 8])
    func seriesQueryOrder(seed: UInt64) throws {
        let series = try Self.randomSeries(.heartRate, seed: seed)
        let store = HealthStore.inMemory()
        try store.save(series)
        // Owners by start, then save order; each one's entries in the builder's order.
        let owners = series.enumerated().sorted { ($0.element.sample.startDate, $0.offset) < ($1.element.sample.startDate, $1.offset) }
        let grouped = owners.flatMap { item in item.element.entries.map { (item.element.sample.uuid, $0) } }
        let merged = grouped.enumerated().sorted {
            ($0.element.1.dateInterval.start, $0.offset) < ($1.element.1.dateInterval.start, $1.offset)
        }.map(\.element)
        for (option, expected) in [(true, grouped), (false, merged)] {
            let listed = try store.execute(QuantitySeriesSampleQuery(quantityType: .heartRate, includeSample: true,
                                                                     orderByQuantitySampleStartDate: option))
            #expect(listed.map { $0.sample?.uuid } == expected.map(\.0))
            #expect(listed.map(\.dateInterval) == expected.map(\.1.dateInterval))
            #expect(listed.map(\.quantity) == expected.map(\.1.quantity))
        }
    }
}
