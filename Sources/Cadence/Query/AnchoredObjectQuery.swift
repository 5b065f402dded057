//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// A position in a store's change sequence (HealthKit's `HKQueryAnchor`): opaque, `Codable`, and
/// tied to its store, so an anchor from another store is rejected.
public struct QueryAnchor: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The store the anchor belongs to.
    public let storeIdentifier: UUID
    /// The change sequence it points after.
    public let sequence: Int64

    /// Creates an anchor.
    public init(storeIdentifier: UUID, sequence: Int64) {
        self.storeIdentifier = storeIdentifier
        self.sequence = sequence
    }

    /// A compact text form for command lines and URLs: `<store uuid>:<sequence>`.
    public var token: String { "\(storeIdentifier.uuidString.lowercased()):\(sequence)" }

    /// Parses ``token``.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` for a malformed token.
    public init(token: String) throws {
        let parts = token.split(separator: ":")
        guard parts.count == 2, let uuid = UUID(uuidString: String(parts[0])), let sequence = Int64(parts[1]), sequence >= 0 else {
            throw CadenceError(.invalidArgument, "'\(token)' is not a Cadence anchor (expected UUID:SEQUENCE)")
        }
        self.init(storeIdentifier: uuid, sequence: sequence)
    }

    public var description: String { token }
}

/// A sample that was deleted (HealthKit's `HKDeletedObject`).
public struct DeletedObject: Sendable, Hashable, Codable {
    /// The deleted sample's UUID.
    public let uuid: UUID
    /// Its `HKMetadataKeySyncIdentifier` and `HKMetadataKeySyncVersion`, when it had them.
    public let metadata: [String: String]
}

/// New samples and deletions since an anchor (HealthKit's `HKAnchoredObjectQuery`, <doc:HowCadenceComputes#Changes-and-anchors>), for a
/// type of any kind.
///
///     var anchor: QueryAnchor? = nil
///     repeat {
///         let page = try store.execute(AnchoredObjectQuery(quantityType: .stepCount, anchor: anchor, limit: 500))
///         process(page.samples, page.deletedObjects)
///         anchor = page.anchor
///     } while page.hasMore
///
/// Items come in change order; `limit` caps samples and deleted objects together (0 = none); the
/// returned anchor is the position of the last item returned (or the current position when
/// nothing matched), so paging loses and repeats nothing.
public struct AnchoredObjectQuery<Sample: Sendable>: Sendable {
    /// The type's series and how its rows become samples.
    package let reading: SampleReading<Sample>
    /// Which samples (and deletions of such samples) to report.
    public var predicate: SamplePredicate
    /// Changes after this anchor; `nil` for all current samples and all retained deletions.
    public var anchor: QueryAnchor?
    /// The most items to return; 0 is no limit.
    public var limit: Int

    package init(reading: SampleReading<Sample>, predicate: SamplePredicate, anchor: QueryAnchor?, limit: Int) {
        self.reading = reading
        self.predicate = predicate
        self.anchor = anchor
        self.limit = max(0, limit)
    }

    /// The full identifier of the type followed.
    public var typeIdentifier: String { reading.identifier }

    /// One page of changes.
    public struct Result: Sendable {
        /// Samples added after the anchor, in change order.
        public var samples: [Sample]
        /// Samples deleted after the anchor, in change order.
        public var deletedObjects: [DeletedObject]
        /// The anchor to pass next time.
        public var anchor: QueryAnchor
        /// Whether the limit cut the page short.
        public var hasMore: Bool
    }
}

extension AnchoredObjectQuery where Sample == QuantitySample {
    /// Creates a query for quantity samples.
    public init(quantityType: QuantityType, predicate: SamplePredicate = .all, anchor: QueryAnchor? = nil, limit: Int = 0) {
        self.init(reading: .quantities(quantityType), predicate: predicate, anchor: anchor, limit: limit)
    }
}

extension AnchoredObjectQuery where Sample == CategorySample {
    /// Creates a query for category samples.
    public init(categoryType: CategoryType, predicate: SamplePredicate = .all, anchor: QueryAnchor? = nil, limit: Int = 0) {
        self.init(reading: .categories(categoryType), predicate: predicate, anchor: anchor, limit: limit)
    }
}

extension AnchoredObjectQuery where Sample == Correlation {
    /// Creates a query for correlations; each comes with its members that are still stored.
    public init(correlationType: CorrelationType, predicate: SamplePredicate = .all, anchor: QueryAnchor? = nil,
                limit: Int = 0) {
        self.init(reading: .correlations(correlationType), predicate: predicate, anchor: anchor, limit: limit)
    }
}

