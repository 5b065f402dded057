//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The kind of a workout event (HealthKit's `HKWorkoutEventType`).
///
/// Known types carry HealthKit's raw value; a name Cadence does not know is kept verbatim.
public struct WorkoutEventType: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The name as exports write it, such as `HKWorkoutEventTypePause`.
    public let identifier: String

    /// The prefix every HealthKit workout event type name starts with.
    public static let identifierPrefix = "HKWorkoutEventType"

    /// A type by its name, long (`HKWorkoutEventTypePause`) or short (`pause`); an unknown long name
    /// is kept as it is.
    public init(_ name: String) {
        identifier = HealthKitIdentifier.prefixed(name, Self.identifierPrefix)
    }

    /// HealthKit's raw value, or `nil` for a type Cadence does not know.
    public var rawValue: Int? { Self.rawValues[identifier] }

    public var description: String { identifier }

    /// `HKWorkoutEventTypePause` (1).
    public static let pause = WorkoutEventType("HKWorkoutEventTypePause")
    /// `HKWorkoutEventTypeResume` (2).
    public static let resume = WorkoutEventType("HKWorkoutEventTypeResume")
    /// `HKWorkoutEventTypeLap` (3).
    public static let lap = WorkoutEventType("HKWorkoutEventTypeLap")
    /// `HKWorkoutEventTypeMarker` (4).
    public static let marker = WorkoutEventType("HKWorkoutEventTypeMarker")
    /// `HKWorkoutEventTypeMotionPaused` (5).
    public static let motionPaused = WorkoutEventType("HKWorkoutEventTypeMotionPaused")
    /// `HKWorkoutEventTypeMotionResumed` (6).
    public static let motionResumed = WorkoutEventType("HKWorkoutEventTypeMotionResumed")
    /// `HKWorkoutEventTypeSegment` (7).
    public static let segment = WorkoutEventType("HKWorkoutEventTypeSegment")
    /// `HKWorkoutEventTypePauseOrResumeRequest` (8).
    public static let pauseOrResumeRequest = WorkoutEventType("HKWorkoutEventTypePauseOrResumeRequest")

    private static let rawValues: [String: Int] = [
        "HKWorkoutEventTypePause": 1, "HKWorkoutEventTypeResume": 2, "HKWorkoutEventTypeLap": 3,
        "HKWorkoutEventTypeMarker": 4, "HKWorkoutEventTypeMotionPaused": 5, "HKWorkoutEventTypeMotionResumed": 6,
        "HKWorkoutEventTypeSegment": 7, "HKWorkoutEventTypePauseOrResumeRequest": 8,
    ]
}
