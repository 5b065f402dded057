//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// What an observer query's handler calls when it has handled a notification (HealthKit's
/// `HKObserverQueryCompletionHandler`); on a server there is no background delivery to release,
/// so calling it is optional.
public typealias HKObserverQueryCompletionHandler = @Sendable () -> Void

/// A notification whenever samples of a type change (HealthKit's `HKObserverQuery`), run as
/// Cadence's `observe`: once when the query starts, then once per committed save or delete
/// that touches the type.
///
///     let query = HKObserverQuery(sampleType: stepType, predicate: nil) { query, completionHandler, error in
///         refreshSteps()
///         completionHandler()
///     }
///     healthStore.execute(query)
///
/// With a predicate, a change notifies only when it added samples the predicate selects or
/// deleted samples of the type (deleted objects keep no attributes to test), checked with a
/// Cadence anchored query from the position last checked. A check sees every transaction
/// committed by then, so one notification may stand for several transactions, and the later
/// ones' own notifications are then left out.
/// The query runs until ``HKHealthStore/stop(_:)``.
public final class HKObserverQuery: HKQuery, @unchecked Sendable {
    // Immutable after init: safe to share across threads.

    /// The handler of a notification.
    public typealias UpdateHandler = @Sendable (HKObserverQuery, @escaping HKObserverQueryCompletionHandler,
                                                (any Error)?) -> Void

    private let updateHandler: UpdateHandler

    /// A query notified of changes to `sampleType`'s samples that `predicate` selects (all when `nil`).
    public init(sampleType: HKSampleType, predicate: NSPredicate?, updateHandler: @escaping UpdateHandler) {
        self.updateHandler = updateHandler
        super.init(objectType: sampleType, predicate: predicate)
    }

    override func start(on store: HealthStore) {
        guard let sampleType else {
            run.perform { self.fail(CadenceError(.invalidQuery, "HKObserverQuery needs a sample type")) }
            return
        }
        let predicate: SamplePredicate
        do {
            predicate = try cadencePredicate
        } catch {
            run.perform { self.fail(error) }
            return
        }
        let notifications: AsyncThrowingStream<ObserverNotification, any Error>
        let matches: @Sendable (QueryAnchor) throws -> (matched: Bool, through: Int64)
        switch sampleType.series {
        case .quantity(let type):
            notifications = store.observe([type])
            matches = { try Self.changed(store, AnchoredObjectQuery(quantityType: type, predicate: predicate, anchor: $0)) }
        case .category(let type):
            notifications = store.observe([type])
            matches = { try Self.changed(store, AnchoredObjectQuery(categoryType: type, predicate: predicate, anchor: $0)) }
        case .correlation(let type):
            notifications = store.observe([type])
            matches = { try Self.changed(store, AnchoredObjectQuery(correlationType: type, predicate: predicate, anchor: $0)) }
        case .document:
            notifications = store.observeDocuments()
            matches = { try Self.changed(store, AnchoredObjectQuery(documentsMatching: predicate, anchor: $0)) }
        case .clinical(let type):
            notifications = store.observe([type])
            matches = { try Self.changed(store, AnchoredObjectQuery(clinicalType: type, predicate: predicate, anchor: $0)) }
        }
        let selective = self.predicate != nil
        // The position of the last notification, and the position through which changes were
        // already checked: a check reads the store as it is when it runs, which may include
        // transactions whose own notifications are still to come.
        let position = LockedState<(previous: QueryAnchor?, checked: Int64)>((nil, -1))
        run.follow(notifications, element: { notification in
            let (after, checked) = position.withLock { position in
                defer { position.previous = notification.anchor }
                return (position.previous, position.checked)
            }
            if selective, let after {
                guard checked < notification.anchor.sequence else { return }
                do {
                    let from = QueryAnchor(storeIdentifier: after.storeIdentifier, sequence: max(after.sequence, checked))
                    let check = try matches(from)
                    position.withLock { $0.checked = max($0.checked, check.through) }
                    guard check.matched else { return }
                } catch {
                    self.fail(error)
                    return
                }
            }
            self.updateHandler(self, {}, nil)
        }, failure: { self.fail($0) })
    }

    /// Whether anything `query` selects changed after its anchor, and the store's position the
    /// answer holds through. The changes since the last check are few (one notification's worth),
    /// so the query reads them all rather than stopping at the first.
    private static func changed<Sample>(_ store: HealthStore, _ query: AnchoredObjectQuery<Sample>) throws
        -> (matched: Bool, through: Int64)
    {
        let page = try store.execute(query)
        return (!page.samples.isEmpty || !page.deletedObjects.isEmpty, page.anchor.sequence)
    }

    override func fail(_ error: any Error) {
        updateHandler(self, {}, error)
    }
}
