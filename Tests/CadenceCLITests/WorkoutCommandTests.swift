//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

/// Workouts through the command line: `cadence workouts` on the real export's store, and
/// `cadence plot --workout` on a generated export.zip with GPX routes.
@Suite("Workouts on the command line")
struct WorkoutCommandTests {
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
        let json = try CadenceBinary.succeed(["workouts", "--store", store, "--format", "json"]).jsonObject()
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
