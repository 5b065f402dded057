//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// The fast path (summaries, blocks, parallel kernels, sweeps) against the naive reference of
/// `ReferenceAggregator.swift`, on random data saved across chunks, head batches and deletes.
@Suite("Queries agree with the naive reference")
struct QueryPropertyTests {
    static let watch = Provenance(source: Source(name: "Watch"), device: Device(
        description: "<<HKDevice: 0x1>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10>"))
    static let phone = Provenance(source: Source(name: "iPhone"), device: Device(
        description: "<<HKDevice: 0x2>, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,2, software:17>"))
    static let scale = Provenance(source: Source(name: "Scale"))
    /// Rank keys as <doc:HowCadenceComputes#Merging-sources> orders them for these sources (no priority list).
    static func rank(source: Int, userEntered: Bool) -> Int {
        if userEntered { return 100 + source }
        return [200, 300, 400][source] + source
    }

    /// Random samples of one type over 40 days around the spring DST changes, saved in random
    /// batches into a store with small chunks, with some deleted; returns the survivors.
    static func makeStore(type: QuantityType, seed: UInt64, total: Int = 4_000,
                          chunkCapacity: Int = 1_500) throws -> (HealthStore, [ReferenceSample]) {
        var random = TestRandom(seed: seed)
        let store = HealthStore.inMemory(chunkCapacity: chunkCapacity, flushThreshold: 2_000)
        let base: Int64 = 1_709_251_200_000_000  // 2024-03-01T00:00:00Z
        let span: Int64 = 40 * 86_400_000_000
        var reference: [ReferenceSample] = []
        var sequence: Int64 = 0
        let provenances = [watch, phone, scale]
        var saved = 0
        while saved < total {
            var batch = QuantitySampleBatch(type: type)
            for provenance in provenances { _ = batch.addProvenance(provenance) }
            let size = min(total - saved, Int.random(in: 1...900, using: &random))
            for _ in 0..<size {
                let source = saved < 3 ? saved : Int.random(in: 0..<3, using: &random)
                var start = base + Int64.random(in: 0..<span, using: &random) / 1_000_000 * 1_000_000
                if let previous = reference.last, Int.random(in: 0..<10, using: &random) == 0 { start = previous.start }
                let kind = Int.random(in: 0..<20, using: &random)
                let length: Int64 = kind < 6 ? 0 : kind < 16 ? Int64.random(in: 60...1_800, using: &random)
                    : kind < 19 ? Int64.random(in: 3_600...21_600, using: &random) : Int64.random(in: 86_400...259_200, using: &random)
                let value = type.aggregationStyle == .cumulative ? Double(Int.random(in: 0...500, using: &random))
                    : Double(Int.random(in: 400...1_200, using: &random)) / 10
                let userEntered = Int.random(in: 0..<25, using: &random) == 0
                try batch.append(startTimestamp: start, endTimestamp: start + length * 1_000_000, value: value,
                                 provenanceIndex: source, metadata: userEntered ? [MetadataKey.wasUserEntered: "1"] : [:])
                sequence += 1
                reference.append(ReferenceSample(start: start, end: start + length * 1_000_000, value: value,
                                                 source: provenances[source].source.name,
                                                 rank: rank(source: source, userEntered: userEntered), sequence: sequence))
                saved += 1
            }
            let summary = try store.save(batch)
            // Identical rows are one sample (derived UUIDs): drop the repeats from the reference too.
            if summary.duplicates > 0 {
                var seen = Set<String>()
                reference = reference.filter { seen.insert("\($0.start) \($0.end) \($0.value) \($0.source)").inserted }
                sequence = Int64(reference.count)
                for index in reference.indices { reference[index].sequence = Int64(index + 1) }
            }
        }
        // Delete a random window of one source's samples.
        let lower = base + Int64.random(in: 0..<span, using: &random)
        let upper = lower + 86_400_000_000
        try store.deleteSamples(of: type, matching: .samples(start: Date(timestamp: lower), end: Date(timestamp: upper),
                                                             options: .strictStartDate) && .sources(named: ["iPhone"]))
        reference.removeAll { $0.source == "iPhone" && $0.start >= lower && $0.start < upper }
        return (store, reference)
    }

    static let zones = ["UTC", "America/New_York", "Europe/Berlin", "Australia/Lord_Howe"]

