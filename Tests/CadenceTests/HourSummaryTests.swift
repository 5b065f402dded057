//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// Hour summaries (`HourSummaries.swift`): collections answered hour by hour where a block holds
/// several hours agree with the naive reference, and the section is checked like every other.
@Suite("Hour summaries")
struct HourSummaryTests {
    static let sources = [
        Provenance(source: Source(name: "Watch")), Provenance(source: Source(name: "iPhone")),
        Provenance(source: Source(name: "Ring")),
    ]

    /// Dense hours (tens to thousands of samples, most inside their hour, some crossing its end,
    /// a few hours long) from `sourceCount` sources over `hours` hours from `base`, saved in
    /// batches (two swapped, so chunks overlap) into a store of small chunks whose last saves stay
    /// unflushed, with one source's samples deleted over 20 minutes. Returns the survivors.
    static func makeStore(type: QuantityType, seed: UInt64, base: Int64, hours: Int = 30,
                          sourceCount: Int) throws -> (HealthStore, [ReferenceSample]) {
        var random = TestRandom(seed: seed)
        let hour = HourSummaries.hour
        var samples: [ReferenceSample] = []
        var userEntered: [Bool] = []
        for index in 0..<hours {
            let hourStart = base + Int64(index) * hour
            let density = [0, 40, 300, 700, 1_600][Int.random(in: 0..<5, using: &random)]
            for source in 0..<sourceCount {
                let count = density / sourceCount
                for row in 0..<count {
                    // Distinct starts (whole milliseconds, apart for each source): no two samples are one.
                    let start = hourStart + (Int64(row) * (3_600_000 / Int64(count)) + Int64(source)) * 1_000
                    let room = hourStart + hour - start
                    var length = Bool.random(using: &random) ? 0 : min(room, Int64.random(in: 1...5, using: &random) * 1_000_000)
                    // The last sample of some hours crosses into the next, or lasts hours.
                    if row == count - 1 {
                        let kind = Int.random(in: 0..<12, using: &random)
                        if kind == 0 { length = room + Int64.random(in: 1...1_800, using: &random) * 1_000_000 }
                        if kind == 1 { length = Int64.random(in: 2...5, using: &random) * hour }
                    }
                    let value = type.aggregationStyle == .cumulative ? Double(Int.random(in: 0...40, using: &random))
                        : Double(Int.random(in: 400...1_900, using: &random)) / 10
                    samples.append(ReferenceSample(start: start, end: start + length, value: value,
                                                   source: sources[source].source.name, rank: 0, sequence: 0))
                    // A cumulative type's samples are all of one rank, so that its sums are not merged.
                    userEntered.append(type.aggregationStyle.isDiscrete && Int.random(in: 0..<300, using: &random) == 0)
                }
            }
        }
        let store = HealthStore.inMemory(chunkCapacity: 2_500, flushThreshold: 3_000)
        var saved = try store.saveInOverlappingBatches(samples, type: type, sources: sources, sourceCount: sourceCount,
                                                       batchSizes: 300...2_500, using: &random,
                                                       metadata: { userEntered[$0] ? [MetadataKey.wasUserEntered: "1"] : [:] })
        let lower = base + Int64.random(in: 0..<Int64(hours), using: &random) * hour + 600_000_000
        try store.deleteWatchSamples(of: type, startingIn: lower..<lower + 1_200_000_000, from: &saved)
        return (store, saved)
    }

    /// The spring change in London and Berlin (31 March 2024, 01:00 UTC), and the autumn change
    /// in New York (3 November 2024, 06:00 UTC), each inside the stored span.
    static let bases: [Int64] = [1_711_821_600_000_000, 1_730_592_000_000_000]  // 2024-03-30T18:00Z, 2024-11-03T00:00Z
    static let zones = ["UTC", "Europe/London", "America/New_York", "Europe/Berlin", "Asia/Kolkata", "Asia/Kathmandu"]

