//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// Category durations and counts (<doc:HowCadenceComputes#Category-durations>): the test vector, and the sweep against a naive
/// minute-by-minute reference on random samples.
@Suite("Category durations")
struct CategoryDurationTests {
    static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    static func date(_ text: String) throws -> Date { Date(timestamp: try parseRFC3339(text)) }

    static func sleep(_ value: String, _ start: String, _ end: String, _ source: String) throws -> CategorySample {
        try CategorySample(type: .sleepAnalysis, valueName: value, start: date(start), end: date(end), source: Source(name: source))
    }

    /// The night of <doc:HowCadenceComputes#Category-durations>: Watch stages, a third-party app and an iPhone in-bed record.
    static func vectorStore() throws -> HealthStore {
        let store = HealthStore.inMemory()
        try store.save([
            sleep("asleepCore", "2024-05-01T23:00:00Z", "2024-05-02T01:00:00Z", "Watch"),
            sleep("asleepDeep", "2024-05-02T01:00:00Z", "2024-05-02T02:00:00Z", "Watch"),
            sleep("asleepUnspecified", "2024-05-01T23:30:00Z", "2024-05-02T06:30:00Z", "AutoSleep"),
            sleep("inBed", "2024-05-01T22:30:00Z", "2024-05-02T07:00:00Z", "iPhone"),
        ])
        try store.setSourcePriority(["Watch", "AutoSleep", "iPhone"], for: CategoryType.sleepAnalysis)
        return store
    }

    @Test("the How Cadence computes: Category durations test vector: 7 h 30 min asleep, 8 h 30 min in bed, 1 h deep", arguments: [
        (["asleepUnspecified", "asleepCore", "asleepDeep", "asleepREM"], 7.5 * 3_600, 3),
        (["inBed"], 8.5 * 3_600, 1),
        (["asleepDeep"], 3_600, 1),
    ] as [([String], Double, Int)])
    func vector(values: [String], seconds: Double, count: Int) throws {
        let store = try Self.vectorStore()
        let raw = Set(values.compactMap(CategoryType.sleepAnalysis.value(named:)))
        let query = try StatisticsCollectionQuery(categoryType: .sleepAnalysis, values: raw, options: [.duration, .separateBySource],
                                                  anchorDate: Self.date("2024-05-01T12:00:00Z"),
                                                  intervalComponents: .days(1), calendar: Self.utc)
        let nights = try store.execute(query).statistics()
        #expect(nights.count == 1)
        let night = try #require(nights.first)
        #expect(night.startDate == (try Self.date("2024-05-01T12:00:00Z")))
        #expect(night.duration()?.value == seconds)
        #expect(night.count() == count)
        // Per source, each on its own samples alone.
        if values.count > 1 {
            #expect(night.duration(for: Source(name: "Watch"))?.value == 10_800.0)
            #expect(night.duration(for: Source(name: "AutoSleep"))?.value == 25_200.0)
            #expect(night.count(for: Source(name: "Watch")) == 2)
        }
    }

    @Test("values from two tracks, and quantity options, are refused")
    func validation() throws {
        let anchor = try Self.date("2024-05-01T12:00:00Z")
        #expect(throws: CadenceError.self) {
            try StatisticsCollectionQuery(categoryType: .sleepAnalysis, values: [0, 3], options: .duration,
                                          anchorDate: anchor, intervalComponents: .days(1))
        }
        #expect(throws: CadenceError.self) {
            try StatisticsCollectionQuery(categoryType: .sleepAnalysis, values: [3], options: .cumulativeSum,
                                          anchorDate: anchor, intervalComponents: .days(1))
        }
    }

    @Test("durations, counts and per-source values agree with a minute-by-minute reference", arguments: [11, 12, 13, 14] as [UInt64])
    func property(seed: UInt64) throws {
        var random = TestRandom(seed: seed)
        let sources = ["Watch", "AutoSleep", "iPhone"]
        let base: Int64 = 1_714_564_800_000_000  // 2024-05-01T12:00:00Z
        let minute: Int64 = 60_000_000
        let minutes = 3 * 24 * 60
        let store = HealthStore.inMemory(chunkCapacity: 64, flushThreshold: 150)
        var samples: [CategorySample] = []
        for _ in 0..<Int.random(in: 50...400, using: &random) {
            let start = Int64.random(in: 0..<Int64(minutes), using: &random)
            let length = Int.random(in: 0..<6, using: &random) == 0 ? 0 : Int64.random(in: 1...300, using: &random)
            let sample = try CategorySample(
                type: .sleepAnalysis, value: Int.random(in: 0...5, using: &random),
                start: Date(timestamp: base + start * minute), end: Date(timestamp: base + min(start + length, Int64(minutes)) * minute),
                source: Source(name: sources[Int.random(in: 0..<3, using: &random)]))
            samples.append(sample)
        }
        try store.save(samples)
        let priority = sources.shuffled(using: &random)
        let tracks: [Set<Int>] = [[0], [1, 2, 3, 4, 5]]
        for _ in 0..<4 {
            let track = tracks[Int.random(in: 0..<2, using: &random)]
            var values = Set(track.filter { _ in Bool.random(using: &random) })
            if values.isEmpty { values = [track.min()!] }
            let hours = [1, 6, 24][Int.random(in: 0..<3, using: &random)]
            let query = try StatisticsCollectionQuery(
                categoryType: .sleepAnalysis, values: values, options: [.duration, .separateBySource],
                anchorDate: Date(timestamp: base), intervalComponents: .hours(hours), calendar: Self.utc,
                sourcePriority: priority)
            let collection = try store.execute(query)
            // The naive reference, one minute at a time: the best priority covering each minute
            // with a sample of the track, and which sources cover it with a value in the set.
            var best = [Int](repeating: Int.max, count: minutes)
            var inSet = [[Bool]](repeating: [Bool](repeating: false, count: sources.count), count: minutes)
            for sample in samples where track.contains(sample.value) {
                let first = Int((sample.startDate.timestamp - base) / minute)
                let last = Int((sample.endDate.timestamp - base) / minute)
                let rank = priority.firstIndex(of: sample.source.name)!
                for covered in first..<max(first, last) {
                    best[covered] = min(best[covered], rank)
                    if values.contains(sample.value) { inSet[covered][rank] = true }
                }
            }
            let intervalMinutes = hours * 60
            for interval in 0..<(minutes / intervalMinutes) {
                let first = interval * intervalMinutes
                let range = Int64(first)..<Int64(first + intervalMinutes)
                var merged = 0
                var bySource = [String: Int]()
                for covered in first..<(first + intervalMinutes) {
                    if best[covered] != Int.max && inSet[covered][best[covered]] { merged += 1 }
                    for rank in priority.indices where inSet[covered][rank] { bySource[priority[rank], default: 0] += 1 }
                }
                let starting = samples.filter {
                    values.contains($0.value) && range.contains(($0.startDate.timestamp - base) / 60_000_000)
                }
                let statistics = try #require(collection.statistics(for: Date(timestamp: base + Int64(first) * 60_000_000)))
                #expect((statistics.duration()?.value ?? 0) == Double(merged * 60), "interval \(interval)")
                #expect((statistics.count() ?? 0) == starting.count, "interval \(interval)")
                for source in sources {
                    let expected = Double(bySource[source, default: 0] * 60)
                    #expect((statistics.duration(for: Source(name: source))?.value ?? 0) == expected, "interval \(interval) \(source)")
                    #expect((statistics.count(for: Source(name: source)) ?? 0) == starting.filter { $0.source.name == source }.count)
                }
            }
        }
    }
}
