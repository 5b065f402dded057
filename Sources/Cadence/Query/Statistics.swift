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
///
/// The statistics of one collection share its numbers, each reading its own when asked: making
/// or copying one copies two words and an interval's edges, and keeping one keeps the whole
/// collection's numbers in memory.
public struct Statistics: Sendable {
    /// The numbers of the collection or query this interval belongs to, shared by all its
    /// statistics (so a ``Statistics`` keeps them in memory while it lives).
    private let builder: StatisticsBuilder
    /// Where the interval's numbers are in them, or `nil` for an interval no sample contributed to.
    private let index: Int?
    private let start: Timestamp
    private let end: Timestamp

    init(builder: StatisticsBuilder, index: Int?, start: Timestamp, end: Timestamp) {
        self.builder = builder
        self.index = index
        self.start = start
        self.end = end
    }

    /// The type the statistics are about.
    public var quantityType: QuantityType { builder.type }
    /// The interval's start (for a statistics query: the earliest matching start).
    public var startDate: Date { Date(timestamp: start) }
    /// The interval's end (for a statistics query: the latest matching end).
    public var endDate: Date { Date(timestamp: end) }

    /// The values of all sources merged.
    var merged: StatisticsValues { index.map(builder.values(at:)) ?? builder.emptyValues }

    /// The sources with data in the interval (only with `separateBySource`), sorted by name.
    public var sources: [Source]? {
        guard let index else { return nil }
        let sources = builder.sources(at: index)
        return sources.isEmpty ? nil : sources.sorted { $0.name < $1.name }
    }

    /// Whether no sample contributed.
    public var isEmpty: Bool { merged.isEmpty }

    /// The numbers behind the statistics of `source` (`nil`: all sources merged), or `nil` for a
    /// source without data in the interval or without `separateBySource`.
    public func values(for source: Source? = nil) -> StatisticsValues? {
        guard let source else { return merged }
        return index.flatMap { builder.values(of: source, at: $0) }
    }

    private func quantity(_ value: Double?) -> Quantity? { value.map { Quantity(value: $0, unit: quantityType.canonicalUnit) } }

    /// The prorated, source-merged sum (cumulative types; <doc:HowCadenceComputes#Intervals-and-contributions>, <doc:HowCadenceComputes#Merging-sources>).
    public func sumQuantity(for source: Source? = nil) -> Quantity? { quantity(values(for: source)?.sum) }
    /// The average (discrete types; weighted per the type's style, <doc:HowCadenceComputes#Intervals-and-contributions>).
    public func averageQuantity(for source: Source? = nil) -> Quantity? { quantity(values(for: source)?.average) }
    /// The minimum (discrete types).
    public func minimumQuantity(for source: Source? = nil) -> Quantity? { quantity(values(for: source)?.minimum) }
    /// The maximum (discrete types).
    public func maximumQuantity(for source: Source? = nil) -> Quantity? { quantity(values(for: source)?.maximum) }
    /// The most recent sample's value: greatest end, then start, then the latest saved **[Cadence rule]**.
    public func mostRecentQuantity(for source: Source? = nil) -> Quantity? { quantity(values(for: source)?.mostRecent) }
    /// The most recent sample's interval.
    public func mostRecentQuantityDateInterval(for source: Source? = nil) -> DateInterval? {
        values(for: source)?.mostRecentDateInterval
    }
    /// Category collections (<doc:HowCadenceComputes#Category-durations>): the samples with a value in the set that start in the
    /// interval; `nil` for quantity statistics.
    public func count(for source: Source? = nil) -> Int? { values(for: source)?.count }
    /// Seconds covered by the contributing samples, overlaps counted once **[Cadence rule]**;
    /// for a category collection, the time the best-ranked source's samples have a value in the
    /// set (<doc:HowCadenceComputes#Category-durations>).
    public func duration(for source: Source? = nil) -> Quantity? {
        values(for: source)?.duration.map { Quantity(value: $0, unit: .second) }
    }
}

