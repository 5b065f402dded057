//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// Quantity series figures: the series query and hourly step sums over a store of one-minute
/// step entries held in hour-long series of 60, beside the same entries stored as plain samples
/// in a store of their own (each plain sample its own one entry), measured in the same run.
///
/// Its figures are named `series.…` and measured only when `--only` selects one of them, at each
/// `--samples` size (entries).
struct SeriesSuite {
    let options: BenchmarkOptions
    /// The directory the stores are created in (created and deleted by the caller).
    let workDirectory: String
    let log: (String) -> Void

    /// The first word of every figure's name.
    static let family = "series"
    /// Entries per series sample.
    static let entriesPerSeries = 60

    private static let figures = ["seriesQuery.series", "seriesQuery.plain", "hourlySum.series", "hourlySum.plain"]

    /// Whether any of this suite's figures is selected: only an explicit `--only` selects them.
    var isSelected: Bool {
        !options.only.isEmpty && options.sampleCounts.contains { size in
            Self.figures.contains { options.selects(Self.family + "." + $0 + "." + sizeLabel(size)) }
        }
    }

    /// Builds both stores at each size and measures the selected figures.
    func run() throws -> [BenchmarkResult] {
        try options.sampleCounts.flatMap { try run(size: $0) }
    }

    private func run(size: Int) throws -> [BenchmarkResult] {
        let label = sizeLabel(size)
        let seriesPath = workDirectory + "/series-\(label).cadence"
        let plainPath = workDirectory + "/plain-\(label).cadence"
        defer {
            try? FileManager.default.removeItem(atPath: seriesPath)
            try? FileManager.default.removeItem(atPath: plainPath)
        }
        log("series: \(label) one-minute step entries in series of \(Self.entriesPerSeries), and as plain samples")
        let seriesStore = try HealthStore.open(at: seriesPath)
        let plainStore = try HealthStore.open(at: plainPath)
        defer {
            try? seriesStore.close()
            try? plainStore.close()
        }
        try fill(seriesStore: seriesStore, plainStore: plainStore, entries: size)

        var results: [BenchmarkResult] = []
        for (kind, store) in [("series", seriesStore), ("plain", plainStore)] {
            let queryName = "\(Self.family).seriesQuery.\(kind).\(label)"
            if options.selects(queryName) {
                var listed = 0
                let timing = try Stopwatch.measure(runs: options.runs) { _ in
                    listed = try store.execute(QuantitySeriesSampleQuery(quantityType: .stepCount)).count
                }
                results.append(BenchmarkResult(
                    name: queryName, kind: .throughput, profile: "one-minute steps", storeSamples: size, samples: listed,
                    value: Double(listed) / timing.median, timing: timing,
                    note: "entries listed per second by the series query over the whole store (\(kind == "series" ? "series of \(Self.entriesPerSeries)" : "plain samples, one entry each"))"))
            }
            let sumName = "\(Self.family).hourlySum.\(kind).\(label)"
            if options.selects(sumName) {
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
                let query = try StatisticsCollectionQuery(
                    quantityType: .stepCount, options: .cumulativeSum, anchorDate: Date(timeIntervalSince1970: 0),
                    intervalComponents: .hours(1), calendar: calendar)
                let timing = try Stopwatch.measure(runs: options.runs) { _ in blackHole(try store.execute(query).statistics()) }
                results.append(BenchmarkResult(
                    name: sumName, kind: .throughput, profile: "one-minute steps", storeSamples: size, samples: size,
                    value: Double(size) / timing.median, timing: timing,
                    note: "entries per second summed into hourly step totals (\(kind))"))
            }
        }
        return results
    }

    /// Saves `entries` one-minute step entries from 2024 on, as series in `seriesStore` and as
    /// plain samples in `plainStore`, and flushes both.
    private func fill(seriesStore: HealthStore, plainStore: HealthStore, entries: Int) throws {
        let start = Date(timeIntervalSince1970: 1_704_067_200)
        let source = Source(name: "Watch")
        let perSave = 1_000
        var written = 0
        while written < entries {
            var series: [QuantitySeriesSample] = []
            var plain = QuantitySampleBatch(type: .stepCount, capacity: perSave * Self.entriesPerSeries)
            let provenance = plain.addProvenance(Provenance(source: source))
            for _ in 0..<perSave where written < entries {
                let count = min(Self.entriesPerSeries, entries - written)
                let first = start.addingTimeInterval(Double(written) * 60)
                var builder = try QuantitySeriesSampleBuilder(type: .stepCount, start: first,
                                                              end: first.addingTimeInterval(Double(count) * 60))
                for minute in 0..<count {
                    let entryStart = first.addingTimeInterval(Double(minute) * 60)
                    let value = Double((written + minute) % 120)
                    try builder.insert(Quantity(value: value, unit: .count), dateInterval: DateInterval(start: entryStart, duration: 60))
                    try plain.append(start: entryStart, end: entryStart.addingTimeInterval(60), value: value,
                                     provenanceIndex: provenance)
                }
                series.append(try builder.finishSeries(source: source))
                written += count
            }
            try seriesStore.save(series)
            try plainStore.save(plain)
        }
        try seriesStore.flush()
        try plainStore.flush()
    }
}
