//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// How `workouts`, and `samples` and `changes` on the workout type, print workouts: energy in
/// kilocalories, distance in metres (kilometres in the table), the duration as the active time.
enum WorkoutOutput {
    /// A workout as a JSON object: `uuid, type, activityType, startDate, endDate, duration,
    /// totalEnergyBurned, totalDistance, sourceName, events` (their count), and `routePoints` when
    /// the routes were read (`withRoutes`); dates are RFC 3339 in `timeZone`.
    static func json(_ workout: Workout, timeZone: TimeZone, withRoutes: Bool = false) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("uuid", .string(workout.uuid.uuidString)),
            ("type", .string(Workout.typeIdentifier)),
            ("activityType", .string(workout.activityType.identifier)),
            ("startDate", .string(formatRFC3339(workout.startDate.timestamp, timeZone: timeZone))),
            ("endDate", .string(formatRFC3339(workout.endDate.timestamp, timeZone: timeZone))),
            ("duration", .number(workout.duration)),
            ("totalEnergyBurned", .number(workout.totalEnergyBurned)),
            ("totalDistance", .number(workout.totalDistance)),
            ("sourceName", .string(workout.source.name)),
            ("events", .integer(workout.events.count)),
        ]
        if withRoutes { members.append(("routePoints", .integer(workout.routes.reduce(0) { $0 + $1.locations.count }))) }
        return .object(members)
    }

    /// Workouts in `format`: a JSON document with the workouts under `key`, CSV with a header, or
    /// an aligned table.
    static func write(_ workouts: [Workout], format: OutputFormat, key: String, timeZone: TimeZone,
                      withRoutes: Bool = false, into output: inout StandardOutput) {
        switch format {
        case .json:
            let objects = workouts.map { json($0, timeZone: timeZone, withRoutes: withRoutes) }
            output.writeLine(JSONValue.object([(key, .array(objects))]).serialized())
        case .csv:
            output.write(CSVOutput.line(["activityType", "startDate", "endDate", "duration", "totalEnergyBurned",
                                         "totalDistance", "sourceName", "uuid"]))
            for workout in workouts {
                output.write(CSVOutput.line([
                    workout.activityType.identifier, formatRFC3339(workout.startDate.timestamp, timeZone: timeZone),
                    formatRFC3339(workout.endDate.timestamp, timeZone: timeZone), JSONValue.numberText(workout.duration),
                    workout.totalEnergyBurned.map(JSONValue.numberText) ?? "",
                    workout.totalDistance.map(JSONValue.numberText) ?? "", workout.source.name, workout.uuid.uuidString,
                ]))
            }
        // Workouts have no Arrow form: the commands refuse it before.
        case .table, .arrow:
            var table = TableRenderer(columns: [
                .init("Activity"), .init("Start"), .init("End"), .init("Duration", alignment: .right),
                .init("Energy (kcal)", alignment: .right), .init("Distance (km)", alignment: .right), .init("Source"),
                .init("UUID"),
            ])
            for workout in workouts {
                table.append([
                    workout.activityType.shortName,
                    LocalDateText.format(workout.startDate, timeZone: timeZone, showsTime: true),
                    LocalDateText.format(workout.endDate, timeZone: timeZone, showsTime: true),
                    NumberText.clock(workout.duration),
                    workout.totalEnergyBurned.map(NumberText.readable) ?? "-",
                    workout.totalDistance.map { NumberText.readable($0 / 1_000) } ?? "-",
                    workout.source.name, workout.uuid.uuidString,
                ])
            }
            output.write(table.render())
        }
    }
}
