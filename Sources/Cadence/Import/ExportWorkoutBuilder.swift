//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Builds ``Workout``s from the elements of a `<Workout>` as the export reader meets them
/// (<doc:HowCadenceComputes#Categories-workouts-and-correlations>): the `<Workout>` tag, then its children and grandchildren, then its end.
///
///     <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" …>
///       <MetadataEntry key="HKIndoorWorkout" value="0"/>
///       <WorkoutEvent type="HKWorkoutEventTypePause" date="…"/>
///       <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" average="142" … unit="count/min"/>
///       <WorkoutActivity uuid="…" startDate="…" endDate="…" duration="30" durationUnit="min">…</WorkoutActivity>
///       <WorkoutRoute sourceName="…" …><FileReference path="/workout-routes/route_….gpx"/></WorkoutRoute>
///     </Workout>
///
/// **[Cadence rule]** What exports leave out is tolerated: a missing `duration` is the time from start
/// to end; a value without its unit attribute is in the unit exports write by default (`min`, `km`,
/// `kcal`, `count`); a total missing from `<Workout>` is taken from the `<WorkoutStatistics>` of its
/// type (newer exports write totals only there); a missing `workoutActivityType` is
/// `HKWorkoutActivityTypeOther`. Unknown attributes and children are ignored. CoreLocation's −1 for
/// an unknown speed, course or accuracy of an inline `<Location>` becomes `nan`.
///
/// A `<Workout>` without `sourceName`, `startDate` or `endDate`, or with a value that is not a
/// number, is malformed and skipped. A malformed child is skipped alone, with an issue; the workout
/// still comes out.
struct ExportWorkoutBuilder {
    /// Every attribute of one tag, decoded, in file order.
    struct Attributes {
        var pairs: [(name: String, value: String)] = []

        /// The first value of the attribute `name`, if the tag has it.
        subscript(name: String) -> String? { pairs.first { $0.name == name }?.value }
    }

    /// What ending or starting an element produced.
    enum Outcome {
        /// Nothing complete yet.
        case none
        /// A complete workout, from the `<Workout>` tag at `line`.
        case workout(Workout, line: Int)
        /// The `<Workout>` at `line` cannot be read, for `reason`.
        case malformed(line: Int, reason: String)
    }

    /// A workout whose end tag has not been read.
    private struct Open {
        var workout: Workout?
        var problem: String?
        var line: Int
        var depth: Int
        var activity: WorkoutActivity?
        var route: WorkoutRoute?
        var children = 0
    }

    /// The most child elements (events, statistics, inline locations, …) one workout may hold; more
    /// make it malformed. Inline routes keep 64 bytes a point, so at most 64 MiB.
    static let maxChildren = 1 << 20

    private var open: Open?
    /// Children skipped since the caller last took them: their line and why.
    private(set) var issues: [ImportIssue] = []

    /// Whether a `<Workout>` is open.
    var isOpen: Bool { open != nil }

    /// Hands over the issues met and forgets them.
    mutating func takeIssues() -> [ImportIssue] {
        defer { issues = [] }
        return issues
    }

    // MARK: Elements

