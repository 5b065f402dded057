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

/// New samples and deletions since an anchor (HealthKit's `HKAnchoredObjectQuery`, SPEC §9).
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
public struct AnchoredObjectQuery: Sendable {
    /// The type to follow.
    public var quantityType: QuantityType
    /// Which samples (and deletions of such samples) to report.
    public var predicate: SamplePredicate
    /// Changes after this anchor; `nil` for all current samples and all retained deletions.
    public var anchor: QueryAnchor?
    /// The most items to return; 0 is no limit.
    public var limit: Int

    /// Creates a query.
    public init(quantityType: QuantityType, predicate: SamplePredicate = .all, anchor: QueryAnchor? = nil, limit: Int = 0) {
        self.quantityType = quantityType
        self.predicate = predicate
        self.anchor = anchor
        self.limit = max(0, limit)
    }

    /// One page of changes.
    public struct Result: Sendable {
        /// Samples added after the anchor, in change order.
        public var samples: [QuantitySample]
        /// Samples deleted after the anchor, in change order.
        public var deletedObjects: [DeletedObject]
        /// The anchor to pass next time.
        public var anchor: QueryAnchor
        /// Whether the limit cut the page short.
        public var hasMore: Bool
    }
}

extension HealthStore {
    /// Runs an anchored object query on the current snapshot.
    ///
    /// - Throws: ``CadenceError/Code/foreignAnchor`` for another store's anchor;
    ///   ``CadenceError/Code/anchorExpired`` when deletions after the anchor were discarded by compaction;
    ///   ``CadenceError/Code/anchorAhead`` for an anchor from a later change than the store holds.
    /// - Complexity: O(*n*) over the samples of chunks changed after the anchor.
    public func execute(_ query: AnchoredObjectQuery) throws -> AnchoredObjectQuery.Result {
        try read { try Self.changes(query, snapshot: $0) }
    }

    static func changes(_ query: AnchoredObjectQuery, snapshot: StoreSnapshot) throws -> AnchoredObjectQuery.Result {
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
        enum Item { case sample(QuantitySample), deleted(DeletedObject) }
        var items: [(sequence: Int64, item: Item)] = []
        if let type = snapshot.types[query.quantityType.identifier] {
            var plan = ScanPlan(listing: query.predicate, of: type, provenances: snapshot.provenances)
            plan.changedAfter = after
            let identity = SampleIdentity(type: type.type.identifier, provenances: snapshot.provenances)
            try type.forEachSelectedRow(plan) { columns, row in
                guard columns.sequence[row] > after,
                      let sample = StoredSample.sample(of: columns, row: row, type: type.type, provenances: snapshot.provenances,
                                                       identity: identity)
                else { return }
                items.append((columns.sequence[row], .sample(sample)))
            }
        }
        for tombstone in snapshot.tombstones
        where tombstone.typeIdentifier == query.quantityType.identifier && tombstone.deletionSequence > after {
            var metadata: [String: String] = [:]
            metadata[MetadataKey.syncIdentifier] = tombstone.syncIdentifier
            metadata[MetadataKey.syncVersion] = tombstone.syncVersion
            items.append((tombstone.deletionSequence, .deleted(DeletedObject(uuid: tombstone.uuid, metadata: metadata))))
        }
        items.sort { $0.sequence < $1.sequence }
        let hasMore = query.limit > 0 && items.count > query.limit
        let page = hasMore ? Array(items.prefix(query.limit)) : items
        var result = AnchoredObjectQuery.Result(
            samples: [], deletedObjects: [],
            anchor: QueryAnchor(storeIdentifier: snapshot.storeIdentifier,
                                sequence: hasMore ? page.last?.sequence ?? after : max(after, snapshot.lastSequence)),
            hasMore: hasMore)
        for (_, item) in page {
            switch item {
            case .sample(let sample): result.samples.append(sample)
            case .deleted(let deleted): result.deletedObjects.append(deleted)
            }
        }
        return result
    }
}
