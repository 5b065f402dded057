//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import Cadence

/// Workout values: the activity type table and the derived identity (<doc:HowCadenceComputes#Identity>, <doc:HowCadenceComputes#Categories-workouts-and-correlations>).
@Suite("Workout model")
struct WorkoutModelTests {
    @Test("Every known activity type has one raw value and one name, and both lead back to it")
    func activityTypeTable() throws {
        let known = WorkoutActivityType.known
        #expect(known.count == 84)
        #expect(Set(known.map(\.identifier)).count == known.count)
        #expect(Set(known.compactMap(\.rawValue)).count == known.count)
        for type in known {
            let rawValue = try #require(type.rawValue)
            #expect(WorkoutActivityType(rawValue: rawValue) == type)
            #expect(WorkoutActivityType(type.identifier) == type)
            #expect(WorkoutActivityType(type.shortName) == type)
            #expect(WorkoutActivityType(type.shortName.uppercased()) == type)
            #expect(type.identifier.hasPrefix(WorkoutActivityType.identifierPrefix))
        }
        #expect(WorkoutActivityType.running.rawValue == 37)
        #expect(WorkoutActivityType("HKWorkoutActivityTypeMixedMetabolicCardioTraining").rawValue == 30)
        #expect(WorkoutActivityType(rawValue: 81) == nil)
    }

    @Test("An unknown activity name is kept verbatim, with no raw value")
    func unknownActivityType() {
        let future = WorkoutActivityType("HKWorkoutActivityTypeZorbing")
        #expect(future.identifier == "HKWorkoutActivityTypeZorbing")
        #expect(future.rawValue == nil)
        #expect(!future.isKnown)
        #expect(WorkoutActivityType("zorbing") == future)
        #expect(WorkoutEventType("HKWorkoutEventTypeSomethingNew").rawValue == nil)
        #expect(WorkoutEventType("lap") == .lap)
        #expect(WorkoutEventType.pauseOrResumeRequest.rawValue == 8)
    }

    static let start = Date(timeIntervalSince1970: 1_500_000_000)

    static func run(_ change: (inout Workout) -> Void = { _ in }) throws -> Workout {
        var workout = try Workout(
            activityType: .running, start: start, end: start.addingTimeInterval(1_800), duration: 1_700,
            source: Source(name: "Jane’s Apple Watch"), sourceVersion: "9.1",
            device: Device(description: "<<HKDevice: 0x1>, name:Apple Watch, model:Watch>"),
            creationDate: start.addingTimeInterval(1_900), totalEnergyBurned: 310, totalDistance: 5_020,
            metadata: ["HKIndoorWorkout": "0"])
        change(&workout)
        return workout
    }

    @Test("The derived UUID is the same for the same workout and changes with every attribute")
    func derivedIdentity() throws {
        let base = try Self.run()
        let same = try Self.run { $0.uuid = UUID() }
        #expect(base.derivedUUID() == same.derivedUUID())
        #expect(base.identityKey == same.identityKey)
        #expect(base.derivedUUID(occurrence: 0) != base.derivedUUID(occurrence: 1))
        // Children are not attributes: a route added later names the same object.
        let withRoute = try Self.run { $0.routes = [WorkoutRoute(source: Source(name: "iPhone"), filePath: "/r.gpx")] }
        #expect(withRoute.derivedUUID() == base.derivedUUID())
        let changes: [(String, (inout Workout) -> Void)] = [
            ("activity type", { $0.activityType = .walking }),
            ("source", { $0.source = Source(name: "iPhone") }),
            ("source version", { $0.sourceVersion = nil }),
            ("device", { $0.device = nil }),
            ("duration", { $0.duration = 1_701 }),
            ("energy", { $0.totalEnergyBurned = nil }),
            ("distance", { $0.totalDistance = 5_021 }),
            ("strokes", { $0.totalSwimmingStrokeCount = 0 }),
            ("flights", { $0.totalFlightsClimbed = 3 }),
            ("creation", { $0.creationDate = nil }),
            ("start", { $0.startDate = $0.startDate.addingTimeInterval(-0.000_001) }),
            ("end", { $0.endDate = $0.endDate.addingTimeInterval(1) }),
            ("metadata", { $0.metadata["HKIndoorWorkout"] = "1" }),
        ]
        var seen: Set<UUID> = [base.derivedUUID()]
        for (name, change) in changes {
            let changed = try Self.run(change)
            #expect(seen.insert(changed.derivedUUID()).inserted, "changing the \(name) kept the UUID")
            #expect(changed.identityKey != base.identityKey, "changing the \(name) kept the key")
        }
        // Version 8, RFC 4122 variant.
        let text = base.derivedUUID().uuidString
        #expect(Array(text)[14] == "8")
        #expect(["8", "9", "A", "B"].contains(Array(text)[19]))
    }

    @Test("A workout refuses an end before its start and negative or non-finite totals")
    func validation() throws {
        #expect(throws: CadenceError.self) {
            try Workout(activityType: .yoga, start: Self.start, end: Self.start.addingTimeInterval(-1),
                        source: Source(name: "x"))
        }
        #expect(throws: CadenceError.self) {
            try Workout(activityType: .yoga, start: Self.start, end: Self.start, source: Source(name: "x"),
                        totalDistance: -1)
        }
        #expect(throws: CadenceError.self) {
            try Workout(activityType: .yoga, start: Self.start, end: Self.start, source: Source(name: "x"),
                        totalEnergyBurned: .nan)
        }
        let workout = try Workout(activityType: .yoga, start: Self.start, end: Self.start.addingTimeInterval(60),
                                  source: Source(name: "x"))
        #expect(workout.duration == 60)
    }

    @Test("A location series keeps its columns in step, and nan fields compare equal")
    func locationSeries() {
        var series = LocationSeries()
        series.append(LocationSeries.Location(timestamp: 1, latitude: 47.0, longitude: 8.0))
        series.append(LocationSeries.Location(timestamp: 2, latitude: 47.1, longitude: 8.1, altitude: 400, speed: 3))
        #expect(series.count == 2)
        #expect(series[1].altitude == 400)
        #expect(series[0].altitude.isNaN)
        #expect([series.latitudes.count, series.longitudes.count, series.altitudes.count, series.speeds.count,
                 series.courses.count, series.horizontalAccuracies.count, series.verticalAccuracies.count]
            .allSatisfy { $0 == 2 })
        #expect(LocationSeries([series[0], series[1]]) == series)
    }
}