    /// Takes a start tag.
    ///
    /// - Parameters:
    ///   - name: The element's name.
    ///   - attributes: Its attributes, or `nil` when the tag could not be parsed (then `problem` says why).
    ///   - problem: Why the tag is malformed, if it is.
    ///   - depth: The element's depth (the number of open elements, the root being 1, itself included).
    ///   - isSelfClosing: Whether the tag ends with `/>`.
    ///   - line: The tag's line.
    mutating func start(name: String, attributes: Attributes?, problem: String?, depth: Int, isSelfClosing: Bool,
                        line: Int) -> Outcome {
        // Taken out, not copied: `open` keeping a second reference to the workout's arrays would
        // make every append below copy them whole, quadratic in a workout's children.
        guard var current = open.take() else {
            guard name == "Workout" else { return .none }
            var started = Open(line: line, depth: depth)
            if let problem {
                started.problem = problem
            } else if let attributes {
                do { started.workout = try Self.workout(attributes) } catch { started.problem = Self.reason(error) }
            }
            open = started
            return isSelfClosing ? end(depth: depth) : .none
        }
        defer { open = current }
        guard depth > current.depth else { return .none }
        current.children += 1
        if current.children > Self.maxChildren {
            if current.problem == nil { current.problem = "it has more than \(Self.maxChildren) child elements" }
            return .none
        }
        guard current.workout != nil, current.problem == nil else { return .none }
        do {
            if let problem { throw CadenceError(.malformedInput, problem) }
            guard let attributes else { return .none }
            try add(name, attributes, level: depth - current.depth, isSelfClosing: isSelfClosing, to: &current)
        } catch {
            issues.append(ImportIssue(line: line, reason: "a <\(name)> in the <Workout> of line \(current.line) "
                                                         + "was skipped: \(Self.reason(error))"))
        }
        return .none
    }

    /// Takes the end of the element at `depth`; the end of the workout completes it.
    mutating func end(depth: Int) -> Outcome {
        guard var current = open.take() else { return .none }
        if depth == current.depth + 1, current.workout != nil {
            if let activity = current.activity {
                current.workout?.activities.append(activity)
                current.activity = nil
            }
            if let route = current.route {
                current.workout?.routes.append(route)
                current.route = nil
            }
        }
        guard depth == current.depth else {
            open = current
            return .none
        }
        guard current.problem == nil, var workout = current.workout else {
            return .malformed(line: current.line, reason: current.problem ?? "it cannot be read")
        }
        Self.fillTotalsFromStatistics(&workout)
        workout.uuid = workout.derivedUUID()
        return .workout(workout, line: current.line)
    }

    /// Adds a child (`level` 1) or grandchild (`level` 2) of the open workout.
    private func add(_ name: String, _ attributes: Attributes, level: Int, isSelfClosing: Bool,
                     to current: inout Open) throws {
        switch (level, name) {
        case (1, "MetadataEntry"):
            let (key, value) = try Self.metadataEntry(attributes)
            current.workout?.metadata[key] = value
        case (1, "WorkoutEvent"):
            current.workout?.events.append(try Self.event(attributes))
        case (1, "WorkoutStatistics"):
            current.workout?.statistics.append(try Self.statistics(attributes))
        case (1, "WorkoutActivity"):
            let activity = try Self.activity(attributes)
            if isSelfClosing { current.workout?.activities.append(activity) } else { current.activity = activity }
        case (1, "WorkoutRoute"):
            let route = try Self.route(attributes)
            if isSelfClosing { current.workout?.routes.append(route) } else { current.route = route }
        case (2, "MetadataEntry") where current.activity != nil:
            let (key, value) = try Self.metadataEntry(attributes)
            current.activity?.metadata[key] = value
        case (2, "WorkoutEvent") where current.activity != nil:
            current.activity?.events.append(try Self.event(attributes))
        case (2, "WorkoutStatistics") where current.activity != nil:
            current.activity?.statistics.append(try Self.statistics(attributes))
        case (2, "MetadataEntry") where current.route != nil:
            let (key, value) = try Self.metadataEntry(attributes)
            current.route?.metadata[key] = value
        case (2, "FileReference") where current.route != nil:
            current.route?.filePath = try Self.required(attributes, "path")
        case (2, "Location") where current.route != nil:
            current.route?.locations.append(try Self.location(attributes))
        default:
            break  // unknown children are tolerated
        }
    }

    // MARK: Elements to values

