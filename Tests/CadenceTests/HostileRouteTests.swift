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

/// Huge and hostile workout routes through the importer: a route past the point limits keeps its
/// first points and is reported; a route file that is not GPX, is hostile, or sits in an archive
/// entry that lies about its size is reported and its workout kept (<doc:HowCadenceComputes#Importing-Apple-Health-exports>, <doc:HowCadenceComputes#Categories-workouts-and-correlations>).
@Suite("Huge and hostile workout routes")
struct HostileRouteTests {
    /// An export of one running workout a day, each naming its own route file `route_N.gpx`.
    static func export(workouts: Int) -> String {
        let elements = (0..<workouts).map { day in
            let date = String(format: "2024-05-%02d", day + 1)
            return """
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Watch" startDate="\(date) 07:05:00 +0200" endDate="\(date) 07:35:00 +0200">
              <WorkoutRoute sourceName="Watch"><FileReference path="/workout-routes/route_\(day).gpx"/></WorkoutRoute>
             </Workout>
            """
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_CH\">\n"
            + elements.joined(separator: "\n") + "\n</HealthData>\n"
    }

    /// A route file of `count` points, one a second, each with its own latitude.
    static func route(points count: Int) -> String {
        GPXReaderTests.gpx((0..<count).map { index in
            GPXReaderTests.point(lat: "47.\(1_000 + index)", lon: "8.5",
                                 time: "2024-05-01T05:\(String(format: "%02d:%02d", 5 + index / 60, index % 60))Z")
        })
    }

    /// Imports an export (zip or XML) with the given route bounds; returns the workouts handed over
    /// and the summary.
    static func importExport(_ file: URL, maxPoints: Int = GPXReader.Limits().maxPoints,
                              budget: Int = 1 << 23) throws -> ([Workout], ImportSummary) {
        let received = Mutex<[Workout]>([])
        var importer = HealthDataImporter(store: .inMemory(), parallelism: 1)
        importer.routeLimits.maxPoints = maxPoints
        importer.routePointBudget = budget
        importer.workoutHandler = { workouts in received.withLock { $0 += workouts } }
        let summary = try importer.importFile(atPath: file.path)
        return (received.withLock { $0 }, summary)
    }

    @Test("Routes past the per-route limit or the import's budget keep their first points, as a naive count says",
          arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func limits(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let lengths = (0..<random.integer(in: 1...6)).map { _ in random.integer(in: 0...40) }
        let maxPoints = random.integer(in: 1...30)
        let budget = random.integer(in: 1...90)
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let archive = directory.appendingPathComponent("export.zip")
        try ZipFixtures.write(
            [ZipFixtures.Item(path: "apple_health_export/export.xml", data: Data(Self.export(workouts: lengths.count).utf8))]
                + lengths.enumerated().map { day, length in
                    ZipFixtures.Item(path: "apple_health_export/workout-routes/route_\(day).gpx",
                                     data: Data(Self.route(points: length).utf8))
                }, to: archive)
        let (workouts, summary) = try Self.importExport(archive, maxPoints: maxPoints, budget: budget)

        // The naive reference: routes in file order, each keeping what both bounds leave.
        var keptSoFar = 0
        var expectedKept: [Int] = []
        var expectedIssues = 0
        var expectedRead = 0
        for length in lengths {
            let left = budget - keptSoFar
            guard left > 0 else {
                expectedKept.append(0)
                expectedIssues += 1
                continue
            }
            let kept = min(length, maxPoints, left)
            expectedKept.append(kept)
            expectedRead += 1
            if kept < length { expectedIssues += 1 }
            keptSoFar += kept
        }
        #expect(workouts.count == lengths.count)
        #expect(workouts.map { $0.routes.first?.locations.count ?? -1 } == expectedKept)
        // The first points are the ones kept, in file order.
        for (workout, kept) in zip(workouts, expectedKept) {
            #expect(workout.routes.first?.locations.latitudes == (0..<kept).map { Double("47.\(1_000 + $0)") ?? .nan })
        }
        #expect(summary.workoutRoutes == expectedRead)
        #expect(summary.routeIssueCount == expectedIssues)
        for issue in summary.routeIssues {
            #expect(issue.reason.contains("/workout-routes/route_"), "\(issue)")
            #expect(issue.reason.contains("only its first") || issue.reason.contains("was not read"), "\(issue)")
        }
    }

    @Test("A cut route's report says how many points the file had and what was kept")
    func cutReport() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let zip = directory.appendingPathComponent("export.zip")
        try ZipFixtures.write([
            ZipFixtures.Item(path: "apple_health_export/export.xml", data: Data(Self.export(workouts: 1).utf8)),
            ZipFixtures.Item(path: "apple_health_export/workout-routes/route_0.gpx", data: Data(Self.route(points: 50).utf8)),
        ], to: zip)
        let (workouts, summary) = try Self.importExport(zip, maxPoints: 20)
        #expect(workouts.first?.routes.first?.locations.count == 20)
        #expect(summary.routeIssues.map(\.description) == [
            "line 3: a workout: its route file /workout-routes/route_0.gpx has 50 points, more than the 20 points "
                + "a route keeps: only its first 20 are stored",
        ])
    }

    @Test("Inline <Location> routes of export.xml are held to the same bounds")
    func inlineRoutes() throws {
        func workout(day: Int, locations: Int) -> String {
            let points = (0..<locations).map { index in
                #"   <Location date="2024-05-0\#(day) 07:05:0\#(index) +0200" latitude="47.\#(index + 1)" longitude="8.5" altitude="408" horizontalAccuracy="3" verticalAccuracy="2" course="-1" speed="2.9"/>"#
            }
            return #" <Workout workoutActivityType="HKWorkoutActivityTypeWalking" sourceName="Watch" startDate="2024-05-0\#(day) 07:05:00 +0200" endDate="2024-05-0\#(day) 07:35:00 +0200">"#
                + "\n  <WorkoutRoute sourceName=\"Watch\">\n" + points.joined(separator: "\n") + "\n  </WorkoutRoute>\n </Workout>"
        }
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_CH\">\n"
            + [workout(day: 1, locations: 5), workout(day: 2, locations: 4), workout(day: 3, locations: 2)].joined(separator: "\n")
            + "\n</HealthData>\n"
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("export.xml")
        try Data(xml.utf8).write(to: file)
        let (workouts, summary) = try Self.importExport(file, maxPoints: 3, budget: 4)
        #expect(workouts.map { $0.routes.first?.locations.latitudes ?? [] } == [[47.1, 47.2, 47.3], [47.1], []])
        #expect(summary.routeIssues.map(\.description) == [
            "line 3: a workout: its route has 5 <Location> points, more than the 3 points a route keeps: only its first 3 are stored",
            "line 12: a workout: its route has 4 <Location> points, more than what is left of the 4 points one import keeps: "
                + "only its first 1 are stored",
            "line 20: a workout: its route of 2 <Location> points is not stored: the import's routes already hold 4 points, "
                + "the most one import keeps",
        ])
    }

    @Test("A route file that is not GPX or is hostile is reported; its workout is kept without points", arguments: [
        // Not XML at all: the start of a PNG file.
        ("png", "no XML element"),
        // JSON, as another app might write a route.
        ("json", "no XML element"),
        // XML of another kind.
        ("kml", "not a GPX file"),
        // Ten thousand nested elements.
        ("nested", "nest deeper"),
        // One attribute of a megabyte.
        ("attribute", "more than 65536 bytes"),
        // A DTD declaring an entity (billion laughs).
        ("dtd", "DTD"),
        // A point's text that never ends.
        ("text", "longer than 65536 bytes"),
    ])
    func hostileFile(kind: String, phrase: String) throws {
        let bytes: [UInt8]
        switch kind {
        case "png": bytes = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0xAB, count: 5_000)
        case "json": bytes = Array(#"{"type": "FeatureCollection", "features": [{"geometry": {"coordinates": [8.5, 47.3]}}]}"#.utf8)
        case "kml": bytes = Array(#"<?xml version="1.0"?><kml><Placemark><LineString/></Placemark></kml>"#.utf8)
        case "nested": bytes = Array(("<gpx>" + String(repeating: "<trk>", count: 10_000)).utf8)
        case "attribute":
            bytes = Array(("<gpx><trk><trkseg><trkpt lat=\"47\" lon=\"8\" note=\"" + String(repeating: "x", count: 1 << 20)
                + "\"/></trkseg></trk></gpx>").utf8)
        case "dtd":
            bytes = Array(#"<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><gpx>&b;</gpx>"#.utf8)
        default:
            bytes = Array(("<gpx><trk><trkseg><trkpt lat=\"47\" lon=\"8\"><ele>" + String(repeating: "1", count: 1 << 20)).utf8)
        }
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let zip = directory.appendingPathComponent("export.zip")
        try ZipFixtures.write([
            ZipFixtures.Item(path: "apple_health_export/export.xml", data: Data(Self.export(workouts: 1).utf8)),
            ZipFixtures.Item(path: "apple_health_export/workout-routes/route_0.gpx", data: Data(bytes)),
        ], to: zip)
        let (workouts, summary) = try Self.importExport(zip)
        #expect(workouts.count == 1)
        #expect(summary.imported == 1)
        #expect(workouts.first?.routes.first?.locations.isEmpty == true)
        #expect(workouts.first?.routes.first?.filePath == "/workout-routes/route_0.gpx")
        #expect(summary.workoutRoutes == 0)
        #expect(summary.routeIssueCount == 1)
        let reason = summary.routeIssues.first?.reason ?? ""
        #expect(reason.contains("route_0.gpx cannot be read") && reason.contains(phrase), "\(reason)")
    }

    @Test("A route entry whose sizes lie is reported and bounded by the bytes it really holds", arguments: [
        // The header claims fewer bytes than the entry holds.
        ("smaller", "header says 40"),
        // The header claims ten times more.
        ("larger", "header says"),
        // The stored size runs past the archive's data.
        ("past-end", "runs past its end"),
        // A deflated entry that inflates over a thousand times its size (a zip bomb).
        ("bomb", "zip bomb"),
    ])
    func lyingEntry(kind: String, phrase: String) throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let zip = directory.appendingPathComponent("export.zip")
        let xml = Array(Self.export(workouts: 1).utf8)
        let route = Array(Self.route(points: 3).utf8)
        let routePath = "apple_health_export/workout-routes/route_0.gpx"
        switch kind {
        case "bomb":
            // Spaces between the points deflate about a thousand to one.
            let padded = Self.route(points: 3).replacingOccurrences(
                of: "</trkseg>", with: String(repeating: " ", count: 20_000_000) + "</trkseg>")
            try ZipFixtures.write([
                ZipFixtures.Item(path: "apple_health_export/export.xml", data: Data(xml)),
                ZipFixtures.Item(path: routePath, data: Data(padded.utf8)),
            ], to: zip)
        default:
            let claimed: UInt32? = switch kind {
            case "smaller": 40
            case "larger": UInt32(route.count * 10)
            default: nil
            }
            var bytes = ZipFixtures.raw([
                ZipFixtures.RawEntry(path: routePath, data: route, uncompressedSize: claimed),
                ZipFixtures.RawEntry(path: "apple_health_export/export.xml", data: xml),
            ])
            if kind == "past-end", let entry = ZipFixtures.directoryEntryOffset(bytes) {
                // The route's compressed size in the central directory: 2 GiB.
                bytes.replaceSubrange((entry + 20)..<(entry + 24), with: [0x00, 0x00, 0x00, 0x80])
            }
            try Data(bytes).write(to: zip)
        }
        let (workouts, summary) = try Self.importExport(zip)
        #expect(workouts.count == 1)
        #expect(summary.routeIssueCount == 1)
        let reason = summary.routeIssues.first?.reason ?? ""
        #expect(reason.contains("route_0.gpx cannot be read") && reason.contains(phrase), "\(reason)")
        #expect(reason.contains(zip.path), "the issue names the archive: \(reason)")
    }

    @Test("A route file beside an unpacked export is read only if it is a regular file inside the export's folder",
          .timeLimit(.minutes(1)), arguments: [
              // A link to /dev/zero, which never ends.
              ("dev-zero", "leads out of the export's folder"),
              // A FIFO, which blocks a reader until a writer comes.
              ("fifo", "is a FIFO, not a regular file"),
              // A sparse file of 2 GiB, more than a route inside an archive may inflate to.
              ("sparse", "holds more than the 1073741824 bytes a route file may"),
              // A link to a well-formed route file outside the folder.
              ("outside", "leads out of the export's folder"),
          ])
    func unboundedFileBesideExport(kind: String, phrase: String) throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let exportFolder = directory.appendingPathComponent("apple_health_export")
        let routes = exportFolder.appendingPathComponent("workout-routes")
        try FileManager.default.createDirectory(at: routes, withIntermediateDirectories: true)
        let xml = exportFolder.appendingPathComponent("export.xml")
        try Data(Self.export(workouts: 1).utf8).write(to: xml)
        let route = routes.appendingPathComponent("route_0.gpx")
        switch kind {
        case "dev-zero":
            try FileManager.default.createSymbolicLink(atPath: route.path, withDestinationPath: "/dev/zero")
        case "fifo":
            #expect(mkfifo(route.path, 0o600) == 0)
        case "sparse":
            #expect(FileManager.default.createFile(atPath: route.path, contents: Data(Self.route(points: 3).utf8)))
            let handle = try FileHandle(forWritingTo: route)
            try handle.truncate(atOffset: 2 << 30)
            try handle.close()
        default:
            let outside = directory.appendingPathComponent("elsewhere.gpx")
            try Data(Self.route(points: 3).utf8).write(to: outside)
            try FileManager.default.createSymbolicLink(atPath: route.path, withDestinationPath: outside.path)
        }
        let (workouts, summary) = try Self.importExport(xml)
        #expect(workouts.count == 1)
        #expect(summary.imported == 1)
        #expect(workouts.first?.routes.first?.locations.isEmpty == true)
        #expect(workouts.first?.routes.first?.filePath == "/workout-routes/route_0.gpx")
        #expect(summary.workoutRoutes == 0)
        #expect(summary.routeIssues.map(\.line) == [3])
        let reason = summary.routeIssues.first?.reason ?? ""
        #expect(reason.contains("route_0.gpx cannot be read") && reason.contains(phrase), "\(reason)")
    }

    @Test("A link beside an unpacked export to a route file inside its folder is read")
    func linkInsideExportFolder() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let routes = directory.appendingPathComponent("workout-routes")
        try FileManager.default.createDirectory(at: routes, withIntermediateDirectories: true)
        let xml = directory.appendingPathComponent("export.xml")
        try Data(Self.export(workouts: 1).utf8).write(to: xml)
        try Data(Self.route(points: 3).utf8).write(to: directory.appendingPathComponent("kept.gpx"))
        try FileManager.default.createSymbolicLink(atPath: routes.appendingPathComponent("route_0.gpx").path,
                                                   withDestinationPath: "../kept.gpx")
        let (workouts, summary) = try Self.importExport(xml)
        #expect(summary.routeIssues.isEmpty, "\(summary.routeIssues)")
        #expect(workouts.first?.routes.first?.locations.count == 3)
    }

    @Test("Workouts that name one route file share one reading of it, each stored with its points")
    func sharedRouteFile() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let shared = Self.export(workouts: 6).replacingOccurrences(
            of: #"route_\d+\.gpx"#, with: "route_0.gpx", options: .regularExpression)
        let zip = directory.appendingPathComponent("export.zip")
        try ZipFixtures.write([
            ZipFixtures.Item(path: "apple_health_export/export.xml", data: Data(shared.utf8)),
            ZipFixtures.Item(path: "apple_health_export/workout-routes/route_0.gpx", data: Data(Self.route(points: 10).utf8)),
        ], to: zip)
        // The budget still counts each workout's copy: the fifth gets what is left, the sixth none.
        let (workouts, summary) = try Self.importExport(zip, budget: 45)
        #expect(workouts.map { $0.routes.first?.locations.count ?? -1 } == [10, 10, 10, 10, 5, 0])
        #expect(workouts[1].routes.first?.locations == workouts[0].routes.first?.locations)
        #expect(summary.workoutRoutes == 5)
        #expect(summary.routeIssueCount == 2)
    }

    @Test("The route cache reads a file once, keeps failures too, and holds a bounded number of points")
    func routeCache() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = WorkoutRouteFiles.besideExport(atPath: directory.appendingPathComponent("export.xml").path)
        let route = directory.appendingPathComponent("a.gpx")
        try Data(Self.route(points: 4).utf8).write(to: route)
        var cache = RouteFileCache()
        let first = try cache.reading("/a.gpx", from: files, limits: GPXReader.Limits()).get()
        try FileManager.default.removeItem(at: route)
        // Read once: the same reference, with or without its leading slash, comes from the cache.
        #expect(try cache.reading("a.gpx", from: files, limits: GPXReader.Limits()).get().locations == first.locations)
        #expect(first.locations.count == 4)
        guard case .failure(let missing) = cache.reading("/b.gpx", from: files, limits: GPXReader.Limits()) else {
            Issue.record("a missing file was read")
            return
        }
        #expect(missing.code == .notFound)
        // A file that takes the cache past its bound starts it over: the first file is read again.
        let big = directory.appendingPathComponent("big.gpx")
        try Data(Self.route(points: 3).utf8).write(to: big)
        var small = RouteFileCache(maxPoints: 5)
        try Data(Self.route(points: 4).utf8).write(to: route)
        _ = small.reading("/a.gpx", from: files, limits: GPXReader.Limits())
        _ = small.reading("/big.gpx", from: files, limits: GPXReader.Limits())
        try FileManager.default.removeItem(at: route)
        guard case .failure = small.reading("/a.gpx", from: files, limits: GPXReader.Limits()) else {
            Issue.record("the cache held more points than its bound")
            return
        }
    }
}
