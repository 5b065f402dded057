//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// Writes the seed corpus: small valid inputs for every target and every mode of it, made by
/// the library itself (a tiny store's chunk file, log segment and manifest, CSV rows).
///
/// The Apple Health sample exports and the zip seed are added by Fuzz/run.sh.
enum Seeds {
    static func readFile(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CadenceError(.notFound, "cannot read it", path: path)
        }
        return Array(data)
    }

    /// Writes seeds into `DIR/chunk`, `DIR/wal`, `DIR/csv`, `DIR/xml` and `DIR/gpx`.
    static func write(to directory: String) throws {
        var seeds: [FuzzTarget: [(String, [UInt8])]] = [:]
        let store = try tinyStore()
        // Chunk files of several shapes, in every mode of the chunk target.
        for (name, columns) in [("plain", plainColumns()), ("detail", detailColumns()), ("blocks", blockColumns()),
                                ("payloads", payloadColumns()), ("hours", hourColumns())] {
            let chunk = try ChunkFile.encode(columns, typeIdentifier: "HKQuantityTypeIdentifierHeartRate",
                                             style: .discreteArithmetic).bytes
            seeds[.chunk, default: []] += chunkSeeds(name, chunk: chunk, columns: columns)
        }
        seeds[.chunk, default: []] += chunkSeeds("store", chunk: store.chunk, columns: nil)
        // The store's log segment, its records, and its manifest.
        seeds[.wal, default: []] += [("segment", [0] + store.segment), ("segment-refreshed", [1] + store.segment)]
        var offset = 0
        var record = 0
        while offset + WriteAheadLog.headerSize <= store.segment.count {
            let length = store.segment[offset + 4..<offset + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
            let payload = offset + WriteAheadLog.headerSize
            seeds[.wal, default: []].append(("record-\(record)", [2] + store.segment[payload..<payload + length]))
            offset = payload + length
            record += 1
        }
        seeds[.wal, default: []].append(("manifest", [3] + store.manifest))
        // CSV files for the reader and the importer.
        let header = "type,sourceName,unit,startDate,endDate,value,uuid,sourceVersion,device,creationDate,metadata:HKWasUserEntered\n"
        let rows = """
            HKQuantityTypeIdentifierStepCount,iPhone,count,2024-03-10 08:00:00 +0100,2024-03-10 08:05:00 +0100,120,,17.4,,2024-03-10 08:06:00 +0100,
            HKQuantityTypeIdentifierHeartRate,"Apple Watch",count/min,2024-03-10T08:00:00Z,2024-03-10T08:00:00Z,61.5,7A1C3E4B-1111-4222-8333-944455556666,,"<<HKDevice>, name:Apple Watch>",,1
            HKQuantityTypeIdentifierBodyMass,Scale,lb,2024-03-10T08:00:00.25+02:00,2024-03-10T08:00:00.25+02:00,160.2,,,,,
            HKQuantityTypeIdentifierDistanceWalkingRunning,iPhone,km,2024-03-10 09:00:00 +0100,2024-03-10 09:10:00 +0100,1.25,,,,,

            """
        let csv = Array((header + rows).utf8)
        seeds[.csv] = categoryCSVSeeds() + seriesCSVSeeds() + [
            ("import", [0x00] + csv), ("import-strict", [0x40] + csv), ("import-batches", [0x80] + csv),
            ("crlf-bom", [0x21] + [0xEF, 0xBB, 0xBF] + Array((header + rows).replacingOccurrences(of: "\n", with: "\r\n").utf8)),
            ("quoted", [0x1C] + Array("a;\"b;\"\"c\"\"\nd\";e\r\n;;\n\"unclosed\n".utf8)),
            ("tabs", [0x0A] + Array("x\ty\tz\n1\t2\t3\n".utf8)),
        ]
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation)*)>
            <!ATTLIST Record type CDATA #REQUIRED>
            ]>
            <HealthData locale="en_US">
             <ExportDate value="2024-03-10 10:00:00 +0100"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone &amp; co" unit="count" startDate="2024-03-10 08:00:00 +0100" endDate="2024-03-10 08:05:00 +0100" value="120">
              <MetadataEntry key="HKWasUserEntered" value="1"/>
             </Record>
             <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Cuff" startDate="2024-03-10 08:00:00 +0100" endDate="2024-03-10 08:00:00 +0100">
              <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Cuff" unit="mmHg" startDate="2024-03-10 08:00:00 +0100" endDate="2024-03-10 08:00:00 +0100" value="120"/>
             </Correlation>
             <!-- a comment -->
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning"><![CDATA[x]]></Workout>
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" totalDistance="5.1" totalDistanceUnit="km" totalEnergyBurned="310" totalEnergyBurnedUnit="kcal" sourceName="Watch" sourceVersion="10.4" device="&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch&gt;" creationDate="2024-03-10 09:40:00 +0100" startDate="2024-03-10 09:00:00 +0100" endDate="2024-03-10 09:35:00 +0100">
              <MetadataEntry key="HKIndoorWorkout" value="0"/>
              <WorkoutEvent type="HKWorkoutEventTypePause" date="2024-03-10 09:10:00 +0100"/>
              <WorkoutEvent type="HKWorkoutEventTypeSegment" date="2024-03-10 09:00:00 +0100" duration="5" durationUnit="min"/>
              <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="2024-03-10 09:00:00 +0100" endDate="2024-03-10 09:35:00 +0100" average="142" minimum="95" maximum="171" unit="count/min"/>
              <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" sum="310" unit="kcal"/>
              <WorkoutActivity uuid="0E4C5F0B-35C9-4B7B-9D43-4F9C6C5AAB10" startDate="2024-03-10 09:00:00 +0100" endDate="2024-03-10 09:35:00 +0100" duration="30" durationUnit="min">
               <MetadataEntry key="HKIndoorWorkout" value="0"/>
               <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceWalkingRunning" sum="5.1" unit="km"/>
              </WorkoutActivity>
              <WorkoutRoute sourceName="iPhone" creationDate="2024-03-10 09:41:00 +0100" startDate="2024-03-10 09:00:00 +0100" endDate="2024-03-10 09:35:00 +0100">
               <FileReference path="/workout-routes/route_2024-03-10_9.35am.gpx"/>
               <Location date="2024-03-10 09:00:00 +0100" latitude="47.37" longitude="8.54" altitude="408" horizontalAccuracy="3" verticalAccuracy="2" course="-1" speed="2.9"/>
              </WorkoutRoute>
             </Workout>
            </HealthData>

            """
        seeds[.xml] = [("small", [0x00] + Array(xml.utf8)), ("small-tight", [0x01] + Array(xml.utf8)),
                       ("small-strict", [0x60] + Array(xml.utf8))] + kindsXMLSeeds()
        let gpx = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1">
             <metadata><time>2024-03-10T08:41:00Z</time></metadata>
             <trk><name>Route 2024-03-10 9:35am</name><trkseg>
              <trkpt lon="8.540000" lat="47.370000"><ele>408.2</ele><time>2024-03-10T08:00:00Z</time><extensions><speed>2.9</speed><course>81.5</course><hAcc>3.1</hAcc><vAcc>2.0</vAcc></extensions></trkpt>
              <trkpt lon="8.540100" lat="47.370050"><ele>408.4</ele><time>2024-03-10T08:00:01Z</time><extensions><speed>-1</speed><course>-1</course><hAcc>3.1</hAcc><vAcc>2.0</vAcc></extensions></trkpt>
              <!-- a comment --><trkpt lat="&#52;7.4" lon='8.6'><ele><![CDATA[ 409 ]]></ele><time>2024-03-10T09:00:02+01:00</time></trkpt>
             </trkseg></trk>
            </gpx>

            """
        seeds[.gpx] = [("route", [0x00] + Array(gpx.utf8)), ("route-tight", [0x01] + Array(gpx.utf8)),
                       ("route-pieces", [0x0E] + Array(gpx.utf8))] + hostileGPXSeeds()
        for (target, files) in seeds {
            let folder = directory + "/" + target.rawValue
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (name, bytes) in files {
                guard FileManager.default.createFile(atPath: folder + "/seed-" + name, contents: Data(bytes)) else {
                    throw CadenceError(.io, "cannot write a seed", path: folder + "/seed-" + name)
                }
            }
        }
    }

    // MARK: Every sample kind

    /// Category records of every value table (sleep stages old and new, stand hours, severities,
    /// menstrual flow, not-applicable types), unknown types and value names; blood pressure and
    /// food correlations whose nested records have top-level twins or none; a workout with
    /// metadata, events, statistics, activities and a route reference; each with default and
    /// tight limits, strict mode and tiny batches.
    static func kindsXMLSeeds() -> [(String, [UInt8])] {
        let sleep = "HKCategoryTypeIdentifierSleepAnalysis"
        let watch = #"sourceName="Jane’s Apple Watch" sourceVersion="10.4" device="&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch&gt;""#
        func category(_ type: String, _ value: String, _ start: String, _ end: String, _ source: String = watch) -> String {
            #" <Record type="\#(type)" \#(source) creationDate="2024-03-11 07:01:00 +0100" startDate="2024-03-\#(start) +0100" endDate="2024-03-\#(end) +0100" value="\#(value)"/>"#
        }
        func member(_ type: String, _ unit: String, _ value: String, indent: String = " ") -> String {
            #"\#(indent)<Record type="HKQuantityTypeIdentifier\#(type)" sourceName="Cuff" unit="\#(unit)" creationDate="2024-03-11 08:00:00 +0100" startDate="2024-03-11 08:00:00 +0100" endDate="2024-03-11 08:00:00 +0100" value="\#(value)"/>"#
        }
        func food(_ type: String, _ unit: String, _ value: String, indent: String = " ") -> String {
            #"\#(indent)<Record type="HKQuantityTypeIdentifierDietary\#(type)" sourceName="MyFitnessPal" unit="\#(unit)" startDate="2024-03-11 12:30:00 +0100" endDate="2024-03-11 12:30:00 +0100" value="\#(value)"/>"#
        }
        let lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<HealthData locale="de_CH">"#,
            category(sleep, "HKCategoryValueSleepAnalysisInBed", "10 22:30:00", "11 07:00:00", #"sourceName="iPhone""#),
            category(sleep, "HKCategoryValueSleepAnalysisAsleepCore", "10 23:00:00", "11 01:00:00"),
            category(sleep, "HKCategoryValueSleepAnalysisAsleepDeep", "11 01:00:00", "11 02:00:00"),
            category(sleep, "HKCategoryValueSleepAnalysisAsleepREM", "11 02:00:00", "11 02:40:00"),
            category(sleep, "HKCategoryValueSleepAnalysisAwake", "11 02:40:00", "11 02:45:00"),
            category(sleep, "HKCategoryValueSleepAnalysisAsleep", "10 23:30:00", "11 06:30:00", #"sourceName="AutoSleep""#),
            category(sleep, "HKCategoryValueSleepAnalysisAsleepUnspecified", "11 03:00:00", "11 06:30:00"),
            category(sleep, "HKCategoryValueSleepAnalysisDreaming", "11 04:00:00", "11 04:10:00"),
            category(sleep, "3", "11 04:10:00", "11 04:20:00"),
            category(sleep, "HKCategoryValueSleepAnalysisAsleepCore", "11 06:00:00", "11 05:00:00"),
            category("HKCategoryTypeIdentifierAppleStandHour", "HKCategoryValueAppleStandHourStood", "11 09:00:00", "11 10:00:00"),
            category("HKCategoryTypeIdentifierAppleStandHour", "HKCategoryValueAppleStandHourIdle", "11 10:00:00", "11 11:00:00"),
            category("HKCategoryTypeIdentifierMindfulSession", "HKCategoryValueNotApplicable", "11 12:00:00", "11 12:10:00"),
            category("HKCategoryTypeIdentifierHighHeartRateEvent", "HKCategoryValueNotApplicable", "11 13:00:00", "11 13:00:00"),
            category("HKCategoryTypeIdentifierHeadache", "HKCategoryValueSeverityModerate", "11 14:00:00", "11 16:00:00"),
            category("HKCategoryTypeIdentifierCoughing", "HKCategoryValueSeverityNotPresent", "11 14:00:00", "11 16:00:00"),
            category("HKCategoryTypeIdentifierMenstrualFlow", "HKCategoryValueMenstrualFlowHeavy", "11 00:00:00", "12 00:00:00"),
            category("HKCategoryTypeIdentifierMenstrualFlow", "HKCategoryValueMenstrualFlowUnspecified", "12 00:00:00", "13 00:00:00"),
            category("HKCategoryTypeIdentifierSomethingNew", "HKCategoryValueSomethingNewLots", "11 17:00:00", "11 18:00:00"),
            category("HKCategoryTypeIdentifierMindfulSession", "", "11 19:00:00", "11 19:05:00"),
            member("BloodPressureSystolic", "mmHg", "121"),
            member("BloodPressureDiastolic", "mmHg", "79"),
            #" <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Cuff" creationDate="2024-03-11 08:00:00 +0100" startDate="2024-03-11 08:00:00 +0100" endDate="2024-03-11 08:00:00 +0100">"#,
            #"  <MetadataEntry key="HKWasUserEntered" value="1"/>"#,
            member("BloodPressureSystolic", "mmHg", "121", indent: "  "),
            member("BloodPressureDiastolic", "mmHg", "79", indent: "  "),
            " </Correlation>",
            food("EnergyConsumed", "Cal", "320"),
            #" <Correlation type="HKCorrelationTypeIdentifierFood" sourceName="MyFitnessPal" startDate="2024-03-11 12:30:00 +0100" endDate="2024-03-11 12:30:00 +0100">"#,
            #"  <MetadataEntry key="HKFoodMeal" value="Lunch"/>"#,
            #"  <MetadataEntry key="HKFoodType" value="Pasta &amp; “sauce”"/>"#,
            food("EnergyConsumed", "Cal", "320", indent: "  "),
            food("Protein", "g", "11", indent: "  "),
            food("Carbohydrates", "g", "54", indent: "  "),
            #"  <Record type="HKQuantityTypeIdentifierDietaryFatTotal" sourceName="MyFitnessPal" unit="g" startDate="2024-03-11 12:30:00 +0100" endDate="2024-03-11 12:30:00 +0100" value="x"/>"#,
            " </Correlation>",
            #" <Correlation type="HKCorrelationTypeIdentifierSomethingElse" sourceName="App" startDate="2024-03-11 13:00:00 +0100" endDate="2024-03-11 13:00:00 +0100"/>"#,
            #" <Workout workoutActivityType="HKWorkoutActivityTypeCycling" duration="3600" durationUnit="s" \#(watch) creationDate="2024-03-11 18:05:00 +0100" startDate="2024-03-11 17:00:00 +0100" endDate="2024-03-11 18:00:00 +0100">"#,
            #"  <MetadataEntry key="HKIndoorWorkout" value="1"/>"#,
            #"  <MetadataEntry key="HKAverageMETs" value="7.2 kcal/hr·kg"/>"#,
            #"  <WorkoutEvent type="HKWorkoutEventTypeLap" date="2024-03-11 17:30:00 +0100" duration="0.5" durationUnit="hr"/>"#,
            #"  <WorkoutEvent type="HKWorkoutEventTypeMarker" date="2024-03-11 17:45:00 +0100"/>"#,
            #"  <WorkoutEvent type="HKWorkoutEventTypeSomethingNew" date="not a date"/>"#,
            #"  <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceCycling" startDate="2024-03-11 17:00:00 +0100" endDate="2024-03-11 18:00:00 +0100" sum="25.3" unit="km"/>"#,
            #"  <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" average="131" minimum="88" maximum="168" unit="count/min"/>"#,
            #"  <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" sum="612" unit="Cal"/>"#,
            #"  <WorkoutActivity uuid="not-a-uuid" startDate="2024-03-11 17:00:00 +0100" duration="60" durationUnit="min">"#,
            #"   <WorkoutEvent type="HKWorkoutEventTypeSegment" date="2024-03-11 17:10:00 +0100" duration="10" durationUnit="min"/>"#,
            #"   <WorkoutStatistics type="HKQuantityTypeIdentifierCyclingPower" average="180" unit="W"/>"#,
            "  </WorkoutActivity>",
            #"  <WorkoutRoute sourceName="Jane’s Apple Watch" startDate="2024-03-11 17:00:00 +0100" endDate="2024-03-11 18:00:00 +0100">"#,
            #"   <MetadataEntry key="HKMetadataKeySyncVersion" value="2"/>"#,
            #"   <FileReference path="/workout-routes/route_2024-03-10_9.35am.gpx"/>"#,
            "  </WorkoutRoute>",
            #"  <WorkoutRoute sourceName="Watch"><FileReference path="/workout-routes/../../etc/passwd"/></WorkoutRoute>"#,
            #"  <WorkoutRoute sourceName="Watch"><FileReference path="/workout-routes/route_missing.gpx"/></WorkoutRoute>"#,
            " </Workout>",
            #" <ActivitySummary dateComponents="2024-03-11" activeEnergyBurned="612" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="Cal"/>"#,
            "</HealthData>",
            "",
        ]
        let kinds = Array(lines.joined(separator: "\n").utf8)
        return [("kinds", [0x00] + kinds), ("kinds-tight", [0x01] + kinds), ("kinds-strict", [0x40] + kinds),
                ("kinds-batches", [0x20] + kinds), ("kinds-segments", [0x1E] + kinds)]
    }

    /// CSV rows of category types: value names, raw values, unknown names and types, a missing value.
    static func categoryCSVSeeds() -> [(String, [UInt8])] {
        let rows = """
            type,sourceName,unit,startDate,endDate,value,uuid,metadata:HKTimeZone
            HKCategoryTypeIdentifierSleepAnalysis,Watch,,2024-03-10T23:00:00+01:00,2024-03-11T01:00:00+01:00,HKCategoryValueSleepAnalysisAsleepCore,,Europe/Zurich
            HKCategoryTypeIdentifierSleepAnalysis,Watch,,2024-03-11T01:00:00+01:00,2024-03-11T02:00:00+01:00,4,,
            sleepAnalysis,AutoSleep,,2024-03-10 23:30:00 +0100,2024-03-11 06:30:00 +0100,HKCategoryValueSleepAnalysisAsleep,0B3C5F0B-35C9-4B7B-9D43-4F9C6C5AAB10,
            HKCategoryTypeIdentifierSleepAnalysis,iPhone,,2024-03-10T22:30:00Z,2024-03-11T07:00:00Z,HKCategoryValueSleepAnalysisDreaming,,
            HKCategoryTypeIdentifierMindfulSession,Watch,,2024-03-11T12:00:00Z,2024-03-11T12:10:00Z,HKCategoryValueNotApplicable,,
            HKCategoryTypeIdentifierHeadache,iPhone,,2024-03-11T14:00:00Z,2024-03-11T13:00:00Z,HKCategoryValueSeverityMild,,
            HKCategoryTypeIdentifierSomethingNew,App,,2024-03-11T14:00:00Z,2024-03-11T15:00:00Z,,,

            """
        let bytes = Array(rows.utf8)
        return [("categories", [0x00] + bytes), ("categories-strict", [0x40] + bytes), ("categories-batches", [0x80] + bytes)]
    }

    /// Series samples as CSV rows naming their owning `sample` (as `cadence series --format csv`
    /// writes them): a step series with and without its own dates, a discrete heart-rate series of
    /// instants, plain rows beside them, and series refused whole (a row whose source differs,
    /// overlapping cumulative entries, an owner that is not a UUID, an entry outside the sample's
    /// dates); each with default options, strict mode and tiny batches.
    static func seriesCSVSeeds() -> [(String, [UInt8])] {
        let rows = """
            type,sourceName,unit,startDate,endDate,value,sample,sampleStartDate,sampleEndDate,uuid,metadata:HKWasUserEntered
            HKQuantityTypeIdentifierStepCount,Watch,count,2024-03-10T13:55:00Z,2024-03-10T13:56:00Z,90,5E1C3E4B-1111-4222-8333-944455556601,,,,
            HKQuantityTypeIdentifierStepCount,Watch,count,2024-03-10T13:56:00Z,2024-03-10T13:57:00Z,1,5E1C3E4B-1111-4222-8333-944455556601,,,,
            stepCount,Phone,count,2024-03-10T13:50:00Z,2024-03-10T13:58:00Z,20,,,,,
            HKQuantityTypeIdentifierStepCount,Watch,count,2024-03-10T14:04:00Z,2024-03-10T14:05:00Z,1,5E1C3E4B-1111-4222-8333-944455556601,,,,
            HKQuantityTypeIdentifierHeartRate,Watch,count/min,2024-03-10T08:00:00Z,2024-03-10T08:00:00Z,61,5E1C3E4B-1111-4222-8333-944455556602,2024-03-10T07:59:00Z,2024-03-10T08:10:00Z,,1
            HKQuantityTypeIdentifierHeartRate,Watch,count/min,2024-03-10T08:05:00Z,2024-03-10T08:05:00Z,75.5,5E1C3E4B-1111-4222-8333-944455556602,2024-03-10T07:59:00Z,2024-03-10T08:10:00Z,,1
            HKQuantityTypeIdentifierHeartRate,Watch,count/min,2024-03-10 09:05:00 +0100,2024-03-10 09:05:00 +0100,70,5E1C3E4B-1111-4222-8333-944455556602,2024-03-10T07:59:00Z,2024-03-10T08:10:00Z,,1
            HKQuantityTypeIdentifierStepCount,Watch,count,2024-03-11T10:00:00Z,2024-03-11T10:01:00Z,5,5E1C3E4B-1111-4222-8333-944455556603,,,,
            HKQuantityTypeIdentifierStepCount,Phone,count,2024-03-11T10:01:00Z,2024-03-11T10:02:00Z,5,5E1C3E4B-1111-4222-8333-944455556603,,,,
            HKQuantityTypeIdentifierDistanceWalkingRunning,Watch,km,2024-03-11T10:00:00Z,2024-03-11T10:02:00Z,0.2,5E1C3E4B-1111-4222-8333-944455556604,,,,
            HKQuantityTypeIdentifierDistanceWalkingRunning,Watch,m,2024-03-11T10:01:00Z,2024-03-11T10:03:00Z,150,5E1C3E4B-1111-4222-8333-944455556604,,,,
            HKQuantityTypeIdentifierBodyMass,Scale,kg,2024-03-11T07:00:00Z,2024-03-11T07:00:00Z,70,not-a-uuid,,,,
            HKQuantityTypeIdentifierBodyMass,Scale,kg,2024-03-12T07:00:00Z,2024-03-12T07:00:00Z,70,5E1C3E4B-1111-4222-8333-944455556605,2024-03-12T06:00:00Z,2024-03-12T06:30:00Z,,

            """
        let bytes = Array(rows.utf8)
        return [("series", [0x00] + bytes), ("series-strict", [0x40] + bytes), ("series-batches", [0x80] + bytes)]
    }

    /// Routes past the tight limits (more points than 3, deep nesting, long names) and hostile ones
    /// (a DTD, a second root, a file that is not XML).
    static func hostileGPXSeeds() -> [(String, [UInt8])] {
        let point = #"<trkpt lat="47.37" lon="8.54"><time>2024-03-10T08:00:00Z</time></trkpt>"#
        let long = "<gpx><trk><trkseg>" + String(repeating: point, count: 6) + "</trkseg></trk></gpx>"
        let nested = "<gpx>" + String(repeating: "<trk>", count: 6) + point + String(repeating: "</trk>", count: 6) + "</gpx>"
        let dtd = #"<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY a "aa">]><gpx>&a;</gpx>"#
        return [("long", [0x00] + Array(long.utf8)), ("long-tight", [0x01] + Array(long.utf8)),
                ("nested-tight", [0x01] + Array(nested.utf8)), ("dtd", [0x00] + Array(dtd.utf8)),
                ("two-roots", [0x00] + Array((long + long).utf8)), ("binary", [0x00, 0x89, 0x50, 0x4E, 0x47, 0x00, 0x3C])]
    }

    /// The chunk target's seeds for one chunk file: the file in modes 0 and 1, its raw parts in 2 and 3.
    static func chunkSeeds(_ name: String, chunk: [UInt8], columns: SampleColumns?) -> [(String, [UInt8])] {
        var result = [("\(name)-file", [0] + chunk), ("\(name)-refreshed", [1] + chunk)]
        guard let columns else { return result }
        let query = ColumnCodec.encodeQueryColumns(columns)
        let detail = ColumnCodec.encodeDetailColumns(columns)
        var raw = BinaryWriter()
        raw.write(UInt8(2))
        raw.writeVarint(UInt64(columns.count))
        raw.writeVarint(UInt64(query.count))
        raw.write(bytes: query)
        raw.write(bytes: detail)
        result.append(("\(name)-raw", raw.bytes))
        // The summary section of the file, unframed.
        let summaryLength = chunk[10..<14].reversed().reduce(0) { $0 << 8 | Int($1) }
        var parts = BinaryWriter()
        parts.write(UInt8(3))
        parts.writeVarint(UInt64(summaryLength))
        parts.write(bytes: chunk[18..<18 + summaryLength])
        let blocks = ColumnCodec.blockBoundaries(columns).map { ColumnCodec.encodeQueryBlock(columns, rows: $0) }
        parts.writeVarint(UInt64(blocks.count))
        for block in blocks {
            parts.writeVarint(UInt64(block.count))
            parts.write(bytes: block)
        }
        parts.write(bytes: detail)
        result.append(("\(name)-parts", parts.bytes))
        // The same parts framed as a version 4 chunk, its query columns one section.
        var oldParts = BinaryWriter()
        oldParts.write(UInt8(7))
        oldParts.writeVarint(UInt64(summaryLength))
        oldParts.write(bytes: chunk[18..<18 + summaryLength])
        oldParts.writeVarint(UInt64(query.count))
        oldParts.write(bytes: query)
        oldParts.write(bytes: detail)
        result.append(("\(name)-parts-version-4", oldParts.bytes))
        return result
    }

    static let hour: Int64 = 3_600_000_000
    static let base: Int64 = 1_710_057_600_000_000  // 2024-03-10T08:00:00Z

    /// Regular heart rates with decimal values.
    static func plainColumns() -> SampleColumns {
        var columns = SampleColumns()
        for row in 0..<24 {
            let start = base + Int64(row) * 60_000_000
            columns.append(start: start, end: start, value: 60 + Double(row % 7) * 0.5, provenance: UInt32(row % 2),
                           sequence: Int64(row + 1))
        }
        return columns
    }

    /// Rows with flags, explicit UUIDs, creation times, metadata, device addresses and non-decimal values.
    static func detailColumns() -> SampleColumns {
        var columns = SampleColumns()
        for row in 0..<9 {
            let start = base + Int64(row) * 1_234_567
            columns.append(start: start, end: start + Int64(row) * 1_000, value: Double(row) / 3, provenance: 0,
                           sequence: Int64(10 + row), flags: row % 3 == 0 ? SampleFlags.userEntered : 0,
                           uuid: row % 2 == 0 ? UUID(uuidString: "7A1C3E4B-1111-4222-8333-94445555666\(row)") : nil,
                           creation: row % 4 == 0 ? nil : start + 5_000_000,
                           metadata: row % 3 == 0 ? ["HKWasUserEntered": "1"] : row == 4 ? ["k": "v", "é": "ü"] : [:],
                           deviceAddress: row % 2 == 1 ? 0x1_7428_F780 + UInt64(row) * 0x50 : 0)
        }
        return columns
    }

    /// Rows of which some have payloads, in more than one payload block.
    static func payloadColumns() -> SampleColumns {
        var columns = SampleColumns()
        for row in 0..<12 {
            let start = base + Int64(row) * 600_000_000
            let size = row % 3 == 0 ? 0 : row == 5 ? PayloadSection.blockSize + 10 : 40 * row
            columns.append(start: start, end: start + 60_000_000, value: 37, provenance: 0, sequence: Int64(row + 1),
                           payload: (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ row) })
        }
        return columns
    }

    /// Enough rows across hours to make several blocks.
    static func blockColumns() -> SampleColumns {
        var columns = SampleColumns()
        for row in 0..<1_300 {
            let start = base + Int64(row) * 10_000_000
            columns.append(start: start, end: start + 10_000_000, value: Double(row % 50), provenance: UInt32(row % 3),
                           sequence: Int64(row + 1))
        }
        return columns
    }

    /// A 5-second series from ten minutes before an hour: its first block holds two hours, so the
    /// chunk ends with hour summaries.
    static func hourColumns() -> SampleColumns {
        var columns = SampleColumns()
        for row in 0..<1_000 {
            let start = base - 600_000_000 + Int64(row) * 5_000_000
            columns.append(start: start, end: start, value: Double(60 + row % 40), provenance: 0, sequence: Int64(row + 1))
        }
        return columns
    }

    /// A tiny on-disk store: its chunk file, log segment and manifest.
    static func tinyStore() throws -> (chunk: [UInt8], segment: [UInt8], manifest: [UInt8]) {
        let directory = NSTemporaryDirectory() + "/cadence-fuzz-seed-\(getpid())"
        try? FileManager.default.removeItem(atPath: directory)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try HealthStore.open(at: directory)
        let steps = try QuantityType("HKQuantityTypeIdentifierStepCount")
        let mass = try QuantityType("HKQuantityTypeIdentifierBodyMass")
        var first = QuantitySampleBatch(type: steps)
        let phone = first.addProvenance(Provenance(source: Source(name: "iPhone", bundleIdentifier: "com.apple.health"),
                                                   sourceVersion: "17.4", device: Device(name: "iPhone", model: "iPhone")))
        for row in 0..<12 {
            let start = base + Int64(row) * 300_000_000
            try first.append(startTimestamp: start, endTimestamp: start + 300_000_000, value: Double(100 + row),
                             provenanceIndex: phone)
        }
        _ = try store.save(first)
        var second = QuantitySampleBatch(type: mass)
        let scale = second.addProvenance(Provenance(source: Source(name: "Scale")))
        let uuid = UUID()
        try second.append(startTimestamp: base, endTimestamp: base, value: 72.5, provenanceIndex: scale, uuid: uuid,
                          creationTimestamp: base + 1_000_000, metadata: ["HKWasUserEntered": "1"])
        try second.append(startTimestamp: base + hour, endTimestamp: base + hour, value: 72.25, provenanceIndex: scale)
        _ = try store.save(second)
        _ = try store.deleteSamples(withUUIDs: [uuid])
        // A workout with a route: a save record with a payload section.
        var run = try Workout(activityType: .running, start: Date(timestamp: base), end: Date(timestamp: base + hour),
                              source: Source(name: "Watch"))
        run.routes = [WorkoutRoute(source: run.source, locations: LocationSeries((0..<5).map {
            LocationSeries.Location(timestamp: base + Int64($0) * 1_000_000, latitude: 47 + Double($0) / 1e4, longitude: 8.5)
        }))]
        _ = try store.save([run])
        // Two days' activity summaries, then other values for one of them: a replace record.
        let day = try ActivityDay("2024-03-10")
        _ = try store.save([ActivitySummary(day: day, activeEnergyBurned: 300, activeEnergyBurnedGoal: 500),
                            ActivitySummary(day: day.next, appleStandHours: 9, appleStandHoursGoal: 12)])
        _ = try store.save([ActivitySummary(day: day, activeEnergyBurned: 540, activeEnergyBurnedGoal: 500)])
        // The log holds everything so far (nothing was flushed); flushing then writes the chunks.
        guard let segmentName = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter({ $0.hasPrefix("wal-") }).sorted().last
        else { throw CadenceError(.notFound, "the tiny store has no log", path: directory) }
        let segment = try readFile(directory + "/" + segmentName)
        try store.flush()
        guard let chunkName = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter({ $0.hasPrefix("chunk-") }).sorted().first
        else { throw CadenceError(.notFound, "the tiny store has no chunk", path: directory) }
        let chunk = try readFile(directory + "/" + chunkName)
        try store.close()
        let manifest = try readFile(directory + "/MANIFEST")
        return (chunk, segment, manifest)
    }
}
