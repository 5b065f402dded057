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
            duration is the active time. --activity and the --min-/--max- bounds select workouts \
            as HealthKit's workout predicates do (bounds are inclusive; a workout without the \
            total a bound names is not listed). Routes are stored apart from the workouts and \
            are not read unless --routes asks for them (then JSON gives each workout's \
            routePoints). Pass a workout's UUID to cadence plot --workout to draw its route.
            """)

    @OptionGroup var storeOptions: StoreOptions

    @OptionGroup var filter: SampleFilterOptions

    @OptionGroup var workoutFilter: WorkoutFilterOptions

    @Option(help: ArgumentHelp("The output format: table, csv or json.", valueName: "format"))
    var format: OutputFormat = .table

    @Flag(help: "Read each workout's routes too: JSON output gains routePoints, their points' count.")
    var routes = false

    func validate() throws {
        try format.require([.table, .csv, .json], in: "workouts")
    }

    func run() throws {
        let store = try storeOptions.openForReading()
        let resolved = try filter.resolve()
        let workouts = try store.execute(SampleQuery(workoutsMatching: resolved.predicate && workoutFilter.predicate(),
                                                     includingRoutes: routes))
        var output = StandardOutput()
        WorkoutOutput.write(workouts, format: format, key: "workouts", timeZone: resolved.timeZone, withRoutes: routes,
                            into: &output)
        output.flush()
    }
}
