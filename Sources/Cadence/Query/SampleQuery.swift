//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// A sort key of a sample query, on a sample's dates.
///
/// Any property of the sample can order a query too, through Foundation's key-path sort
/// descriptors: `SortDescriptor(\.endDate, order: .reverse)`.
public enum SampleSortDescriptor: Sendable, Hashable {
    /// By start date.
    case startDate(ascending: Bool)
    /// By end date.
    case endDate(ascending: Bool)
}

/// Lists samples of one type (HealthKit's `HKSampleQuery`, <doc:HowCadenceComputes#Sample-queries>), of any kind: ``QuantitySample``,
/// ``CategorySample`` or ``Correlation``.
///
///     let latest = SampleQuery(quantityType: .heartRate, limit: 10, sortDescriptors: [.endDate(ascending: false)])
///     let largest = SampleQuery(quantityType: .stepCount, limit: 10,
///                               sortDescriptors: [SortDescriptor(\.value, order: .reverse)])
///     let samples = try store.execute(latest)
///     let nights = try store.execute(SampleQuery(categoryType: .sleepAnalysis,
///                                                predicate: .categoryValue(in: [3, 4, 5])))
///
/// Without sort descriptors the samples come in ascending start order **[Cadence rule]**; a limit of
/// 0 means no limit.
public struct SampleQuery<Sample: Sendable>: Sendable {
    /// The type's series and how its rows become samples.
    package let reading: SampleReading<Sample>
    /// Which samples to list.
    public var predicate: SamplePredicate
    /// The most samples to return; 0 is no limit.
    public var limit: Int
    /// The order, most significant first.
    public var sortDescriptors: [SampleSortDescriptor]
    /// An order by any properties of the samples, most significant first; when not empty it is
    /// used instead of ``sortDescriptors``. A correlation is ordered before its members are read,
    /// so its key paths reach its own properties, not ``Correlation/objects``.
    public var keyPathSortDescriptors: [SortDescriptor<Sample>]

    package init(reading: SampleReading<Sample>, predicate: SamplePredicate, limit: Int,
                 sortDescriptors: [SampleSortDescriptor], keyPathSortDescriptors: [SortDescriptor<Sample>] = []) {
        self.reading = reading
        self.predicate = predicate
        self.limit = max(0, limit)
        self.sortDescriptors = sortDescriptors
        self.keyPathSortDescriptors = keyPathSortDescriptors
    }

    /// The full identifier of the type listed.
    public var typeIdentifier: String { reading.identifier }
}

extension SampleQuery where Sample == QuantitySample {
    /// Creates a query for quantity samples.
    public init(quantityType: QuantityType, predicate: SamplePredicate = .all, limit: Int = 0,
                sortDescriptors: [SampleSortDescriptor] = []) {
        self.init(reading: .quantities(quantityType), predicate: predicate, limit: limit, sortDescriptors: sortDescriptors)
    }
}

extension SampleQuery where Sample == CategorySample {
    /// Creates a query for category samples (value predicates: ``SamplePredicate/categoryValue(in:)``).
    public init(categoryType: CategoryType, predicate: SamplePredicate = .all, limit: Int = 0,
                sortDescriptors: [SampleSortDescriptor] = []) {
        self.init(reading: .categories(categoryType), predicate: predicate, limit: limit, sortDescriptors: sortDescriptors)
    }
}

extension HealthStore {
    /// Runs a sample query on the current snapshot.
    ///
    /// - Complexity: O(*n* log *n*) over the selected samples of the chunks the predicate does not prune.
    public func execute<Sample>(_ query: SampleQuery<Sample>) throws -> [Sample] {
        try read { try Self.samples(query, snapshot: $0) }
    }

    /// Runs a quantity sample query: the generic form specialised at compile time (called from
    /// another module, the generic form moves each sample through its type's witness table).
    public func execute(_ query: SampleQuery<QuantitySample>) throws -> [QuantitySample] {
        try read { try Self.samples(query, snapshot: $0) }
    }

    /// The samples `query` selects on `snapshot`, completed.
    static func samples<Sample>(_ query: SampleQuery<Sample>, snapshot: StoreSnapshot) throws -> [Sample] {
        let listing = try listing(query, snapshot: snapshot)
        return try listing.completed(listing.rows.map(\.index), by: query.reading, snapshot: snapshot)
    }

