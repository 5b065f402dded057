//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// An async anchored object query (HealthKit's `HKAnchoredObjectQueryDescriptor`): the samples
/// and deleted objects of one type changed since an anchor, as ``AnchoredObjectQuery`` finds them.
///
///     var descriptor = AnchoredObjectQueryDescriptor(predicate: .quantitySample(type: .stepCount), limit: 500)
///     let page = try await descriptor.result(for: store)
///     descriptor.anchor = page.anchor
///     for try await change in descriptor.results(for: store) { apply(change.samples, change.deletedObjects) }
public struct AnchoredObjectQueryDescriptor<Sample: Sendable>: Sendable {
    /// The type followed, with the predicate its samples (and deletions of such samples) must meet.
    public var predicate: SampleTypePredicate<Sample>
    /// Changes after this anchor; `nil` for all current samples and all retained deletions.
    public var anchor: QueryAnchor?
    /// The most items (samples and deleted objects together) ``result(for:)`` returns; `nil` (or
    /// 0) for no limit. The long-running ``results(for:)`` has none.
    public var limit: Int?

    /// Creates a descriptor.
    public init(predicate: SampleTypePredicate<Sample>, anchor: QueryAnchor? = nil, limit: Int? = nil) {
        self.predicate = predicate
        self.anchor = anchor
        self.limit = limit
    }

    /// The equivalent synchronous query.
    public var query: AnchoredObjectQuery<Sample> {
        AnchoredObjectQuery(reading: predicate.reading, predicate: predicate.predicate, anchor: anchor, limit: limit ?? 0)
    }

    /// Runs the query on the store's current snapshot, off Swift's cooperative pool.
    ///
    /// - Throws: What ``HealthStore/execute(_:)-(AnchoredObjectQuery<Sample>)`` throws (an anchor
    ///   from another store, expired or ahead of the store).
    public func result(for store: HealthStore) async throws -> AnchoredObjectQuery<Sample>.Result {
        let query = query
        return try await QueryExecutionQueue.run { try store.execute(query) }
    }

    /// The changes after ``anchor`` now, then one result per committed transaction that touches
    /// matching samples (``HealthStore/anchoredUpdates(_:)``). Cancelling the iterating task stops it.
    public func results(for store: HealthStore) -> AsyncThrowingStream<AnchoredObjectQuery<Sample>.Result, any Error> {
        store.anchoredUpdates(query)
    }
}