extension AnchoredObjectQuery where Sample == Workout {
    /// Creates a query for workouts; each comes with its events, statistics and activities, and
    /// with its routes only when `includingRoutes` (read for the page's workouts alone, see
    /// the workout form of ``SampleQuery``).
    public init(workoutsMatching predicate: SamplePredicate = .all, anchor: QueryAnchor? = nil, limit: Int = 0,
                includingRoutes: Bool = false) {
        self.init(reading: .workouts(includingRoutes: includingRoutes), predicate: predicate, anchor: anchor,
                  limit: limit)
    }
}

extension HealthStore {
    /// Runs an anchored object query on the current snapshot.
    ///
    /// - Throws: ``CadenceError/Code/foreignAnchor`` for another store's anchor;
    ///   ``CadenceError/Code/anchorExpired`` when deletions after the anchor were discarded by compaction;
    ///   ``CadenceError/Code/anchorAhead`` for an anchor from a later change than the store holds.
    /// - Complexity: O(*n*) over the samples of chunks changed after the anchor.
    public func execute<Sample>(_ query: AnchoredObjectQuery<Sample>) throws -> AnchoredObjectQuery<Sample>.Result {
        try read { try Self.changes(query, snapshot: $0) }
    }

    /// Runs a quantity anchored object query: the generic form specialised at compile time, as
    /// for sample queries.
    public func execute(_ query: AnchoredObjectQuery<QuantitySample>) throws -> AnchoredObjectQuery<QuantitySample>.Result {
        try read { try Self.changes(query, snapshot: $0) }
    }

    static func changes<Sample>(_ query: AnchoredObjectQuery<Sample>, snapshot: StoreSnapshot) throws -> AnchoredObjectQuery<Sample>.Result {
        let after = query.anchor?.sequence ?? 0
        if let anchor = query.anchor {
            guard anchor.storeIdentifier == snapshot.storeIdentifier else {
                throw CadenceError(.foreignAnchor, "the anchor \(anchor.token) belongs to another store")
            }
            guard anchor.sequence <= snapshot.lastSequence else {
                throw CadenceError(.anchorAhead, "the anchor \(anchor.token) is ahead of the store (its last change is \(snapshot.lastSequence)), which was restored from an older copy; start again without an anchor")
            }
            guard anchor.sequence >= snapshot.deletionHorizon else {
                throw CadenceError(.anchorExpired, "the anchor \(anchor.token) is older than the retained deletions (\(snapshot.deletionHorizon)); start again without an anchor")
            }
        }
        try query.reading.validate(query.predicate)
        return query.limit > 0 ? try page(query, after: after, snapshot: snapshot)
            : try allChanges(query, after: after, snapshot: snapshot)
    }

    /// Every change after sequence `after`, each row read as it is scanned.
    ///
    /// Each item is a sample (`index` into `listing.samples`) or a deleted object (`-1 - index`
    /// into the deletions): plain keys, so sorting moves no generic value.
    private static func allChanges<Sample>(_ query: AnchoredObjectQuery<Sample>, after: Int64,
                                           snapshot: StoreSnapshot) throws -> AnchoredObjectQuery<Sample>.Result {
        var listing = SampleListing<Sample>()
        var items: [(sequence: Int64, index: Int)] = []
        let keepsRows = query.reading.complete != nil
        for case let type? in query.reading.identifiers.map({ snapshot.types[$0] }) {
            let reader = query.reading.prepare(snapshot, type)
            try type.forEachSelectedRow(changesPlan(query, type, after: after, snapshot: snapshot)) { columns, row in
                guard columns.sequence[row] > after, let sample = reader(columns, row) else { return }
                items.append((columns.sequence[row], listing.samples.count))
                listing.append(sample, from: keepsRows ? StoredRow(columns: columns, row: row) : nil)
            }
        }
        let deletions = try deletedObjects(query, after: after, snapshot: snapshot, into: &items)
        items.sort { $0.sequence < $1.sequence }
        return try result(query, page: items, hasMore: false, listing: listing, deletions: deletions, after: after,
                          snapshot: snapshot)
    }

