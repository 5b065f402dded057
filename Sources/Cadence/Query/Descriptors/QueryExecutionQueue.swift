//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Where the async query descriptors run the synchronous queries: a concurrent Dispatch queue,
/// so that a long scan holds one of its threads rather than one of the few threads of Swift's
/// cooperative pool, which other tasks need to make progress.
enum QueryExecutionQueue {
    private static let queue = DispatchQueue(label: "org.cadence.query", qos: .userInitiated, attributes: .concurrent)

    /// Runs `body` on the queue and resumes the caller with its result. A query already running
    /// finishes even when the calling task is cancelled; a cancelled task does not start one.
    static func run<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try Task.checkCancellation()
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Swift.Result { try body() }) }
        }
    }
}
