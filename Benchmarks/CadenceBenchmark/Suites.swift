//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// A benchmark that could not run as intended (a query returned something impossible, a store
/// was not where it should be).
struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
}

/// Every measurement over one generated profile at one size: ingest, size on disk, open time and
/// the queries that profile is meant for.
///
/// The dense profile (heart rate every 5 s) carries the heart-rate collection queries, the
/// statistics query, the one-day sample query and the anchored query; the realistic profile
/// (overlapping iPhone and Watch steps) carries the daily step sum with proration and source merge.
struct ProfileSuite {
    let profile: SyntheticProfile
    let size: Int
    let options: BenchmarkOptions
    /// The directory this suite's store lives in (created and deleted by the caller).
    let workDirectory: String
    let log: (String) -> Void

    /// Batches handed to each `save` during ingest.
    static let batchSize = 65_536
    /// Samples appended before the anchored query.
    static let appendedSamples = 1_000

    var label: String { sizeLabel(size) }
    private var storePath: String { workDirectory + "/\(profile.rawValue)-\(label).cadence" }
    private var parallelism: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// Runs the suite; the store is deleted afterwards.
    func run() throws -> [BenchmarkResult] {
        defer { try? FileManager.default.removeItem(atPath: storePath) }
        var results = try measureIngest()
        results += try measureCSVImport()
        let info = try HealthStore.open(at: storePath, options: .readOnly).info()
        results += try measureSize(info)
        if profile == .realistic && selects("explicitUUIDs") { results.append(try measureExplicitUUIDs()) }
        if selects("store.open") { results.append(try measureOpen(info)) }
        let store = try HealthStore.open(at: storePath)
        defer { try? store.close() }
        switch profile {
        case .dense:
            results += try measureHeartRateQueries(store, info: info)
        case .realistic:
            results += try measureStepQueries(store, info: info)
        }
        return results.filter { options.selects($0.name) }
    }

    /// Whether the figure `prefix.<label>` of this suite is to be measured.
    private func selects(_ prefix: String) -> Bool { options.selects("\(prefix).\(label)") }

    // MARK: Ingest

    /// Saves the generated data into a new durable store, batch by batch (each save fsyncs the
    /// write-ahead log), and closes it (the final flush writes the remaining chunks).
    ///
    /// - Returns: The ingest figure, and for the huge suite the process's peak memory after it;
    ///   nothing when the ingest figure is not selected (the store is then built once, untimed).
    private func measureIngest() throws -> [BenchmarkResult] {
        let timed = selects("ingest.\(profile.rawValue)")
        let huge = options.isHuge(size)
        let data = SyntheticHealthData(profile: profile, seed: options.seed, size: .samples(size))
        let fileManager = FileManager.default
        let timing: Timing
        let note: String
        var sampleCount = 0
        if size <= BenchmarkOptions.inMemoryGenerationLimit && !huge {
            log("  generating \(label) \(profile.rawValue) samples into memory")
            let batches = try data.batches(batchSize: Self.batchSize)
            sampleCount = batches.reduce(0) { $0 + $1.count }
            log(timed ? "  ingest: 1 warm-up + \(options.runs) runs" : "  ingest: once, untimed")
            let ingest = {
                try? fileManager.removeItem(atPath: storePath)
                let store = try HealthStore.open(at: storePath)
                for batch in batches { try store.save(batch) }
                try store.close()
            }
            // Untimed, the ingest stays outside `Stopwatch`, whose runs alone the instruction-count
            // gate counts (Benchmarks/gate).
            if timed {
                timing = try Stopwatch.measure(runs: options.runs) { _ in try ingest() }
            } else {
                try ingest()
                timing = Timing(seconds: [])
            }
            note = "open + save of \(sizeLabel(Self.batchSize))-sample batches (log fsync'd per save) + close; generation not timed"
        } else {
            log("  ingest while generating: 1 run, no warm-up")
            try? fileManager.removeItem(atPath: storePath)
            timing = try Stopwatch.measure(runs: 1, warmUp: 0) { _ in
                let store = try HealthStore.open(at: storePath)
                try data.generate(batchSize: Self.batchSize) { batch in
                    sampleCount += batch.count
                    try store.save(batch)
                }
                try store.close()
            }
            note = "ingested while generating (a store too large to pre-generate in memory must be), generation "
                + "INCLUDED in the timing; 1 run"
        }
        guard timed else { return [] }
        var results = [BenchmarkResult(
            name: "ingest.\(profile.rawValue).\(label)", kind: .throughput, profile: profile.rawValue,
            storeSamples: sampleCount, samples: sampleCount, value: Double(sampleCount) / timing.median,
            timing: timing, target: huge ? .hugeIngest : .ingest, note: note)]
        if huge {
            results.append(BenchmarkResult(
                name: "memory.peakResident.ingest.\(profile.rawValue).\(label)", kind: .memory, profile: profile.rawValue,
                storeSamples: sampleCount, samples: sampleCount, value: Double(peakResidentBytes()),
                target: .hugeIngestMemory,
                note: "getrusage's peak resident set size of the whole cadence-bench process, after the ingest "
                    + "(earlier suites of this run included)"))
        }
        return results
    }

