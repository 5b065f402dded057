//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Synchronization
import Testing

@testable import Cadence

/// Workouts through the importer: numbered, with their routes read from the archive or folder,
/// handed over per batch (<doc:HowCadenceComputes#Identity>, <doc:HowCadenceComputes#Categories-workouts-and-correlations>).
@Suite("Importing workouts and their routes")
struct WorkoutImportTests {
    static let export = """
    <?xml version="1.0" encoding="UTF-8"?>
    <HealthData locale="en_CH">
     <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" unit="count" startDate="2024-05-01 07:00:00 +0200" endDate="2024-05-01 07:01:00 +0200" value="80"/>
     <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Watch" startDate="2024-05-01 07:05:00 +0200" endDate="2024-05-01 07:37:00 +0200">
      <WorkoutRoute sourceName="Phone"><FileReference path="/workout-routes/route_1.gpx"/></WorkoutRoute>
     </Workout>
     <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Watch" startDate="2024-05-01 07:05:00 +0200" endDate="2024-05-01 07:37:00 +0200">
      <WorkoutRoute sourceName="Phone"><FileReference path="/workout-routes/route_missing.gpx"/></WorkoutRoute>
     </Workout>
     <Workout workoutActivityType="HKWorkoutActivityTypeWalking" sourceName="Watch" startDate="2024-05-02 07:05:00 +0200" endDate="2024-05-02 07:37:00 +0200">
      <WorkoutRoute sourceName="Phone"><FileReference path="/workout-routes/route_broken.gpx"/></WorkoutRoute>
     </Workout>
    </HealthData>
    """

    static let route = GPXReaderTests.gpx([
        GPXReaderTests.point(lat: "47.1", lon: "8.1"), GPXReaderTests.point(lat: "47.2", lon: "8.2"),
        GPXReaderTests.point(lat: "bad", lon: "8.2"),
    ])

    /// Imports `path` and returns the workouts handed over, and the summary.
    static func importWorkouts(_ path: String, parallelism: Int = 1) throws -> ([Workout], ImportSummary) {
        let received = Mutex<[Workout]>([])
        var importer = HealthDataImporter(store: .inMemory(), parallelism: parallelism)
        importer.segmentBytes = 256
        importer.workoutHandler = { workouts in received.withLock { $0 += workouts } }
        let summary = try importer.importFile(atPath: path)
        return (received.withLock { $0 }, summary)
    }

    static func check(_ workouts: [Workout], _ summary: ImportSummary) {
        #expect(workouts.count == 3)
        #expect(summary.workoutRoutes == 1)
        #expect(summary.routeIssueCount == 3)  // a skipped point, a missing file, a broken file
        let reasons = summary.routeIssues.map(\.description)
        #expect(reasons.contains { $0.hasPrefix("line 4:") && $0.contains("1 point(s)") })
        #expect(reasons.contains { $0.hasPrefix("line 7:") && $0.contains("route_missing.gpx") })
        #expect(reasons.contains { $0.hasPrefix("line 10:") && $0.contains("route_broken.gpx") && $0.contains("truncated") })
        guard workouts.count == 3 else { return }
        #expect(workouts[0].routes[0].locations.latitudes == [47.1, 47.2])
        #expect(workouts[1].routes[0].locations.isEmpty)
        #expect(workouts[1].routes[0].filePath == "/workout-routes/route_missing.gpx")
        // The first two look alike: occurrences 0 and 1.
        #expect(workouts[0].uuid == workouts[0].derivedUUID(occurrence: 0))
        #expect(workouts[1].uuid == workouts[1].derivedUUID(occurrence: 1))
        #expect(workouts[0].uuid != workouts[1].uuid)
    }

    @Test("From export.zip: routes read from workout-routes/, problems reported, workouts kept", arguments: [1, 3])
    func fromArchive(parallelism: Int) throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let zip = directory.appendingPathComponent("export.zip")
        try ZipFixtures.write([
            ZipFixtures.Item(path: "apple_health_export/export.xml", data: Data(Self.export.utf8)),
            ZipFixtures.Item(path: "apple_health_export/workout-routes/route_1.gpx", data: Data(Self.route.utf8)),
            ZipFixtures.Item(path: "apple_health_export/workout-routes/route_broken.gpx",
                             data: Data(Self.route.utf8.prefix(300)), method: .none),
        ], to: zip)
        #expect(try ExportArchive(path: zip.path).routeFileCount == 2)
        let (workouts, summary) = try Self.importWorkouts(zip.path, parallelism: parallelism)
        Self.check(workouts, summary)
        #expect(summary.imported == 1 + workouts.count)  // the step record and the three workouts
        // A second import numbers them the same way.
        let (again, _) = try Self.importWorkouts(zip.path)
        #expect(again.map(\.uuid) == workouts.map(\.uuid))
    }

    @Test("From an unpacked export.xml: routes read from the folder beside it")
    func fromFolder() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let routes = directory.appendingPathComponent("workout-routes", isDirectory: true)
        try FileManager.default.createDirectory(at: routes, withIntermediateDirectories: true)
        try Data(Self.export.utf8).write(to: directory.appendingPathComponent("export.xml"))
        try Data(Self.route.utf8).write(to: routes.appendingPathComponent("route_1.gpx"))
        try Data(Self.route.utf8.prefix(300)).write(to: routes.appendingPathComponent("route_broken.gpx"))
        let (workouts, summary) = try Self.importWorkouts(directory.appendingPathComponent("export.xml").path)
        Self.check(workouts, summary)
    }

    @Test("hkimport-export.xml through the importer: 61 workouts, distinct UUIDs, the same on every import")
    func hkimport() throws {
        let path = try ImportFixtures.appleHealthFile("hkimport-export.xml")
        let (workouts, summary) = try Self.importWorkouts(path, parallelism: 2)
        #expect(workouts.count == 61)
        #expect(summary.workouts == 61)
        #expect(Set(workouts.map(\.uuid)).count == 61)
        let (again, _) = try Self.importWorkouts(path, parallelism: 1)
        #expect(again.map(\.uuid) == workouts.map(\.uuid))
    }
}