    @Test("Collections agree with the reference for every style, interval, zone and predicate",
          arguments: [(QuantityType.stepCount, UInt64(1)), (.heartRate, UInt64(2)), (.bodyMass, UInt64(3)),
                      (QuantityType.known("environmentalAudioExposure") ?? .heartRate, UInt64(4)), (.stepCount, UInt64(5))])
    func collections(type: QuantityType, seed: UInt64) throws {
        let (store, samples) = try Self.makeStore(type: type, seed: seed)
        var random = TestRandom(seed: seed &* 7919)
        let intervals: [IntervalComponents] = [.minutes(5), .hours(1), .days(1), .weeks(1), .months(1), .years(1)]
        let allOptions: StatisticsOptions = type.aggregationStyle == .cumulative
            ? [.cumulativeSum, .mostRecent, .duration] : [.discreteAverage, .discreteMin, .discreteMax, .mostRecent, .duration]
        for round in 0..<12 {
            let components = intervals[round % intervals.count]
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = try timeZone(named: Self.zones[Int.random(in: 0..<Self.zones.count, using: &random)])
            let anchorOffset = Int64.random(in: -400...400, using: &random) * 86_400_000_000 + Int64.random(in: 0..<24, using: &random) * 3_600_000_000
            let anchor = Date(timestamp: 1_709_251_200_000_000 + anchorOffset)
            let lower = 1_709_251_200_000_000 + Int64.random(in: 0..<(30 * 86_400), using: &random) * 1_000_000
            let upper = lower + Int64.random(in: 1...(10 * 86_400), using: &random) * 1_000_000
            let strictStart = Bool.random(using: &random)
            let strictEnd = Bool.random(using: &random)
            let useDates = round % 3 != 0
            let sourceFilter: Set<String>? = round % 4 == 1 ? ["Watch", "Scale"] : nil
            var predicate = SamplePredicate.all
            if useDates {
                var dateOptions: SamplePredicate.DateOptions = []
                if strictStart { dateOptions.insert(.strictStartDate) }
                if strictEnd { dateOptions.insert(.strictEndDate) }
                predicate = .samples(start: Date(timestamp: lower), end: Date(timestamp: upper), options: dateOptions)
            }
            if let sourceFilter { predicate = predicate && .sources(named: sourceFilter) }
            // A random non-empty subset of the valid options, sometimes with separateBySource.
            var options: StatisticsOptions = []
            for (_, option) in StatisticsOptions.names where allOptions.contains(option) && Bool.random(using: &random) {
                options.insert(option)
            }
            if options.isEmpty { options = allOptions }
            if round % 2 == 0 { options.insert(.separateBySource) }
            let query = try StatisticsCollectionQuery(quantityType: type, quantitySamplePredicate: predicate, options: options,
                                                      anchorDate: anchor, intervalComponents: components, calendar: calendar)
            let collection = try store.execute(query)
            let selected = samples.filter { sample in
                (!useDates || referenceDateMatches(sample, lower: lower, upper: upper, strictStart: strictStart, strictEnd: strictEnd))
                    && (sourceFilter?.contains(sample.source) ?? true)
            }
            // Compare over a window (two days for fine intervals, everything for coarse ones).
            let windowStart = Date(timestamp: components.isFixedLength ? lower : 1_709_251_200_000_000 - 30 * 86_400_000_000)
            let windowEnd = Date(timestamp: components.isFixedLength ? lower + 2 * 86_400_000_000 : 1_709_251_200_000_000 + 90 * 86_400_000_000)
            for statistics in try collection.statistics(from: windowStart, to: windowEnd) {
                let b0 = statistics.startDate.timestamp
                let b1 = statistics.endDate.timestamp
                let expected = ReferenceInterval(samples: selected, start: b0, end: b1, style: type.aggregationStyle)
                let context = Comment(rawValue: "seed \(seed) round \(round) \(components) \(calendar.timeZone.identifier) interval \(statistics.startDate)")
                #expect(statistics.isEmpty == (expected.count == 0), context)
                guard expected.count > 0 else { continue }
                // A value is present exactly when its option was requested (How Cadence computes: Statistics options).
                func wanted<T>(_ option: StatisticsOptions, _ value: T?) -> T? { options.contains(option) ? value : nil }
                if type.aggregationStyle == .cumulative {
                    #expect(nearlyEqual(statistics.sumQuantity()?.value, wanted(.cumulativeSum, expected.mergedSum)), context)
                } else {
                    #expect(nearlyEqual(statistics.averageQuantity()?.value, wanted(.discreteAverage, expected.average)), context)
                    #expect(statistics.minimumQuantity()?.value == wanted(.discreteMin, expected.minimum), context)
                    #expect(statistics.maximumQuantity()?.value == wanted(.discreteMax, expected.maximum), context)
                }
                #expect(statistics.mostRecentQuantity()?.value == wanted(.mostRecent, expected.mostRecent), context)
                #expect(nearlyEqual(statistics.duration()?.value, wanted(.duration, expected.duration)), context)
                if options.contains(.separateBySource) {
                    for source in ["Watch", "iPhone", "Scale"] {
                        let own = ReferenceInterval(samples: selected.filter { $0.source == source }, start: b0, end: b1,
                                                    style: type.aggregationStyle)
                        let actual = type.aggregationStyle == .cumulative
                            ? statistics.sumQuantity(for: Source(name: source))?.value
                            : statistics.averageQuantity(for: Source(name: source))?.value
                        let option: StatisticsOptions = type.aggregationStyle == .cumulative ? .cumulativeSum : .discreteAverage
                        let ownValue = own.count == 0 ? nil : type.aggregationStyle == .cumulative ? own.sum : own.average
                        #expect(nearlyEqual(actual, wanted(option, ownValue)), context)
                        #expect(nearlyEqual(statistics.duration(for: Source(name: source))?.value,
                                            own.count == 0 ? nil : wanted(.duration, own.duration)), context)
                    }
                }
            }
        }
    }

    @Test("A statistics query agrees with the reference over everything", arguments: [UInt64(11), 12])
    func statisticsQuery(seed: UInt64) throws {
        for type in [QuantityType.stepCount, .heartRate] {
            let (store, samples) = try Self.makeStore(type: type, seed: seed, total: 1_200)
            let options: StatisticsOptions = type.aggregationStyle == .cumulative
                ? [.cumulativeSum, .duration, .mostRecent] : [.discreteAverage, .discreteMin, .discreteMax, .duration]
            let result = try store.execute(StatisticsQuery(quantityType: type, options: options))
            let expected = ReferenceInterval(samples: samples, start: .min, end: .max, style: type.aggregationStyle)
            if type.aggregationStyle == .cumulative {
                #expect(nearlyEqual(result.sumQuantity()?.value, expected.mergedSum))
                #expect(result.mostRecentQuantity()?.value == expected.mostRecent)
            } else {
                #expect(nearlyEqual(result.averageQuantity()?.value, expected.average))
                #expect(result.minimumQuantity()?.value == expected.minimum)
            }
            #expect(nearlyEqual(result.duration()?.value, expected.duration))
            #expect(result.startDate.timestamp == samples.map(\.start).min())
            #expect(result.endDate.timestamp == samples.map(\.end).max())
        }
    }
}

