//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Lists the activity summaries of a range of days (HealthKit's `HKActivitySummaryQuery`,
/// <doc:HowCadenceComputes#Activity-summaries>), in day order.
///
///     let january = ActivitySummaryQuery(from: try ActivityDay("2024-01-01"), through: try ActivityDay("2024-01-31"))
///     for summary in try store.execute(january) where summary.isClosed(.move) == true { print(summary.day) }
///
/// Both ends are inclusive; a `nil` end is open. Days are calendar days without a time zone, so
/// the same range selects the same summaries wherever the query runs.
public struct ActivitySummaryQuery: Sendable, Hashable {
    /// The first day listed, or `nil` for no lower bound.
    public var first: ActivityDay?
    /// The last day listed, or `nil` for no upper bound.
    public var last: ActivityDay?

    /// Creates a query for the days from `first` through `last`.
    public init(from first: ActivityDay? = nil, through last: ActivityDay? = nil) {
        self.first = first
        self.last = last
    }
}

extension HealthStore {
    /// Runs an activity summary query on the current snapshot.
    ///
    /// - Returns: The summaries of the query's days, in day order (an empty range lists none).
    /// - Complexity: O(*n* log *n*) for the *n* summaries of the chunks the range does not prune.
    public func execute(_ query: ActivitySummaryQuery) throws -> [ActivitySummary] {
        if let first = query.first, let last = query.last, last < first { return [] }
        return try execute(SampleQuery(reading: .activitySummaries,
                                       predicate: ActivityDay.predicate(from: query.first, through: query.last),
                                       limit: 0, sortDescriptors: []))
    }
}

extension AnchoredObjectQuery where Sample == ActivitySummary {
    /// Creates a query for the activity summaries saved, replaced and deleted after `anchor`, of
    /// the days from `first` through `last`. A replaced summary comes as a deleted object (the
    /// old summary's ``ActivitySummary/uuid``) and a new summary, in that order.
    public init(activitySummariesFrom first: ActivityDay? = nil, through last: ActivityDay? = nil,
                anchor: QueryAnchor? = nil, limit: Int = 0) {
        self.init(reading: .activitySummaries, predicate: ActivityDay.predicate(from: first, through: last),
                  anchor: anchor, limit: limit)
    }
}
