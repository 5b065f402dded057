//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// One part of a workout, such as the swim, the bike and the run of a triathlon, or the intervals of
/// a training session (HealthKit's `HKWorkoutActivity`, iOS 16 and later).
public struct WorkoutActivity: Hashable, Sendable {
    /// The activity's identifier, when the export gives one.
    public var uuid: UUID?
    /// What was done, when the export says (otherwise the workout's own type applies).
    public var activityType: WorkoutActivityType?
    /// When the activity starts.
    public var startDate: Date
    /// When the activity ends, if it has ended.
    public var endDate: Date?
    /// The active time, in seconds.
    public var duration: TimeInterval
    /// String metadata (`HKMetadataKey…` → value).
    public var metadata: [String: String]
    /// The activity's events.
    public var events: [WorkoutEvent]
    /// The activity's figures per quantity type.
    public var statistics: [WorkoutStatistics]

    /// Creates an activity.
    public init(uuid: UUID? = nil, activityType: WorkoutActivityType? = nil, startDate: Date, endDate: Date? = nil,
                duration: TimeInterval = 0, metadata: [String: String] = [:], events: [WorkoutEvent] = [],
                statistics: [WorkoutStatistics] = []) {
        self.uuid = uuid
        self.activityType = activityType
        self.startDate = startDate
        self.endDate = endDate
        self.duration = duration
        self.metadata = metadata
        self.events = events
        self.statistics = statistics
    }
}
