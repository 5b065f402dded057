//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// The figures of every other sample kind, over one generated multi-year `export.zip` of the
/// realistic profile (Watch sleep stages beside a sleep app and the iPhone's time in bed, a daily
/// run with events, statistics and a GPX route, correlations, symptoms, mindful sessions):
/// importing the archive, time asleep per night, sample queries of sleep and of workouts, anchored
/// paging through workouts, and reading one workout's route.
///
/// Its figures are named `kinds.…` and measured only when `--only` selects one of them: the export
/// is generated and imported several times, which takes longer than the default set should.
struct KindsSuite {
    let options: BenchmarkOptions
    /// The directory the archive and the store are created in (created and deleted by the caller).
    let workDirectory: String
    let log: (String) -> Void

    /// The first word of every figure's name.
    static let family = "kinds"
    /// The prefix of every figure's name.
    static let prefix = family + "."
    private var days: Int { options.kindsDays }
    /// Workouts per anchored page.
    static let pageSize = 100

    private var label: String { days >= 365 ? "\(days / 365)y" : "\(days)d" }
    private var archivePath: String { workDirectory + "/kinds-\(label).zip" }
    private var storePath: String { workDirectory + "/kinds-\(label).cadence" }
    private static let profileName = "realistic export.zip"

    /// Every figure this suite can measure, by full name.
    var figureNames: [String] {
        ["import", "storage.bytesPerWorkout", "categoryDurations.asleep.nightly", "sampleQuery.sleep.all",
         "sampleQuery.workouts.all", "sampleQuery.workouts.oneMonth", "anchored.workouts.pages\(Self.pageSize)",
         "route.oneWorkout"].map { Self.prefix + $0 + "." + label }
    }

    /// Whether any of this suite's figures is selected: only an explicit `--only` selects them.
    var isSelected: Bool { !options.only.isEmpty && figureNames.contains(where: options.selects) }

    private func selects(_ figure: String) -> Bool { options.selects(Self.prefix + figure + "." + label) }

    /// Generates the archive, imports it (timed when selected) and runs the selected queries.
    func run() throws -> [BenchmarkResult] {
        defer {
            try? FileManager.default.removeItem(atPath: archivePath)
            try? FileManager.default.removeItem(atPath: storePath)
        }
        log("kinds: generating \(days) days of the realistic profile as export.zip")
        let data = SyntheticHealthData(profile: .realistic, seed: options.seed, size: .days(days))
        let quantityRows = try SyntheticExportWriter.exportArchive(data, to: archivePath)
        let archiveBytes = (try FileManager.default.attributesOfItem(atPath: archivePath)[.size] as? NSNumber)?.intValue ?? 0
        log("  \(quantityRows) quantity records, \(megabytes(archiveBytes)) compressed")

        var results: [BenchmarkResult] = []
        let (importResult, imported) = try measureImport(archiveBytes: archiveBytes)
        if let importResult { results.append(importResult) }
        let store = try HealthStore.open(at: storePath)
        defer { try? store.close() }
        let info = try store.info()
        if selects("storage.bytesPerWorkout"), let workouts = info.types.first(where: { $0.identifier == Workout.typeIdentifier }) {
            results.append(BenchmarkResult(
                name: Self.prefix + "storage.bytesPerWorkout." + label, kind: .size, profile: Self.profileName,
                storeSamples: info.totalSamples, samples: workouts.samples, value: workouts.bytesPerSample ?? .nan,
                note: "chunk bytes of the workout series per workout, routes (their payload sections) included (\(workouts.samples) workouts "
                    + "in \(workouts.chunks) chunks)"))
        }
        results += try measureSleep(store, storeSamples: imported)
        results += try measureWorkouts(store, storeSamples: imported)
        return results
    }

    // MARK: Import