/// Every combination of the statistics options valid for each aggregation style, against the reference.
@Suite("Every option combination")
struct OptionCombinationTests {
    @Test("Each valid option subset, with and without separateBySource, matches the reference",
          arguments: [QuantityType.stepCount, .heartRate, .bodyMass])
    func everyCombination(type: QuantityType) throws {
        let (store, samples) = try QueryPropertyTests.makeStore(type: type, seed: 31, total: 600)
        let valid: [StatisticsOptions] = type.aggregationStyle == .cumulative
            ? [.cumulativeSum, .mostRecent, .duration]
            : [.discreteAverage, .discreteMin, .discreteMax, .mostRecent, .duration]
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try timeZone(named: "Europe/Berlin")
        let windowStart = Date(timestamp: 1_709_251_200_000_000 - 5 * 86_400_000_000)
        let windowEnd = Date(timestamp: 1_709_251_200_000_000 + 50 * 86_400_000_000)
        for mask in 0..<(1 << (valid.count + 1)) {
            var options: StatisticsOptions = []
            for (bit, option) in (valid + [.separateBySource]).enumerated() where mask & (1 << bit) != 0 {
                options.insert(option)
            }
            let query = try StatisticsCollectionQuery(quantityType: type, options: options,
                                                      anchorDate: Date(timestamp: 1_709_251_200_000_000),
                                                      intervalComponents: .days(7), calendar: calendar)
            for statistics in try store.execute(query).statistics(from: windowStart, to: windowEnd) {
                let expected = ReferenceInterval(samples: samples, start: statistics.startDate.timestamp,
                                                 end: statistics.endDate.timestamp, style: type.aggregationStyle)
                let context = Comment(rawValue: "\(type.shortIdentifier) options \(options.rawValue) at \(statistics.startDate)")
                #expect(statistics.isEmpty == (expected.count == 0), context)
                guard expected.count > 0 else { continue }
                func wanted<T>(_ option: StatisticsOptions, _ value: T?) -> T? { options.contains(option) ? value : nil }
                #expect(nearlyEqual(statistics.sumQuantity()?.value,
                                    type.aggregationStyle == .cumulative ? wanted(.cumulativeSum, expected.mergedSum) : nil), context)
                #expect(nearlyEqual(statistics.averageQuantity()?.value,
                                    type.aggregationStyle.isDiscrete ? wanted(.discreteAverage, expected.average) : nil), context)
                #expect(statistics.minimumQuantity()?.value == (type.aggregationStyle.isDiscrete ? wanted(.discreteMin, expected.minimum) : nil), context)
                #expect(statistics.maximumQuantity()?.value == (type.aggregationStyle.isDiscrete ? wanted(.discreteMax, expected.maximum) : nil), context)
                #expect(statistics.mostRecentQuantity()?.value == wanted(.mostRecent, expected.mostRecent), context)
                #expect(nearlyEqual(statistics.duration()?.value, wanted(.duration, expected.duration)), context)
                #expect((statistics.sources != nil) == options.contains(.separateBySource), context)
            }
        }
    }
}

