//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// What a stored workout keeps beyond the columns every series has: its activity type's name,
/// duration, totals, events, statistics and activities, as one base64 text under the reserved key
/// ``KindAttributes/workout``; its routes, which may hold thousands of points, are the row's
/// payload (``PayloadSection``), read only when asked for.
///
/// Layout, version 2 (little-endian; counts and string lengths are LEB128 varints; a date is a
/// timestamp in microseconds, an `Int64`; an optional is a presence byte then the value):
///
///     u8 version = 2
///     string activity type identifier
///     f64 duration; optional f64 energy, distance, strokes, flights
///     events: count × (string type, i64 date, f64 duration, metadata)
///     statistics: count × statistics
///     activities: count × (optional string uuid, optional string type, i64 start, optional i64 end,
///                          f64 duration, metadata, events, statistics)
///
/// and the payload, version 1:
///
///     u8 version = 1
///     routes: count × (provenance, optional i64 creation, start, end, metadata, optional string path,
///                      count × 8 columns of the location series)
///
/// where statistics are (quantity type, string unit, optional i64 start, end, optional f64 sum,
/// average, minimum, maximum), a provenance and a quantity type are written as the log writes
/// them (`Tombstone.swift`), and metadata is a count of key–value string pairs in key order.
/// Version 1 of the text (format version 4's rows, still read) is version 2 followed by the routes.
package enum WorkoutAttributes {
    /// The version of the text written.
    static let version: UInt8 = 2
    /// The version of the text that held the routes too.
    static let versionWithRoutes: UInt8 = 1
    /// The version of the routes payload written.
    static let routesVersion: UInt8 = 1

    /// The text that holds `workout`'s attributes but its routes (``encodeRoutes(_:)``).
    ///
    /// - Complexity: O(*n*) in the events, statistics and activities.
    package static func encode(_ workout: Workout) -> String {
        var writer = BinaryWriter(capacity: 128)
        writer.write(version)
        writer.write(workout.activityType.identifier)
        writer.write(workout.duration)
        for total in [workout.totalEnergyBurned, workout.totalDistance, workout.totalSwimmingStrokeCount,
                      workout.totalFlightsClimbed] {
            writer.write(optional: total)
        }
        writer.write(events: workout.events)
        writer.write(statistics: workout.statistics)
        writer.writeVarint(UInt64(workout.activities.count))
        for activity in workout.activities {
            writer.write(optional: activity.uuid?.uuidString)
            writer.write(optional: activity.activityType?.identifier)
            writer.write(activity.startDate.timestamp)
            writer.write(optional: activity.endDate?.timestamp)
            writer.write(activity.duration)
            writer.write(metadata: activity.metadata)
            writer.write(events: activity.events)
            writer.write(statistics: activity.statistics)
        }
        return Data(writer.bytes).base64EncodedString()
    }

    /// The payload that holds `routes`; empty (no payload) when there is none.
    ///
    /// - Complexity: O(*n*) in the route points.
    package static func encodeRoutes(_ routes: [WorkoutRoute]) -> [UInt8] {
        guard !routes.isEmpty else { return [] }
        var writer = BinaryWriter(capacity: 64 + routes.reduce(0) { $0 + 128 + $1.locations.count * 64 })
        writer.write(routesVersion)
        writer.write(routes: routes)
        return writer.bytes
    }

    /// The routes of a payload ``encodeRoutes(_:)`` wrote.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming `path` when the bytes are not such a payload.
    package static func decodeRoutes(_ payload: [UInt8], path: String) throws -> [WorkoutRoute] {
        var reader = BinaryReader(payload, path: path)
        let found = try reader.read(UInt8.self)
        guard found == routesVersion else { throw reader.corrupt("unknown workout routes version \(found)") }
        let routes = try reader.readRoutes()
        guard reader.isAtEnd else { throw reader.corrupt("bytes after the workout routes") }
        return routes
    }

    /// What the encoding starts with: the activity type's name, the duration and the totals —
    /// what workout predicates compare.
    package struct Head: Equatable {
        /// The version of the text (routes follow the activities in version 1).
        var version: UInt8
        /// The activity type's name as stored.
        var activityTypeIdentifier: String
        /// The active time in seconds.
        var duration: Double
        /// The energy burned in kilocalories, the distance in metres, the strokes and flights.
        var totalEnergyBurned, totalDistance, totalSwimmingStrokeCount, totalFlightsClimbed: Double?
    }

    /// The head of the text ``encode(_:)`` wrote, decoding only the first bytes when they hold it
    /// (a workout's events, statistics and route are not decoded).
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` when the text is not such an encoding.
    /// - Complexity: O(1) for an activity type name of up to 74 bytes, else O(*n*) in the text.
    package static func head(of text: String) throws -> Head {
        // 160 base64 characters are 120 whole bytes: the head of a name of up to 74 bytes.
        if text.utf8.count > 160, var prefix = try? attributeReader(of: String(text.prefix(160))),
           let head = try? readHead(from: &prefix) {
            return head
        }
        var reader = try attributeReader(of: text)
        return try readHead(from: &reader)
    }

    /// Sets `workout`'s attributes but its routes from the text ``encode(_:)`` wrote.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` when the text is not such an encoding.
    package static func decode(_ text: String, into workout: inout Workout) throws {
        let parts = try parts(of: text, readingRoutes: false)
        workout.activityType = WorkoutActivityType(parts.head.activityTypeIdentifier)
        workout.duration = parts.head.duration
        workout.totalEnergyBurned = parts.head.totalEnergyBurned
        workout.totalDistance = parts.head.totalDistance
        workout.totalSwimmingStrokeCount = parts.head.totalSwimmingStrokeCount
        workout.totalFlightsClimbed = parts.head.totalFlightsClimbed
        workout.events = parts.events
        workout.statistics = parts.statistics
        workout.activities = parts.activities
    }

    /// The routes a text of version 1 holds (format version 4's rows kept them there); none for a
    /// text of version 2, whose workout's routes are its row's payload.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` when the text is not such an encoding.
    package static func routes(inText text: String) throws -> [WorkoutRoute] {
        try parts(of: text, readingRoutes: true).routes
    }

    /// A text of version 1 (a format version 4 row's, routes inside) as this version stores it: the
    /// text without its routes (version 2) and the routes payload (empty when it has none), the
    /// text's other bytes unchanged; `nil` for a text already of version 2.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` when the text is not such an encoding.
    /// - Complexity: O(*n*) in the text.
    package static func splittingRoutes(_ text: String) throws -> (text: String, payload: [UInt8])? {
        let bytes = try attributeBytes(of: text)
        var reader = BinaryReader(bytes, path: "workout attributes")
        guard try readParts(from: &reader).head.version == versionWithRoutes else { return nil }
        var withoutRoutes = Array(bytes[0..<reader.offset])
        withoutRoutes[0] = version
        let routes = try reader.readRoutes()
        guard reader.isAtEnd else { throw reader.corrupt("bytes after the workout attributes") }
        return (Data(withoutRoutes).base64EncodedString(), encodeRoutes(routes))
    }

    /// What a text holds, its routes read only when `readingRoutes`.
    private static func parts(of text: String, readingRoutes: Bool) throws
        -> (head: Head, events: [WorkoutEvent], statistics: [WorkoutStatistics], activities: [WorkoutActivity],
            routes: [WorkoutRoute])
    {
        var reader = try attributeReader(of: text)
        let (head, events, statistics, activities) = try readParts(from: &reader)
        guard head.version == versionWithRoutes else {
            guard reader.isAtEnd else { throw reader.corrupt("bytes after the workout attributes") }
            return (head, events, statistics, activities, [])
        }
        // A listing of a version 4 row leaves its routes unread, as it leaves a payload.
        guard readingRoutes else { return (head, events, statistics, activities, []) }
        let routes = try reader.readRoutes()
        guard reader.isAtEnd else { throw reader.corrupt("bytes after the workout attributes") }
        return (head, events, statistics, activities, routes)
    }

    /// Reads a text's attributes up to its routes (which a text of version 1 has next).
    private static func readParts(from reader: inout BinaryReader) throws
        -> (head: Head, events: [WorkoutEvent], statistics: [WorkoutStatistics], activities: [WorkoutActivity])
    {
        let head = try readHead(from: &reader)
        let events = try reader.readEvents()
        let statistics = try reader.readStatistics()
        let activities = try (0..<reader.readCount()).map { _ in
            WorkoutActivity(uuid: try reader.readOptionalString().flatMap(UUID.init(uuidString:)),
                            activityType: try reader.readOptionalString().map(WorkoutActivityType.init),
                            startDate: Date(timestamp: try reader.read()),
                            endDate: try reader.readOptionalTimestamp().map(Date.init(timestamp:)),
                            duration: try reader.readDouble(), metadata: try reader.readMetadata(),
                            events: try reader.readEvents(), statistics: try reader.readStatistics())
        }
        return (head, events, statistics, activities)
    }

    /// A reader over the bytes of base64 `text`.
    private static func attributeReader(of text: String) throws -> BinaryReader {
        BinaryReader(try attributeBytes(of: text), path: "workout attributes")
    }

    /// The bytes of base64 `text`.
    private static func attributeBytes(of text: String) throws -> [UInt8] {
        guard let data = Data(base64Encoded: text) else {
            throw CadenceError(.corruptFile, "a stored workout's attributes are not base64", path: "workout attributes")
        }
        return [UInt8](data)
    }

    /// Reads the version and the head.
    private static func readHead(from reader: inout BinaryReader) throws -> Head {
        let found = try reader.read(UInt8.self)
        guard found == version || found == versionWithRoutes else {
            throw reader.corrupt("unknown workout attributes version \(found)")
        }
        return Head(version: found, activityTypeIdentifier: try reader.readString(), duration: try reader.readDouble(),
                    totalEnergyBurned: try reader.readOptionalDouble(), totalDistance: try reader.readOptionalDouble(),
                    totalSwimmingStrokeCount: try reader.readOptionalDouble(),
                    totalFlightsClimbed: try reader.readOptionalDouble())
    }
}

