//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// A recorded workout (HealthKit's `HKWorkout`): what was done, when, its totals, and what was
/// recorded along the way — events, per-type statistics, activities and routes.
///
///     let run = try Workout(activityType: .running, start: start, end: start.addingTimeInterval(1800),
///                           source: Source(name: "Jane’s Apple Watch"),
///                           totalEnergyBurned: 310, totalDistance: 5_020)
///
/// Totals are in fixed units: energy in kilocalories, distance in metres, strokes and flights as
/// counts; a total the workout does not have is `nil`.
///
/// **Identity [Cadence rule]**: a workout keeps the UUID it was given (a new random one by default).
/// A workout imported without one gets ``derivedUUID(occurrence:)``, so re-importing the same export
/// adds nothing.
public struct Workout: Hashable, Sendable, Identifiable {
    /// The workout's unique identifier.
    public var uuid: UUID
    /// What was done.
    public var activityType: WorkoutActivityType
    /// When the workout starts.
    public var startDate: Date
    /// When the workout ends.
    public var endDate: Date
    /// The active time in seconds (pauses excluded, so it may be shorter than end − start).
    public var duration: TimeInterval
    /// The energy burned, in kilocalories, if known.
    public var totalEnergyBurned: Double?
    /// The distance covered, in metres, if known.
    public var totalDistance: Double?
    /// The swimming strokes, if counted.
    public var totalSwimmingStrokeCount: Double?
    /// The flights of stairs climbed, if counted.
    public var totalFlightsClimbed: Double?
    /// Who wrote the workout.
    public var source: Source
    /// The writing app's or OS's version, if known.
    public var sourceVersion: String?
    /// The recording hardware, if known.
    public var device: Device?
    /// When the workout was saved, if known.
    public var creationDate: Date?
    /// String metadata (`HKMetadataKey…` → value).
    public var metadata: [String: String]
    /// Events during the workout, in the order recorded.
    public var events: [WorkoutEvent]
    /// The workout's figures per quantity type.
    public var statistics: [WorkoutStatistics]
    /// The workout's activities (iOS 16 and later; empty for older workouts).
    public var activities: [WorkoutActivity]
    /// The routes recorded during the workout (usually none or one).
    public var routes: [WorkoutRoute]

    /// Creates a workout. `duration` defaults to the time from `start` to `end`.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` when `start` is after `end`, or when the
    ///   duration or a total is negative or not finite.
    public init(uuid: UUID = UUID(), activityType: WorkoutActivityType, start: Date, end: Date,
                duration: TimeInterval? = nil, source: Source, sourceVersion: String? = nil, device: Device? = nil,
                creationDate: Date? = nil, totalEnergyBurned: Double? = nil, totalDistance: Double? = nil,
                totalSwimmingStrokeCount: Double? = nil, totalFlightsClimbed: Double? = nil,
                metadata: [String: String] = [:], events: [WorkoutEvent] = [], statistics: [WorkoutStatistics] = [],
                activities: [WorkoutActivity] = [], routes: [WorkoutRoute] = []) throws {
        try SampleDates.check(start: start, end: end)
        let duration = duration ?? end.timeIntervalSince(start)
        let figures: [(String, Double?)] = [
            ("duration", duration), ("totalEnergyBurned", totalEnergyBurned), ("totalDistance", totalDistance),
            ("totalSwimmingStrokeCount", totalSwimmingStrokeCount), ("totalFlightsClimbed", totalFlightsClimbed),
        ]
        for case let (name, value?) in figures where !(value.isFinite && value >= 0) {
            throw CadenceError(.invalidArgument, "the workout's \(name) \(value) is not a finite, non-negative number")
        }
        self.uuid = uuid
        self.activityType = activityType
        self.startDate = start
        self.endDate = end
        self.duration = duration
        self.source = source
        self.sourceVersion = sourceVersion
        self.device = device
        self.creationDate = creationDate
        self.totalEnergyBurned = totalEnergyBurned
        self.totalDistance = totalDistance
        self.totalSwimmingStrokeCount = totalSwimmingStrokeCount
        self.totalFlightsClimbed = totalFlightsClimbed
        self.metadata = metadata
        self.events = events
        self.statistics = statistics
        self.activities = activities
        self.routes = routes
    }

    public var id: UUID { uuid }

    /// The source, source version and device together.
    public var provenance: Provenance { Provenance(source: source, sourceVersion: sourceVersion, device: device) }

    /// The interval the workout covers.
    public var dateInterval: DateInterval { DateInterval(start: startDate, end: endDate) }

    /// The workout's statistics for `type`, if it has them.
    public func statistics(for type: QuantityType) -> WorkoutStatistics? {
        statistics.first { $0.quantityType == type }
    }
}