/// Chunks split into parts of their blocks, which happens only when there are too few work units
/// for the workers: the parts' partials and gathered rows must add up to the serial results.
@Suite("Chunks split among workers")
struct SplitChunkTests {
    @Test("Split chunks give the serial results and the reference's merged sums", arguments: [UInt64(41), 42])
    func splitChunks(seed: UInt64) throws {
        let (store, samples) = try QueryPropertyTests.makeStore(type: .stepCount, seed: seed, total: 6_000)
        try checkSplit(store: store, samples: samples, seed: seed)
    }

    /// Many small chunks: the scan hands each worker runs of several chunks, so one partial
    /// covers many chunks' intervals (and serially, too).
    @Test("Runs of many chunks give the serial results and the reference's merged sums", arguments: [UInt64(45)])
    func runsOfChunks(seed: UInt64) throws {
        let (store, samples) = try QueryPropertyTests.makeStore(type: .stepCount, seed: seed, total: 6_000, chunkCapacity: 150)
        let chunkCount = try #require(store.snapshot().types[QuantityType.stepCount.identifier]).chunks.count
        #expect(chunkCount > 2 * TypeSnapshot.portionsPerWorker, "\(chunkCount) chunks")
        try checkSplit(store: store, samples: samples, seed: seed)
    }

    @Test("Portions are split into consecutive runs, at most as many as wanted")
    func portionRuns() {
        for count in [0, 1, 5, 16, 17, 40, 1_000] {
            for wanted in [1, 8, 16] {
                let runs = TypeSnapshot.runs(of: count, wanted: wanted)
                #expect(runs.count == min(count, wanted), "\(count) portions, \(wanted) wanted")
                #expect(runs.allSatisfy { !$0.isEmpty })
                #expect(runs.first?.lowerBound ?? 0 == 0)
                #expect(runs.last?.upperBound ?? 0 == count)
                #expect(zip(runs, runs.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
                // Nearly equal: no run longer than another by more than one portion.
                #expect((runs.map(\.count).max() ?? 0) - (runs.map(\.count).min() ?? 0) <= 1)
            }
        }
    }

    /// Chunks in time order: the gathered rows are in order without sorting, so the parts' rows
    /// are copied into place and the running maximum of ends is carried across them.
    @Test("Split chunks saved in time order", arguments: [UInt64(43), 44])
    func splitOrderedChunks(seed: UInt64) throws {
        var random = TestRandom(seed: seed)
        let store = HealthStore.inMemory(chunkCapacity: 1_500, flushThreshold: 2_000)
        let provenances = [QueryPropertyTests.watch, QueryPropertyTests.phone]
        var samples: [ReferenceSample] = []
        var start: Int64 = 1_709_251_200_000_000
        for _ in 0..<10 {
            var batch = QuantitySampleBatch(type: .stepCount)
            for provenance in provenances { _ = batch.addProvenance(provenance) }
            for _ in 0..<600 {
                start += Int64.random(in: 0...1_800, using: &random) * 1_000_000
                let source = Int.random(in: 0..<2, using: &random)
                // Mostly short samples; some last hours and overlap many later ones.
                let length = Int64.random(in: 0..<10, using: &random) == 0
                    ? Int64.random(in: 3_600...43_200, using: &random) : Int64.random(in: 60...900, using: &random)
                let value = Double(Int.random(in: 0...500, using: &random))
                try batch.append(startTimestamp: start, endTimestamp: start + length * 1_000_000, value: value,
                                 provenanceIndex: source)
                samples.append(ReferenceSample(start: start, end: start + length * 1_000_000, value: value,
                                               source: provenances[source].source.name,
                                               rank: QueryPropertyTests.rank(source: source, userEntered: false),
                                               sequence: Int64(samples.count + 1)))
            }
            try store.save(batch)
        }
        try store.flush()
        try checkSplit(store: store, samples: samples, seed: seed)
    }

