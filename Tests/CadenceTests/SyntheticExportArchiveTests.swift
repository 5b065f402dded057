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

/// The generator's modern `export.zip` read back by the importer (round trip).
@Suite("Synthetic export.zip")
struct SyntheticExportArchiveTests {
    @Test("Every generated kind reads back: workouts with routes, sleep and other category records, correlations")
    func roundTrip() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = SyntheticHealthData(profile: .realistic, seed: 3, size: .days(5))
        let path = directory.appendingPathComponent("export.zip").path
        let rows = try SyntheticExportWriter.exportArchive(data, to: path, utcOffsetSeconds: 3_600)
        // The same data gives the same archive, byte for byte.
        let again = directory.appendingPathComponent("again.zip").path
        try SyntheticExportWriter.exportArchive(data, to: again, utcOffsetSeconds: 3_600)
        #expect(FileManager.default.contentsEqual(atPath: path, andPath: again))
        #expect(!FileManager.default.fileExists(atPath: path + ".export.xml"))

        let expected = (0..<5).map { data.exportElements(day: $0) }
        let received = Mutex<[Workout]>([])
        var importer = HealthDataImporter(store: .inMemory(), parallelism: 2)
        importer.workoutHandler = { workouts in received.withLock { $0 += workouts } }
        let summary = try importer.importFile(atPath: path)
        #expect(summary.rejected == 0, "\(summary.rejections)")
        // Quantity rows, category records, correlations and workouts are all stored samples.
        let categoryRecords = expected.reduce(0) { $0 + $1.categoryRecords.count }
        let correlations = expected.reduce(0) { $0 + $1.correlations.count }
        #expect(categoryRecords > 0)
        #expect(summary.imported == rows + categoryRecords + correlations + expected.reduce(0) { $0 + $1.workouts.count })
        #expect(expected.allSatisfy { day in day.categoryRecords.contains { $0.value.hasSuffix("AsleepREM") } })
        #expect(expected.allSatisfy { day in day.categoryRecords.contains { $0.provenance == SyntheticHealthData.sleepAppProvenance } })
        #expect(summary.correlations == expected.reduce(0) { $0 + $1.correlations.count })
        #expect(summary.correlationRecords == expected.reduce(0) { $0 + $1.correlations.reduce(0) { $0 + $1.members.count } })
        #expect(summary.correlations > 0)

        let workouts = received.withLock { $0 }
        let generated = expected.flatMap(\.workouts)
        #expect(workouts.count == 5 && generated.count == 5)
        #expect(summary.workoutRoutes == 5 && summary.routeIssueCount == 0)
        // The store gives back every workout as it was read, routes included.
        #expect(try importer.store.execute(SampleQuery(workoutsMatching: .all, includingRoutes: true)) == workouts)
        for (read, made) in zip(workouts, generated) {
            #expect(read.activityType == made.activityType)
            #expect(read.startDate == made.startDate && read.endDate == made.endDate)
            #expect(abs(read.duration - made.duration) < 1e-6)
            #expect(read.totalEnergyBurned == made.statistics(for: .activeEnergyBurned)?.sum)
            #expect(read.totalDistance == made.statistics(for: .distanceWalkingRunning)?.sum)
            #expect(read.metadata == made.metadata)
            #expect(read.events.map(\.type) == made.events.map(\.type))
            #expect(zip(read.events, made.events).allSatisfy { abs($0.duration - $1.duration) < 1e-6 && $0.date == $1.date })
            #expect(read.statistics.count == made.statistics.count)
            #expect(read.statistics(for: .heartRate)?.average == made.statistics(for: .heartRate)?.average)
            #expect(read.routes.first?.filePath == made.routes.first?.filePath)
            #expect(read.routes.first?.locations == made.routes.first?.locations)
            #expect((read.routes.first?.locations.count ?? 0) > 300)
            #expect(read.uuid == read.derivedUUID(occurrence: 0))
        }
    }

    @Test("Route file names follow the Health app's")
    func routeFileNames() throws {
        #expect(SyntheticHealthData.routeFileName(try parseRFC3339("2024-01-01T17:05:00Z")) == "route_2024-01-01_5.05pm.gpx")
        #expect(SyntheticHealthData.routeFileName(try parseRFC3339("2024-01-01T00:30:00Z")) == "route_2024-01-01_12.30am.gpx")
        #expect(SyntheticHealthData.routeFileName(try parseRFC3339("2024-01-01T12:00:00Z")) == "route_2024-01-01_12.00pm.gpx")
    }
}
