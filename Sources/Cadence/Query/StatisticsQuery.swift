//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Statistics over every matching sample, with no intervals (HealthKit's `HKStatisticsQuery`, <doc:HowCadenceComputes#Collections-and-windows>).
///
/// With a date window in the predicate (the intersection of its AND-ed date ranges), the result
/// is exactly the statistics-collection interval [start, end) with the same predicate and
/// options: cumulative sums prorate a sample that straddles an edge of the window, and the
/// result's start and end are the window's **[Cadence rule]**. Without a window, samples
/// contribute in full and the result spans the earliest start to the latest end of the matching
/// samples. No matching sample gives a result whose values are all `nil`
/// (``Statistics/isEmpty``), not an error.
public struct StatisticsQuery: Sendable {
    /// The type to aggregate.
    public var quantityType: QuantityType
    /// Which samples to use.
    public var predicate: SamplePredicate
    /// The statistics to compute.
    public var options: StatisticsOptions
    /// Sources in merge priority order; `nil` uses the store's list for the type, else its store-wide list (<doc:HowCadenceComputes#Merging-sources>).
    public var sourcePriority: [String]?

    /// Creates a query, validating its options against the type.
    ///
    /// - Throws: ``CadenceError/Code/invalidQuery`` for an option the type's style does not allow.
    public init(quantityType: QuantityType, quantitySamplePredicate: SamplePredicate = .all,
                options: StatisticsOptions, sourcePriority: [String]? = nil) throws {
        try options.validate(for: quantityType)
        try quantitySamplePredicate.validate(for: quantityType)
        self.quantityType = quantityType
        self.predicate = quantitySamplePredicate
        self.options = options
        self.sourcePriority = sourcePriority
    }
}

extension HealthStore {
    /// Runs a statistics query on the current snapshot.
    ///
    /// - Complexity: O(*c*) for *c* chunks when their summaries answer, plus decoded samples.
    public func execute(_ query: StatisticsQuery) throws -> Statistics {
        try read { try query.statistics(in: $0) }
    }
}

extension StatisticsQuery {
    /// The query's statistics over `snapshot`.
    package func statistics(in snapshot: StoreSnapshot) throws -> Statistics {
        let query = self
        let window = query.predicate.dateWindow
        let lower = window?.start ?? .min
        let upper = window?.end ?? .max
        // An empty window is an interval no sample contributes to.
        let isEmptyWindow = lower >= upper
        let output = try Aggregator(snapshot: snapshot, type: query.quantityType,
                                    predicate: isEmptyWindow ? .uuids([]) : query.predicate, options: query.options,
                                    edges: isEmptyWindow ? [Int64.min, Int64.max] : [lower, upper],
                                    sourcePriority: query.sourcePriority).run()
        let accumulator = output.merged.first ?? StatisticsAccumulator()
        let builder = StatisticsBuilder(type: query.quantityType, options: query.options, output: output)
        let start = window?.start ?? (accumulator.count > 0 ? accumulator.earliestStart : 0)
        let end = window?.end ?? (accumulator.count > 0 ? accumulator.latestEnd : 0)
        return builder.statistics(interval: 0, start: start, end: end)
    }
}