    // MARK: Size

    /// Chunk bytes per sample (the storage issue's figure), per type, and the whole directory's.
    private func measureSize(_ info: StoreInfo) throws -> [BenchmarkResult] {
        guard info.types.allSatisfy({ $0.unflushedSamples == 0 }), info.totalSamples > 0 else {
            throw BenchmarkFailure("the closed store \(storePath) still has unflushed samples or none at all")
        }
        let target: Target = profile == .dense ? .denseBytesPerSample : .realisticBytesPerSample
        var results = [BenchmarkResult(
            name: "storage.bytesPerSample.\(profile.rawValue).\(label)", kind: .size, profile: profile.rawValue,
            storeSamples: info.totalSamples, samples: info.totalSamples,
            value: Double(info.totalChunkBytes) / Double(info.totalSamples), target: target,
            note: "chunk files only, from info(); \(info.totalChunkBytes) bytes; no explicit UUIDs in generated data")]
        if info.types.count > 1 {
            for type in info.types {
                results.append(BenchmarkResult(
                    name: "storage.bytesPerSample.\(profile.rawValue).\(shortName(type.identifier)).\(label)",
                    kind: .size, profile: profile.rawValue, storeSamples: info.totalSamples, samples: type.samples,
                    value: type.bytesPerSample ?? .nan,
                    note: "\(type.samples) samples in \(type.chunks) chunks"))
            }
        }
        let directoryBytes = try directorySize(storePath)
        results.append(BenchmarkResult(
            name: "storage.directoryBytesPerSample.\(profile.rawValue).\(label)", kind: .size, profile: profile.rawValue,
            storeSamples: info.totalSamples, samples: info.totalSamples,
            value: Double(directoryBytes) / Double(info.totalSamples),
            note: "every file in the store directory (chunks, manifest, log, lock)"))
        return results
    }

    private func directorySize(_ path: String) throws -> Int {
        let fileManager = FileManager.default
        var total = 0
        for name in try fileManager.subpathsOfDirectory(atPath: path) {
            let attributes = try fileManager.attributesOfItem(atPath: path + "/" + name)
            if (attributes[.type] as? FileAttributeType) == .typeRegular {
                total += (attributes[.size] as? NSNumber)?.intValue ?? 0
            }
        }
        return total
    }

    // MARK: Open

    /// Opening the store for writing (lock, manifest, empty log); closing is not timed.
    private func measureOpen(_ info: StoreInfo) throws -> BenchmarkResult {
        var opened: HealthStore?
        let timing = try Stopwatch.measure(runs: options.runs, setUp: { _ in
            try opened?.close()
            opened = nil
        }) { _ in
            opened = try HealthStore.open(at: storePath)
        }
        try opened?.close()
        return BenchmarkResult(name: "store.open.\(profile.rawValue).\(label)", kind: .latency, profile: profile.rawValue,
                               storeSamples: info.totalSamples, samples: info.totalSamples, value: timing.median,
                               timing: timing, target: .storeOpen, note: "read-write open of a closed store")
    }

    // MARK: Heart rate (dense profile)