    private static func workout(_ attributes: Attributes) throws -> Workout {
        let start = try date(attributes, "startDate")
        let end = try date(attributes, "endDate")
        let duration = try quantity(attributes, "duration", unit: "durationUnit", default: .minute, in: .second)
        let provenance = try provenance(attributes)
        return try Workout(
            activityType: WorkoutActivityType(attributes["workoutActivityType"] ?? "HKWorkoutActivityTypeOther"),
            start: start, end: end, duration: duration, source: provenance.source,
            sourceVersion: provenance.sourceVersion, device: provenance.device,
            creationDate: try optionalDate(attributes, "creationDate"),
            totalEnergyBurned: try quantity(attributes, "totalEnergyBurned", unit: "totalEnergyBurnedUnit",
                                            default: .kilocalorie, in: .kilocalorie),
            totalDistance: try quantity(attributes, "totalDistance", unit: "totalDistanceUnit",
                                        default: .kilometer, in: .meter),
            totalSwimmingStrokeCount: try quantity(attributes, "totalSwimmingStrokeCount",
                                                   unit: "totalSwimmingStrokeCountUnit", default: .count, in: .count),
            totalFlightsClimbed: try quantity(attributes, "totalFlightsClimbed", unit: "totalFlightsClimbedUnit",
                                              default: .count, in: .count))
    }

    private static func provenance(_ attributes: Attributes) throws -> Provenance {
        // iOS 8's exports name the source in `source`, as on their records.
        let name = try attributes["sourceName"] == nil ? attributes["source"] ?? required(attributes, "sourceName")
            : required(attributes, "sourceName")
        return Provenance(source: Source(name: name), sourceVersion: attributes["sourceVersion"],
                          device: attributes["device"].map { Device(description: $0) })
    }

    private static func event(_ attributes: Attributes) throws -> WorkoutEvent {
        WorkoutEvent(type: WorkoutEventType(try required(attributes, "type")), date: try date(attributes, "date"),
                     duration: try quantity(attributes, "duration", unit: "durationUnit", default: .minute, in: .second) ?? 0)
    }

    private static func statistics(_ attributes: Attributes) throws -> WorkoutStatistics {
        let identifier = try required(attributes, "type")
        let given = try attributes["unit"].map { try HealthUnit($0) }
        let type = QuantityType.known(identifier) ?? QuantityType.unknown(identifier, unit: given ?? .count)
        let unit = given ?? type.canonicalUnit
        let conversion = try unit.conversion(to: type.canonicalUnit)
        func value(_ name: String) throws -> Double? { try number(attributes, name).map(conversion.apply) }
        return WorkoutStatistics(
            quantityType: type, startDate: try optionalDate(attributes, "startDate"),
            endDate: try optionalDate(attributes, "endDate"), sum: try value("sum"), average: try value("average"),
            minimum: try value("minimum"), maximum: try value("maximum"), unit: type.canonicalUnit)
    }

    private static func activity(_ attributes: Attributes) throws -> WorkoutActivity {
        var uuid: UUID?
        if let text = attributes["uuid"] {
            guard let parsed = UUID(uuidString: text) else { throw invalid("uuid", text) }
            uuid = parsed
        }
        return WorkoutActivity(
            uuid: uuid, activityType: attributes["workoutActivityType"].map(WorkoutActivityType.init),
            startDate: try date(attributes, "startDate"), endDate: try optionalDate(attributes, "endDate"),
            duration: try quantity(attributes, "duration", unit: "durationUnit", default: .minute, in: .second) ?? 0)
    }

    private static func route(_ attributes: Attributes) throws -> WorkoutRoute {
        let provenance = try provenance(attributes)
        return WorkoutRoute(
            source: provenance.source, sourceVersion: provenance.sourceVersion, device: provenance.device,
            creationDate: try optionalDate(attributes, "creationDate"), startDate: try optionalDate(attributes, "startDate"),
            endDate: try optionalDate(attributes, "endDate"))
    }