    @Test("Collections over blocks answered hour by hour agree with the reference, in every zone and interval",
          arguments: [(QuantityType.heartRate, UInt64(1), 3), (.heartRate, UInt64(2), 2), (.stepCount, UInt64(3), 1),
                      (.bodyMass, UInt64(4), 2)])
    func collections(type: QuantityType, seed: UInt64, sourceCount: Int) throws {
        let base = Self.bases[Int(seed) % Self.bases.count]
        let (store, samples) = try Self.makeStore(type: type, seed: seed, base: base, sourceCount: sourceCount)
        var random = TestRandom(seed: seed &* 7_919)
        let intervals: [IntervalComponents] = [.hours(1), .hours(2), .minutes(30), .days(1), .weeks(1), .months(1)]
        let discrete = type.aggregationStyle.isDiscrete
        let allOptions: StatisticsOptions = discrete ? [.discreteAverage, .discreteMin, .discreteMax, .mostRecent]
            : [.cumulativeSum, .mostRecent]
        for round in 0..<18 {
            let components = intervals[round % intervals.count]
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = try timeZone(named: Self.zones[Int.random(in: 0..<Self.zones.count, using: &random)])
            let minutes = round % 4 == 3 ? Int64.random(in: 1..<60, using: &random) * 60_000_000 : 0
            let anchor = Date(timestamp: base + Int64.random(in: -40...40, using: &random) * 86_400_000_000
                              + Int64.random(in: 0..<24, using: &random) * HourSummaries.hour + minutes)
            let lower = base + Int64.random(in: 0..<(20 * 3_600), using: &random) * 1_000_000
            let upper = lower + Int64.random(in: 1...(12 * 3_600), using: &random) * 1_000_000
            let strictStart = Bool.random(using: &random)
            let strictEnd = Bool.random(using: &random)
            let useDates = round % 3 == 1
            let sourceFilter: Set<String>? = round % 5 == 2 ? ["iPhone", "Ring"] : nil
            var predicate = SamplePredicate.all
            if useDates {
                var dateOptions: SamplePredicate.DateOptions = []
                if strictStart { dateOptions.insert(.strictStartDate) }
                if strictEnd { dateOptions.insert(.strictEndDate) }
                predicate = .samples(start: Date(timestamp: lower), end: Date(timestamp: upper), options: dateOptions)
            }
            if let sourceFilter { predicate = predicate && .sources(named: sourceFilter) }
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
            for statistics in collection.statistics() {
                let context = Comment(rawValue: "seed \(seed) round \(round) \(components) \(calendar.timeZone.identifier) \(statistics.startDate)")
                expectAgreesWithReference(statistics, samples: selected, type: type, options: options,
                                          sources: Array(Self.sources.prefix(sourceCount)), context: context)
            }
        }
    }

    @Test("Hourly intervals on whole UTC hours answer blocks of several hours from their hour summaries; on half hours fewer")
    func blocksAnsweredByHours() throws {
        let (store, _) = try Self.makeStore(type: .heartRate, seed: 7, base: Self.bases[0], sourceCount: 1)
        let snapshot = store.snapshot()
        let type = try #require(snapshot.types[QuantityType.heartRate.identifier])
        let entries = try type.chunks.map { try $0.file().hourSummaries?.count ?? 0 }.reduce(0, +)
        #expect(entries > 0)
        func hourAnswered(_ zone: String, anchor: Int64) throws -> Int {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = try timeZone(named: zone)
            let query = try StatisticsCollectionQuery(quantityType: .heartRate, options: .discreteAverage,
                                                      anchorDate: Date(timestamp: anchor), intervalComponents: .hours(1),
                                                      calendar: calendar)
            let plan = try CollectionPlan(query, snapshot: snapshot)
            let aggregator = Aggregator(snapshot: snapshot, type: .heartRate, predicate: .all, options: .discreteAverage,
                                        edges: plan.edges.edges, sourcePriority: nil)
            return try type.scan(aggregator.plan(for: type, separate: false), parallelism: 1) { run in
                var count = 0
                try run.forEach { portion in count += portion.blocks.filter(\.isAnsweredByHours).count }
                return count
            }.reduce(0, +)
        }
        let wholeHours = try hourAnswered("Europe/London", anchor: Self.bases[0])
        #expect(wholeHours > 0)
        // Anchored at midnight in Asia/Kolkata (18:30 UTC), every edge is on the half hour: an
        // entry answers only where its samples keep to one side of it (an hour's first samples).
        let halfHours = try hourAnswered("Asia/Kolkata", anchor: Self.bases[0] + 1_800_000_000)
        #expect(halfHours < wholeHours, "\(halfHours) of \(wholeHours)")
    }