    private func measureHeartRateQueries(_ store: HealthStore, info: StoreInfo) throws -> [BenchmarkResult] {
        let heartRate = QuantityType.heartRate
        let count = samples(of: heartRate, in: info)
        let calendar = try Self.berlinCalendar()
        let anchor = try Self.anchor(in: calendar)
        let discrete: StatisticsOptions = [.discreteAverage, .discreteMin, .discreteMax]
        let tenMillionOrMore = size >= 10_000_000
        let huge = options.isHuge(size)
        var results: [BenchmarkResult] = []

        let hourlyTarget: Target? = size == 100_000_000 ? .hourlyHeartRateAt100M : tenMillionOrMore ? .hourlyHeartRate : nil
        let everyInterval: [(name: String, components: IntervalComponents, target: Target?)] = [
            ("daily", .days(1), tenMillionOrMore ? .dailyHeartRate : nil),
            ("hourly", .hours(1), hourlyTarget),
            ("fiveMinute", .minutes(5), size == 100_000_000 ? .fiveMinuteHeartRateAt100M : nil),
            // 8.3 M intervals at 100 M samples: measured where the comparison runs, not above.
            ("oneMinute", .minutes(1), nil),
            ("monthly", .months(1), nil),
            ("yearly", .years(1), nil),
        ]
        // The huge suite asks what should not grow with the store: whole days and hours.
        let intervals = huge
            ? [("daily", .days(1), Target.dailyHeartRateAt1B), ("hourly", .hours(1), Target.hourlyHeartRateAt1B)]
            : everyInterval.filter { $0.name != "oneMinute" || size <= BenchmarkOptions.inMemoryGenerationLimit }
        for interval in intervals where selects("statisticsCollection.\(interval.name).heartRate") {
            let query = try StatisticsCollectionQuery(quantityType: heartRate, options: discrete, anchorDate: anchor,
                                                      intervalComponents: interval.components, calendar: calendar)
            results.append(try measureCollection(
                store, query, name: "statisticsCollection.\(interval.name).heartRate.\(label)", samples: count,
                target: interval.target, note: "avg/min/max, Europe/Berlin, anchor 03:00 local"))
        }

        if selects("statisticsCollection.daily.heartRate.afterOpen") {
            results.append(try measureDailyAfterOpen(count: count, calendar: calendar, anchor: anchor))
        }

        if !huge && selects("format.csv.fiveMinute.heartRate") {
            results.append(try measureCSVFormatting(store, calendar: calendar, anchor: anchor))
        }

        if selects("statistics.all.heartRate") {
            let everything = try StatisticsQuery(quantityType: heartRate, options: discrete)
            let statisticsTiming = try Stopwatch.measure(runs: options.runs) { _ in
                blackHole(try store.execute(everything))
            }
            results.append(BenchmarkResult(
                name: "statistics.all.heartRate.\(label)", kind: .throughput, profile: profile.rawValue,
                storeSamples: info.totalSamples, samples: count, value: Double(count) / statisticsTiming.median,
                timing: statisticsTiming, note: "avg/min/max over every sample"))
        }

        guard !huge else { return results }

        if selects("sampleQuery.oneDay.heartRate") {
            results.append(try measureOneDaySampleQuery(store, info: info, calendar: calendar))
        }

        // Hourly and daily intervals contain whole blocks (answered from summaries); five-minute
        // intervals make every block be decoded, which is the work the parallel speed-up is about.
        if selects("speedup.fiveMinute.heartRate") {
            let fiveMinute = try StatisticsCollectionQuery(quantityType: heartRate, options: discrete, anchorDate: anchor,
                                                           intervalComponents: .minutes(5), calendar: calendar)
            results.append(try measureSpeedup(store, fiveMinute, name: "speedup.fiveMinute.heartRate.\(label)", samples: count))
        }

        if let first = info.types.first(where: { $0.identifier == heartRate.identifier })?.firstStart,
           let last = info.types.first(where: { $0.identifier == heartRate.identifier })?.lastEnd {
            // Whole days around the data, as a person would ask for them.
            let day = { (date: Date) in String(formatRFC3339(date.timestamp, timeZone: calendar.timeZone).prefix(10)) }
            let commandLine = CommandLineSuite(storePath: storePath, label: label, profile: profile.rawValue,
                                               storeSamples: info.totalSamples, options: options, log: log)
            results += try commandLine.run(from: day(first), to: day(last.addingTimeInterval(86_400)))
        }

        if selects("save.\(Self.appendedSamples).heartRate") || selects("anchoredObjectQuery.after\(Self.appendedSamples).heartRate") {
            results += try measureAnchoredQuery(store, info: info)
        }
        return results
    }

    /// A sample query for one local day in the middle of the data.
    private func measureOneDaySampleQuery(_ store: HealthStore, info: StoreInfo, calendar: Calendar) throws -> BenchmarkResult {
        guard let type = info.types.first(where: { $0.identifier == QuantityType.heartRate.identifier }),
              let first = type.firstStart, let last = type.lastEnd else {
            throw BenchmarkFailure("the store has no heart rate samples")
        }
        let middle = first.addingTimeInterval(last.timeIntervalSince(first) / 2)
        let dayStart = calendar.startOfDay(for: middle)
        guard let dayEnd = calendar.date(byAdding: .day, value: 1, to: dayStart) else {
            throw BenchmarkFailure("no day after \(dayStart)")
        }
        let query = SampleQuery(quantityType: .heartRate, predicate: .samples(start: dayStart, end: dayEnd))
        var returned = 0
        let timing = try Stopwatch.measure(runs: options.runs) { _ in
            let samples = try store.execute(query)
            returned = samples.count
            blackHole(samples)
        }
        guard returned > 0 else { throw BenchmarkFailure("the one-day sample query returned nothing") }
        return BenchmarkResult(name: "sampleQuery.oneDay.heartRate.\(label)", kind: .latency, profile: profile.rawValue,
                               storeSamples: info.totalSamples, samples: returned, value: timing.median, timing: timing,
                               note: "\(returned) samples of one Europe/Berlin day, as [QuantitySample]")
    }

