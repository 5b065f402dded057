//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Lists the entries of the quantity samples a predicate selects (HealthKit's
/// `HKQuantitySeriesSampleQuery`, <doc:HowCadenceComputes#Quantity-series>).
///
///     let query = QuantitySeriesSampleQuery(quantityType: .stepCount,
///                                           predicate: .samples(start: morning, end: noon),
///                                           includeSample: true)
///     for entry in try store.execute(query) {
///         print(entry.dateInterval, entry.quantity, entry.sample?.uuid as Any)
///     }
///
/// The predicate selects owning samples, as a sample query does; every entry of each selected
/// sample is listed, an ordinary sample being its own one entry. Entries come ascending by start
/// over all samples; with ``orderByQuantitySampleStartDate``, sample by sample (samples ascending
/// by start), each sample's entries ascending.
public struct QuantitySeriesSampleQuery: Sendable {
    /// One listed entry.
    public struct Entry: Hashable, Sendable {
        /// The entry's value, in the type's canonical unit.
        public var quantity: Quantity
        /// The entry's interval.
        public var dateInterval: DateInterval
        /// The owning sample, when the query asked for it (``QuantitySeriesSampleQuery/includeSample``).
        public var sample: QuantitySample? {
            get { owner?.sample }
            set { owner = newValue.map(Owner.init) }
        }
        /// The owning sample, shared by reference by all its entries: a sample held inline would
        /// make every entry as large as a sample, listed or not.
        private var owner: Owner?

        init(quantity: Quantity, dateInterval: DateInterval, owner: Owner?) {
            self.quantity = quantity
            self.dateInterval = dateInterval
            self.owner = owner
        }
    }

    /// An owning sample, held once for all its entries.
    final class Owner: Hashable, Sendable {
        let sample: QuantitySample

        init(_ sample: QuantitySample) { self.sample = sample }

        static func == (left: Owner, right: Owner) -> Bool { left === right || left.sample == right.sample }

        func hash(into hasher: inout Hasher) { hasher.combine(sample) }
    }

    /// The type listed.
    public var quantityType: QuantityType
    /// Which owning samples to list the entries of.
    public var predicate: SamplePredicate
    /// Whether each entry carries its owning sample.
    public var includeSample: Bool
    /// Whether entries are grouped by owning sample rather than merged by start.
    public var orderByQuantitySampleStartDate: Bool

    /// Creates a query.
    public init(quantityType: QuantityType, predicate: SamplePredicate = .all, includeSample: Bool = false,
                orderByQuantitySampleStartDate: Bool = false) {
        self.quantityType = quantityType
        self.predicate = predicate
        self.includeSample = includeSample
        self.orderByQuantitySampleStartDate = orderByQuantitySampleStartDate
    }

    /// Runs the query on the store's current snapshot, off Swift's cooperative pool.
    ///
    /// - Throws: What ``HealthStore/execute(_:)-(QuantitySeriesSampleQuery)`` throws.
    public func result(for store: HealthStore) async throws -> [Entry] {
        let query = self
        return try await QueryExecutionQueue.run { try store.execute(query) }
    }
}

extension HealthStore {
    /// Runs a series query on the current snapshot.
    ///
    /// - Throws: ``CadenceError/Code/incompatibleUnits`` or ``CadenceError/Code/invalidArgument``
    ///   for a predicate that cannot apply to the type.
    /// - Complexity: O(*n* log *n*) for the *n* entries listed, plus a scan of the type's rows from
    ///   the first selected series sample's start on.
    public func execute(_ query: QuantitySeriesSampleQuery) throws -> [QuantitySeriesSampleQuery.Entry] {
        try read { snapshot in
            let owners = try Self.samples(SampleQuery(quantityType: query.quantityType, predicate: query.predicate),
                                          snapshot: snapshot)
            var entries = try Self.seriesEntries(of: owners, type: query.quantityType, snapshot: snapshot)
            // Entries owner by owner, owners in the listing's order (by start, then save order).
            var listed: [QuantitySeriesEntry] = []
            var ownerIndex: [Int] = []
            listed.reserveCapacity(owners.count)
            for (index, owner) in owners.enumerated() {
                if !entries.isEmpty, let own = entries.removeValue(forKey: owner.uuid) {
                    listed += own
                    ownerIndex += repeatElement(index, count: own.count)
                } else {
                    // An ordinary sample is its own one entry.
                    listed.append(QuantitySeriesEntry(quantity: owner.quantity, dateInterval: owner.dateInterval))
                    ownerIndex.append(index)
                }
            }
            var order = Array(listed.indices)
            if !query.orderByQuantitySampleStartDate {
                // Plain keys, so sorting moves no entry; ties keep owner order, then entry order.
                let starts = listed.map(\.dateInterval.start)
                order.sort { (starts[$0], $0) < (starts[$1], $1) }
            }
            let boxes = query.includeSample ? owners.map(QuantitySeriesSampleQuery.Owner.init) : []
            return order.map {
                QuantitySeriesSampleQuery.Entry(quantity: listed[$0].quantity, dateInterval: listed[$0].dateInterval,
                                                owner: boxes.isEmpty ? nil : boxes[ownerIndex[$0]])
            }
        }
    }

    /// The stored entries of the series samples among `owners`, by owner, each owner's in the
    /// builder's order (ascending by start, then end; the occurrence column numbers them).
    static func seriesEntries(of owners: [QuantitySample], type: QuantityType, snapshot: StoreSnapshot) throws
        -> [UUID: [QuantitySeriesEntry]]
    {
        let wanted = Set(owners.map(\.uuid))
        guard let stored = snapshot.types[type.identifier],
              snapshot.types[QuantitySeriesStorage.ownerSeries(of: type).identifier] != nil,
              let first = owners.map(\.startDate).min() else { return [:] }
        var found: [UUID: [(start: Int64, end: Int64, place: UInt32, value: Double)]] = [:]
        let plan = ScanPlan(listing: .samples(start: first, end: nil), of: stored, provenances: snapshot.provenances)
        try stored.forEachSelectedPortion(plan) { columns, rows in
            guard !columns.metadataIndex.isEmpty else { return }
            let links = QuantitySeriesStorage.ownerLinks(of: columns)
            for row in rows {
                let link = Int(columns.metadataIndex[row])
                guard link < links.count, let owner = links[link], wanted.contains(owner) else { continue }
                found[owner, default: []].append((columns.start[row], columns.end[row], columns.occurrence(at: row), columns.value[row]))
            }
        }
        let unit = stored.type.canonicalUnit
        return found.mapValues { rows in
            rows.sorted { ($0.start, $0.end, $0.place) < ($1.start, $1.end, $1.place) }.map {
                QuantitySeriesEntry(quantity: Quantity(value: $0.value, unit: unit),
                                    dateInterval: DateInterval(start: Date(timestamp: $0.start), end: Date(timestamp: $0.end)))
            }
        }
    }
}