extension BinaryWriter {
    fileprivate mutating func write(routes: [WorkoutRoute]) {
        writeVarint(UInt64(routes.count))
        for route in routes {
            Provenance(source: route.source, sourceVersion: route.sourceVersion, device: route.device).write(to: &self)
            for date in [route.creationDate, route.startDate, route.endDate] { write(optional: date?.timestamp) }
            write(metadata: route.metadata)
            write(optional: route.filePath)
            let points = route.locations
            writeVarint(UInt64(points.count))
            for timestamp in points.timestamps { write(timestamp) }
            for column in [points.latitudes, points.longitudes, points.altitudes, points.speeds, points.courses,
                           points.horizontalAccuracies, points.verticalAccuracies] {
                for value in column { write(value) }
            }
        }
    }

    fileprivate mutating func write(optional value: Double?) {
        write(value != nil)
        if let value { write(value) }
    }

    fileprivate mutating func write(optional value: Timestamp?) {
        write(value != nil)
        if let value { write(value) }
    }

    fileprivate mutating func write(metadata: [String: String]) {
        writeVarint(UInt64(metadata.count))
        for key in metadata.keys.sorted() {
            write(key)
            write(metadata[key] ?? "")
        }
    }

    fileprivate mutating func write(events: [WorkoutEvent]) {
        writeVarint(UInt64(events.count))
        for event in events {
            write(event.type.identifier)
            write(event.date.timestamp)
            write(event.duration)
            write(metadata: event.metadata)
        }
    }