    /// Imports the archive into a new durable store, `runs` times without a warm-up (each run is
    /// long and starts from an empty store); the last run's store stays for the queries.
    private func measureImport(archiveBytes: Int) throws -> (BenchmarkResult?, Int) {
        let timed = selects("import")
        var summary: ImportSummary?
        log(timed ? "  import: \(options.runs) runs" : "  import: once, untimed")
        let timing = try Stopwatch.measure(runs: timed ? options.runs : 1, warmUp: 0, setUp: { _ in
            try? FileManager.default.removeItem(atPath: storePath)
        }) { _ in
            let store = try HealthStore.open(at: storePath)
            summary = try HealthDataImporter(store: store).importFile(atPath: archivePath)
            try store.close()
        }
        guard let summary, summary.rejected == 0, summary.routeIssueCount == 0, summary.workouts > 0 else {
            throw BenchmarkFailure("the generated export did not import cleanly: \(String(describing: summary))")
        }
        guard timed else { return (nil, summary.imported) }
        return (BenchmarkResult(
            name: Self.prefix + "import." + label, kind: .throughput, profile: Self.profileName,
            storeSamples: summary.imported, samples: summary.imported,
            value: Double(summary.imported) / timing.median, timing: timing,
            note: "records stored per second: HealthDataImporter on \(megabytes(archiveBytes)) of export.zip "
                + "(inflate, parse, \(summary.workoutRoutes) GPX routes, saves, close) into a new durable store; "
                + "\(summary.imported) records of which \(summary.workouts) workouts and \(summary.correlations) "
                + "correlations; no warm-up"), summary.imported)
    }

    // MARK: Sleep

    private func measureSleep(_ store: HealthStore, storeSamples: Int) throws -> [BenchmarkResult] {
        let sleep = CategoryType.sleepAnalysis
        var results: [BenchmarkResult] = []
        if selects("categoryDurations.asleep.nightly") {
            let calendar = try ProfileSuite.berlinCalendar()
            guard let noon = calendar.date(from: DateComponents(year: 2024, month: 1, day: 1, hour: 12)) else {
                throw BenchmarkFailure("no noon anchor in \(calendar.timeZone.identifier)")
            }
            let asleep = Set(["asleepUnspecified", "asleepCore", "asleepDeep", "asleepREM"].compactMap(sleep.value(named:)))
            let query = try StatisticsCollectionQuery(categoryType: sleep, values: asleep, options: .duration,
                                                      anchorDate: noon, intervalComponents: .days(1), calendar: calendar)
            var nights = 0
            var hours = 0.0
            let timing = try Stopwatch.measure(runs: options.runs) { _ in
                let statistics = try store.execute(query).statistics()
                nights = statistics.count
                hours = statistics.reduce(0) { $0 + ($1.duration()?.value ?? 0) } / 3_600
                blackHole(statistics)
            }
            let samples = try store.execute(SampleQuery(categoryType: sleep)).count
            guard nights > 0, hours > 0 else { throw BenchmarkFailure("time asleep per night came out empty") }
            results.append(BenchmarkResult(
                name: Self.prefix + "categoryDurations.asleep.nightly." + label, kind: .throughput,
                profile: Self.profileName, storeSamples: storeSamples, samples: samples,
                value: Double(samples) / timing.median, timing: timing,
                note: "time asleep per night: sleepAnalysis duration of asleep* values, 1 d intervals anchored at "
                    + "12:00 Europe/Berlin, sources merged by the default ranking (the Watch over the sleep app); \(nights) nights, "
                    + String(format: "%.1f h asleep on average", hours / Double(nights))
                    + "; sleep samples per second"))
        }
        if selects("sampleQuery.sleep.all") {
            results.append(try latency("sampleQuery.sleep.all", storeSamples: storeSamples) {
                let samples = try store.execute(SampleQuery(categoryType: sleep))
                blackHole(samples)
                return samples.count
            } note: { "every sleepAnalysis sample (\($0)) as [CategorySample], in start order" })
        }
        return results
    }

    // MARK: Workouts

