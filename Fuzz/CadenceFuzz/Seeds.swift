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
        for (name, columns) in [("plain", plainColumns()), ("detail", detailColumns()), ("blocks", blockColumns())] {
            let chunk = try ChunkFile.encode(columns, typeIdentifier: "HKQuantityTypeIdentifierHeartRate",
                                             style: .discreteArithmetic).bytes
            seeds[.chunk, default: []] += chunkSeeds(name, chunk: chunk, columns: columns)
        }
        seeds[.chunk, default: []] += chunkSeeds("store", chunk: store.chunk, columns: nil)
        // The store's log segment, its records, and its manifest.
        seeds[.wal, default: []] += [("segment", [0] + store.segment), ("segment-refreshed", [1] + store.segment)]
        var offset = 0
        var record = 0
        while offset + 12 <= store.segment.count {
            let length = store.segment[offset + 4..<offset + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
            seeds[.wal, default: []].append(("record-\(record)", [2] + store.segment[offset + 12..<offset + 12 + length]))
            offset += 12 + length
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
        seeds[.csv] = [
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
                       ("small-strict", [0x60] + Array(xml.utf8))]
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
                       ("route-pieces", [0x0E] + Array(gpx.utf8))]
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
        parts.writeVarint(UInt64(query.count))
        parts.write(bytes: query)
        parts.write(bytes: detail)
        result.append(("\(name)-parts", parts.bytes))
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

    /// Rows with flags, explicit UUIDs, creation times, metadata and non-decimal values.
    static func detailColumns() -> SampleColumns {
        var columns = SampleColumns()
        for row in 0..<9 {
            let start = base + Int64(row) * 1_234_567
            columns.append(start: start, end: start + Int64(row) * 1_000, value: Double(row) / 3, provenance: 0,
                           sequence: Int64(10 + row), flags: row % 3 == 0 ? SampleFlags.userEntered : 0,
                           uuid: row % 2 == 0 ? UUID(uuidString: "7A1C3E4B-1111-4222-8333-94445555666\(row)") : nil,
                           creation: row % 4 == 0 ? nil : start + 5_000_000,
                           metadata: row % 3 == 0 ? ["HKWasUserEntered": "1"] : row == 4 ? ["k": "v", "é": "ü"] : [:])
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
