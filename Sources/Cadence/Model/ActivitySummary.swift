//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// One day's Activity rings (HealthKit's `HKActivitySummary`, <doc:HowCadenceComputes#Activity-summaries>): each ring's
/// value and goal in canonical units, `nil` where the day has none.
///
/// A summary's identity is its day: a store keeps one per day, and saving a summary with other
/// values for a day it holds replaces the one stored.
///
///     var summary = ActivitySummary(day: try ActivityDay("2024-01-15"))
///     summary.activeEnergyBurned = 512
///     summary.activeEnergyBurnedGoal = 500
///     summary.isClosed(.move)  // true
public struct ActivitySummary: Sendable, Hashable, Codable {
    /// The rings of a summary.
    public enum Ring: String, Sendable, Hashable, Codable, CaseIterable {
        /// Active energy burned against its goal, in kilocalories.
        case move
        /// Move time against its goal, in minutes (the move ring of wheelchair or younger users).
        case moveTime
        /// Exercise time against its goal, in minutes.
        case exercise
        /// Stand hours against their goal, a count of hours.
        case stand
    }

    /// The identifier of the series summaries are stored in (HealthKit's
    /// `HKActivitySummaryTypeIdentifier`).
    public static let typeIdentifier = "HKActivitySummaryTypeIdentifier"

    /// The day the summary covers.
    public var day: ActivityDay
    /// Active energy burned, in kilocalories.
    public var activeEnergyBurned: Double?
    /// The active energy goal, in kilocalories.
    public var activeEnergyBurnedGoal: Double?
    /// Move time, in minutes.
    public var appleMoveTime: Double?
    /// The move time goal, in minutes.
    public var appleMoveTimeGoal: Double?
    /// Exercise time, in minutes.
    public var appleExerciseTime: Double?
    /// The exercise time goal, in minutes.
    public var appleExerciseTimeGoal: Double?
    /// Stand hours, a count.
    public var appleStandHours: Double?
    /// The stand hours goal, a count.
    public var appleStandHoursGoal: Double?

    /// Creates a summary; rings without a value or goal are `nil`.
    public init(day: ActivityDay, activeEnergyBurned: Double? = nil, activeEnergyBurnedGoal: Double? = nil,
                appleMoveTime: Double? = nil, appleMoveTimeGoal: Double? = nil, appleExerciseTime: Double? = nil,
                appleExerciseTimeGoal: Double? = nil, appleStandHours: Double? = nil, appleStandHoursGoal: Double? = nil) {
        self.day = day
        self.activeEnergyBurned = activeEnergyBurned
        self.activeEnergyBurnedGoal = activeEnergyBurnedGoal
        self.appleMoveTime = appleMoveTime
        self.appleMoveTimeGoal = appleMoveTimeGoal
        self.appleExerciseTime = appleExerciseTime
        self.appleExerciseTimeGoal = appleExerciseTimeGoal
        self.appleStandHours = appleStandHours
        self.appleStandHoursGoal = appleStandHoursGoal
    }

    /// A ring's value and goal, in the ring's canonical unit (``unit(of:)``).
    public func ring(_ ring: Ring) -> (value: Double?, goal: Double?) {
        switch ring {
        case .move: (activeEnergyBurned, activeEnergyBurnedGoal)
        case .moveTime: (appleMoveTime, appleMoveTimeGoal)
        case .exercise: (appleExerciseTime, appleExerciseTimeGoal)
        case .stand: (appleStandHours, appleStandHoursGoal)
        }
    }

    /// Whether a ring was closed (its value reached its goal), or `nil` when the value or the goal
    /// is unknown.
    public func isClosed(_ ring: Ring) -> Bool? {
        let (value, goal) = self.ring(ring)
        guard let value, let goal else { return nil }
        return value >= goal
    }

    /// The canonical unit of a ring's value and goal: kilocalories, minutes, or a count.
    public static func unit(of ring: Ring) -> HealthUnit {
        switch ring {
        case .move: .kilocalorie
        case .moveTime, .exercise: .minute
        case .stand: .count
        }
    }

    /// The UUID a store knows the summary by (in deleted objects, for instance): derived from the
    /// day and every value, so a replacement for the same day has a UUID of its own (see
    /// <doc:HowCadenceComputes#Activity-summaries>).
    public var uuid: UUID {
        QuantitySample.derivedUUID(type: Self.typeIdentifier, provenance: Self.provenance, value: storedValue,
                                   start: day.startTimestamp, end: day.endTimestamp, creation: nil,
                                   metadata: storedAttributes)
    }
}