    /// The samples `query` selects and their rows in its order, its limit applied; the samples are
    /// not yet completed (``SampleReading/complete``).
    static func listing<Sample>(_ query: SampleQuery<Sample>, snapshot: StoreSnapshot) throws -> SampleListing<Sample> {
        try query.reading.validate(query.predicate)
        // The samples, and plain sort keys that refer to them (sorting moves no generic value).
        var listing = SampleListing<Sample>()
        var rows: [ListedRow] = []
        for case let type? in query.reading.identifiers.map({ snapshot.types[$0] }) {
            let plan = ScanPlan(listing: query.predicate, of: type, provenances: snapshot.provenances)
            let reader = query.reading.prepare(snapshot, type)
            let keepsRows = query.reading.complete != nil
            try type.forEachSelectedRow(plan) { columns, row in
                guard let sample = reader(columns, row) else { return }
                rows.append(ListedRow(start: columns.start[row], end: columns.end[row], sequence: columns.sequence[row],
                                      index: listing.samples.count))
                listing.append(sample, from: keepsRows ? StoredRow(columns: columns, row: row) : nil)
            }
        }
        if query.keyPathSortDescriptors.isEmpty {
            rows.sort(by: ListedRow.order(query.sortDescriptors))
        } else {
            let samples = listing.samples
            rows.sort(by: ListedRow.order(query.keyPathSortDescriptors) { samples[$0.index] })
        }
        listing.rows = query.limit > 0 ? rows.prefix(query.limit) : rows[...]
        return listing
    }
}

/// The samples a listing read, before it completes those it keeps.
struct SampleListing<Sample> {
    /// The samples, in the order they were read.
    var samples: [Sample] = []
    /// The row each sample was read from, when the reading completes its samples (else empty).
    var stored: [StoredRow] = []
    /// The samples kept, in the query's order, its limit applied (for a sample query).
    var rows: ArraySlice<ListedRow> = []

    mutating func append(_ sample: Sample, from row: StoredRow?) {
        samples.append(sample)
        if let row { stored.append(row) }
    }

    /// The samples at `indexes` (into ``samples``), in that order, completed by `reading`.
    func completed(_ indexes: [Int], by reading: SampleReading<Sample>, snapshot: StoreSnapshot) throws -> [Sample] {
        // Rows kept in the order they were read (an ascending-start listing of one chunk run, no
        // limit) share the samples' storage: copying would retain every string of every sample.
        let selected = indexes.elementsEqual(samples.indices) ? samples : indexes.map { samples[$0] }
        guard let complete = reading.complete else { return selected }
        return try complete(selected, indexes.map { stored[$0] }, snapshot)
    }
}

/// A listed sample's sort keys, and where the sample is.
struct ListedRow {
    var start: Int64
    var end: Int64
    /// The sample's place in the store's change sequence: the last tie-breaker, so that samples
    /// equal on every sort key come in the order they were saved.
    var sequence: Int64
    var index: Int

    /// The order `descriptors` give (ascending start without any).
    static func order(_ descriptors: [SampleSortDescriptor]) -> (ListedRow, ListedRow) -> Bool {
        let descriptors = descriptors.isEmpty ? [.startDate(ascending: true)] : descriptors
        return { left, right in
            for descriptor in descriptors {
                switch descriptor {
                case .startDate(let ascending) where left.start != right.start:
                    return ascending ? left.start < right.start : left.start > right.start
                case .endDate(let ascending) where left.end != right.end:
                    return ascending ? left.end < right.end : left.end > right.end
                default: continue
                }
            }
            return left.sequence < right.sequence
        }
    }