    fileprivate mutating func write(statistics: [WorkoutStatistics]) {
        writeVarint(UInt64(statistics.count))
        for figures in statistics {
            figures.quantityType.write(to: &self)
            write(figures.unit.unitString)
            write(optional: figures.startDate?.timestamp)
            write(optional: figures.endDate?.timestamp)
            for value in [figures.sum, figures.average, figures.minimum, figures.maximum] { write(optional: value) }
        }
    }
}

extension BinaryReader {
    fileprivate mutating func readRoutes() throws -> [WorkoutRoute] {
        try (0..<readCount()).map { _ in
            let provenance = try Provenance(from: &self)
            var route = WorkoutRoute(source: provenance.source, sourceVersion: provenance.sourceVersion,
                                     device: provenance.device)
            route.creationDate = try readOptionalTimestamp().map(Date.init(timestamp:))
            route.startDate = try readOptionalTimestamp().map(Date.init(timestamp:))
            route.endDate = try readOptionalTimestamp().map(Date.init(timestamp:))
            route.metadata = try readMetadata()
            route.filePath = try readOptionalString()
            let count = try readCount(minimumItemSize: 64)
            // Each column is read whole, straight into the series' own arrays.
            let timestamps = try readColumn(count: count) { Timestamp(bitPattern: $0) }
            var doubles: [[Double]] = []
            for _ in 0..<7 { doubles.append(try readColumn(count: count) { Double(bitPattern: $0) }) }
            route.locations = LocationSeries(
                timestamps: timestamps, latitudes: doubles[0], longitudes: doubles[1], altitudes: doubles[2],
                speeds: doubles[3], courses: doubles[4], horizontalAccuracies: doubles[5], verticalAccuracies: doubles[6])
            return route
        }
    }

