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

extension SampleColumns {
    /// Moves the routes of workout rows written by format version 4, kept inside their workout
    /// attributes, into their payloads, leaving the attributes as this version writes them: the
    /// rows then read as if saved by this version, and a listing of them reads no route.
    ///
    /// A row without an explicit UUID keeps its attributes whole, since its derived UUID covers them
    /// (a workout is always saved with its UUID, so this is a row no save of a workout wrote).
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` when a row's attributes are not a workout's.
    /// - Complexity: O(*n*) rows plus O(*b*) in the attributes' bytes.
    mutating func moveWorkoutRoutesToPayloads() throws {
        var split: [Int32: (metadata: [String: String], payload: [UInt8])] = [:]
        for (index, metadata) in metadataSets.enumerated() {
            guard let text = metadata[KindAttributes.workout], let parts = try WorkoutAttributes.splittingRoutes(text) else {
                continue
            }
            var moved = metadata
            moved[KindAttributes.workout] = parts.text
            split[Int32(index + 1)] = (moved, parts.payload)
        }
        guard !split.isEmpty else { return }
        var moved = SampleColumns()
        moved.reserveCapacity(count)
        for row in 0..<count {
            let parts = explicitUUID(at: row) == nil ? nil : split[metadataIndex[row]]
            moved.append(start: start[row], end: end[row], value: value[row], provenance: provenance[row],
                         sequence: sequence[row], flags: flags(at: row), uuid: explicitUUID(at: row),
                         creation: creation(at: row), metadata: parts?.metadata ?? metadata(at: row),
                         occurrence: occurrence(at: row), deviceAddress: deviceAddress(at: row),
                         payload: try parts?.payload ?? payload(at: row) ?? [])
        }
        self = moved
    }
}
