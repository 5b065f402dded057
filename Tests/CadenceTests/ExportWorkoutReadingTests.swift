//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import Cadence

/// A sink that keeps the workouts the reader hands over, and counts records.
struct WorkoutCollectingSink: ExportRecordSink {
    var workouts: [(workout: Workout, line: Int)] = []
    var records = 0

    mutating func receive(_ record: ExportRecord) throws { records += 1 }
    mutating func receive(_ workout: Workout, line: Int) throws { workouts.append((workout, line)) }

    /// Reads `bytes` in blocks of `blockSize` into a new sink.
    static func read(_ bytes: [UInt8], blockSize: Int = 1 << 20) throws -> (WorkoutCollectingSink, ExportReadSummary) {
        var sink = WorkoutCollectingSink()
        var reader = ExportXMLReader(path: "test.xml")
        try bytes.withUnsafeBytes { buffer in
            var start = 0
            while start < buffer.count {
                let end = min(buffer.count, start + blockSize)
                try reader.feed(UnsafeRawBufferPointer(rebasing: buffer[start..<end]), into: &sink)
                start = end
            }
        }
        return (sink, try reader.finish())
    }
}

/// The `<Workout>` elements of an export and their children (<doc:HowCadenceComputes#Importing-Apple-Health-exports>, <doc:HowCadenceComputes#Categories-workouts-and-correlations>).
@Suite("Reading workouts from export.xml")
struct ExportWorkoutReadingTests {
    static let handWritten = """
    <?xml version="1.0" encoding="UTF-8"?>
    <HealthData locale="en_CH">
     <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" unit="count" startDate="2024-05-01 07:00:00 +0200" endDate="2024-05-01 07:01:00 +0200" value="80"/>
     <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" totalDistance="3.1" totalDistanceUnit="mi" totalEnergyBurned="1255.2" totalEnergyBurnedUnit="kJ" sourceName="Jane’s Apple Watch" sourceVersion="10.4" device="&lt;&lt;HKDevice: 0x2&gt;, name:Apple Watch, model:Watch&gt;" creationDate="2024-05-01 07:40:00 +0200" startDate="2024-05-01 07:05:00 +0200" endDate="2024-05-01 07:37:00 +0200" futureAttribute="x">
      <MetadataEntry key="HKIndoorWorkout" value="0"/>
      <MetadataEntry key="HKTimeZone" value="Europe/Zurich"/>
      <WorkoutEvent type="HKWorkoutEventTypePause" date="2024-05-01 07:20:00 +0200"/>
      <WorkoutEvent type="HKWorkoutEventTypeResume" date="2024-05-01 07:22:00 +0200"/>
      <WorkoutEvent type="HKWorkoutEventTypeSegment" date="2024-05-01 07:05:00 +0200" duration="5" durationUnit="min"/>
      <WorkoutEvent type="HKWorkoutEventTypeLap" date="not a date"/>
      <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="2024-05-01 07:05:00 +0200" endDate="2024-05-01 07:37:00 +0200" average="2.5" minimum="1.5" maximum="3" unit="count/s"/>
      <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceWalkingRunning" startDate="2024-05-01 07:05:00 +0200" endDate="2024-05-01 07:37:00 +0200" sum="4.9" unit="km"/>
      <SomethingNew a="b"><Deeper/></SomethingNew>
      <WorkoutRoute sourceName="Jane’s iPhone" sourceVersion="17.4" creationDate="2024-05-01 07:41:00 +0200" startDate="2024-05-01 07:05:00 +0200" endDate="2024-05-01 07:37:00 +0200">
       <MetadataEntry key="HKMetadataKeySyncVersion" value="2"/>
       <FileReference path="/workout-routes/route_2024-05-01_7.37am.gpx"/>
      </WorkoutRoute>
     </Workout>
     <Workout workoutActivityType="HKWorkoutActivityTypeSwimBikeRun" duration="90" durationUnit="min" sourceName="Jane’s Apple Watch" startDate="2024-05-02 07:00:00 +0200" endDate="2024-05-02 08:30:00 +0200">
      <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" sum="900" unit="kcal"/>
      <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceSwimming" sum="750" unit="m"/>
      <WorkoutStatistics type="HKQuantityTypeIdentifierSwimmingStrokeCount" sum="400" unit="count"/>
      <WorkoutActivity uuid="0E4C5F0B-35C9-4B7B-9D43-4F9C6C5AAB10" startDate="2024-05-02 07:00:00 +0200" endDate="2024-05-02 07:20:00 +0200" duration="20" durationUnit="min">
       <MetadataEntry key="HKSwimmingLocationType" value="2"/>
       <WorkoutEvent type="HKWorkoutEventTypeLap" date="2024-05-02 07:10:00 +0200"/>
       <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceSwimming" sum="0.75" unit="km"/>
      </WorkoutActivity>
      <WorkoutActivity startDate="2024-05-02 07:20:00 +0200" duration="70" durationUnit="min"/>
     </Workout>
     <Workout workoutActivityType="HKWorkoutActivityTypeWalking" sourceName="Old Phone" startDate="2016-11-14 07:25:41 -0700" endDate="2016-11-14 07:30:52 -0700">
      <WorkoutRoute sourceName="Old Phone" startDate="2016-11-14 07:25:44 -0700">
       <Location date="2016-11-14 07:25:44 -0700" latitude="37.7777" longitude="-122.426" altitude="21.2694" horizontalAccuracy="2.40948" verticalAccuracy="1.67859" course="-1" speed="2.48034"/>
       <Location date="2016-11-14 07:25:45 -0700" latitude="95" longitude="-122.426"/>
       <Location date="2016-11-14 07:25:46 -0700" latitude="37.7778" longitude="-122.4261"/>
      </WorkoutRoute>
     </Workout>
     <Workout workoutActivityType="HKWorkoutActivityTypeYoga" sourceName="No Start" endDate="2024-05-03 08:00:00 +0200"/>
     <Workout workoutActivityType="HKWorkoutActivityTypeYoga" sourceName="Bad Number" duration="ten" startDate="2024-05-03 08:00:00 +0200" endDate="2024-05-03 08:10:00 +0200"/>
     <Workout workoutActivityType="HKWorkoutActivityTypeYoga" sourceName="Entity &xxe;" startDate="2024-05-03 08:00:00 +0200" endDate="2024-05-03 08:10:00 +0200"/>
     <Workout sourceName="No Type" startDate="2024-05-04 08:00:00 +0200" endDate="2024-05-04 08:10:00 +0200"/>
    </HealthData>
    """