    /// A chunk file with hour summaries, and where they begin.
    static func chunkWithHourSummaries() throws -> (bytes: [UInt8], sectionStart: Int, entries: Int) {
        let (store, _) = try makeStore(type: .heartRate, seed: 9, base: bases[0], sourceCount: 2)
        let type = try #require(store.snapshot().types[QuantityType.heartRate.identifier])
        for chunk in type.chunks {
            let file = try chunk.file()
            guard let hours = file.hourSummaries else { continue }
            let bytes = try ChunkFile.encode(try file.decodeAllColumns(readingPayloads: true), typeIdentifier: file.typeIdentifier,
                                             style: QuantityType.heartRate.aggregationStyle).bytes
            return (bytes, bytes.count - 9 - hours.count * HourSummaries.entrySize, hours.count)
        }
        throw CadenceError(.invalidQuery, "no chunk has hour summaries")
    }

    @Test("Every flipped bit of the hour summaries section is damage naming the file, never data")
    func bitFlips() throws {
        let (bytes, start, entries) = try Self.chunkWithHourSummaries()
        let path = "/s/chunk-0000000001.cdc"
        #expect(try ChunkFile(bytes: bytes, path: path).hourSummaries?.count == entries)
        #expect(bytes[start] == HourSummaries.tag)
        for bit in stride(from: start * 8, to: bytes.count * 8, by: 1) {
            var damaged = bytes
            damaged[bit / 8] ^= UInt8(1 << (bit % 8))
            let error = expectCadenceError(.corruptFile) { _ = try ChunkFile(bytes: damaged, path: path) }
            #expect(error?.path == path)
        }
        // Cut short or followed by garbage, it is damage too.
        _ = expectCadenceError(.corruptFile) { _ = try ChunkFile(bytes: Array(bytes.dropLast(5)), path: path) }
        _ = expectCadenceError(.corruptFile) { _ = try ChunkFile(bytes: bytes + [0], path: path) }
    }

    @Test("A chunk whose blocks each hold one hour of one source has no hour summaries, and is laid out as before")
    func absentWhenBlocksAreHours() throws {
        var batch = QuantitySampleBatch(type: .heartRate)
        _ = batch.addProvenance(Self.sources[0])
        // 720 samples an hour from 00:00 UTC: every block is one hour.
        for row in 0..<(720 * 6) {
            let start = Self.bases[1] + Int64(row) * 5_000_000
            try batch.append(startTimestamp: start, endTimestamp: start, value: 60 + Double(row % 50), provenanceIndex: 0)
        }
        let store = HealthStore.inMemory(chunkCapacity: 100_000, flushThreshold: 100_000)
        try store.save(batch)
        try store.flush()
        let type = try #require(store.snapshot().types[QuantityType.heartRate.identifier])
        let file = try #require(try type.chunks.first?.file())
        #expect(file.blocks.count == 6)
        #expect(file.hourSummaries == nil)
    }

