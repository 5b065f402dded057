//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Cadence
import Foundation

/// The options that select workouts by what they were (HealthKit's workout predicates):
/// `--activity`, and inclusive bounds on the active time, the energy burned and the distance.
///
///     cadence workouts --store health --activity running --min-duration 20min --min-energy 200kcal --min-distance 5km
///
/// A bound is a number and a unit in HealthKit's grammar; a workout without the total a bound
/// names is not selected.
struct WorkoutFilterOptions: ParsableArguments {
    @Option(name: .customLong("activity"), help: ArgumentHelp(
        "Select only workouts of this activity type (running, cycling, HKWorkoutActivityTypeYoga); repeat for several.",
        valueName: "type"))
    var activities: [String] = []

    @Option(help: ArgumentHelp("Select only workouts active for at least this long (20min, 1.5hr, 90s).", valueName: "time"))
    var minDuration: String?

    @Option(help: ArgumentHelp("Select only workouts active for at most this long.", valueName: "time"))
    var maxDuration: String?

    @Option(help: ArgumentHelp("Select only workouts that burned at least this much energy (200kcal, 800kJ).",
                               valueName: "energy"))
    var minEnergy: String?

    @Option(help: ArgumentHelp("Select only workouts that burned at most this much energy.", valueName: "energy"))
    var maxEnergy: String?

    @Option(help: ArgumentHelp("Select only workouts that covered at least this distance (5km, 3mi, 800m).",
                               valueName: "distance"))
    var minDistance: String?

    @Option(help: ArgumentHelp("Select only workouts that covered at most this distance.", valueName: "distance"))
    var maxDistance: String?

    /// The predicate the options describe, `.all` when none is given.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` for an unknown activity type, or a bound
    ///   that is not a number and a unit of its kind.
    func predicate() throws -> SamplePredicate {
        var parts: [SamplePredicate] = []
        if !activities.isEmpty {
            parts.append(.workoutActivityType(in: try activities.map { try ArgumentValues.activityType($0, option: "--activity") }))
        }
        let figures: [(name: String, bounds: (min: String?, max: String?), example: String, unit: HealthUnit,
                       make: (SamplePredicate.Comparison, Quantity) throws -> SamplePredicate)] = [
            ("duration", (minDuration, maxDuration), "20min", .second,
             { .workoutDuration($0, try $1.doubleValue(for: .second)) }),
            ("energy", (minEnergy, maxEnergy), "200kcal", .kilocalorie, SamplePredicate.workoutTotalEnergyBurned),
            ("distance", (minDistance, maxDistance), "5km", .meter, SamplePredicate.workoutTotalDistance),
        ]
        for figure in figures {
            let bounds: [(text: String?, option: String, comparison: SamplePredicate.Comparison)] = [
                (figure.bounds.min, "--min-" + figure.name, .greaterThanOrEqual),
                (figure.bounds.max, "--max-" + figure.name, .lessThanOrEqual),
            ]
            for case let (text?, option, comparison) in bounds {
                let bound = try ArgumentValues.quantity(text, option: option, like: figure.example, dimensionOf: figure.unit)
                parts.append(try figure.make(comparison, bound))
            }
        }
        return parts.dropFirst().reduce(parts.first ?? .all) { $0 && $1 }
    }
}
