//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Something that happened during a workout: a pause, a lap, a segment (HealthKit's `HKWorkoutEvent`).
public struct WorkoutEvent: Hashable, Sendable {
    /// What happened.
    public var type: WorkoutEventType
    /// When it happened (the start of its interval).
    public var date: Date
    /// How long it lasted, in seconds (0 for an instant, such as a pause).
    public var duration: TimeInterval
    /// String metadata (`HKMetadataKey…` → value).
    public var metadata: [String: String]

    /// Creates an event.
    public init(type: WorkoutEventType, date: Date, duration: TimeInterval = 0, metadata: [String: String] = [:]) {
        self.type = type
        self.date = date
        self.duration = duration
        self.metadata = metadata
    }

    /// The interval the event covers.
    public var dateInterval: DateInterval { DateInterval(start: date, duration: max(0, duration)) }
}
