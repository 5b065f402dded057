//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// The statistics of one interval, or of all matching samples (HealthKit's `HKStatistics`).
///
///     if let steps = statistics.sumQuantity() { print(steps.value) }
///     let watchSteps = statistics.sumQuantity(for: watch)
///
/// A value is `nil` when its option was not requested, when no sample contributed, or when the
/// option does not apply to the type (<doc:HowCadenceComputes#Statistics-options>, <doc:HowCadenceComputes#Intervals-and-contributions>, <doc:HowCadenceComputes#Merging-sources>). Quantities are in the type's canonical unit.
public struct Statistics: Sendable {
    /// The values of one source (or of all sources merged).
    struct Values: Sendable {
        var sum: Double?
        var average: Double?
        var minimum: Double?
        var maximum: Double?
        var mostRecent: Double?
        var mostRecentInterval: DateInterval?
        var duration: Double?
        var count: Int?
        var isEmpty = true
    }

    /// The type the statistics are about.
    public let quantityType: QuantityType
    /// The interval's start (for a statistics query: the earliest matching start).
    public let startDate: Date
    /// The interval's end (for a statistics query: the latest matching end).
    public let endDate: Date
    let merged: Values
    let bySource: [Source: Values]

    init(quantityType: QuantityType, startDate: Date, endDate: Date, merged: Values, bySource: [Source: Values]) {
        self.quantityType = quantityType
        self.startDate = startDate
        self.endDate = endDate
        self.merged = merged
        self.bySource = bySource
    }

    /// The sources with data in the interval (only with `separateBySource`), sorted by name.
    public var sources: [Source]? {
        bySource.isEmpty ? nil : bySource.filter { !$0.value.isEmpty }.keys.sorted { $0.name < $1.name }
    }

    /// Whether no sample contributed.
    public var isEmpty: Bool { merged.isEmpty }

    private func values(_ source: Source?) -> Values? { source.map { bySource[$0] } ?? merged }

    private func quantity(_ value: Double?) -> Quantity? { value.map { Quantity(value: $0, unit: quantityType.canonicalUnit) } }

    /// The prorated, source-merged sum (cumulative types; <doc:HowCadenceComputes#Intervals-and-contributions>, <doc:HowCadenceComputes#Merging-sources>).
    public func sumQuantity(for source: Source? = nil) -> Quantity? { quantity(values(source)?.sum) }
    /// The average (discrete types; weighted per the type's style, <doc:HowCadenceComputes#Intervals-and-contributions>).
    public func averageQuantity(for source: Source? = nil) -> Quantity? { quantity(values(source)?.average) }
    /// The minimum (discrete types).
    public func minimumQuantity(for source: Source? = nil) -> Quantity? { quantity(values(source)?.minimum) }
    /// The maximum (discrete types).
    public func maximumQuantity(for source: Source? = nil) -> Quantity? { quantity(values(source)?.maximum) }
    /// The most recent sample's value: greatest end, then start, then the latest saved **[Cadence rule]**.
    public func mostRecentQuantity(for source: Source? = nil) -> Quantity? { quantity(values(source)?.mostRecent) }
    /// The most recent sample's interval.
    public func mostRecentQuantityDateInterval(for source: Source? = nil) -> DateInterval? {
        values(source)?.mostRecentInterval
    }
    /// Category collections (<doc:HowCadenceComputes#Category-durations>): the samples with a value in the set that start in the
    /// interval; `nil` for quantity statistics.
    public func count(for source: Source? = nil) -> Int? { values(source)?.count }
    /// Seconds covered by the contributing samples, overlaps counted once **[Cadence rule]**;
    /// for a category collection, the time the best-ranked source's samples have a value in the
    /// set (<doc:HowCadenceComputes#Category-durations>).
    public func duration(for source: Source? = nil) -> Quantity? {
        values(source)?.duration.map { Quantity(value: $0, unit: .second) }
    }
}