    static func date(_ text: String) throws -> Date { Date(timestamp: try parseExport(text)) }

    @Test("Every workout element and attribute of a hand-written export, whatever the block size",
          arguments: [1 << 20, 7, 64])
    func handWrittenFixture(blockSize: Int) throws {
        let (sink, summary) = try WorkoutCollectingSink.read(Array(Self.handWritten.utf8), blockSize: blockSize)
        #expect(sink.records == 1)
        #expect(summary.workoutCount == 7)
        #expect(summary.deliveredWorkoutCount == 4)
        #expect(summary.malformedWorkoutCount == 3)
        #expect(sink.workouts.map(\.line) == [4, 19, 30, 40])

        let run = sink.workouts[0].workout
        #expect(run.activityType == .running)
        #expect(run.duration == 1_800)
        #expect(abs((run.totalDistance ?? 0) - 3.1 * 1_609.34) < 1e-9)
        #expect(abs((run.totalEnergyBurned ?? 0) - 300) < 1e-9)  // 1255.2 kJ
        #expect(run.totalSwimmingStrokeCount == nil)
        #expect(run.source.name == "Jane’s Apple Watch")
        #expect(run.sourceVersion == "10.4")
        #expect(run.device?.name == "Apple Watch")
        #expect(run.creationDate == (try Self.date("2024-05-01 07:40:00 +0200")))
        #expect(run.startDate == (try Self.date("2024-05-01 07:05:00 +0200")))
        #expect(run.endDate == (try Self.date("2024-05-01 07:37:00 +0200")))
        #expect(run.metadata == ["HKIndoorWorkout": "0", "HKTimeZone": "Europe/Zurich"])
        #expect(run.events.map(\.type) == [.pause, .resume, .segment])  // the lap has no readable date
        #expect(run.events[2].duration == 300)
        #expect(run.events[0].date == (try Self.date("2024-05-01 07:20:00 +0200")))
        #expect(run.statistics.count == 2)
        let heartRate = try #require(run.statistics(for: try QuantityType("heartRate")))
        #expect(heartRate.unit == .countPerMinute)
        #expect(heartRate.average == 150 && heartRate.minimum == 90 && heartRate.maximum == 180)
        #expect(heartRate.sum == nil)
        let distance = try #require(run.statistics(for: try QuantityType("distanceWalkingRunning")))
        #expect(abs((distance.sum ?? 0) - 4_900) < 1e-9)
        #expect(run.routes.count == 1)
        #expect(run.routes[0].filePath == "/workout-routes/route_2024-05-01_7.37am.gpx")
        #expect(run.routes[0].source.name == "Jane’s iPhone")
        #expect(run.routes[0].metadata == ["HKMetadataKeySyncVersion": "2"])
        #expect(run.routes[0].locations.isEmpty)
        #expect(run.uuid == run.derivedUUID(occurrence: 0))

        // Totals only in the statistics, as newer exports write them; activities with their children.
        let triathlon = sink.workouts[1].workout
        #expect(triathlon.activityType == .swimBikeRun)
        #expect(triathlon.totalEnergyBurned == 900)
        #expect(triathlon.totalDistance == 750)
        #expect(triathlon.totalSwimmingStrokeCount == 400)
        #expect(triathlon.totalFlightsClimbed == nil)
        #expect(triathlon.activities.count == 2)
        let swim = triathlon.activities[0]
        #expect(swim.uuid == UUID(uuidString: "0E4C5F0B-35C9-4B7B-9D43-4F9C6C5AAB10"))
        #expect(swim.duration == 1_200)
        #expect(swim.metadata == ["HKSwimmingLocationType": "2"])
        #expect(swim.events.map(\.type) == [.lap])
        #expect(swim.statistics.first?.sum == 750)
        #expect(triathlon.activities[1].endDate == nil)
        #expect(triathlon.activities[1].duration == 4_200)

        // An inline route of an old export; the point with an impossible latitude is skipped.
        let walk = sink.workouts[2].workout
        #expect(walk.duration == walk.endDate.timeIntervalSince(walk.startDate))
        let locations = walk.routes[0].locations
        #expect(locations.count == 2)
        #expect(locations[0].latitude == 37.7777 && locations[0].longitude == -122.426)
        #expect(locations[0].altitude == 21.2694 && locations[0].speed == 2.48034)
        #expect(locations[0].course.isNaN)  // CoreLocation's −1
        #expect(locations[1].altitude.isNaN)
        #expect(locations[0].timestamp == (try parseExport("2016-11-14 07:25:44 -0700")))

        #expect(sink.workouts[3].workout.activityType == .other)

        // The skipped workouts and children are reported with their lines and reasons.
        let reasons = summary.issues.map(\.description)
        #expect(reasons.contains { $0.hasPrefix("line 10:") && $0.contains("<WorkoutEvent>") && $0.contains("date") })
        #expect(reasons.contains { $0.hasPrefix("line 33:") && $0.contains("<Location>") })
        #expect(reasons.contains { $0.hasPrefix("line 37:") && $0.contains("<Workout> was skipped") && $0.contains("startDate") })
        #expect(reasons.contains { $0.hasPrefix("line 38:") && $0.contains("duration") })
        #expect(reasons.contains { $0.hasPrefix("line 39:") && $0.contains("<Workout> was skipped") && $0.contains("entity") })
        #expect(summary.issues.count == 5, "\(reasons)")
    }

