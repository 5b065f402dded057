//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Cadence
import Foundation

/// `cadence workouts`: the stored workouts, oldest first.
struct WorkoutsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workouts",
        abstract: "List the stored workouts: activity, times, duration, energy, distance and source.",
        discussion: """
            Energy is in kilocalories and distance in metres (kilometres in the table); the \
            duration is the active time. Pass a workout's UUID to cadence plot --workout to draw its route.
            """)

    @OptionGroup var storeOptions: StoreOptions

    @OptionGroup var filter: SampleFilterOptions

    @Option(help: ArgumentHelp("The output format: table, csv or json.", valueName: "format"))
    var format: OutputFormat = .table

    func run() throws {
        let store = try storeOptions.openForReading()
        let resolved = try filter.resolve()
        let workouts = try store.execute(SampleQuery(workoutsMatching: resolved.predicate))
        let zone = resolved.timeZone
        var output = StandardOutput()
        switch format {
        case .json:
            let document = JSONValue.object([("workouts", .array(workouts.map { workout in
                .object([
                    ("uuid", .string(workout.uuid.uuidString)),
                    ("activityType", .string(workout.activityType.identifier)),
                    ("startDate", .string(formatRFC3339(workout.startDate.timestamp, timeZone: zone))),
                    ("endDate", .string(formatRFC3339(workout.endDate.timestamp, timeZone: zone))),
                    ("duration", .number(workout.duration)),
                    ("totalEnergyBurned", .number(workout.totalEnergyBurned)),
                    ("totalDistance", .number(workout.totalDistance)),
                    ("sourceName", .string(workout.source.name)),
                    ("events", .integer(workout.events.count)),
                    ("routePoints", .integer(workout.routes.reduce(0) { $0 + $1.locations.count })),
                ])
            }))])
            output.writeLine(document.serialized())
        case .csv:
            output.write(CSVOutput.line(["activityType", "startDate", "endDate", "duration", "totalEnergyBurned",
                                         "totalDistance", "sourceName", "uuid"]))
            for workout in workouts {
                output.write(CSVOutput.line([
                    workout.activityType.identifier, formatRFC3339(workout.startDate.timestamp, timeZone: zone),
                    formatRFC3339(workout.endDate.timestamp, timeZone: zone), JSONValue.numberText(workout.duration),
                    workout.totalEnergyBurned.map(JSONValue.numberText) ?? "",
                    workout.totalDistance.map(JSONValue.numberText) ?? "", workout.source.name, workout.uuid.uuidString,
                ]))
            }
        case .table:
            var table = TableRenderer(columns: [
                .init("Activity"), .init("Start"), .init("End"), .init("Duration", alignment: .right),
                .init("Energy (kcal)", alignment: .right), .init("Distance (km)", alignment: .right), .init("Source"),
                .init("UUID"),
            ])
            for workout in workouts {
                table.append([
                    workout.activityType.shortName,
                    LocalDateText.format(workout.startDate, timeZone: zone, showsTime: true),
                    LocalDateText.format(workout.endDate, timeZone: zone, showsTime: true),
                    NumberText.clock(workout.duration),
                    workout.totalEnergyBurned.map(NumberText.readable) ?? "-",
                    workout.totalDistance.map { NumberText.readable($0 / 1_000) } ?? "-",
                    workout.source.name, workout.uuid.uuidString,
                ])
            }
            output.write(table.render())
        }
        output.flush()
    }
}
