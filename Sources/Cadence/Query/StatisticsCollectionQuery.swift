//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Statistics over a series of calendar intervals (HealthKit's `HKStatisticsCollectionQuery`, <doc:HowCadenceComputes#Collections-and-windows>).
///
///     let query = try StatisticsCollectionQuery(
///         quantityType: .stepCount, options: .cumulativeSum,
///         anchorDate: midnight, intervalComponents: .days(1))
///     let collection = try store.execute(query)
///     collection.enumerateStatistics(from: monday, to: sunday) { day, _ in print(day.sumQuantity()) }
///
/// Interval *k* (any integer) starts at `calendar.date(byAdding: intervalComponents × k, to: anchorDate)`,
/// computed from the anchor each time. Day, week, month and year intervals follow the local wall
/// clock of the calendar's time zone (a day lasts 23 or 25 hours across DST); hour and minute
/// intervals have fixed lengths **[Cadence rule]**. The edges are generated once per query and
/// samples find their interval by binary search over them.
public struct StatisticsCollectionQuery: Sendable {
    /// The type to aggregate (for a category collection, the storage series of ``categoryType``).
    public var quantityType: QuantityType
    /// Which samples to use; it selects samples but never cuts them (<doc:HowCadenceComputes#Intervals-and-contributions>).
    public var predicate: SamplePredicate
    /// The statistics to compute.
    public var options: StatisticsOptions
    /// The start of interval 0.
    public var anchorDate: Date
    /// The length of one interval.
    public var intervalComponents: IntervalComponents
    /// The calendar (and so the time zone) of the intervals.
    public var calendar: Calendar
    /// Sources in merge priority order; `nil` uses the store's list for the type, else its store-wide list (<doc:HowCadenceComputes#Merging-sources>).
    public var sourcePriority: [String]?
    /// For a category collection (<doc:HowCadenceComputes#Category-durations>): the category type and the raw values measured.
    public internal(set) var category: (type: CategoryType, values: Set<Int>)?

    /// Creates a query, validating its options against the type.
    ///
    /// - Parameters:
    ///   - calendar: Defaults to a Gregorian calendar in the host's time zone.
    /// - Throws: ``CadenceError/Code/invalidQuery`` for an option the type's style does not allow;
    ///   ``CadenceError/Code/incompatibleUnits`` for a quantity predicate in the wrong unit;
    ///   ``CadenceError/Code/invalidArgument`` for an interval that is not a positive length of at
    ///   most 10 000 years.
    public init(quantityType: QuantityType, quantitySamplePredicate: SamplePredicate = .all, options: StatisticsOptions,
                anchorDate: Date, intervalComponents: IntervalComponents, calendar: Calendar? = nil,
                sourcePriority: [String]? = nil) throws {
        try options.validate(for: quantityType)
        try quantitySamplePredicate.validate(for: quantityType)
        try intervalComponents.validate()
        self.quantityType = quantityType
        self.predicate = quantitySamplePredicate
        self.options = options
        self.anchorDate = anchorDate
        self.intervalComponents = intervalComponents
        self.calendar = calendar ?? Self.hostCalendar
        self.sourcePriority = sourcePriority
    }

    /// A Gregorian calendar in the host's time zone.
    public static var hostCalendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        return calendar
    }
}

extension HealthStore {
    /// Runs a statistics-collection query on the current snapshot.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming a damaged chunk (never wrong numbers);
    ///   ``CadenceError/Code/invalidQuery`` when the data's span would need more intervals than the
    ///   memory one query may use holds.
    /// - Complexity: O(*c* + *m*) for *c* chunks and *m* intervals when summaries answer, plus the
    ///   samples that must be decoded, spread over the cores.
    public func execute(_ query: StatisticsCollectionQuery) throws -> StatisticsCollection {
        try read { try CollectionPlan(query, snapshot: $0).execute() }
    }

    /// Runs a statistics-collection query with at most `parallelism` workers (1 forces the serial
    /// path): for callers that already run several queries side by side, such as batch jobs.
    package func execute(_ query: StatisticsCollectionQuery, parallelism: Int) throws -> StatisticsCollection {
        try read { try CollectionPlan(query, snapshot: $0).execute(parallelism: parallelism) }
    }

    /// Runs a statistics-collection query off the caller's thread.
    public func statisticsCollection(_ query: StatisticsCollectionQuery) async throws -> StatisticsCollection {
        let snapshot = snapshot()
        return try await Task.detached { try CollectionPlan(query, snapshot: snapshot).execute() }.value
    }
}
