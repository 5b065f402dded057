//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// An async statistics query (HealthKit's `HKStatisticsQueryDescriptor`): one ``Statistics`` over
/// every matching sample, as ``StatisticsQuery`` computes it.
///
///     let today = StatisticsQueryDescriptor(
///         predicate: .quantitySample(type: .stepCount, predicate: .samples(start: midnight, end: nil)),
///         options: .cumulativeSum)
///     let steps = try await today.result(for: store).sumQuantity()
///     for try await update in today.results(for: store) { show(update.sumQuantity()) }
///
/// The options are checked against the type when the query runs: an option the type's style does
/// not allow throws from ``result(for:)`` and ends ``results(for:)``.
public struct StatisticsQueryDescriptor: Sendable {
    /// The quantity type, with the predicate that selects its samples.
    public var predicate: SampleTypePredicate<QuantitySample>
    /// The statistics to compute.
    public var options: StatisticsOptions
    /// Sources in merge priority order; `nil` uses the store's list for the type, else its store-wide list.
    public var sourcePriority: [String]?

    /// Creates a descriptor.
    public init(predicate: SampleTypePredicate<QuantitySample>, options: StatisticsOptions,
                sourcePriority: [String]? = nil) {
        self.predicate = predicate
        self.options = options
        self.sourcePriority = sourcePriority
    }

    /// The equivalent synchronous query.
    ///
    /// - Throws: ``CadenceError/Code/invalidQuery`` for an option the type's style does not allow.
    public func query() throws -> StatisticsQuery {
        try StatisticsQuery(quantityType: predicate.quantityType, quantitySamplePredicate: predicate.predicate,
                            options: options, sourcePriority: sourcePriority)
    }

    /// Runs the query on the store's current snapshot, off Swift's cooperative pool.
    ///
    /// - Throws: What ``query()`` and ``HealthStore/execute(_:)-(StatisticsQuery)`` throw.
    public func result(for store: HealthStore) async throws -> Statistics {
        let query = try query()
        return try await QueryExecutionQueue.run { try store.execute(query) }
    }

    /// The statistics now, then again after each committed transaction that touches the type.
    /// Cancelling the iterating task stops it.
    public func results(for store: HealthStore) -> AsyncThrowingStream<Statistics, any Error> {
        do {
            return store.statisticsUpdates(try query())
        } catch {
            return AsyncThrowingStream { $0.finish(throwing: error) }
        }
    }
}
