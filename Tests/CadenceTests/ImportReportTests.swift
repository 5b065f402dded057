//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// What an ``ImportSummary`` says matches what the import did: failures are failures, damage says
/// what was committed and where reading stopped, a problem is reported once.
@Suite("Import reports")
struct ImportReportTests {
    /// Per kind, the samples a store holds.
    static func storedByKind(_ store: HealthStore) throws -> [SampleKind: Int] {
        try store.info().types.reduce(into: [:]) { $0[$1.kind, default: 0] += $1.samples }
    }

    @Test("An import whose every record is rejected is a failure; one that stores something is not")
    func everyRecordRejected() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bad = ImportFixtures.record(extra: "").replacingOccurrences(of: "unit=\"count\"", with: "unit=\"furlongs\"")
        let path = directory.appendingPathComponent("export.xml").path
        try ImportFixtures.export(bad + "\n" + bad).write(toFile: path, atomically: true, encoding: .utf8)
        let summary = try HealthDataImporter(store: HealthStore.inMemory()).importFile(atPath: path)
        #expect(summary.rejected == 2 && summary.imported == 0)
        #expect(summary.rejectedEveryRecord && summary.failed && summary.stoppedAt == nil)

        try ImportFixtures.export(bad + "\n" + ImportFixtures.record()).write(toFile: path, atomically: true, encoding: .utf8)
        let mixed = try HealthDataImporter(store: HealthStore.inMemory()).importFile(atPath: path)
        #expect(mixed.rejected == 1 && mixed.imported == 1 && !mixed.failed)
        #expect(mixed.importedByKind == [.quantity: 1])

        // A file read again adds nothing, and is no failure: its records are duplicates.
        let store = HealthStore.inMemory()
        _ = try HealthDataImporter(store: store).importFile(atPath: path)
        let again = try HealthDataImporter(store: store).importFile(atPath: path)
        #expect(again.imported == 0 && again.duplicates == 1 && !again.failed && again.importedByKind.isEmpty)
    }

    @Test("A truncated export keeps what came before the damage, counts it per kind, and says where reading stopped",
          arguments: [(1, 1 << 20), (2, 64 << 10)])
    func truncatedExport(parallelism: Int, segmentBytes: Int) throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let xml = try Data(contentsOf: URL(fileURLWithPath: try ImportFixtures.appleHealthFile("hkimport-export.xml")))
        // Past the first workouts and correlations, which the file writes after its records.
        let cut = xml.prefix(xml.count * 995 / 1_000)
        let path = directory.appendingPathComponent("export.xml").path
        try cut.write(to: URL(fileURLWithPath: path))
        let store = HealthStore.inMemory()
        var importer = HealthDataImporter(store: store, batchSize: 700, parallelism: parallelism)
        importer.segmentBytes = segmentBytes
        let summary = try importer.importFile(atPath: path)
        let stopped = try #require(summary.stoppedAt)
        #expect(summary.failed && stopped.reason.contains("truncated"), "\(stopped)")
        // The last line of what is left of the file.
        #expect(stopped.line == cut.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }, "\(stopped)")
        let stored = try Self.storedByKind(store)
        #expect(summary.imported > 1_000 && summary.imported == stored.values.reduce(0, +))
        #expect(summary.importedByKind == stored.filter { $0.value > 0 })
        #expect(stored[.quantity, default: 0] > 0 && stored[.category, default: 0] > 0)
        #expect(stored[.workout, default: 0] > 0 && stored[.correlation, default: 0] > 0)
        // The reader's counts up to the damage are kept too.
        #expect(summary.workouts > 0)

        // Strict mode refuses the file whole, naming the damage.
        let strictStore = HealthStore.inMemory()
        let error = #expect(throws: CadenceError.self) {
            try HealthDataImporter(store: strictStore, strict: true).importFile(atPath: path)
        }
        #expect(error?.line == stopped.line && error?.message.contains("strict mode") == true)
        #expect(try strictStore.info().totalSamples == 0)
    }

    @Test("A file that cannot be read at all still throws, with nothing stored", arguments: ["missing", "utf16", "empty"])
    func unreadableFile(kind: String) throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("export.xml").path
        switch kind {
        case "utf16": try Data([0xFF, 0xFE, 0x3C, 0x00, 0x3F, 0x00]).write(to: URL(fileURLWithPath: path))
        case "empty": try Data().write(to: URL(fileURLWithPath: path))
        default: break
        }
        let store = HealthStore.inMemory()
        #expect(throws: CadenceError.self) { try HealthDataImporter(store: store).importFile(atPath: path) }
        #expect(try store.info().totalSamples == 0)
    }

    @Test("A missing route file named by two routes is reported once", arguments: [1, 2])
    func missingRouteReportedOnce(workouts: Int) throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let route = #"<WorkoutRoute sourceName="Watch"><FileReference path="/workout-routes/route_gone.gpx"/></WorkoutRoute>"#
        let elements = (0..<workouts).map { day in
            """
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Watch" startDate="2024-05-0\(day + 1) 07:05:00 +0200" endDate="2024-05-0\(day + 1) 07:35:00 +0200">
              \(workouts == 1 ? route + "\n  " + route : route)
             </Workout>
            """
        }
        let path = directory.appendingPathComponent("export.xml").path
        try ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_CH\">\n" + elements.joined(separator: "\n")
             + "\n</HealthData>\n").write(toFile: path, atomically: true, encoding: .utf8)
        let summary = try HealthDataImporter(store: HealthStore.inMemory(), parallelism: 1).importFile(atPath: path)
        #expect(summary.imported == workouts)
        #expect(summary.routeIssueCount == 1 && summary.routeIssues.count == 1, "\(summary.routeIssues)")
        #expect(summary.routeIssues.first?.line == 3 && summary.routeIssues.first?.reason.contains("route_gone.gpx") == true)
    }
}
