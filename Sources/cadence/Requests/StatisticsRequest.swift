//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// A statistics query read from the options of `cadence stats` once, then run on any number of
/// stores: `stats` runs it on one, `batch` and `stats --input` on every user's.
///
///     let request = try StatisticsRequest(query, store: nil)   // reads and checks the options
///     for store in stores { print(try request.report(in: store).rows.count) }
///
/// Reading the options (dates, zone, type, unit, statistics, values, interval, anchor) and
/// building the query happen here; ``report(in:parallelism:)`` only runs it. A type that only a
/// store can name (one imported under an identifier Cadence does not know) is looked up in each
/// store, with what depends on it (its unit, its statistics).
struct StatisticsRequest: Sendable {
    /// What the request computes once its type is known: the query and the empty report its
    /// results fill.
    struct Plan: Sendable {
        /// The query, and for a collection the intervals it lists.
        enum Query: Sendable {
            case intervals(StatisticsCollectionQuery, StatisticsIntervals)
            case total(StatisticsQuery)
        }

        var query: Query
        /// The heading, unit and columns; no rows.
        var report: StatisticsReport
    }

    /// The options as given, for a type looked up in each store.
    private let arguments: StatisticsQueryOptions
    /// The date range, zone and predicate.
    private let filter: SampleFilterOptions.Resolved
    /// Source names in merge priority order, or `nil` for the store's list.
    private let priority: [String]?
    /// The plan, or `nil` when each store names the type.
    private let plan: Plan?

    /// Reads and checks `arguments`, looking the type up in `store` when one is given; without a
    /// store, a type Cadence does not know is left for ``report(in:parallelism:)`` to look up.
    ///
    /// - Throws: ``CadenceError`` for unreadable arguments and options that do not fit the type.
    init(_ arguments: StatisticsQueryOptions, store: HealthStore?) throws {
        self.arguments = arguments
        filter = try arguments.filter.resolve()
        priority = arguments.priority.map(ArgumentValues.list)
        let type: ArgumentValues.SampleTypeName
        do {
            type = try ArgumentValues.sampleType(arguments.type, in: store)
        } catch let error as CadenceError where store == nil && error.code == .unknownType {
            plan = nil
            return
        }
        plan = try Self.plan(for: type, arguments: arguments, filter: filter, priority: priority, store: store)
    }

    /// Runs the request on `store`: every interval that intersects [--from, --to) with
    /// --interval, else one total over every selected sample.
    ///
    /// - Parameter parallelism: The cores an interval query aggregates on, or `nil` for all of them.
    /// - Throws: ``CadenceError`` for a type the store does not hold (when the type is looked up
    ///   in each store) and whatever reading the store throws.
    func report(in store: HealthStore, parallelism: Int? = nil) throws -> StatisticsReport {
        let plan = try self.plan ?? Self.plan(for: try ArgumentValues.sampleType(arguments.type, in: store),
                                              arguments: arguments, filter: filter, priority: priority, store: store)
        return try report(of: plan, collection: { query in
            try parallelism.map { try store.execute(query, parallelism: $0) } ?? store.execute(query)
        }, total: store.execute)
    }

    /// The quantity type of the request when Cadence knows it without a store (nil for a
    /// category type): the samples a snapshot for ``report(in:)`` holds.
    var knownQuantityType: QuantityType? {
        switch plan?.query {
        case .intervals(let query, _)?: query.category == nil ? query.quantityType : nil
        case .total(let query)?: query.quantityType
        case nil: nil
        }
    }

    /// Runs the request on a snapshot of ``knownQuantityType``'s samples, as ``report(in:parallelism:)``
    /// runs it on a store holding them.
    ///
    /// - Throws: ``CadenceError/Code/unknownType`` when the request's type is one only a store can name.
    func report(in snapshot: StoreSnapshot) throws -> StatisticsReport {
        guard let plan else { throw CadenceError(.unknownType, "\(arguments.type) is a type only a store can name") }
        return try report(of: plan, collection: { query in try CollectionPlan(query, snapshot: snapshot).execute() },
                          total: { try $0.statistics(in: snapshot) })
    }

    /// The report of `plan`, its statistics computed by `collection` (every interval) or `total`.
    private func report(of plan: Plan, collection: (StatisticsCollectionQuery) throws -> StatisticsCollection,
                        total: (StatisticsQuery) throws -> Statistics) throws -> StatisticsReport {
        var report = plan.report
        switch plan.query {
        case .intervals(let query, let intervals):
            let result = try collection(query)
            try intervals.forEachInterval(of: result) { try report.append($0, of: result) }
        case .total(let query):
            let statistics = try total(query)
            // A total spans its samples; with no sample it spans the range asked for.
            if statistics.isEmpty {
                try report.append(statistics, start: filter.from?.timestamp, end: filter.to?.timestamp)
            } else {
                try report.append(statistics, start: statistics.startDate.timestamp, end: statistics.endDate.timestamp)
            }
        }
        return report
    }