    /// The changes after sequence `after` up to the query's limit, in change order.
    ///
    /// A row is kept as its place in the portion it was read from (whose columns are kept once),
    /// and becomes a sample only once it is known to be in the page, so that a page costs its own
    /// samples, not every change after the anchor. Each item is a row (`index` into `rows`) or a
    /// deleted object (`-1 - index` into the deletions).
    private static func page<Sample>(_ query: AnchoredObjectQuery<Sample>, after: Int64,
                                     snapshot: StoreSnapshot) throws -> AnchoredObjectQuery<Sample>.Result {
        var portionColumns: [SampleColumns] = []
        var portionReaders: [(SampleColumns, Int) -> Sample?] = []
        var rows: [(portion: Int, row: Int)] = []
        var items: [(sequence: Int64, index: Int)] = []
        for case let type? in query.reading.identifiers.map({ snapshot.types[$0] }) {
            let reader = query.reading.prepare(snapshot, type)
            try type.forEachSelectedPortion(changesPlan(query, type, after: after, snapshot: snapshot)) { columns, selected in
                let portion = portionColumns.count
                for row in selected where columns.sequence[row] > after {
                    items.append((columns.sequence[row], rows.count))
                    rows.append((portion, row))
                }
                if rows.last?.portion == portion {
                    portionColumns.append(columns)
                    portionReaders.append(reader)
                }
            }
        }
        let deletions = try deletedObjects(query, after: after, snapshot: snapshot, into: &items)
        items.sort { $0.sequence < $1.sequence }
        // Items in change order until the page is full; a row its reader cannot show is passed
        // over, and there is more when a later item would be returned.
        let keepsRows = query.reading.complete != nil
        var listing = SampleListing<Sample>()
        var page: [(sequence: Int64, index: Int)] = []
        var hasMore = false
        for item in items {
            let place = item.index >= 0 ? rows[item.index] : nil
            let sample = place.flatMap { portionReaders[$0.portion](portionColumns[$0.portion], $0.row) }
            if place != nil && sample == nil { continue }
            if page.count == query.limit {
                hasMore = true
                break
            }
            if let place, let sample {
                page.append((item.sequence, listing.samples.count))
                listing.append(sample, from: keepsRows ? StoredRow(columns: portionColumns[place.portion], row: place.row) : nil)
            } else {
                page.append(item)
            }
        }
        return try result(query, page: page, hasMore: hasMore, listing: listing, deletions: deletions, after: after,
                          snapshot: snapshot)
    }

    /// The plan that lists the rows of `type` the query selects, changed after `after`.
    private static func changesPlan<Sample>(_ query: AnchoredObjectQuery<Sample>, _ type: TypeSnapshot, after: Int64,
                                            snapshot: StoreSnapshot) -> ScanPlan {
        var plan = ScanPlan(listing: query.predicate, of: type, provenances: snapshot.provenances)
        plan.changedAfter = after
        return plan
    }

    /// The objects deleted after sequence `after` from the query's types, each also appended to
    /// `items` as `-1 - index` with its deletion sequence.
    private static func deletedObjects<Sample>(_ query: AnchoredObjectQuery<Sample>, after: Int64, snapshot: StoreSnapshot,
                                               into items: inout [(sequence: Int64, index: Int)]) throws -> [DeletedObject] {
        var deletions: [DeletedObject] = []
        for identifier in query.reading.identifiers {
            for tombstone in try snapshot.types[identifier]?.deletions.records() ?? []
            where tombstone.deletionSequence > after && tombstone.syncIdentifier != QuantitySeriesStorage.entryDeletionMarker {
                var metadata: [String: String] = [:]
                metadata[MetadataKey.syncIdentifier] = tombstone.syncIdentifier
                metadata[MetadataKey.syncVersion] = tombstone.syncVersion
                items.append((tombstone.deletionSequence, -1 - deletions.count))
                deletions.append(DeletedObject(uuid: tombstone.uuid, metadata: metadata))
            }
        }
        return deletions
    }

    /// The result of `page`, items in change order whose samples are `listing`'s (completed by
    /// the query's reading) and deleted objects `deletions`'; its anchor is the last item's when
    /// there is more, else the store's last change.
    private static func result<Sample>(_ query: AnchoredObjectQuery<Sample>, page: [(sequence: Int64, index: Int)],
                                       hasMore: Bool, listing: SampleListing<Sample>, deletions: [DeletedObject],
                                       after: Int64, snapshot: StoreSnapshot) throws -> AnchoredObjectQuery<Sample>.Result {
        var result = AnchoredObjectQuery<Sample>.Result(
            samples: [], deletedObjects: [],
            anchor: QueryAnchor(storeIdentifier: snapshot.storeIdentifier,
                                sequence: hasMore ? page.last?.sequence ?? after : max(after, snapshot.lastSequence)),
            hasMore: hasMore)
        result.samples = try listing.completed(page.filter { $0.index >= 0 }.map(\.index), by: query.reading,
                                               snapshot: snapshot)
        result.deletedObjects = page.filter { $0.index < 0 }.map { deletions[-1 - $0.index] }
        return result
    }
}