    /// Appends 1,000 heart-rate samples after the data (one durable save), then asks an anchored
    /// query for what changed since just before; each run appends new samples.
    private func measureAnchoredQuery(_ store: HealthStore, info: StoreInfo) throws -> [BenchmarkResult] {
        guard let last = info.types.first(where: { $0.identifier == QuantityType.heartRate.identifier })?.lastEnd else {
            throw BenchmarkFailure("the store has no heart rate samples")
        }
        let provenance = SyntheticHealthData.watchProvenance
        var nextStart = last.timestamp + 5_000_000
        var saveSeconds: [Double] = []
        var anchor = QueryAnchor(storeIdentifier: store.identifier, sequence: 0)
        var returned: [Int] = []
        let timing = try Stopwatch.measure(runs: options.runs, setUp: { run in
            var batch = QuantitySampleBatch(type: .heartRate, capacity: Self.appendedSamples)
            let index = batch.addProvenance(provenance)
            for offset in 0..<Self.appendedSamples {
                try batch.append(startTimestamp: nextStart, endTimestamp: nextStart,
                                 value: Double(60 + offset % 40), provenanceIndex: index)
                nextStart += 5_000_000
            }
            anchor = QueryAnchor(storeIdentifier: store.identifier, sequence: try store.info().lastSequence)
            let seconds = try Stopwatch.time { try store.save(batch) }
            if run >= 1 { saveSeconds.append(seconds) }
        }) { run in
            let result = try store.execute(AnchoredObjectQuery(quantityType: .heartRate, anchor: anchor))
            if run >= 1 { returned.append(result.samples.count) }
            blackHole(result)
        }
        guard returned.allSatisfy({ $0 == Self.appendedSamples }) else {
            throw BenchmarkFailure("the anchored query returned \(returned) samples, not \(Self.appendedSamples) each time")
        }
        let saveTiming = Timing(seconds: saveSeconds)
        return [
            BenchmarkResult(name: "save.\(Self.appendedSamples).heartRate.\(label)", kind: .latency,
                            profile: profile.rawValue, storeSamples: info.totalSamples, samples: Self.appendedSamples,
                            value: saveTiming.median, timing: saveTiming, note: "one durable save (log fsync)"),
            BenchmarkResult(name: "anchoredObjectQuery.after\(Self.appendedSamples).heartRate.\(label)", kind: .latency,
                            profile: profile.rawValue, storeSamples: info.totalSamples, samples: Self.appendedSamples,
                            value: timing.median, timing: timing,
                            note: "changes since the anchor taken before the save (unflushed head)"),
        ]
    }

    // MARK: Steps (realistic profile)

    private func measureStepQueries(_ store: HealthStore, info: StoreInfo) throws -> [BenchmarkResult] {
        let steps = QuantityType.stepCount
        let count = samples(of: steps, in: info)
        let calendar = try Self.berlinCalendar()
        let anchor = try Self.anchor(in: calendar)
        let note = "sum with proration, iPhone + Watch merged by source rank"
        let daily = try StatisticsCollectionQuery(quantityType: steps, options: .cumulativeSum, anchorDate: anchor,
                                                  intervalComponents: .days(1), calendar: calendar)
        var results: [BenchmarkResult] = []
        if selects("statisticsCollection.daily.stepCount.merged") {
            results.append(try measureCollection(store, daily, name: "statisticsCollection.daily.stepCount.merged.\(label)",
                                                 samples: count, target: nil, note: note))
        }

        if selects("statistics.all.stepCount.merged") {
            let everything = try StatisticsQuery(quantityType: steps, options: .cumulativeSum)
            let timing = try Stopwatch.measure(runs: options.runs) { _ in blackHole(try store.execute(everything)) }
            results.append(BenchmarkResult(
                name: "statistics.all.stepCount.merged.\(label)", kind: .throughput, profile: profile.rawValue,
                storeSamples: info.totalSamples, samples: count, value: Double(count) / timing.median, timing: timing,
                note: "sum over every sample, sources merged"))
        }

        if selects("speedup.daily.stepCount.merged") {
            results.append(try measureSpeedup(store, daily, name: "speedup.daily.stepCount.merged.\(label)", samples: count))
        }
        return results
    }

