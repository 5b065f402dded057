//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

@testable import Cadence

extension HealthStore {
    /// An in-memory store with small chunks and an early flush, so that a few hundred samples
    /// spread over flushed chunks (answered by summaries or decoded) and the unflushed head.
    static func inMemory(chunkCapacity: Int, flushThreshold: Int) -> HealthStore {
        var options = HealthStore.Options()
        options.chunkCapacity = chunkCapacity
        options.flushThreshold = flushThreshold
        return HealthStore.inMemory(options: options)
    }
}