    private static func location(_ attributes: Attributes) throws -> LocationSeries.Location {
        let latitude = try number(attributes, "latitude")
        let longitude = try number(attributes, "longitude")
        guard let latitude, let longitude, (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw CadenceError(.malformedInput, "it has no valid latitude and longitude")
        }
        func known(_ name: String) throws -> Double {
            guard let value = try number(attributes, name), value >= 0 else { return .nan }
            return value
        }
        return LocationSeries.Location(
            timestamp: try date(attributes, "date").timestamp, latitude: latitude, longitude: longitude,
            altitude: try number(attributes, "altitude") ?? .nan, speed: try known("speed"),
            course: try known("course"), horizontalAccuracy: try known("horizontalAccuracy"),
            verticalAccuracy: try known("verticalAccuracy"))
    }

    private static func metadataEntry(_ attributes: Attributes) throws -> (key: String, value: String) {
        guard let value = attributes["value"] else { throw CadenceError(.malformedInput, "it has no value attribute") }
        return (try required(attributes, "key"), value)
    }

    /// Newer exports carry a workout's totals only in its statistics: a missing total is taken from
    /// the sum of its type's statistics.
    private static func fillTotalsFromStatistics(_ workout: inout Workout) {
        func sum(_ suffixes: [String]) -> Double? {
            workout.statistics.first { statistics in
                statistics.sum != nil && suffixes.contains { statistics.quantityType.identifier == QuantityType.identifierPrefix + $0 }
            }?.sum
        }
        if workout.totalEnergyBurned == nil { workout.totalEnergyBurned = sum(["ActiveEnergyBurned"]) }
        if workout.totalDistance == nil {
            workout.totalDistance = sum(["DistanceWalkingRunning", "DistanceCycling", "DistanceSwimming",
                                         "DistanceWheelchair", "DistanceDownhillSnowSports", "DistanceRowing",
                                         "DistancePaddleSports", "DistanceCrossCountrySkiing", "DistanceSkatingSports"])
        }
        if workout.totalSwimmingStrokeCount == nil { workout.totalSwimmingStrokeCount = sum(["SwimmingStrokeCount"]) }
        if workout.totalFlightsClimbed == nil { workout.totalFlightsClimbed = sum(["FlightsClimbed"]) }
    }

    // MARK: Attribute values

    private static func required(_ attributes: Attributes, _ name: String) throws -> String {
        guard let value = attributes[name], !value.isEmpty else {
            throw CadenceError(.malformedInput, "it has no \(name) attribute")
        }
        return value
    }

    private static func date(_ attributes: Attributes, _ name: String) throws -> Date {
        let text = try required(attributes, name)
        do { return Date(timestamp: try SampleCollector.parseDate(text)) } catch { throw invalid(name, text) }
    }

    private static func optionalDate(_ attributes: Attributes, _ name: String) throws -> Date? {
        attributes[name] == nil ? nil : try date(attributes, name)
    }

    private static func number(_ attributes: Attributes, _ name: String) throws -> Double? {
        guard let text = attributes[name] else { return nil }
        guard let value = SampleCollector.parseNumber(text), value.isFinite else { throw invalid(name, text) }
        return value
    }

    /// A value in the unit its unit attribute names (or `default`), converted to `canonical`.
    private static func quantity(_ attributes: Attributes, _ name: String, unit unitName: String,
                                 default defaultUnit: HealthUnit, in canonical: HealthUnit) throws -> Double? {
        guard let value = try number(attributes, name) else { return nil }
        let unit = try attributes[unitName].map { try HealthUnit($0) } ?? defaultUnit
        let converted = try unit.convert(value, to: canonical)
        guard converted.isFinite else { throw invalid(name, "\(value) \(unit.unitString)") }
        return converted
    }

    private static func invalid(_ name: String, _ text: String) -> CadenceError {
        var text = text
        let shown = text.withUTF8(XMLAttributeValueDecoder.printable)
        return CadenceError(.malformedInput, "its \(name) \"\(shown)\" cannot be read")
    }

    private static func reason(_ error: any Error) -> String {
        (error as? CadenceError)?.message ?? "\(error)"
    }
}