    /// Runs collections serially and with chunks split for 2 and 3 workers, and compares them with
    /// each other and the merged sums with the reference.
    private func checkSplit(store: HealthStore, samples: [ReferenceSample], seed: UInt64) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try timeZone(named: "Europe/Berlin")
        let base: Int64 = 1_709_251_200_000_000
        let edges = try IntervalEdges(calendar: calendar, anchor: base, components: .days(1),
                                      covering: (base - 86_400_000_000)...(base + 45 * 86_400_000_000)).edges
        let lower = base + 3 * 86_400_000_000
        let upper = base + 20 * 86_400_000_000
        let predicates: [(predicate: SamplePredicate, selects: (ReferenceSample) -> Bool)] = [
            (.all, { _ in true }),
            (.samples(start: Date(timestamp: lower), end: Date(timestamp: upper)) && .sources(named: ["Watch", "iPhone"]), {
                referenceDateMatches($0, lower: lower, upper: upper, strictStart: false, strictEnd: false) && $0.source != "Scale"
            }),
        ]
        let optionSets: [StatisticsOptions] = [[.cumulativeSum], [.cumulativeSum, .duration, .mostRecent, .separateBySource]]
        for (predicate, selects) in predicates {
            for options in optionSets {
                func run(parallelism: Int, mergesInSlices: Bool = false) throws -> AggregationOutput {
                    var aggregator = Aggregator(snapshot: store.snapshot(), type: .stepCount, predicate: predicate,
                                                options: options, edges: edges, sourcePriority: nil)
                    aggregator.parallelism = parallelism
                    aggregator.minimumPartRows = 50
                    aggregator.minimumMergeIntervals = mergesInSlices ? 1 : Int.max
                    return try aggregator.run()
                }
                let serial = try run(parallelism: 1)
                for parallelism in [2, 3] {
                    let split = try run(parallelism: parallelism)
                    let context = Comment(rawValue: "seed \(seed) options \(options.rawValue) parallelism \(parallelism)")
                    // Merging the partials slice by slice on the workers is the one pass, bit for bit.
                    #expect(try run(parallelism: parallelism, mergesInSlices: true).merged == split.merged, context)
                    #expect(split.sourcesSeen == serial.sourcesSeen, context)
                    let splitMeasures = try #require(split.quantity)
                    let serialMeasures = try #require(serial.quantity)
                    for interval in 0..<edges.count - 1 {
                        #expect(split.merged[interval].count == serial.merged[interval].count, context)
                        #expect(nearlyEqual(split.merged[interval].sum, serial.merged[interval].sum), context)
                        #expect(split.merged[interval].mostRecentValue == serial.merged[interval].mostRecentValue, context)
                        #expect(nearlyEqual(splitMeasures.mergedSum?[interval], serialMeasures.mergedSum?[interval]), context)
                        #expect(nearlyEqual(splitMeasures.duration?.merged[interval], serialMeasures.duration?.merged[interval]), context)
                        for source in serial.perSource.indices {
                            #expect(nearlyEqual(split.perSource[source][interval].sum, serial.perSource[source][interval].sum), context)
                        }
                        for source in serialMeasures.duration?.perSource.indices ?? 0..<0 {
                            #expect(nearlyEqual(splitMeasures.duration?.perSource[source][interval],
                                                serialMeasures.duration?.perSource[source][interval]), context)
                        }
                    }
                }
                // The merged sums themselves, against the reference.
                let selected = samples.filter(selects)
                for interval in 0..<edges.count - 1 {
                    let expected = ReferenceInterval(samples: selected, start: edges[interval], end: edges[interval + 1], style: .cumulative)
                    guard expected.count > 0 else { continue }
                    #expect(nearlyEqual(serial.quantity?.mergedSum?[interval] ?? serial.merged[interval].sum, expected.mergedSum),
                            "seed \(seed) interval \(interval)")
                }
            }
        }
    }
}
