//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// The statistics of one interval or of all matching samples (HealthKit's `HKStatistics`): a
/// view of Cadence's `Statistics`, its quantities in the type's canonical unit.
///
///     if let steps = statistics.sumQuantity() {
///         print(statistics.startDate, steps.doubleValue(for: .count()))
///     }
///
/// A value is `nil` when its option was not requested, when no sample contributed, or when the
/// option does not apply to the type.
public final class HKStatistics: NSObject, Sendable {
    /// The Cadence statistics it shows.
    let cadence: Statistics

    init(_ statistics: Statistics) {
        cadence = statistics
    }

    /// The type the statistics are about.
    public var quantityType: HKQuantityType { HKQuantityType(cadence: cadence.quantityType) }
    /// The interval's start (for a statistics query: the window's start, else the earliest matching start).
    public var startDate: Date { cadence.startDate }
    /// The interval's end (for a statistics query: the window's end, else the latest matching end).
    public var endDate: Date { cadence.endDate }
    /// The sources with data, with `separateBySource`; `nil` otherwise.
    public var sources: [HKSource]? { cadence.sources?.map(HKSource.init) }

    /// The sum, sources merged (cumulative types).
    public func sumQuantity() -> HKQuantity? { cadence.sumQuantity().map(HKQuantity.init) }
    /// One source's sum (with `separateBySource`).
    public func sumQuantity(for source: HKSource) -> HKQuantity? {
        cadence.sumQuantity(for: source.cadence).map(HKQuantity.init)
    }
    /// The average (discrete types).
    public func averageQuantity() -> HKQuantity? { cadence.averageQuantity().map(HKQuantity.init) }
    /// One source's average (with `separateBySource`).
    public func averageQuantity(for source: HKSource) -> HKQuantity? {
        cadence.averageQuantity(for: source.cadence).map(HKQuantity.init)
    }
    /// The minimum (discrete types).
    public func minimumQuantity() -> HKQuantity? { cadence.minimumQuantity().map(HKQuantity.init) }
    /// One source's minimum (with `separateBySource`).
    public func minimumQuantity(for source: HKSource) -> HKQuantity? {
        cadence.minimumQuantity(for: source.cadence).map(HKQuantity.init)
    }
    /// The maximum (discrete types).
    public func maximumQuantity() -> HKQuantity? { cadence.maximumQuantity().map(HKQuantity.init) }
    /// One source's maximum (with `separateBySource`).
    public func maximumQuantity(for source: HKSource) -> HKQuantity? {
        cadence.maximumQuantity(for: source.cadence).map(HKQuantity.init)
    }
    /// The most recent sample's value.
    public func mostRecentQuantity() -> HKQuantity? { cadence.mostRecentQuantity().map(HKQuantity.init) }
    /// One source's most recent value (with `separateBySource`).
    public func mostRecentQuantity(for source: HKSource) -> HKQuantity? {
        cadence.mostRecentQuantity(for: source.cadence).map(HKQuantity.init)
    }
    /// The most recent sample's interval.
    public func mostRecentQuantityDateInterval() -> DateInterval? { cadence.mostRecentQuantityDateInterval() }
    /// One source's most recent sample's interval (with `separateBySource`).
    public func mostRecentQuantityDateInterval(for source: HKSource) -> DateInterval? {
        cadence.mostRecentQuantityDateInterval(for: source.cadence)
    }
    /// The time the samples cover, overlaps counted once, in seconds.
    public func duration() -> HKQuantity? { cadence.duration().map(HKQuantity.init) }
    /// One source's covered time (with `separateBySource`).
    public func duration(for source: HKSource) -> HKQuantity? {
        cadence.duration(for: source.cadence).map(HKQuantity.init)
    }
}
