//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation
import Synchronization

/// The figures of importing workouts of unusual shapes from an unpacked `export.xml`:
///
/// - `workoutImport.children.<n>`: one workout with *n* children (events, statistics and metadata
///   entries in turn), in seconds per child, for 1 k, 10 k and 100 k children; reading a workout is
///   linear in its children when the figure stays flat (within 1.5× from 10 k to 100 k).
/// - `workoutImport.sharedRoute.peakMemory`: the process's peak resident memory after importing 64
///   workouts that all name one 131,072-point route file. The peak is the process's, so the figure
///   means something only when it is selected alone (`--only workoutImport.sharedRoute`).
///
/// Its figures are measured only when `--only` selects one of them.
struct WorkoutImportSuite {
    let options: BenchmarkOptions
    /// The directory the exports and stores are created in (created and deleted by the caller).
    let workDirectory: String
    let log: (String) -> Void

    /// The first word of every figure's name.
    static let family = "workoutImport"
    /// Children of the one workout, by figure label.
    static let childCounts = [("1k", 1_000), ("10k", 10_000), ("100k", 100_000)]
    /// Workouts naming the shared route, and its points.
    static let sharedRouteWorkouts = 64
    static let sharedRoutePoints = 131_072

    /// Every figure this suite can measure, by full name.
    var figureNames: [String] {
        Self.childCounts.map { "\(Self.family).children.\($0.0)" } + ["\(Self.family).sharedRoute.peakMemory"]
    }

    /// Whether any of this suite's figures is selected: only an explicit `--only` selects them.
    var isSelected: Bool { !options.only.isEmpty && figureNames.contains(where: options.selects) }

    /// Runs the selected figures.
    func run() throws -> [BenchmarkResult] {
        var results: [BenchmarkResult] = []
        for (label, count) in Self.childCounts where options.selects("\(Self.family).children.\(label)") {
            results.append(try measureChildren(label: label, count: count))
        }
        if options.selects("\(Self.family).sharedRoute.peakMemory") { results.append(try measureSharedRoute()) }
        return results
    }

    // MARK: Children

    /// Imports one workout of `count` children into an in-memory store, `runs` times after a warm-up.
    private func measureChildren(label: String, count: Int) throws -> BenchmarkResult {
        let folder = workDirectory + "/children-\(label)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/export.xml"
        try Data(Self.crowdedWorkout(children: count).utf8).write(to: URL(fileURLWithPath: path))
        log("\(Self.family): one workout of \(count) children, \(options.runs) runs")
        let kept = Mutex(0)
        let timing = try Stopwatch.measure(runs: options.runs) { _ in
            var importer = HealthDataImporter(store: .inMemory(), parallelism: 1)
            importer.workoutHandler = { workouts in
                kept.withLock { $0 = workouts.reduce(0) { $0 + $1.events.count + $1.statistics.count + $1.metadata.count } }
            }
            let summary = try importer.importFile(atPath: path)
            blackHole(summary)
        }
        guard kept.withLock({ $0 }) == count else {
            throw BenchmarkFailure("the workout kept \(kept.withLock { $0 }) of its \(count) children")
        }
        return BenchmarkResult(
            name: "\(Self.family).children.\(label)", kind: .latency, profile: "one workout", storeSamples: 1,
            samples: count, value: timing.median / Double(count), timing: timing,
            note: "seconds per child: HealthDataImporter on an export.xml of one <Workout> with \(count) children "
                + "(events, statistics and metadata entries in turn), in memory, one core")
    }

    /// An export of one workout with `count` children: events, statistics and metadata entries in turn.
    static func crowdedWorkout(children count: Int) -> String {
        var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<HealthData locale=\"en_CH\">\n"
            + #" <Workout workoutActivityType="HKWorkoutActivityTypeRunning" sourceName="Watch" startDate="2024-05-01 07:00:00 +0000" endDate="2024-05-01 09:00:00 +0000">"#
            + "\n"
        text.reserveCapacity(count * 110)
        for index in 0..<count {
            let date = String(format: "2024-05-01 %02d:%02d:%02d +0000", 7 + index / 3_600 % 2, index / 60 % 60, index % 60)
            switch index % 3 {
            case 0: text += #"  <WorkoutEvent type="HKWorkoutEventTypeLap" date="\#(date)"/>"#
            case 1: text += #"  <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" average="\#(120 + index % 40)" unit="count/min"/>"#
            default: text += #"  <MetadataEntry key="Key\#(index)" value="\#(index)"/>"#
            }
            text += "\n"
        }
        return text + " </Workout>\n</HealthData>\n"
    }

