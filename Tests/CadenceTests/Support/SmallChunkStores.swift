//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
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

extension HealthStore {
    /// Saves `samples` (made in start order, from the first `sourceCount` of `sources`) in batches
    /// of random sizes within `batchSizes`, the second batch saved in the place of the third from
    /// last so that chunks overlap in time; `metadata` gives a sample's metadata by its index.
    /// Returns the samples in save order with the sequences their saves gave them.
    func saveInOverlappingBatches(_ samples: [ReferenceSample], type: QuantityType, sources: [Provenance],
                                  sourceCount: Int, batchSizes: ClosedRange<Int>, using random: inout TestRandom,
                                  metadata: (Int) -> [String: String] = { _ in [:] }) throws -> [ReferenceSample] {
        var batches: [Range<Int>] = []
        var first = 0
        while first < samples.count {
            let end = min(samples.count, first + Int.random(in: batchSizes, using: &random))
            batches.append(first..<end)
            first = end
        }
        if batches.count > 3 { batches.swapAt(1, batches.count - 3) }
        var saved: [ReferenceSample] = []
        for rows in batches {
            var batch = QuantitySampleBatch(type: type)
            for provenance in sources.prefix(sourceCount) { _ = batch.addProvenance(provenance) }
            for row in rows {
                var sample = samples[row]
                let source = sources.firstIndex { $0.source.name == sample.source } ?? 0
                try batch.append(startTimestamp: sample.start, endTimestamp: sample.end, value: sample.value,
                                 provenanceIndex: source, metadata: metadata(row))
                sample.sequence = Int64(saved.count + 1)
                saved.append(sample)
            }
            try save(batch)
        }
        return saved
    }

    /// Deletes the Watch's samples of `type` starting in `starts`, and drops them from `saved`.
    func deleteWatchSamples(of type: QuantityType, startingIn starts: Range<Int64>, from saved: inout [ReferenceSample]) throws {
        try deleteSamples(of: type, matching: .samples(start: Date(timestamp: starts.lowerBound),
                                                       end: Date(timestamp: starts.upperBound), options: .strictStartDate)
                              && .sources(named: ["Watch"]))
        saved.removeAll { $0.source == "Watch" && starts.contains($0.start) }
    }
}
