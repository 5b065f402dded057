//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// Runs the statistics queries behind `stats` and `plot`.
enum StatisticsRequest {
    /// The default anchor: local midnight of 2000-01-01 in the calendar's zone.
    static func defaultAnchor(calendar: Calendar) throws -> Date {
        guard let anchor = calendar.date(from: DateComponents(year: 2000, month: 1, day: 1)) else {
            throw CadenceError(.invalidArgument, "Local midnight of 2000-01-01 does not exist in \(calendar.timeZone.identifier); give --anchor.")
        }
        return anchor
    }

    /// Every interval of a statistics collection that intersects [`from`, `to`), empty ones included.
    ///
    /// - Parameters:
    ///   - interval: The `--interval` text, such as `1d`.
    ///   - anchor: The `--anchor` text, or `nil` for ``defaultAnchor(calendar:)``.
    ///   - priority: Source names in merge priority order, or `nil` for the store's list.
    ///   - parallelism: The cores the query aggregates on, or `nil` for all of them (`cadence batch`
    ///     runs one query per core, each on one).
    /// - Throws: ``CadenceError`` for unreadable arguments or options that do not fit the type.
    static func intervals(store: HealthStore, type: QuantityType, filter: SampleFilterOptions.Resolved,
                          from: Date, to: Date, interval: String, anchor: String?,
                          options: StatisticsOptions, priority: [String]?, parallelism: Int? = nil) throws -> [Statistics] {
        try intervals(store: store, filter: filter, from: from, to: to, interval: interval, anchor: anchor,
                      parallelism: parallelism) { anchorDate, components, calendar in
            try StatisticsCollectionQuery(
                quantityType: type, quantitySamplePredicate: filter.predicate, options: options,
                anchorDate: anchorDate, intervalComponents: components, calendar: calendar, sourcePriority: priority)
        }
    }

    /// Every interval of a collection over a category type and values (SPEC §14) that intersects
    /// [`from`, `to`), empty ones included; arguments as for the quantity form.
    static func intervals(store: HealthStore, category: CategoryType, values: Set<Int>,
                          filter: SampleFilterOptions.Resolved, from: Date, to: Date, interval: String, anchor: String?,
                          options: StatisticsOptions, priority: [String]?, parallelism: Int? = nil) throws -> [Statistics] {
        try intervals(store: store, filter: filter, from: from, to: to, interval: interval, anchor: anchor,
                      parallelism: parallelism) { anchorDate, components, calendar in
            try StatisticsCollectionQuery(categoryType: category, values: values, predicate: filter.predicate,
                                          options: options, anchorDate: anchorDate, intervalComponents: components,
                                          calendar: calendar, sourcePriority: priority)
        }
    }

    /// Reads the interval arguments, builds the query with `makeQuery(anchor, components, calendar)`
    /// and lists its intervals over [`from`, `to`).
    private static func intervals(
        store: HealthStore, filter: SampleFilterOptions.Resolved, from: Date, to: Date, interval: String,
        anchor: String?, parallelism: Int?,
        makeQuery: (Date, IntervalComponents, Calendar) throws -> StatisticsCollectionQuery
    ) throws -> [Statistics] {
        let components = try IntervalComponents(parsing: interval)
        let calendar = ArgumentValues.calendar(in: filter.timeZone)
        let anchorDate = try anchor.map { try ArgumentValues.date($0, option: "--anchor", timeZone: filter.timeZone) }
            ?? defaultAnchor(calendar: calendar)
        let query = try makeQuery(anchorDate, components, calendar)
        let collection = try parallelism.map { try store.execute(query, parallelism: $0) } ?? store.execute(query)
        // From the interval holding `from` to the one holding the last instant before `to`: every
        // interval that intersects [from, to), and no interval that starts at `to`.
        let lastInstant = Date(timestamp: to.timestamp - 1)
        return try collection.statistics(from: from, to: lastInstant)
    }

    /// One statistics query over every selected sample.
    static func total(store: HealthStore, type: QuantityType, filter: SampleFilterOptions.Resolved,
                      options: StatisticsOptions, priority: [String]?) throws -> Statistics {
        let query = try StatisticsQuery(quantityType: type, quantitySamplePredicate: filter.predicate,
                                        options: options, sourcePriority: priority)
        return try store.execute(query)
    }
}
