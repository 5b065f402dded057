//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// A query run by ``HKHealthStore/execute(_:)`` (HealthKit's `HKQuery`): the base of every query
/// class, and the home of the predicate factories (``predicateForSamples(withStart:end:options:)``
/// and the others).
///
/// Each query builds the matching Cadence query when it is executed and runs it; nothing here
/// computes statistics or reads the store on its own. Handlers run on a serial background queue
/// of the query's own, one at a time and in order, as HealthKit's do: dispatch to the main queue
/// to update a user interface. Once ``HKHealthStore/stop(_:)`` returns, no handler call starts.
public class HKQuery: NSObject, @unchecked Sendable {
    // Immutable after init, apart from the state `run` guards with its lock: safe to share.

    /// The type the query reads.
    public let objectType: HKObjectType?
    /// Which samples the query selects; `nil` selects all of the type.
    public let predicate: NSPredicate?
    /// Where and whether the query runs.
    let run = QueryRun()

    init(objectType: HKObjectType?, predicate: NSPredicate?) {
        self.objectType = objectType
        self.predicate = predicate
    }

    /// The sample type the query reads.
    public var sampleType: HKSampleType? { objectType as? HKSampleType }

    /// The predicate as a Cadence predicate.
    ///
    /// - Throws: `CadenceError` (`invalidArgument`) for a predicate not made by the factories of
    ///   ``HKQuery`` or compounds of them.
    var cadencePredicate: SamplePredicate {
        get throws { try SamplePredicate(translating: predicate) }
    }

    /// Starts the query on `store`: runs its Cadence query and calls its handler (subclasses).
    func start(on store: HealthStore) {}

    /// Reports `error` to the query's handler (subclasses).
    func fail(_ error: any Error) {}

    /// Builds the Cadence query with `make` now, then runs `body` with it on the query's queue;
    /// an error of either goes to ``fail(_:)``.
    func perform<Query: Sendable>(_ make: () throws -> Query, _ body: @escaping @Sendable (Query) throws -> Void) {
        let query: Query
        do {
            query = try make()
        } catch {
            run.perform { self.fail(error) }
            return
        }
        run.perform {
            do {
                try body(query)
            } catch {
                self.fail(error)
            }
        }
    }

    /// Starts the query on `healthStore`; called by ``HKHealthStore/execute(_:)``.
    func execute(in healthStore: HKHealthStore) {
        guard run.begin() else {
            run.perform { self.fail(CadenceError(.invalidArgument, "\(type(of: self)) was already executed; create a new query to run it again")) }
            return
        }
        switch healthStore.opened {
        case .success(let store): start(on: store)
        case .failure(let error): run.perform { self.fail(error) }
        }
    }
}

/// Where a query's work and handlers run, and whether it was stopped: a serial queue, and the
/// task that follows a long-running Cadence query's updates.
final class QueryRun: Sendable {
    private struct State {
        var started = false
        var stopped = false
        var task: Task<Void, Never>?
    }

    private let state = LockedState(State())
    private let queue = DispatchQueue(label: "CadenceHealthKit.query")

    /// Marks the query started; `false` when it already was.
    func begin() -> Bool {
        state.withLock { state in
            defer { state.started = true }
            return !state.started
        }
    }

    /// Whether ``stop()`` was called.
    var isStopped: Bool { state.withLock { $0.stopped } }

    /// Runs `body` on the query's queue unless the query is stopped by then.
    func perform(_ body: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            if !isStopped { body() }
        }
    }

    /// Follows a long-running Cadence query: each element, then the error that ends it (if
    /// any), goes to the query's queue, until the query is stopped.
    func follow<Element: Sendable>(_ updates: AsyncThrowingStream<Element, any Error>,
                                   element: @escaping @Sendable (Element) -> Void,
                                   failure: @escaping @Sendable (any Error) -> Void) {
        let task = Task {
            do {
                for try await update in updates { perform { element(update) } }
            } catch is CancellationError {
                return
            } catch {
                perform { failure(error) }
            }
        }
        let stopped = state.withLock { state in
            state.task = task
            return state.stopped
        }
        if stopped { task.cancel() }
    }

    /// Stops the query: no handler call starts after this returns (one already running
    /// finishes), and a long-running query's Cadence stream ends.
    func stop() {
        let task = state.withLock { state in
            state.stopped = true
            return state.task
        }
        task?.cancel()
    }
}

/// A value behind a lock, for the few mutable properties of the query classes.
final class LockedState<Value>: @unchecked Sendable {
    // Every access goes through `lock`.
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