    /// One workout with `count` children of each kind (events, statistics, metadata entries), and an
    /// activity and an inline route with `count` children each, as `export.xml` text.
    static func crowdedWorkout(children count: Int) -> String {
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#, #"<HealthData locale="en_CH">"#,
                     #" <Workout workoutActivityType="HKWorkoutActivityTypeRunning" sourceName="Watch" startDate="2024-05-01 07:00:00 +0000" endDate="2024-05-02 07:00:00 +0000">"#]
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        func time(_ index: Int) -> String {
            "2024-05-01 \(twoDigits(7 + index / 3_600 % 17)):\(twoDigits(index / 60 % 60)):\(twoDigits(index % 60)) +0000"
        }
        for index in 0..<count {
            lines.append(#"  <WorkoutEvent type="E\#(index)" date="\#(time(index))"/>"#)
            lines.append(#"  <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" average="\#(index)" unit="count/min"/>"#)
            lines.append(#"  <MetadataEntry key="K\#(index)" value="\#(index)"/>"#)
        }
        lines.append(#"  <WorkoutActivity startDate="2024-05-01 07:00:00 +0000" duration="5">"#)
        for index in 0..<count { lines.append(#"   <WorkoutEvent type="A\#(index)" date="\#(time(index))"/>"#) }
        lines.append("  </WorkoutActivity>")
        lines.append(#"  <WorkoutRoute sourceName="Watch">"#)
        for index in 0..<count {
            lines.append(#"   <Location date="\#(time(index))" latitude="47.\#(index)" longitude="8.5"/>"#)
        }
        lines += ["  </WorkoutRoute>", " </Workout>", "</HealthData>", ""]
        return lines.joined(separator: "\n")
    }

    // Every child list of a workout grows by appending in place: before, each child copied the
    // list, and 30 k children of each kind took minutes; the time limit is far above the linear cost.
    @Test("A workout with 30 k children of every kind keeps them all, in file order", .timeLimit(.minutes(1)))
    func crowdedWorkoutKeepsEveryChild() throws {
        let count = 30_000
        let (sink, summary) = try WorkoutCollectingSink.read(Array(Self.crowdedWorkout(children: count).utf8))
        #expect(summary.issues.isEmpty, "\(summary.issues.prefix(3))")
        let workout = try #require(sink.workouts.first?.workout)
        #expect(sink.workouts.count == 1)
        #expect(workout.events.map(\.type) == (0..<count).map { WorkoutEventType("E\($0)") })
        #expect(workout.statistics.map { $0.average ?? -1 } == (0..<count).map(Double.init))
        #expect(workout.metadata.count == count)
        #expect(workout.metadata["K\(count - 1)"] == "\(count - 1)")
        #expect(workout.activities.count == 1)
        #expect(workout.activities.first?.events.map(\.type) == (0..<count).map { WorkoutEventType("A\($0)") })
        let route = try #require(workout.routes.first)
        #expect(route.locations.latitudes == (0..<count).map { Double("47.\($0)") ?? .nan })
    }

    /// The `<Workout>` tags of a text, as attribute dictionaries, by a regular expression.
    static func workoutTags(_ text: String) throws -> [[String: String]] {
        let tag = try Regex(#"<Workout ([^>]*)>"#)
        let attribute = try Regex(#"([A-Za-z]+)="([^"]*)""#)
        return text.matches(of: tag).map { match in
            let body = String(text[match.range])
            var attributes: [String: String] = [:]
            for pair in body.matches(of: attribute) {
                let name = pair.output[1].substring.map(String.init) ?? ""
                attributes[name] = pair.output[2].substring.map(String.init) ?? ""
            }
            return attributes
        }
    }

    @Test("hkimport-export.xml: all 61 workouts, with totals that match a plain text scan")
    func hkimportWorkouts() throws {
        let path = try ImportFixtures.appleHealthFile("hkimport-export.xml")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let tags = try Self.workoutTags(text)
        #expect(tags.count == 61)
        let (sink, summary) = try WorkoutCollectingSink.read(Array(text.utf8))
        #expect(summary.workoutCount == 61)
        #expect(summary.deliveredWorkoutCount == 61)
        #expect(sink.workouts.count == 61)
        // Every tag in this file uses min, km and kcal: the expected values need only those factors.
        for (tag, (workout, _)) in zip(tags, sink.workouts) {
            #expect(tag["durationUnit"] == "min" && tag["totalDistanceUnit"] == "km" && tag["totalEnergyBurnedUnit"] == "kcal")
            #expect(workout.activityType.identifier == tag["workoutActivityType"])
            #expect(workout.source.name == tag["sourceName"])
            #expect(abs(workout.duration - (Double(tag["duration"] ?? "") ?? -1) * 60) < 1e-6)
            #expect(abs((workout.totalDistance ?? -1) - (Double(tag["totalDistance"] ?? "") ?? -1) * 1_000) < 1e-6)
            #expect(abs((workout.totalEnergyBurned ?? -1) - (Double(tag["totalEnergyBurned"] ?? "") ?? -1)) < 1e-9)
            #expect(workout.startDate == (try Self.date(tag["startDate"] ?? "")))
        }
        let expectedDuration = tags.reduce(0) { $0 + (Double($1["duration"] ?? "") ?? 0) * 60 }
        let expectedDistance = tags.reduce(0) { $0 + (Double($1["totalDistance"] ?? "") ?? 0) * 1_000 }
        let expectedEnergy = tags.reduce(0) { $0 + (Double($1["totalEnergyBurned"] ?? "") ?? 0) }
        let workouts = sink.workouts.map(\.workout)
        #expect(abs(workouts.reduce(0) { $0 + $1.duration } - expectedDuration) < 1e-3)
        #expect(abs(workouts.reduce(0) { $0 + ($1.totalDistance ?? 0) } - expectedDistance) < 1e-3)
        #expect(abs(workouts.reduce(0) { $0 + ($1.totalEnergyBurned ?? 0) } - expectedEnergy) < 1e-6)
        // Four pause/resume events, as the file holds.
        #expect(workouts.reduce(0) { $0 + $1.events.count } == text.components(separatedBy: "<WorkoutEvent ").count - 1)
        #expect(Set(workouts.map(\.uuid)).count == 61)
    }

    @Test("dogsheep-export.xml: the workout with an inline route of Locations")
    func dogsheepInlineRoute() throws {
        let path = try ImportFixtures.appleHealthFile("dogsheep-export.xml")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let (sink, summary) = try WorkoutCollectingSink.read(Array(text.utf8))
        #expect(summary.deliveredWorkoutCount == 1)
        let workout = try #require(sink.workouts.first?.workout)
        #expect(workout.metadata["HKWeatherTemperature"] == "56 degF")
        #expect(abs((workout.totalDistance ?? 0) - 0.4971749504535062 * 1_609.34) < 1e-9)
        let route = try #require(workout.routes.first)
        #expect(route.locations.count == text.components(separatedBy: "<Location ").count - 1)
        #expect(route.locations.count > 0)
    }
}
