//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// Samples added and deleted since an anchor (HealthKit's `HKAnchoredObjectQuery`), run as
/// Cadence's `AnchoredObjectQuery`: the way to sync a copy of the store.
///
///     let query = HKAnchoredObjectQuery(type: stepType, predicate: nil, anchor: savedAnchor,
///                                       limit: HKObjectQueryNoLimit) { query, added, deleted, newAnchor, error in
///         upload(added, deleted)
///         savedAnchor = newAnchor
///     }
///     healthStore.execute(query)
///
/// Items come in change order; `limit` caps samples and deleted objects together. With an
/// ``updateHandler`` the query keeps running: after each committed change that touches matching
/// samples, the handler gets what changed and the new anchor (Cadence's `anchoredUpdates`).
public final class HKAnchoredObjectQuery: HKQuery, @unchecked Sendable {
    // The update handler is behind a lock; everything else is immutable after init.

    /// The handler of a page of changes.
    public typealias ResultsHandler = @Sendable (HKAnchoredObjectQuery, [HKSample]?, [HKDeletedObject]?, HKQueryAnchor?,
                                                 (any Error)?) -> Void

    /// Changes after this anchor; `nil` for every stored sample and every retained deletion.
    public let anchor: HKQueryAnchor?
    /// The most samples and deleted objects to return at first; ``HKObjectQueryNoLimit`` for all.
    public let limit: Int
    private let resultsHandler: ResultsHandler
    private let updates = LockedState<ResultsHandler?>(nil)

    /// A query of `type`'s samples that `predicate` selects (all when `nil`), changed after `anchor`.
    public init(type: HKSampleType, predicate: NSPredicate?, anchor: HKQueryAnchor?, limit: Int,
                resultsHandler handler: @escaping ResultsHandler) {
        self.anchor = anchor
        self.limit = limit
        resultsHandler = handler
        super.init(objectType: type, predicate: predicate)
    }

    /// When set before the query runs, keeps it running: called with each later change to
    /// matching samples and the anchor after it.
    public var updateHandler: ResultsHandler? {
        get { updates.withLock { $0 } }
        set { updates.withLock { $0 = newValue } }
    }

    override func start(on store: HealthStore) {
        guard let sampleType else {
            run.perform { self.fail(CadenceError(.invalidQuery, "HKAnchoredObjectQuery needs a sample type")) }
            return
        }
        switch sampleType.series {
        case .quantity(let type):
            start(on: store, AnchoredObjectQuery(quantityType: type), convert: HKQuantitySample.init)
        case .category(let type):
            start(on: store, AnchoredObjectQuery(categoryType: type), convert: HKCategorySample.init)
        case .correlation(let type):
            start(on: store, AnchoredObjectQuery(correlationType: type), convert: HKCorrelation.init)
        case .document:
            start(on: store, AnchoredObjectQuery(documentsMatching: .all, includingDocumentData: true),
                  convert: HKCDADocumentSample.init)
        case .clinical(let type):
            start(on: store, AnchoredObjectQuery(clinicalType: type, includingResourceData: true), convert: HKClinicalRecord.init)
        }
    }

    /// Runs `base` with this query's predicate, anchor and limit, then (with an update handler)
    /// follows its updates from the anchor it returned.
    private func start<Sample: Sendable>(on store: HealthStore, _ base: AnchoredObjectQuery<Sample>,
                                         convert: @escaping @Sendable (Sample) -> HKSample) {
        var query = base
        do {
            query.predicate = try cadencePredicate
        } catch {
            run.perform { self.fail(error) }
            return
        }
        query.anchor = anchor?.cadence
        query.limit = limit
        run.perform { [query] in
            let first: AnchoredObjectQuery<Sample>.Result
            do {
                first = try store.execute(query)
            } catch {
                self.fail(error)
                return
            }
            self.resultsHandler(self, first.samples.map(convert), first.deletedObjects.map(HKDeletedObject.init),
                                HKQueryAnchor(first.anchor), nil)
            guard self.updateHandler != nil else { return }
            var following = query
            following.anchor = first.anchor
            self.run.follow(store.anchoredUpdates(following), element: { page in
                // The first page covers what changed while the query started; usually nothing.
                guard !page.samples.isEmpty || !page.deletedObjects.isEmpty else { return }
                self.updateHandler?(self, page.samples.map(convert), page.deletedObjects.map(HKDeletedObject.init),
                                    HKQueryAnchor(page.anchor), nil)
            }, failure: { self.updateHandler?(self, nil, nil, nil, $0) })
        }
    }

    override func fail(_ error: any Error) {
        resultsHandler(self, nil, nil, nil, error)
    }
}
