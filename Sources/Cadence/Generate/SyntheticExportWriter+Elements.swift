//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import ZIPFoundation

extension SyntheticExportWriter {
    /// Generates `data` as the `export.zip` the Health app shares: `apple_health_export/export.xml`
    /// with the quantity samples and, for the realistic profile, what a modern export holds besides
    /// (sleep stages from the Watch beside a sleep app's nights and the iPhone's time in bed, mindful
    /// sessions, symptoms, blood pressure and food `<Correlation>`s with their records also at top
    /// level, and a daily run with events, statistics and a route), and each route's GPX file under
    /// `apple_health_export/workout-routes/`.
    ///
    /// The export.xml is written to `path + ".export.xml"` first and removed once it is in the archive;
    /// route files go into the archive as they are generated, so memory stays bounded.
    ///
    /// - Parameters:
    ///   - data: The generator.
    ///   - path: The archive to write (created or replaced).
    ///   - batchSize: The generator's batch size.
    ///   - utcOffsetSeconds: The offset from UTC for the dates of export.xml.
    /// - Returns: The number of quantity sample rows written (top-level correlation members included).
    /// - Throws: What ``SyntheticHealthData/generate(batchSize:_:)`` and the writer throw;
    ///   ``CadenceError/Code/io`` when the archive cannot be written.
    @discardableResult
    public static func exportArchive(_ data: SyntheticHealthData, to path: String, batchSize: Int = 65_536,
                                     utcOffsetSeconds: Int = 0) throws -> Int {
        let xmlPath = path + ".export.xml"
        defer { try? FileManager.default.removeItem(atPath: xmlPath) }
        try? FileManager.default.removeItem(atPath: path)
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        } catch {
            throw CadenceError(.io, "cannot create the archive: \(error)", path: path)
        }
        let writer = try SyntheticExportWriter(path: xmlPath, format: .xml, exportDate: plannedEnd(of: data),
                                               utcOffsetSeconds: utcOffsetSeconds)
        // Entries carry the export date, so the same data gives the same archive byte for byte.
        let modified = Date(timestamp: plannedEnd(of: data))
        var lastEnd = data.startTimestamp
        try data.generate(batchSize: batchSize) { batch in
            try writer.write(batch)
            lastEnd = max(lastEnd, batch.columns.end.max() ?? lastEnd)
        }
        let days = Int((lastEnd - data.startTimestamp) / SyntheticHealthData.microsecondsPerDay) + 1
        for day in 0..<(writer.rowCount == 0 ? 0 : days) {
            let elements = data.exportElements(day: day)
            try writer.write(elements)
            for workout in elements.workouts {
                for route in workout.routes {
                    guard let filePath = route.filePath else { continue }
                    let name = "Route " + formatExport(workout.startDate.timestamp, secondsFromGMT: utcOffsetSeconds)
                    try add(Array(gpx(route.locations, name: name).utf8), as: "apple_health_export" + filePath,
                            to: archive, modified: modified, path: path)
                }
            }
        }
        try writer.finish()
        try addFile(xmlPath, as: "apple_health_export/export.xml", to: archive, modified: modified, path: path)
        return writer.rowCount
    }

    /// Writes a day's other elements: category records, each correlation's members at top level and
    /// the correlation with them nested, then workouts.
    func write(_ elements: SyntheticExportElements) throws {
        var text = ""
        for record in elements.categoryRecords {
            text += " <Record type=\"\(escaped(record.type))\"\(provenance(record.provenance)) "
                + "creationDate=\"\(date(record.end))\" startDate=\"\(date(record.start))\" "
                + "endDate=\"\(date(record.end))\" value=\"\(escaped(record.value))\"/>\n"
        }
        for correlation in elements.correlations {
            var members = ""
            for member in correlation.members {
                members += "<Record type=\"\(escaped(member.type.identifier))\"\(provenance(correlation.provenance)) "
                    + "unit=\"\(escaped(member.type.canonicalUnit.unitString))\" creationDate=\"\(date(correlation.time))\" "
                    + "startDate=\"\(date(correlation.time))\" endDate=\"\(date(correlation.time))\" "
                    + "value=\"\(Self.number(member.value))\"/>\n"
            }
            text += members.split(separator: "\n").map { " " + $0 + "\n" }.joined()
            text += " <Correlation type=\"\(escaped(correlation.type))\"\(provenance(correlation.provenance)) "
                + "creationDate=\"\(date(correlation.time))\" startDate=\"\(date(correlation.time))\" "
                + "endDate=\"\(date(correlation.time))\">\n"
            text += metadata(correlation.metadata, indent: "  ")
            text += members.split(separator: "\n").map { "  " + $0 + "\n" }.joined()
            text += " </Correlation>\n"
        }
        for workout in elements.workouts { text += self.workout(workout) }
        try writeBytes(Array(text.utf8))
        rowCount += elements.correlations.reduce(0) { $0 + $1.members.count }
    }

    /// A `<Workout>` element as iOS 17 exports it: duration in minutes, totals in its statistics.
    private func workout(_ workout: Workout) -> String {
        let provenance = Provenance(source: workout.source, sourceVersion: workout.sourceVersion, device: workout.device)
        var text = " <Workout workoutActivityType=\"\(escaped(workout.activityType.identifier))\" "
        text += "duration=\"\(Self.number(workout.duration / 60))\" durationUnit=\"min\"\(self.provenance(provenance))"
        if let created = workout.creationDate { text += " creationDate=\"\(date(created.timestamp))\"" }
        text += " startDate=\"\(date(workout.startDate.timestamp))\" endDate=\"\(date(workout.endDate.timestamp))\">\n"
        text += metadata(workout.metadata, indent: "  ")
        for event in workout.events {
            text += "  <WorkoutEvent type=\"\(escaped(event.type.identifier))\" date=\"\(date(event.date.timestamp))\""
                + (event.duration > 0 ? " duration=\"\(Self.number(event.duration / 60))\" durationUnit=\"min\"" : "") + "/>\n"
        }
        for statistics in workout.statistics {
            text += "  <WorkoutStatistics type=\"\(escaped(statistics.quantityType.identifier))\""
            if let start = statistics.startDate { text += " startDate=\"\(date(start.timestamp))\"" }
            if let end = statistics.endDate { text += " endDate=\"\(date(end.timestamp))\"" }
            for (name, value) in [("average", statistics.average), ("minimum", statistics.minimum),
                                  ("maximum", statistics.maximum), ("sum", statistics.sum)] {
                if let value { text += " \(name)=\"\(Self.number(value))\"" }
            }
            text += " unit=\"\(escaped(statistics.unit.unitString))\"/>\n"
        }
        for route in workout.routes {
            let routeProvenance = Provenance(source: route.source, sourceVersion: route.sourceVersion, device: route.device)
            text += "  <WorkoutRoute\(self.provenance(routeProvenance))"
            for (name, value) in [("creationDate", route.creationDate), ("startDate", route.startDate),
                                  ("endDate", route.endDate)] {
                if let value { text += " \(name)=\"\(date(value.timestamp))\"" }
            }
            text += ">\n"
            text += metadata(route.metadata, indent: "   ")
            if let filePath = route.filePath { text += "   <FileReference path=\"\(escaped(filePath))\"/>\n" }
            text += "  </WorkoutRoute>\n"
        }
        return text + " </Workout>\n"
    }

    /// A route as the Health app's GPX file: one `<trkpt>` per point with elevation, time, speed,
    /// course and accuracies (fields that are `nan` left out).
    static func gpx(_ locations: LocationSeries, name: String) -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1">
             <metadata><time>\(formatRFC3339(locations.timestamps.first ?? 0, secondsFromGMT: 0))</time></metadata>
             <trk><name>\(String(decoding: xmlEscaped(name), as: UTF8.self))</name><trkseg>

            """
        for index in 0..<locations.count {
            let point = locations[index]
            text += "  <trkpt lon=\"\(number(point.longitude))\" lat=\"\(number(point.latitude))\">"
            if !point.altitude.isNaN { text += "<ele>\(number(point.altitude))</ele>" }
            text += "<time>\(formatRFC3339(point.timestamp, secondsFromGMT: 0))</time><extensions>"
            for (tag, value) in [("speed", point.speed), ("course", point.course), ("hAcc", point.horizontalAccuracy),
                                 ("vAcc", point.verticalAccuracy)] where !value.isNaN {
                text += "<\(tag)>\(number(value))</\(tag)>"
            }
            text += "</extensions></trkpt>\n"
        }
        return text + " </trkseg></trk>\n</gpx>\n"
    }

    // MARK: Pieces

    /// A number as its shortest decimal that reads back the same: `127`, not `127.0`.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    private func date(_ timestamp: Timestamp) -> String { formatExport(timestamp, secondsFromGMT: utcOffsetSeconds) }

    private func escaped(_ text: String) -> String { String(decoding: Self.xmlEscaped(text), as: UTF8.self) }

    private func provenance(_ provenance: Provenance) -> String {
        var text = " sourceName=\"\(escaped(provenance.source.name))\""
        if let version = provenance.sourceVersion { text += " sourceVersion=\"\(escaped(version))\"" }
        if let device = provenance.device { text += " device=\"\(escaped(device.descriptionString))\"" }
        return text
    }

    private func metadata(_ metadata: [String: String], indent: String) -> String {
        metadata.keys.sorted().map { key in
            "\(indent)<MetadataEntry key=\"\(escaped(key))\" value=\"\(escaped(metadata[key] ?? ""))\"/>\n"
        }.joined()
    }

    // MARK: Archive

    private static func add(_ bytes: [UInt8], as entry: String, to archive: Archive, modified: Date,
                            path: String) throws {
        do {
            try archive.addEntry(with: entry, type: .file, uncompressedSize: Int64(bytes.count),
                                 modificationDate: modified, compressionMethod: .deflate) { position, size in
                Data(bytes[Int(position)..<(Int(position) + size)])
            }
        } catch {
            throw CadenceError(.io, "cannot add \(entry) to the archive: \(error)", path: path)
        }
    }

    private static func addFile(_ file: String, as entry: String, to archive: Archive, modified: Date,
                                path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: file) else {
            throw CadenceError(.io, "cannot read the export.xml just written", path: file)
        }
        defer { try? handle.close() }
        do {
            let size = try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int64 ?? 0
            try archive.addEntry(with: entry, type: .file, uncompressedSize: size, modificationDate: modified,
                                 compressionMethod: .deflate, bufferSize: 1 << 20) { position, count in
                try handle.seek(toOffset: UInt64(position))
                return try handle.read(upToCount: count) ?? Data()
            }
        } catch {
            throw CadenceError(.io, "cannot add \(entry) to the archive: \(error)", path: path)
        }
    }
}