    // MARK: A shared route

    /// Imports 64 workouts that all name one 131,072-point route file beside an unpacked export into
    /// a new durable store, once, and reports the process's peak memory.
    private func measureSharedRoute() throws -> BenchmarkResult {
        let folder = workDirectory + "/shared-route"
        try FileManager.default.createDirectory(atPath: folder + "/workout-routes", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(Self.sharedRouteExport().utf8).write(to: URL(fileURLWithPath: folder + "/export.xml"))
        try Data(Self.route(points: Self.sharedRoutePoints).utf8)
            .write(to: URL(fileURLWithPath: folder + "/workout-routes/route.gpx"))
        log("\(Self.family): \(Self.sharedRouteWorkouts) workouts sharing one \(Self.sharedRoutePoints)-point route")
        let before = peakResidentBytes()
        let store = try HealthStore.open(at: folder + "/store.cadence")
        let summary = try HealthDataImporter(store: store, parallelism: 1).importFile(atPath: folder + "/export.xml")
        try store.close()
        let peak = peakResidentBytes()
        guard summary.workouts == Self.sharedRouteWorkouts, summary.routeIssueCount == 0 else {
            throw BenchmarkFailure("the shared-route export did not import cleanly: \(summary)")
        }
        return BenchmarkResult(
            name: "\(Self.family).sharedRoute.peakMemory", kind: .memory, profile: "shared route",
            storeSamples: summary.imported, samples: summary.workouts, value: Double(peak),
            note: "process peak RSS after importing \(Self.sharedRouteWorkouts) workouts that name one "
                + "\(Self.sharedRoutePoints)-point GPX file (\(summary.workoutRoutes) routes stored) into a durable "
                + "store; \(before >> 20) MiB before; meaningful only when selected alone")
    }

    /// An export whose workouts all name `/workout-routes/route.gpx`.
    static func sharedRouteExport() -> String {
        let workouts = (0..<sharedRouteWorkouts).map { index in
            let day = String(format: "2024-%02d-%02d", 1 + index / 28, 1 + index % 28)
            return #" <Workout workoutActivityType="HKWorkoutActivityTypeRunning" sourceName="Watch" startDate="\#(day) 07:05:00 +0200" endDate="\#(day) 07:35:00 +0200">"#
                + "\n" + #"  <WorkoutRoute sourceName="Watch"><FileReference path="/workout-routes/route.gpx"/></WorkoutRoute>"#
                + "\n </Workout>"
        }
        return #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<HealthData locale=\"en_CH\">\n"
            + workouts.joined(separator: "\n") + "\n</HealthData>\n"
    }

    /// A GPX route of `count` points, one a second, with every field a Watch writes.
    static func route(points count: Int) -> String {
        var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<gpx version=\"1.1\" creator=\"Cadence\"><trk><trkseg>\n"
        text.reserveCapacity(count * 240)
        for index in 0..<count {
            let second = 5 * 3_600 + index
            let time = String(format: "2024-05-%02dT%02d:%02d:%02dZ", 1 + second / 86_400, second / 3_600 % 24,
                              second / 60 % 60, second % 60)
            text += #"<trkpt lon="8.\#(500_000 + index % 100_000)" lat="47.\#(300_000 + index % 100_000)"><ele>408.2</ele>"#
                + #"<time>\#(time)</time><extensions><speed>2.9</speed><course>81.5</course><hAcc>3.1</hAcc>"#
                + "<vAcc>2.0</vAcc></extensions></trkpt>\n"
        }
        return text + "</trkseg></trk></gpx>\n"
    }
}
