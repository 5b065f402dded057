//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// A workout's figures for one quantity type, such as its heart rate or its distance (HealthKit's
/// `HKStatistics` as `HKWorkout.statistics(for:)` gives it).
///
/// A cumulative type has a ``sum``; a discrete one has an ``average``, a ``minimum`` and a
/// ``maximum``. Newer exports carry a workout's totals here rather than on the workout itself.
/// Values are in ``unit``: the type's canonical unit for a known type, the unit the export named
/// for an unknown one.
public struct WorkoutStatistics: Hashable, Sendable {
    /// The quantity type the figures describe.
    public var quantityType: QuantityType
    /// The start of the interval the figures cover, if known.
    public var startDate: Date?
    /// The end of the interval the figures cover, if known.
    public var endDate: Date?
    /// The total, for a cumulative type.
    public var sum: Double?
    /// The average, for a discrete type.
    public var average: Double?
    /// The smallest value, for a discrete type.
    public var minimum: Double?
    /// The largest value, for a discrete type.
    public var maximum: Double?
    /// The unit of every value above.
    public var unit: HealthUnit

    /// Creates statistics; the values are taken as they are, in `unit`.
    public init(quantityType: QuantityType, startDate: Date? = nil, endDate: Date? = nil, sum: Double? = nil,
                average: Double? = nil, minimum: Double? = nil, maximum: Double? = nil, unit: HealthUnit) {
        self.quantityType = quantityType
        self.startDate = startDate
        self.endDate = endDate
        self.sum = sum
        self.average = average
        self.minimum = minimum
        self.maximum = maximum
        self.unit = unit
    }
}