    private func measureWorkouts(_ store: HealthStore, storeSamples: Int) throws -> [BenchmarkResult] {
        var results: [BenchmarkResult] = []
        var all: [Workout] = []
        let listing = try latency("sampleQuery.workouts.all", storeSamples: storeSamples) {
            all = try store.execute(SampleQuery(workoutsMatching: .all))
            return all.count
        } note: { count in
            "every workout (\(count)) as [Workout] with events, statistics and activities; routes are not read "
                + "(a listing reads them only with includingRoutes)"
        }
        if selects("sampleQuery.workouts.all") { results.append(listing) }
        guard let first = all.first, let last = all.last else { throw BenchmarkFailure("the store has no workouts") }

        let middle = first.startDate.addingTimeInterval(last.startDate.timeIntervalSince(first.startDate) / 2)
        if selects("sampleQuery.workouts.oneMonth") {
            let window = SamplePredicate.samples(start: middle, end: middle.addingTimeInterval(30 * 86_400))
            results.append(try latency("sampleQuery.workouts.oneMonth", storeSamples: storeSamples) {
                let workouts = try store.execute(SampleQuery(workoutsMatching: window))
                blackHole(workouts)
                return workouts.count
            } note: { "the workouts of 30 days in the middle of the data (\($0)), without their routes; "
                + "goal: at most 5 % of sampleQuery.workouts.all (\(String(format: "%.1f ms", listing.value * 1_000)))" })
        }

        if selects("anchored.workouts.pages\(Self.pageSize)") {
            var pages = 0
            results.append(try latency("anchored.workouts.pages\(Self.pageSize)", storeSamples: storeSamples) {
                pages = 0
                var received = 0
                var anchor: QueryAnchor?
                var hasMore = true
                while hasMore {
                    let page = try store.execute(AnchoredObjectQuery(workoutsMatching: .all, anchor: anchor,
                                                                     limit: Self.pageSize))
                    pages += 1
                    received += page.samples.count
                    anchor = page.anchor
                    hasMore = page.hasMore
                    blackHole(page)
                }
                guard received == all.count else {
                    throw BenchmarkFailure("anchored paging returned \(received) workouts, not \(all.count)")
                }
                return received
            } note: { "every workout (\($0)) through anchored queries of \(Self.pageSize), each page from the "
                + "previous page's anchor: \(pages) pages in all; goal: each page's cost grows with the page, "
                + "not with the routes stored" })
        }

        if selects("route.oneWorkout") {
            let chosen = all.min { abs($0.startDate.timeIntervalSince(middle)) < abs($1.startDate.timeIntervalSince(middle)) }
            guard let chosen else { throw BenchmarkFailure("no workout to read a route of") }
            results.append(try latency("route.oneWorkout", storeSamples: storeSamples) {
                let found = try store.execute(SampleQuery(workoutsMatching: .uuids([chosen.uuid]), includingRoutes: true))
                blackHole(found)
                return found.first?.routes.first?.locations.count ?? 0
            } note: { "one workout by UUID with its route of \($0) points (as cadence plot --workout reads it), "
                + "decoding only the payload block that holds it; goal: at most 10 ms" })
        }
        return results
    }

    // MARK: Shared

    /// Times `body` (after a warm-up) as the latency figure `figure`; `body` returns how many items
    /// it produced, which must not be 0.
    private func latency(_ figure: String, storeSamples: Int, _ body: () throws -> Int,
                         note: (Int) -> String) throws -> BenchmarkResult {
        var produced = 0
        let timing = try Stopwatch.measure(runs: options.runs) { _ in produced = try body() }
        guard produced > 0 else { throw BenchmarkFailure("\(figure) produced nothing") }
        return BenchmarkResult(name: Self.prefix + figure + "." + label, kind: .latency, profile: Self.profileName,
                               storeSamples: storeSamples, samples: produced, value: timing.median, timing: timing,
                               note: note(produced))
    }
}

/// A byte count for notes: `12.3 MB`.
private func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1e6) }