    /// `count` little-endian 8-byte values, each made into an element by `make`, with one bounds check.
    private mutating func readColumn<Element>(count: Int, _ make: (UInt64) -> Element) throws -> [Element] {
        let (byteCount, overflow) = count.multipliedReportingOverflow(by: 8)
        guard !overflow else { throw corrupt("count \(count) exceeds the data") }
        return try readBytes(byteCount).withUnsafeBytes { raw in
            (0..<count).map { make(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 &* 8, as: UInt64.self))) }
        }
    }

    fileprivate mutating func readOptionalDouble() throws -> Double? {
        try readBool() ? try readDouble() : nil
    }

    fileprivate mutating func readOptionalTimestamp() throws -> Timestamp? {
        try readBool() ? try read(Timestamp.self) : nil
    }

    fileprivate mutating func readMetadata() throws -> [String: String] {
        var metadata: [String: String] = [:]
        for _ in 0..<(try readCount(minimumItemSize: 2)) { metadata[try readString()] = try readString() }
        return metadata
    }

    fileprivate mutating func readEvents() throws -> [WorkoutEvent] {
        try (0..<readCount(minimumItemSize: 18)).map { _ in
            WorkoutEvent(type: WorkoutEventType(try readString()), date: Date(timestamp: try read()),
                         duration: try readDouble(), metadata: try readMetadata())
        }
    }

    fileprivate mutating func readStatistics() throws -> [WorkoutStatistics] {
        try (0..<readCount(minimumItemSize: 10)).map { _ in
            let type = try QuantityType(from: &self)
            let text = try readString()
            let unit: HealthUnit
            do { unit = try HealthUnit(text) } catch { throw corrupt("unreadable unit \(text)") }
            let start = try readOptionalTimestamp().map(Date.init(timestamp:))
            let end = try readOptionalTimestamp().map(Date.init(timestamp:))
            return WorkoutStatistics(quantityType: type, startDate: start, endDate: end, sum: try readOptionalDouble(),
                                     average: try readOptionalDouble(), minimum: try readOptionalDouble(),
                                     maximum: try readOptionalDouble(), unit: unit)
        }
    }
}
