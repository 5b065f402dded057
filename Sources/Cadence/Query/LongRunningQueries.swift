//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// A notification that samples of some types changed (HealthKit's `HKObserverQuery` callback).
public struct ObserverNotification: Sendable {
    /// The quantity types whose samples a committed transaction touched (all observed quantity
    /// types for the first one).
    public var quantityTypes: [QuantityType]
    /// The full identifiers of the types, of any kind, whose samples the transaction touched (all
    /// observed types for the first one).
    public var typeIdentifiers: [String]
    /// The store's position after the transaction.
    public var anchor: QueryAnchor
}

/// An update of a long-running statistics-collection query.
public struct StatisticsCollectionUpdate: Sendable {
    /// The collection as of the update.
    public var collection: StatisticsCollection
    /// The intervals whose statistics may have changed (every interval for the initial result).
    public var changedIntervals: [DateInterval]
}

extension HealthStore {
    /// Runs `body` for each committed change until the task is cancelled: the engine behind the
    /// long-running queries. The first call happens at once with `nil`.
    private func changeStream<Element: Sendable>(
        _ makeElement: @escaping @Sendable (StoreChange?) throws -> Element?
    ) -> AsyncThrowingStream<Element, any Error> {
        AsyncThrowingStream { continuation in
            do {
                if let first = try makeElement(nil) { continuation.yield(first) }
            } catch {
                continuation.finish(throwing: error)
                return
            }
            let token = observers.add { change in
                do {
                    if let element = try makeElement(change) { continuation.yield(element) }
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { [observers] _ in observers.remove(token) }
            watchOtherProcesses()
        }
    }

    /// Notifications for changes to `types`: one when observation starts, then one per committed
    /// transaction that touches samples of those types **[Cadence rule]**. Cancelling the
    /// iterating task stops it.
    public func observe(_ types: [QuantityType]) -> AsyncThrowingStream<ObserverNotification, any Error> {
        observe(identifiers: types.map(\.identifier), quantityTypes: types)
    }

    /// Notifications for changes to category `types` (HealthKit's `HKObserverQuery` on a
    /// category type), as ``observe(_:)-([QuantityType])`` gives them for quantity types.
    public func observe(_ types: [CategoryType]) -> AsyncThrowingStream<ObserverNotification, any Error> {
        observe(identifiers: types.map(\.identifier), quantityTypes: [])
    }

    /// Notifications for changes to correlation `types`.
    public func observe(_ types: [CorrelationType]) -> AsyncThrowingStream<ObserverNotification, any Error> {
        observe(identifiers: types.map(\.identifier), quantityTypes: [])
    }

    /// Notifications for changes to workouts (HealthKit's `HKObserverQuery` on the workout type):
    /// one when observation starts, then one per committed transaction that saves or deletes a
    /// workout.
    public func observeWorkouts() -> AsyncThrowingStream<ObserverNotification, any Error> {
        observe(identifiers: [Workout.typeIdentifier], quantityTypes: [])
    }

    /// Notifications for changes to CDA documents (HealthKit's `HKObserverQuery` on the document type).
    public func observeDocuments() -> AsyncThrowingStream<ObserverNotification, any Error> {
        observe(identifiers: [CDADocumentSample.typeIdentifier], quantityTypes: [])
    }

    /// Notifications for changes to clinical records of `types`.
    public func observe(_ types: [ClinicalType]) -> AsyncThrowingStream<ObserverNotification, any Error> {
        observe(identifiers: types.map(\.identifier), quantityTypes: [])
    }

    /// Notifications for changes to the types with these full identifiers, of any kind.
    private func observe(identifiers: [String], quantityTypes: [QuantityType])
        -> AsyncThrowingStream<ObserverNotification, any Error> {
        return changeStream { [self] change in
            let snapshot = snapshot()
            let anchor = QueryAnchor(storeIdentifier: snapshot.storeIdentifier, sequence: change?.lastSequence ?? snapshot.lastSequence)
            let touched = change.map { change in identifiers.filter { change.types[$0] != nil } } ?? identifiers
            guard !touched.isEmpty else { return nil }
            return ObserverNotification(quantityTypes: quantityTypes.filter { touched.contains($0.identifier) },
                                        typeIdentifiers: touched, anchor: anchor)
        }
    }

    /// A long-running anchored query: the first page of changes after `query.anchor` (without a
    /// limit), then one result per committed transaction that touches matching samples.
    public func anchoredUpdates<Sample>(_ query: AnchoredObjectQuery<Sample>)
        -> AsyncThrowingStream<AnchoredObjectQuery<Sample>.Result, any Error>
    {
        let position = LockedValue(query.anchor)
        return changeStream { [self] change in
            if let change, change.types[query.reading.identifier] == nil { return nil }
            var next = query
            next.anchor = position.value
            next.limit = 0
            let result = try Self.changes(next, snapshot: snapshot())
            position.value = result.anchor
            if change != nil && result.samples.isEmpty && result.deletedObjects.isEmpty { return nil }
            return result
        }
    }

    /// A long-running statistics query: the statistics now, then again after each committed
    /// transaction that touches the type.
    public func statisticsUpdates(_ query: StatisticsQuery) -> AsyncThrowingStream<Statistics, any Error> {
        changeStream { [self] change in
            if let change, change.types[query.quantityType.identifier] == nil { return nil }
            return try execute(query)
        }
    }

    /// A long-running statistics-collection query: the initial collection, then a new collection
    /// with the intervals that changed after each committed transaction touching the type
    /// (a delete that empties an interval turns its values to `nil`).
    public func statisticsCollectionUpdates(_ query: StatisticsCollectionQuery)
        -> AsyncThrowingStream<StatisticsCollectionUpdate, any Error>
    {
        changeStream { [self] change in
            if let change, change.types[query.quantityType.identifier] == nil { return nil }
            let collection = try execute(query)
            guard let change, let extent = change.types[query.quantityType.identifier] else {
                let all = collection.statistics().map { DateInterval(start: $0.startDate, end: $0.endDate) }
                return StatisticsCollectionUpdate(collection: collection, changedIntervals: all)
            }
            let changed = try collection.statistics(from: Date(timestamp: extent.start), to: Date(timestamp: extent.end))
                .map { DateInterval(start: $0.startDate, end: $0.endDate) }
            return StatisticsCollectionUpdate(collection: collection, changedIntervals: changed)
        }
    }
}

/// A value shared by the callbacks of one long-running query.
final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private var stored: Value
    private let lock = NSLock()

    init(_ value: Value) { stored = value }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
