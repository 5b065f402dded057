//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Builds one quantity sample holding a series of quantities, each with its own date interval
/// (HealthKit's `HKQuantitySeriesSampleBuilder`, <doc:HowCadenceComputes#Quantity-series>).
///
///     var builder = try QuantitySeriesSampleBuilder(type: .stepCount, start: start, end: start + 600)
///     for minute in 0..<10 {
///         let from = start + Double(minute) * 60
///         try builder.insert(Quantity(value: 12, unit: .count), dateInterval: DateInterval(start: from, duration: 60))
///     }
///     let series = try builder.finishSeries(source: Source(name: "Watch"))
///     try store.save(series)
///
/// Entries come in any order. Statistics use the entries, each as a sample with the owner's
/// source and device; sample queries list the owning sample, whose ``QuantitySample/count`` is
/// the number of entries.
public struct QuantitySeriesSampleBuilder: Sendable {
    /// The type of every entry.
    public let quantityType: QuantityType
    /// The owning sample's start; every entry starts at or after it.
    public let startDate: Date
    /// The owning sample's end; every entry ends at or before it.
    public let endDate: Date
    /// The entries inserted so far, in insertion order, values in the canonical unit.
    public private(set) var entries: [QuantitySeriesEntry] = []

    /// Starts a series over [`start`, `end`].
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` when `start` is after `end`.
    public init(type: QuantityType, start: Date, end: Date) throws {
        guard start <= end else {
            throw CadenceError(.invalidArgument, "the series start \(start) is after its end \(end)")
        }
        quantityType = type
        startDate = start
        endDate = end
    }

    /// Adds an entry, converting `quantity` to the type's canonical unit.
    ///
    /// - Throws: ``CadenceError/Code/incompatibleUnits`` for a unit that does not fit the type;
    ///   ``CadenceError/Code/invalidArgument`` for a value that is not finite or the type refuses,
    ///   or an interval outside the series' [start, end]. Nothing is added then.
    public mutating func insert(_ quantity: Quantity, dateInterval: DateInterval) throws {
        let value = try quantity.doubleValue(for: quantityType.canonicalUnit)
        guard value.isFinite else {
            throw CadenceError(.invalidArgument, "the series entry value \(quantity) is not a finite number")
        }
        try quantityType.validate(value: value)
        guard dateInterval.start >= startDate, dateInterval.end <= endDate else {
            throw CadenceError(.invalidArgument,
                               "the series entry \(dateInterval.start)–\(dateInterval.end) lies outside the series \(startDate)–\(endDate)")
        }
        entries.append(QuantitySeriesEntry(quantity: Quantity(value: value, unit: quantityType.canonicalUnit),
                                           dateInterval: dateInterval))
    }

    /// Finishes the series into its owning sample and its entries sorted by start.
    ///
    /// The owning sample's value is the entries' sum for a cumulative type, their average for a
    /// discrete one, which also keeps their extremes and the entry with the latest start
    /// (``QuantitySample/seriesValues``).
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` when there is no entry, or when entries of a
    ///   cumulative type overlap (naming the first overlap in start order).
    /// - Complexity: O(*n* log *n*) for *n* entries.
    public func finishSeries(uuid: UUID = UUID(), source: Source, sourceVersion: String? = nil, device: Device? = nil,
                             creationDate: Date? = nil, metadata: [String: String] = [:]) throws -> QuantitySeriesSample {
        guard !entries.isEmpty else {
            throw CadenceError(.invalidArgument, "the \(quantityType) series \(startDate)–\(endDate) has no entry")
        }
        let sorted = entries.enumerated().sorted {
            ($0.element.dateInterval.start, $0.element.dateInterval.end, $0.offset)
                < ($1.element.dateInterval.start, $1.element.dateInterval.end, $1.offset)
        }.map(\.element)
        let values = sorted.map(\.quantity.value)
        let isCumulative = quantityType.aggregationStyle == .cumulative
        if isCumulative {
            for (previous, next) in zip(sorted, sorted.dropFirst()) where next.dateInterval.start < previous.dateInterval.end {
                throw CadenceError(.invalidArgument, "the \(quantityType) series entries \(previous.dateInterval.start)–\(previous.dateInterval.end) and \(next.dateInterval.start)–\(next.dateInterval.end) overlap; a cumulative series' entries may not")
            }
        }
        let total = values.reduce(0, +)
        var sample = try QuantitySample(
            uuid: uuid, type: quantityType, value: isCumulative ? total : total / Double(values.count),
            start: startDate, end: endDate, source: source, sourceVersion: sourceVersion, device: device,
            creationDate: creationDate, metadata: metadata)
        sample.count = sorted.count
        if !isCumulative, let last = sorted.last, let minimum = values.min(), let maximum = values.max() {
            sample.seriesValues = QuantitySeriesValues(minimum: minimum, maximum: maximum, mostRecent: last.quantity.value,
                                                       mostRecentDateInterval: last.dateInterval)
        }
        return QuantitySeriesSample(sample: sample, entries: sorted)
    }
}