    /// The order key-path `descriptors` give to the samples `sample` finds for rows; rows equal
    /// on every key come in the order they were saved.
    static func order<Row, Sample>(_ descriptors: [SortDescriptor<Sample>], sample: @escaping (Row) -> Sample,
                                   sequence: @escaping (Row) -> Int64) -> (Row, Row) -> Bool {
        { left, right in
            let (first, second) = (sample(left), sample(right))
            for descriptor in descriptors {
                switch descriptor.compare(first, second) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return sequence(left) < sequence(right)
        }
    }

    /// ``order(_:sample:sequence:)`` for listed rows.
    static func order<Sample>(_ descriptors: [SortDescriptor<Sample>], sample: @escaping (ListedRow) -> Sample)
        -> (ListedRow, ListedRow) -> Bool {
        order(descriptors, sample: sample, sequence: \.sequence)
    }
}

extension SampleQuery where Sample == Correlation {
    /// Creates a query for correlations; each comes with its members that are still stored.
    public init(correlationType: CorrelationType, predicate: SamplePredicate = .all, limit: Int = 0,
                sortDescriptors: [SampleSortDescriptor] = []) {
        self.init(reading: .correlations(correlationType), predicate: predicate, limit: limit,
                  sortDescriptors: sortDescriptors)
    }
}

extension SampleQuery where Sample == Workout {
    /// Creates a query for workouts (HealthKit's sample query on the workout type); each comes with
    /// its events, statistics and activities, and with its routes only when `includingRoutes`.
    /// Workout predicates select by activity type, duration, energy and distance, beside the date,
    /// source and UUID ones:
    ///
    ///     let longRuns = SampleQuery(workoutsMatching: .workoutActivityType(.running)
    ///         && .workoutTotalDistance(.greaterThanOrEqual, Quantity(value: 10, unit: .kilometer)))
    ///     let route = try store.execute(SampleQuery(workoutsMatching: .uuids([run.uuid]), includingRoutes: true))
    ///         .first?.routes
    ///
    /// As in HealthKit, whose route points come through a route query of their own, a listing
    /// leaves ``Workout/routes`` empty unless asked: a route may hold thousands of points, and they
    /// are stored apart from the workouts so that a listing reads none
    /// (<doc:HowCadenceComputes#Categories-workouts-and-correlations>).
    ///
    /// - Complexity: Reading routes reads each listed workout's payload from the row the listing
    ///   found it in, decoding only the payload blocks that hold the routes.
    public init(workoutsMatching predicate: SamplePredicate = .all, limit: Int = 0,
                sortDescriptors: [SampleSortDescriptor] = [], includingRoutes: Bool = false) {
        self.init(reading: .workouts(includingRoutes: includingRoutes), predicate: predicate, limit: limit,
                  sortDescriptors: sortDescriptors)
    }
}

// Key-path sort descriptors: `sortDescriptors` has no default in these forms, so a query without
// one keeps calling the forms above.
extension SampleQuery where Sample == QuantitySample {
    /// Creates a query for quantity samples ordered by key paths, such as
    /// `[SortDescriptor(\.endDate, order: .reverse)]`.
    public init(quantityType: QuantityType, predicate: SamplePredicate = .all, limit: Int = 0,
                sortDescriptors: [SortDescriptor<QuantitySample>]) {
        self.init(reading: .quantities(quantityType), predicate: predicate, limit: limit, sortDescriptors: [],
                  keyPathSortDescriptors: sortDescriptors)
    }
}

extension SampleQuery where Sample == CategorySample {
    /// Creates a query for category samples ordered by key paths.
    public init(categoryType: CategoryType, predicate: SamplePredicate = .all, limit: Int = 0,
                sortDescriptors: [SortDescriptor<CategorySample>]) {
        self.init(reading: .categories(categoryType), predicate: predicate, limit: limit, sortDescriptors: [],
                  keyPathSortDescriptors: sortDescriptors)
    }
}

extension SampleQuery where Sample == Correlation {
    /// Creates a query for correlations ordered by key paths of the correlation itself.
    public init(correlationType: CorrelationType, predicate: SamplePredicate = .all, limit: Int = 0,
                sortDescriptors: [SortDescriptor<Correlation>]) {
        self.init(reading: .correlations(correlationType), predicate: predicate, limit: limit, sortDescriptors: [],
                  keyPathSortDescriptors: sortDescriptors)
    }
}

extension SampleQuery where Sample == Workout {
    /// Creates a query for workouts ordered by key paths, such as `[SortDescriptor(\.duration)]`;
    /// their routes are read only when `includingRoutes`.
    public init(workoutsMatching predicate: SamplePredicate = .all, limit: Int = 0,
                sortDescriptors: [SortDescriptor<Workout>], includingRoutes: Bool = false) {
        self.init(reading: .workouts(includingRoutes: includingRoutes), predicate: predicate, limit: limit, sortDescriptors: [],
                  keyPathSortDescriptors: sortDescriptors)
    }
}
