//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

extension Workout {
    /// The identifier of the workout type (HealthKit's `HKWorkoutTypeIdentifier`): every workout
    /// is stored in this one series, whatever its activity.
    public static let typeIdentifier = "HKWorkoutTypeIdentifier"
}

extension HealthStore {
    /// Saves workouts in one transaction; a workout whose UUID is already stored is skipped and
    /// counted as a duplicate (<doc:HowCadenceComputes#Identity>). Workouts are stored like every other kind: one series
    /// (``Workout/typeIdentifier``) under the same log, change sequence and deletion rules, with
    /// their events, statistics and activities among the row's reserved attributes and their routes
    /// in its payload (<doc:HowCadenceComputes#Categories-workouts-and-correlations>).
    ///
    /// - Throws: What ``save(_:)-([QuantitySample])`` throws.
    @discardableResult
    public func save(_ workouts: [Workout]) throws -> SaveSummary {
        try save(QuantitySampleBatch.grouping(workouts, series: { _ in .series(Workout.typeIdentifier) }) { try $0.append($1) })
    }

    /// Deletes every workout that `predicate` selects (workout predicates included, such as
    /// ``SamplePredicate/workoutActivityType(_:)``), recording a deleted object for each.
    ///
    /// - Returns: The number of workouts deleted.
    /// - Throws: ``CadenceError/Code/incompatibleUnits`` for a total compared with a quantity of
    ///   another dimension.
    @discardableResult
    public func deleteWorkouts(matching predicate: SamplePredicate = .all) throws -> Int {
        try deleteSamples(ofSeries: .series(Workout.typeIdentifier), matching: predicate)
    }
}

extension QuantitySampleBatch {
    /// Appends a workout to a batch of the workout series: the activity type's raw value (0 for a
    /// type Cadence does not know) in the value column, its routes as the row's payload, the rest
    /// among the reserved attributes (``WorkoutAttributes``).
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` if the batch is of another series.
    package mutating func append(_ workout: Workout) throws {
        guard quantityType.identifier == Workout.typeIdentifier else {
            throw CadenceError(.invalidArgument, "a workout cannot join a \(quantityType) batch")
        }
        var metadata = workout.metadata
        metadata[KindAttributes.workout] = WorkoutAttributes.encode(workout)
        let index = addProvenance(workout.provenance)
        try append(start: workout.startDate, end: workout.endDate, value: Double(workout.activityType.rawValue ?? 0),
                   provenanceIndex: index, uuid: workout.uuid, creationDate: workout.creationDate, metadata: metadata)
        setLastRowPayload(WorkoutAttributes.encodeRoutes(workout.routes))
    }
}