    @Test("Verify reports a chunk whose hour summaries are damaged, and repair drops it")
    func verifyAndRepair() throws {
        let memory = MemoryFileSystem()
        var options = HealthStore.Options()
        options.chunkCapacity = 2_500
        do {
            let store = try HealthStore.open(at: "/s", options: options, fileSystem: memory)
            let (source, _) = try Self.makeStore(type: .heartRate, seed: 9, base: Self.bases[0], sourceCount: 1)
            try store.save(try source.execute(SampleQuery(quantityType: .heartRate)))
            try store.flush()
        }
        var damagedPath: String?
        for name in try memory.contentsOfDirectory("/s") where name.hasPrefix("chunk-") {
            let path = "/s/" + name
            let bytes = try memory.readFile(path)
            guard let hours = try ChunkFile(bytes: bytes, path: path).hourSummaries else { continue }
            var damaged = bytes
            damaged[bytes.count - hours.count * HourSummaries.entrySize / 2] ^= 0x10
            try memory.writeFile(path, damaged)
            damagedPath = path
            break
        }
        let path = try #require(damagedPath)
        let store = try HealthStore.open(at: "/s", options: .readOnly, fileSystem: memory)
        #expect(store.verify().contains { $0.path == path && $0.code == .corruptFile })
        let report = try HealthStore.repair(at: "/s", fileSystem: memory)
        #expect(report.damage.map(\.path).contains(path))
        #expect(try HealthStore.open(at: "/s", options: .readOnly, fileSystem: memory).verify().isEmpty)
    }

    /// What an hour summary entry keeps of a summary.
    static func entryFields(_ summary: SampleSummary) -> [Double] {
        let statistics = summary.statistics
        return [Double(summary.provenances.first ?? 0), Double(summary.count), Double(summary.userEnteredCount)]
            + [summary.minimumStart, summary.maximumStart, summary.maximumEnd, summary.minimumSequence,
               summary.maximumSequence, statistics.mostRecent.end, statistics.mostRecent.start,
               statistics.mostRecent.sequence].map(Double.init)
            + [statistics.valueSum, statistics.weightedSum, statistics.weight, statistics.minimum, statistics.maximum,
               statistics.mostRecent.value]
    }

    @Test("A chunk's hour summaries are its blocks' rows grouped by UTC hour and provenance, as a naive grouping finds them",
          arguments: [UInt64(11), 12, 13])
    func hourGroupsMatchNaiveGrouping(seed: UInt64) throws {
        var random = TestRandom(seed: seed)
        let hour = HourSummaries.hour
        var columns = SampleColumns()
        var start = Self.bases[0]
        // Runs of one, two or three interleaved provenances, a few rows crossing their hour's end
        // (which leaves their block without hour summaries).
        for row in 0..<12_000 {
            // About 720 rows an hour, or 360 (blocks of two hours), with an occasional gap.
            let step = Int64(random.next() % 9 + 1) * Int64((row / 3_000) % 2 + 1)
            start += step * 1_000_000 * (random.next() % 200 == 0 ? 400 : 1)
            let sources = (row / 2_000) % 3 + 1
            let crossing = random.next() % 3_000 == 0
            columns.append(start: start, end: crossing ? start + hour : start, value: Double(random.next() % 100),
                           provenance: UInt32(random.next() % UInt64(sources)), sequence: Int64(row + 1))
        }
        let bytes = try ChunkFile.encode(columns, typeIdentifier: "HKQuantityTypeIdentifierHeartRate", style: .discreteArithmetic).bytes
        let file = try ChunkFile(bytes: bytes, path: "chunk")
        var blocksWithHours = 0
        for (index, rows) in ColumnCodec.blockBoundaries(columns).enumerated() {
            // The reference: every row's (hour, provenance) group, in that order.
            var groups: [Int64: [UInt32: [Int]]] = [:]
            var crosses = false
            for row in rows {
                let hourIndex = TimestampArithmetic.floorDivide(columns.start[row], hour)
                if columns.end[row] > (hourIndex + 1) * hour { crosses = true }
                groups[hourIndex, default: [:]][columns.provenance[row], default: []].append(row)
            }
            let expected = groups.keys.sorted().flatMap { hourIndex in
                groups[hourIndex, default: [:]].keys.sorted().map { groups[hourIndex]?[$0] ?? [] }
            }
            let written = !crosses && expected.count > 1 && rows.count >= HourSummaries.minimumRowsPerEntry * expected.count
            let read = file.hourSummaries?.summaries(ofBlock: index)
            #expect((read != nil) == written, "block \(index)")
            guard let read else { continue }
            blocksWithHours += 1
            #expect(read.map(Self.entryFields)
                    == expected.map { Self.entryFields(SampleSummary(columns, rows: $0, style: .discreteArithmetic)) })
        }
        #expect(blocksWithHours > 0)
    }
}
