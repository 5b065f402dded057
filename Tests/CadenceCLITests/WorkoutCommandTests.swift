//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

/// Workouts through the command line: `cadence workouts` on the real export's store, with its
/// workout filters; `samples`, `changes` and `delete` on the workout type; and `cadence plot
/// --workout` on a generated export.zip with GPX routes.
@Suite("Workouts on the command line")
struct WorkoutCommandTests {
    /// A set of workout filter options and the same selection written out over a listed workout
    /// (JSON: duration in seconds, energy in kilocalories, distance in metres; null when absent).
    struct FilterCase: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var selects: @Sendable ([String: Any]) -> Bool
        var testDescription: String { arguments.joined(separator: " ") }

        static func figure(_ workout: [String: Any], _ key: String) -> Double? { workout[key] as? Double }
        static func activity(_ workout: [String: Any]) -> String { workout["activityType"] as? String ?? "" }
    }

    static let filterCases: [FilterCase] = [
        FilterCase(arguments: ["--activity", "running"]) { FilterCase.activity($0) == "HKWorkoutActivityTypeRunning" },
        FilterCase(arguments: ["--activity", "running", "--min-duration", "20min", "--min-energy", "200kcal",
                               "--min-distance", "5km"]) { workout in
            FilterCase.activity(workout) == "HKWorkoutActivityTypeRunning"
                && (FilterCase.figure(workout, "duration") ?? -1) >= 1_200
                && (FilterCase.figure(workout, "totalEnergyBurned") ?? -1) >= 200
                && (FilterCase.figure(workout, "totalDistance") ?? -1) >= 5_000
        },
        FilterCase(arguments: ["--activity", "Cycling", "--activity", "HKWorkoutActivityTypeYoga"]) {
            ["HKWorkoutActivityTypeCycling", "HKWorkoutActivityTypeYoga"].contains(FilterCase.activity($0))
        },
        FilterCase(arguments: ["--min-distance", "5 km", "--max-distance", "10000m"]) { workout in
            FilterCase.figure(workout, "totalDistance").map { $0 >= 5_000 && $0 <= 10_000 } ?? false
        },
        // 1000 kJ is 239.006 kcal: workouts of exactly 239 kcal are in.
        FilterCase(arguments: ["--max-energy", "1000kJ", "--min-duration", "0.5hr"]) { workout in
            (FilterCase.figure(workout, "totalEnergyBurned").map { $0 <= 1_000 / 4.184 } ?? false)
                && (FilterCase.figure(workout, "duration") ?? -1) >= 1_800
        },
        FilterCase(arguments: ["--min-distance", "3mi", "--max-duration", "3600s"]) { workout in
            (FilterCase.figure(workout, "totalDistance").map { $0 >= 3 * 1_609.34 } ?? false)
                && (FilterCase.figure(workout, "duration") ?? .infinity) <= 3_600
        },
    ]

    @Test("workout filters select what the same conditions select over the whole listing", arguments: filterCases)
    func filters(_ filter: FilterCase) throws {
        let store = try Fixtures.hkimportStore.get().store
        let base = ["workouts", "--store", store, "--format", "json", "--time-zone", "UTC"]
        let all = try #require(try CadenceBinary.succeed(base).jsonObject()["workouts"] as? [[String: Any]])
        let selected = try #require(try CadenceBinary.succeed(base + filter.arguments).jsonObject()["workouts"] as? [[String: Any]])
        let expected = all.filter(filter.selects)
        #expect(selected.map { $0["uuid"] as? String } == expected.map { $0["uuid"] as? String })
        // Each case selects some workouts of the real export, not all of them.
        #expect(!expected.isEmpty && expected.count < all.count)
    }

    @Test("workout filters refuse unknown activities and bounds without a unit of their kind", arguments: [
        (["--activity", "runing"], "running"),
        (["--min-energy", "5km"], "--min-energy"),
        (["--min-duration", "20"], "20min"),
        (["--max-distance", "far"], "--max-distance"),
    ])
    func refusedFilters(arguments: [String], mention: String) throws {
        let store = try Fixtures.hkimportStore.get().store
        let result = try CadenceBinary.run(["workouts", "--store", store] + arguments)
        #expect(result.status != 0)
        #expect(result.standardError.contains(mention), "\(result.standardError)")
    }

    /// A JSON value as text with sorted keys, to compare documents.
    static func canonical(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test("samples, changes and delete take the workout type by either name")
    func workoutType() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Fixtures.copyOfHKImportStore(in: directory)
        let zone = ["--time-zone", "UTC"]
        let listing = ["workouts", "--store", store] + zone
        let listed = try #require(try CadenceBinary.succeed(listing + ["--format", "json"]).jsonObject()["workouts"]
            as? [[String: Any]])
        // samples prints them as workouts does, in every format.
        for name in ["workout", "HKWorkoutTypeIdentifier"] {
            let samples = ["samples", "--store", store, "--type", name] + zone
            let json = try CadenceBinary.succeed(samples + ["--format", "json"]).jsonObject()
            #expect(try Self.canonical(json["samples"] ?? []) == Self.canonical(listed))
            #expect(try CadenceBinary.succeed(samples + ["--format", "csv"]).standardOutput
                        == CadenceBinary.succeed(listing + ["--format", "csv"]).standardOutput)
            #expect(try CadenceBinary.succeed(samples).standardOutput == CadenceBinary.succeed(listing).standardOutput)
        }
        let latest = try #require(try CadenceBinary.succeed(["samples", "--store", store, "--type", "workout", "--limit", "3",
                                                             "--sort", "-startDate", "--format", "json"] + zone)
            .jsonObject()["samples"] as? [[String: Any]])
        let starts = listed.compactMap { $0["startDate"] as? String }
        #expect(latest.compactMap { $0["startDate"] as? String } == Array(starts.sorted(by: >).prefix(3)))

        // changes lists every workout; then a delete by UUID and one by type and source.
        let changes = ["changes", "--store", store, "--type", "workout"] + zone
        let first = try CadenceBinary.succeed(changes).jsonObject()
        let changed = try #require(first["samples"] as? [[String: Any]])
        #expect(Set(changed.compactMap { $0["uuid"] as? String }) == Set(listed.compactMap { $0["uuid"] as? String }))
        #expect(changed.allSatisfy { $0["type"] as? String == "HKWorkoutTypeIdentifier" })
        let anchor = try #require(first["anchor"] as? String)
        let byUUID = try #require(listed.first?["uuid"] as? String)
        let deletedOne = try CadenceBinary.succeed(["delete", "--store", store, "--uuid", byUUID]).standardOutput
        #expect(deletedOne == "Deleted 1 sample.\n")
        let source = try #require(listed.last?["sourceName"] as? String)
        let bySource = listed.dropFirst().filter { $0["sourceName"] as? String == source }.compactMap { $0["uuid"] as? String }
        let deletedBySource = try CadenceBinary.succeed(["delete", "--store", store, "--type", "workout", "--source", source,
                                                         "--format", "json"]).jsonObject()
        #expect(deletedBySource["deleted"] as? Int == bySource.count)
        let next = try CadenceBinary.succeed(changes + ["--anchor", anchor]).jsonObject()
        #expect((next["samples"] as? [Any])?.isEmpty == true)
        let deleted = try #require(next["deletedObjects"] as? [[String: Any]])
        let deletedUUIDs = deleted.compactMap { $0["uuid"] as? String }
        #expect(deletedUUIDs.first == byUUID)
        #expect(deletedUUIDs.count == 1 + bySource.count && Set(deletedUUIDs.dropFirst()) == Set(bySource))
        let left = try #require(try CadenceBinary.succeed(listing + ["--format", "json"]).jsonObject()["workouts"]
            as? [[String: Any]])
        #expect(left.count == listed.count - 1 - bySource.count)
    }

    @Test("workouts lists the export's 61 workouts in every format, and --from/--to narrow them")
    func listing() throws {
        let store = try Fixtures.hkimportStore.get().store
        let export = try String(contentsOf: try Fixtures.hkimportExport.get(), encoding: .utf8)
        let starts = export.split(separator: "\n").filter { $0.contains("<Workout ") }
            .compactMap { Fixtures.attributes(of: $0)["startDate"] }
        #expect(starts.count == 61)

        let json = try CadenceBinary.succeed(["workouts", "--store", store, "--format", "json", "--time-zone", "UTC"])
            .jsonObject()
        let workouts = try #require(json["workouts"] as? [[String: Any]])
        #expect(workouts.count == 61)
        #expect(workouts.allSatisfy { ($0["activityType"] as? String)?.hasPrefix("HKWorkoutActivityType") == true })
        let listedStarts = workouts.compactMap { $0["startDate"] as? String }
        #expect(listedStarts == listedStarts.sorted())

        let csv = try CadenceBinary.succeed(["workouts", "--store", store, "--format", "csv"]).standardOutput
        let lines = csv.split(separator: "\n")
        #expect(lines.first == "activityType,startDate,endDate,duration,totalEnergyBurned,totalDistance,sourceName,uuid")
        #expect(lines.count == 62)

        let table = try CadenceBinary.succeed(["workouts", "--store", store]).standardOutput
        #expect(table.contains("Activity") && table.contains("Energy (kcal)") && table.contains("Distance (km)"))
        for workout in workouts { #expect(table.contains(workout["uuid"] as? String ?? "-")) }

        // A window holding the first workout's start day alone holds fewer workouts than all.
        let first = try #require(listedStarts.first)
        let day = String(first.prefix(10))
        let narrowed = try CadenceBinary.succeed(["workouts", "--store", store, "--format", "json", "--from", day,
                                                  "--to", day + "T23:59:59Z", "--strict-start", "--time-zone", "UTC"]).jsonObject()
        let some = try #require(narrowed["workouts"] as? [[String: Any]])
        #expect(!some.isEmpty && some.count < 61)
        #expect(some.allSatisfy { ($0["startDate"] as? String)?.hasPrefix(day) == true })
    }

    @Test("plot --workout draws a stored route, and says why when there is none")
    func routePlot() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let zip = directory.path("export.zip")
        try CadenceBinary.succeed(["generate", "--profile", "realistic", "--days", "3", "--seed", "5",
                                   "--format", "export-zip", "--output", zip])
        let store = directory.path("store")
        try CadenceBinary.succeed(["import", zip, "--store", store])
        // Without --routes no route is read, and the listing says nothing of them.
        let listed = try CadenceBinary.succeed(["workouts", "--store", store, "--format", "json"]).jsonObject()
        #expect((listed["workouts"] as? [[String: Any]])?.allSatisfy { $0["routePoints"] == nil } == true)
        let json = try CadenceBinary.succeed(["workouts", "--store", store, "--format", "json", "--routes"]).jsonObject()
        let workouts = try #require(json["workouts"] as? [[String: Any]])
        let routed = try #require(workouts.first { $0["routePoints"] as? Int ?? 0 > 0 })
        let uuid = try #require(routed["uuid"] as? String)
        let svg = directory.path("route.svg")
        let drawn = try CadenceBinary.succeed(["plot", "--store", store, "--workout", uuid, "--output", svg])
        #expect(drawn.standardOutput.contains("\(routed["routePoints"] as? Int ?? -1) points"))
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.contains("<svg"))
        #expect(text.contains("<polyline"))

        let missing = try CadenceBinary.run(["plot", "--store", store, "--workout", UUID().uuidString, "--output", svg])
        #expect(missing.status != 0)
        #expect(missing.standardError.contains("No stored workout"))
        let routeless = try Fixtures.hkimportStore.get().store
        let anyWorkout = try CadenceBinary.succeed(["workouts", "--store", routeless, "--format", "csv"]).standardOutput
            .split(separator: "\n")[1].split(separator: ",").last.map(String.init) ?? ""
        let none = try CadenceBinary.run(["plot", "--store", routeless, "--workout", anyWorkout, "--output", svg])
        #expect(none.status != 0)
        #expect(none.standardError.contains("no route points"))
        let garbled = try CadenceBinary.run(["plot", "--store", store, "--workout", "not-a-uuid", "--output", svg])
        #expect(garbled.status != 0 && garbled.standardError.contains("not a UUID"))
    }
}
