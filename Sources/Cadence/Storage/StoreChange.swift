//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Synchronization

/// One committed transaction, as observers see it: its change sequences and, per type touched,
/// the time span of the samples saved or deleted.
package struct StoreChange: Sendable {
    /// A time span covering samples.
    package struct Extent: Sendable {
        package var start = Int64.max
        package var end = Int64.min

        package init() {}

        package init(_ columns: SampleColumns) {
            for row in 0..<columns.count { include(start: columns.start[row], end: columns.end[row]) }
        }

        package mutating func include(start: Int64, end: Int64) {
            self.start = min(self.start, start)
            self.end = max(self.end, end)
        }

        /// The span of every sample a type holds (empty for no type), from its summaries.
        package init(_ type: TypeSnapshot?) {
            for summary in type?.outlineSummaries ?? [] where summary.count > 0 {
                include(start: summary.minimumStart, end: summary.maximumEnd)
            }
        }

        package mutating func formUnion(_ other: Extent) { self = union(other) }

        package func union(_ other: Extent) -> Extent {
            var result = self
            result.include(start: other.start, end: other.end)
            return result
        }
    }

    package var firstSequence: Int64
    package var lastSequence: Int64
    package var types: [String: Extent]
}

/// The callbacks of long-running queries, called after each commit, outside the writer lock.
package final class ObserverRegistry: Sendable {
    private let handlers = Mutex<(next: Int, byToken: [Int: @Sendable (StoreChange) -> Void])>((0, [:]))

    /// Registers a handler; returns the token to remove it with.
    package func add(_ handler: @escaping @Sendable (StoreChange) -> Void) -> Int {
        handlers.withLock {
            $0.next += 1
            $0.byToken[$0.next] = handler
            return $0.next
        }
    }

    package func remove(_ token: Int) { _ = handlers.withLock { $0.byToken.removeValue(forKey: token) } }

    /// Whether no handler is registered.
    package var isEmpty: Bool { handlers.withLock { $0.byToken.isEmpty } }

    package func notify(_ change: StoreChange) {
        let current = handlers.withLock { Array($0.byToken.values) }
        for handler in current { handler(change) }
    }
}