    /// The plan for `type`: a collection of a category type, else a collection or total of a
    /// quantity type.
    private static func plan(for type: ArgumentValues.SampleTypeName, arguments: StatisticsQueryOptions,
                             filter: SampleFilterOptions.Resolved, priority: [String]?, store: HealthStore?) throws -> Plan {
        if case .category(let categoryType) = type {
            return try categoryPlan(categoryType, arguments: arguments, filter: filter, priority: priority)
        }
        guard arguments.values == nil else {
            throw CadenceError(.invalidArgument, "--values applies to category types; \(arguments.type) is a quantity type.")
        }
        let quantityType = try ArgumentValues.quantityType(arguments.type, in: store)
        let reportUnit = try ArgumentValues.unit(arguments.unit, for: quantityType)
        let selection = try StatisticsSelection(parsing: arguments.options, for: quantityType)
        let report = try StatisticsReport(typeIdentifier: quantityType.identifier, typeName: quantityType.shortIdentifier,
                                          canonicalUnit: quantityType.canonicalUnit, unit: reportUnit, selection: selection,
                                          timeZone: filter.timeZone, timeZoneName: filter.timeZoneName)
        guard let interval = arguments.interval, let from = filter.from, let to = filter.to else {
            let query = try StatisticsQuery(quantityType: quantityType, quantitySamplePredicate: filter.predicate,
                                            options: selection.options, sourcePriority: priority)
            return Plan(query: .total(query), report: report)
        }
        let intervals = try StatisticsIntervals(interval: interval, anchor: arguments.anchor, from: from, to: to,
                                                timeZone: filter.timeZone)
        let query = try StatisticsCollectionQuery(
            quantityType: quantityType, quantitySamplePredicate: filter.predicate, options: selection.options,
            anchorDate: intervals.anchorDate, intervalComponents: intervals.components, calendar: intervals.calendar,
            sourcePriority: priority)
        return Plan(query: .intervals(query, intervals), report: report)
    }

    /// A category collection (see How Cadence computes, Category durations): time and samples of
    /// `--values` per interval.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` without `--interval`, without `--values` for
    ///   a type of several tracks, or for a `--unit`.
    private static func categoryPlan(_ categoryType: CategoryType, arguments: StatisticsQueryOptions,
                                     filter: SampleFilterOptions.Resolved, priority: [String]?) throws -> Plan {
        guard let interval = arguments.interval, let from = filter.from, let to = filter.to else {
            throw CadenceError(.invalidArgument, "Statistics of the category type \(categoryType.shortIdentifier) need --interval, --from and --to.")
        }
        guard arguments.unit == nil else {
            throw CadenceError(.invalidArgument, "--unit does not apply to the category type \(categoryType.shortIdentifier): durations print as h:mm:ss.")
        }
        let chosen: Set<Int>
        if let values = arguments.values {
            chosen = Set(try ArgumentValues.categoryValues(values, of: categoryType))
        } else if categoryType.tracks.count == 1, let track = categoryType.tracks.first {
            chosen = track
        } else {
            let names = categoryType.values.map(\.shortName).joined(separator: ",")
            throw CadenceError(.invalidArgument, "\(categoryType.shortIdentifier) has several tracks: name the values with --values (from \(names)).")
        }
        let selection = try StatisticsSelection(parsing: arguments.options, for: nil)
        let names = chosen.sorted().map { value in categoryType.values.first { $0.rawValue == value }?.shortName ?? String(value) }
        let report = try StatisticsReport(typeIdentifier: categoryType.identifier,
                                          typeName: "\(categoryType.shortIdentifier) (\(names.joined(separator: ", ")))",
                                          canonicalUnit: .second, unit: .second, selection: selection,
                                          timeZone: filter.timeZone, timeZoneName: filter.timeZoneName)
        let intervals = try StatisticsIntervals(interval: interval, anchor: arguments.anchor, from: from, to: to,
                                                timeZone: filter.timeZone)
        let query = try StatisticsCollectionQuery(categoryType: categoryType, values: chosen, predicate: filter.predicate,
                                                  options: selection.options, anchorDate: intervals.anchorDate,
                                                  intervalComponents: intervals.components, calendar: intervals.calendar,
                                                  sourcePriority: priority)
        return Plan(query: .intervals(query, intervals), report: report)
    }
}
