//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// One day's Activity rings (HealthKit's `HKActivitySummary`), over Cadence's `ActivitySummary`.
///
///     let rings = summary.activeEnergyBurned.doubleValue(for: .kilocalorie())
///
/// A value or goal the day does not have is a quantity of 0 where HealthKit's property is not
/// optional, and `nil` where it is (`exerciseTimeGoal`, `standHoursGoal`).
public final class HKActivitySummary: NSObject, Sendable {
    /// The Cadence summary.
    public let summary: ActivitySummary

    /// Wraps a Cadence summary.
    public init(_ summary: ActivitySummary) {
        self.summary = summary
    }

    /// The summary's day as the era, year, month and day of `calendar` (HealthKit's
    /// `dateComponents(for:)`); the day has no time zone, so the components are read in UTC.
    public func dateComponents(for calendar: Calendar) -> DateComponents {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC") ?? utc.timeZone
        var target = calendar
        target.timeZone = utc.timeZone
        guard let date = utc.date(from: summary.day.dateComponents) else { return summary.day.dateComponents }
        var components = target.dateComponents([.era, .year, .month, .day], from: date)
        components.calendar = calendar
        return components
    }

    private static func quantity(_ value: Double?, _ unit: HKUnit) -> HKQuantity {
        HKQuantity(unit: unit, doubleValue: value ?? 0)
    }

    /// Active energy burned, in kilocalories.
    public var activeEnergyBurned: HKQuantity { Self.quantity(summary.activeEnergyBurned, .kilocalorie()) }
    /// The active energy goal, in kilocalories.
    public var activeEnergyBurnedGoal: HKQuantity { Self.quantity(summary.activeEnergyBurnedGoal, .kilocalorie()) }
    /// Move time, in minutes.
    public var appleMoveTime: HKQuantity { Self.quantity(summary.appleMoveTime, .minute()) }
    /// The move time goal, in minutes.
    public var appleMoveTimeGoal: HKQuantity { Self.quantity(summary.appleMoveTimeGoal, .minute()) }
    /// Exercise time, in minutes.
    public var appleExerciseTime: HKQuantity { Self.quantity(summary.appleExerciseTime, .minute()) }
    /// The exercise time goal, in minutes (the name before iOS 16).
    public var appleExerciseTimeGoal: HKQuantity { Self.quantity(summary.appleExerciseTimeGoal, .minute()) }
    /// The exercise time goal, in minutes, or `nil` when the day has none.
    public var exerciseTimeGoal: HKQuantity? { summary.appleExerciseTimeGoal.map { HKQuantity(unit: .minute(), doubleValue: $0) } }
    /// Stand hours, a count.
    public var appleStandHours: HKQuantity { Self.quantity(summary.appleStandHours, .count()) }
    /// The stand hours goal, a count (the name before iOS 16).
    public var appleStandHoursGoal: HKQuantity { Self.quantity(summary.appleStandHoursGoal, .count()) }
    /// The stand hours goal, a count, or `nil` when the day has none.
    public var standHoursGoal: HKQuantity? { summary.appleStandHoursGoal.map { HKQuantity(unit: .count(), doubleValue: $0) } }

    public override func isEqual(_ object: Any?) -> Bool { (object as? HKActivitySummary)?.summary == summary }

    public override var hash: Int { summary.hashValue }

    public override var description: String { "HKActivitySummary \(summary.day)" }
}
