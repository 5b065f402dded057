//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Dispatch
import Foundation
import Synchronization

/// One run of `cadence batch` over users' stores: workers take the next user, open the store,
/// run the query, hand the rows on and close the store, so at most one store per worker is open.
struct BatchRun {
    /// A user whose store could not be queried.
    struct Failure {
        var user: BatchUser
        var reason: String
    }

    let command: BatchCommand
    /// The query, read from the options once and run on each user's store.
    let request: StatisticsRequest
    let users: [BatchUser]

    /// What the workers share.
    private struct Progress {
        var next = 0
        var completed = 0
        var failures: [Failure] = []
    }

    /// Standard output while users finish out of order.
    private struct OrderedOutput {
        var output = StandardOutput()
        /// Rows finished out of order, by user index, until the users before them are written.
        var waiting: [Int: String] = [:]
        var nextToWrite = 0
        var wroteHeader = false
    }

    /// Every user's rows as one Arrow stream, in user order: reports are gathered in order and
    /// written in record batches of many users.
    private struct OrderedArrow {
        var stream = ArrowStatisticsStream()
        /// Reports finished out of order (`nil` when the user failed), by user index.
        var waiting: [Int: StatisticsReport?] = [:]
        var nextToWrite = 0
    }

    /// Writes every user's rows to standard output, in user order.
    ///
    /// - Returns: The users that failed.
    func streaming() throws -> [Failure] {
        if command.format == .arrow { return try streamingArrow() }
        let ordered = Mutex(OrderedOutput())
        let failures = try runWorkers(skipping: { _ in false }, render: { command.userRows.rendered($0, user: $1) }) { index, rows in
            ordered.withLock { state in
                if let rows, !state.wroteHeader {
                    state.output.write(rows.header)
                    state.wroteHeader = true
                }
                state.waiting[index] = rows?.body ?? ""
                while let ready = state.waiting.removeValue(forKey: state.nextToWrite) {
                    state.output.write(ready)
                    state.nextToWrite += 1
                }
            }
        }
        ordered.withLock { $0.output.flush() }
        return failures
    }

    /// ``streaming()`` as one Arrow stream: the schema of the first report (of an empty one when
    /// every user failed), the rows in user order.
    private func streamingArrow() throws -> [Failure] {
        let ordered = Mutex(OrderedArrow())
        let failures = try runWorkers(skipping: { _ in false }, render: { report, _ in report }) { index, report in
            try ordered.withLock { state in
                state.waiting[index] = .some(report)
                while let ready = state.waiting.removeValue(forKey: state.nextToWrite) {
                    if let ready { try state.stream.append(ready, user: users[state.nextToWrite].identifier) }
                    state.nextToWrite += 1
                }
            }
        }
        try ordered.withLock { state in
            try state.stream.finish(emptyReport: { try request.report(in: HealthStore.inMemory()) })
        }
        return failures
    }

    /// Commits each user's rows to the parts beside `path`, then joins them into `path` once all are there.
    ///
    /// - Returns: The users that failed (their rows are absent from `path`; the parts are kept).
    func resumable(into path: String) throws -> [Failure] {
        let parts = try BatchParts(output: path, job: command.job)
        let failures = try runWorkers(skipping: { parts.isCommitted($0.identifier) }, render: { command.userRows.rendered($0, user: $1) }) { index, rows in
            // Every part starts with the header; the join keeps the first part's only.
            if let rows { try parts.commit(rows.header + rows.body, for: users[index].identifier) }
        }
        let joined = try parts.join(users, into: path, headerLines: command.format == .json ? 0 : 1)
        if failures.isEmpty { try parts.remove() }
        let kept = failures.isEmpty ? "" : "; \(failures.count) failed, kept in \(parts.path) to retry by running the same command again"
        StandardStreams.writeError("Wrote \(NumberText.grouped(joined)) of \(NumberText.grouped(users.count)) users to \(path)\(kept).")
        return failures
    }

    /// Runs the query for every user not skipped, on `--jobs` workers, drawing progress on a terminal.
    ///
    /// - Parameters:
    ///   - skipping: Whether a user was done by an earlier run.
    ///   - render: Turns a user's report into what `deliver` takes, on the worker.
    ///   - deliver: Called by the worker with each user's index and rendered report (`nil` when the
    ///     user failed), before the user counts as completed.
    /// - Returns: The users that failed, in user order.
    private func runWorkers<Rows>(skipping: (BatchUser) -> Bool, render: @Sendable (StatisticsReport, BatchUser) -> Rows,
                                  deliver: @Sendable (Int, Rows?) throws -> Void) throws -> [Failure] {
        let bar = ProgressBar(label: "")
        let pending = users.indices.filter { !skipping(users[$0]) }
        let resumed = users.count - pending.count
        let shared = Mutex(Progress(completed: resumed))
        let stop = Mutex<(any Error)?>(nil)
        let workers = min(command.jobs ?? ProcessInfo.processInfo.activeProcessorCount, max(1, pending.count))
        // Each worker draws users until none is left, so a slow store does not hold the others up.
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while stop.withLock({ $0 == nil }) {
                let taken: Int? = shared.withLock { progress in
                    defer { progress.next += 1 }
                    return progress.next < pending.count ? pending[progress.next] : nil
                }
                guard let index = taken else { return }
                let user = users[index]
                var rows: Rows?
                var failure: Failure?
                do {
                    let store = try HealthStore.open(at: user.store, options: .readOnly)
                    defer { try? store.close() }
                    // Each worker is one core: its queries aggregate serially, and --jobs says the cores used.
                    let report = try request.report(in: store, parallelism: 1)
                    rows = render(report, user)
                } catch {
                    failure = Failure(user: user, reason: Self.reason(error, store: user.store))
                }
                do {
                    try deliver(index, rows)
                    shared.withLock { progress in
                        progress.completed += 1
                        if let failure {
                            progress.failures.append(failure)
                            bar.clear()
                            StandardStreams.writeError("Error: user '\(user.identifier)': \(failure.reason)")
                        }
                        bar.update(completed: progress.completed, resumed: resumed, failed: progress.failures.count,
                                   of: users.count, items: "users")
                    }
                } catch {
                    stop.withLock { $0 = $0 ?? error }
                }
            }
        }
        bar.finish()
        if let error = stop.withLock({ $0 }) { throw error }
        return shared.withLock { $0.failures }.sorted { lhs, rhs in
            (users.firstIndex(of: lhs.user) ?? 0) < (users.firstIndex(of: rhs.user) ?? 0)
        }
    }

    /// The reason a store failed, naming the file (the store when the error names none).
    private static func reason(_ error: any Error, store: String) -> String {
        if let error = error as? CadenceError { return error.located(path: store).description }
        return "\(store): \(error)"
    }
}
