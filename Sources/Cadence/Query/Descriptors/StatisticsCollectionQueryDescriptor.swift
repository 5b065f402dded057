//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// An async statistics-collection query (HealthKit's `HKStatisticsCollectionQueryDescriptor`):
/// statistics for every calendar interval from an anchor date, as ``StatisticsCollectionQuery``
/// computes them.
///
///     let daily = StatisticsCollectionQueryDescriptor(
///         predicate: .quantitySample(type: .stepCount), options: .cumulativeSum,
///         anchorDate: midnight, intervalComponents: .days(1))
///     let collection = try await daily.result(for: store)
///     for try await update in daily.results(for: store) { redraw(update.collection, update.changedIntervals) }
///
/// The options are checked against the type when the query runs: an option the type's style does
/// not allow throws from ``result(for:)`` and ends ``results(for:)``.
public struct StatisticsCollectionQueryDescriptor: Sendable {
    /// The quantity type, with the predicate that selects its samples.
    public var predicate: SampleTypePredicate<QuantitySample>
    /// The statistics to compute.
    public var options: StatisticsOptions
    /// The start of interval 0.
    public var anchorDate: Date
    /// The length of one interval.
    public var intervalComponents: IntervalComponents
    /// The calendar (and so the time zone) of the intervals; `nil` for a Gregorian calendar in the
    /// host's time zone.
    public var calendar: Calendar?
    /// Sources in merge priority order; `nil` uses the store's list for the type, else its store-wide list.
    public var sourcePriority: [String]?

    /// Creates a descriptor.
    public init(predicate: SampleTypePredicate<QuantitySample>, options: StatisticsOptions, anchorDate: Date,
                intervalComponents: IntervalComponents, calendar: Calendar? = nil, sourcePriority: [String]? = nil) {
        self.predicate = predicate
        self.options = options
        self.anchorDate = anchorDate
        self.intervalComponents = intervalComponents
        self.calendar = calendar
        self.sourcePriority = sourcePriority
    }

    /// The equivalent synchronous query.
    ///
    /// - Throws: ``CadenceError/Code/invalidQuery`` for an option the type's style does not allow.
    public func query() throws -> StatisticsCollectionQuery {
        try StatisticsCollectionQuery(quantityType: predicate.quantityType, quantitySamplePredicate: predicate.predicate,
                                      options: options, anchorDate: anchorDate, intervalComponents: intervalComponents,
                                      calendar: calendar, sourcePriority: sourcePriority)
    }

    /// Runs the query on the store's current snapshot, off Swift's cooperative pool.
    ///
    /// - Throws: What ``query()`` and ``HealthStore/execute(_:)-(StatisticsCollectionQuery)`` throw.
    public func result(for store: HealthStore) async throws -> StatisticsCollection {
        let query = try query()
        return try await QueryExecutionQueue.run { try store.execute(query) }
    }

    /// The collection now, then a new one with the intervals that changed after each committed
    /// transaction that touches the type (``HealthStore/statisticsCollectionUpdates(_:)``).
    /// Cancelling the iterating task stops it.
    public func results(for store: HealthStore) -> AsyncThrowingStream<StatisticsCollectionUpdate, any Error> {
        do {
            return store.statisticsCollectionUpdates(try query())
        } catch {
            return AsyncThrowingStream { $0.finish(throwing: error) }
        }
    }
}