    // MARK: Shared

    private func measureCollection(_ store: HealthStore, _ query: StatisticsCollectionQuery, name: String, samples: Int,
                                   target: Target?, note: String) throws -> BenchmarkResult {
        var intervals = 0
        let timing = try Stopwatch.measure(runs: options.runs) { _ in
            let collection = try store.execute(query)
            intervals = collection.statistics().count
            blackHole(collection)
        }
        guard intervals > 0 else { throw BenchmarkFailure("\(name) produced no statistics") }
        let perInterval = String(format: "%.0f ns per interval", timing.median / Double(intervals) * 1e9)
        return BenchmarkResult(name: name, kind: .throughput, profile: profile.rawValue, storeSamples: size,
                               samples: samples, value: Double(samples) / timing.median, timing: timing,
                               target: target, note: "\(note); \(intervals) intervals (statistics() included), \(perInterval)")
    }

    /// Opening the store read-only and its first daily query: every chunk file is read and its
    /// summaries decoded (the files themselves in the page cache), as a batch job or the command
    /// line pays it on each run; the stores are released untimed.
    private func measureDailyAfterOpen(count: Int, calendar: Calendar, anchor: Date) throws -> BenchmarkResult {
        let query = try StatisticsCollectionQuery(quantityType: .heartRate, options: [.discreteAverage, .discreteMin, .discreteMax],
                                                  anchorDate: anchor, intervalComponents: .days(1), calendar: calendar)
        var opened: HealthStore?
        var intervals = 0
        let timing = try Stopwatch.measure(runs: options.runs, setUp: { _ in opened = nil }) { _ in
            let store = try HealthStore.open(at: storePath, options: .readOnly)
            intervals = try store.execute(query).statistics().count
            opened = store
        }
        blackHole(opened)
        guard intervals > 0 else { throw BenchmarkFailure("the daily query after opening produced no statistics") }
        return BenchmarkResult(name: "statisticsCollection.daily.heartRate.afterOpen.\(label)", kind: .latency,
                               profile: profile.rawValue, storeSamples: size, samples: count, value: timing.median,
                               timing: timing, note: "read-only open + the first daily avg/min/max query (\(intervals) intervals), "
                                   + "chunk files in the page cache but not yet read by the store")
    }

    /// The same collection query with 1 worker and with one per core.
    private func measureSpeedup(_ store: HealthStore, _ query: StatisticsCollectionQuery, name: String,
                                samples: Int) throws -> BenchmarkResult {
        let serial = try Stopwatch.measure(runs: options.runs) { _ in
            blackHole(try CollectionPlan(query, snapshot: store.snapshot()).execute(parallelism: 1))
        }
        let parallel = try Stopwatch.measure(runs: options.runs) { [parallelism] _ in
            blackHole(try CollectionPlan(query, snapshot: store.snapshot()).execute(parallelism: parallelism))
        }
        return BenchmarkResult(
            name: name, kind: .speedup, profile: profile.rawValue, storeSamples: size, samples: samples,
            value: serial.median / parallel.median, timing: parallel, serialTiming: serial, target: .parallelSpeedup,
            note: String(format: "1 worker %.2f ms vs %d workers %.2f ms", serial.median * 1e3, parallelism,
                         parallel.median * 1e3))
    }

    private func samples(of type: QuantityType, in info: StoreInfo) -> Int {
        info.types.first { $0.identifier == type.identifier }?.samples ?? 0
    }

    private func shortName(_ identifier: String) -> String {
        guard identifier.hasPrefix(QuantityType.identifierPrefix) else { return identifier }
        let rest = identifier.dropFirst(QuantityType.identifierPrefix.count)
        return rest.prefix(1).lowercased() + rest.dropFirst()
    }

    /// A Gregorian calendar in Europe/Berlin.
    static func berlinCalendar() throws -> Calendar {
        guard let zone = TimeZone(identifier: "Europe/Berlin") else {
            throw BenchmarkFailure("the time zone Europe/Berlin is not available")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    /// 2024-01-01 03:00 local time, the anchor of every collection query.
    static func anchor(in calendar: Calendar) throws -> Date {
        guard let date = calendar.date(from: DateComponents(year: 2024, month: 1, day: 1, hour: 3)) else {
            throw BenchmarkFailure("no anchor date in \(calendar.timeZone.identifier)")
        }
        return date
    }
}