/// The numbers behind one ``Statistics`` (all sources merged, or one source) as the engine
/// accumulated them, each statistic worked out when it is read under the rules of
/// ``Statistics``'s methods (<doc:HowCadenceComputes#Statistics-options>): `nil` when its option was
/// not requested, when no sample contributed, or when it does not apply to the type. Quantities are
/// plain numbers in the type's canonical unit (seconds for ``duration``).
///
/// Making or copying one allocates nothing, so that a pass over many intervals
/// (``StatisticsCollection/forEachInterval(_:)``) reads them without building ``Statistics``.
public struct StatisticsValues: Sendable {
    let accumulator: StatisticsAccumulator
    /// The source-merged prorated sum, when it differs from the accumulator's.
    let mergedSum: Double?
    /// Seconds covered by the contributing samples, when computed.
    let coveredSeconds: Double?
    /// Category collections: the samples with a value in the set that start in the interval.
    let startCount: Int?
    let style: AggregationStyle
    let options: StatisticsOptions

    init(_ accumulator: StatisticsAccumulator, mergedSum: Double?, coveredSeconds: Double?, startCount: Int?,
         style: AggregationStyle, options: StatisticsOptions) {
        self.accumulator = accumulator
        self.mergedSum = mergedSum
        self.coveredSeconds = coveredSeconds
        self.startCount = startCount
        self.style = style
        self.options = options
    }

    /// The values of an interval no sample contributed to.
    static func empty(style: AggregationStyle, options: StatisticsOptions) -> StatisticsValues {
        StatisticsValues(StatisticsAccumulator(), mergedSum: nil, coveredSeconds: nil, startCount: nil, style: style, options: options)
    }

    /// Whether no sample contributed.
    public var isEmpty: Bool { accumulator.count == 0 }

    /// Whether a quantity statistic under `option` has a value: requested, with data, and not a
    /// category collection (which gives durations and counts only, see How Cadence computes,
    /// Category durations).
    private func hasQuantity(_ option: StatisticsOptions) -> Bool {
        accumulator.count > 0 && startCount == nil && options.contains(option)
    }

    /// The prorated, source-merged sum (cumulative types).
    public var sum: Double? {
        hasQuantity(.cumulativeSum) && !style.isDiscrete ? mergedSum ?? accumulator.sum : nil
    }
    /// The average (discrete types; weighted per the type's style).
    public var average: Double? {
        hasQuantity(.discreteAverage) && style.isDiscrete ? accumulator.average(style: style) : nil
    }
    /// The minimum (discrete types).
    public var minimum: Double? { hasQuantity(.discreteMin) && style.isDiscrete ? accumulator.minimum : nil }
    /// The maximum (discrete types).
    public var maximum: Double? { hasQuantity(.discreteMax) && style.isDiscrete ? accumulator.maximum : nil }
    /// The most recent sample's value.
    public var mostRecent: Double? { hasQuantity(.mostRecent) ? accumulator.mostRecentValue : nil }
    /// The most recent sample's start and end.
    public var mostRecentTimestamps: (start: Timestamp, end: Timestamp)? {
        hasQuantity(.mostRecent) ? (accumulator.mostRecentStart, accumulator.mostRecentEnd) : nil
    }
    /// The most recent sample's interval.
    public var mostRecentDateInterval: DateInterval? {
        mostRecentTimestamps.map { DateInterval(start: Date(timestamp: $0.start), end: Date(timestamp: $0.end)) }
    }
    /// Seconds covered by the contributing samples (see ``Statistics/duration(for:)``).
    public var duration: Double? { accumulator.count > 0 && options.contains(.duration) ? coveredSeconds ?? 0 : nil }
    /// Category collections: the samples with a value in the set that start in the interval.
    public var count: Int? { accumulator.count > 0 ? startCount : nil }
}
