//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

extension ProfileSuite {
    /// The samples measured with and without explicit UUIDs (at most this many, of the profile).
    static let explicitUUIDSamples = 1_000_000

    /// Bytes per sample when every sample carries a random UUID of its own, as samples synced
    /// from HealthKit do, beside the same samples with derived UUIDs (which cost nothing): the
    /// storage issue asks for the cost of user-supplied UUIDs separately.
    func measureExplicitUUIDs() throws -> BenchmarkResult {
        let count = min(size, Self.explicitUUIDSamples)
        log("  explicit UUIDs: \(sizeLabel(count)) samples stored with and without random UUIDs")
        let batches = try SyntheticHealthData(profile: profile, seed: options.seed, size: .samples(count))
            .batches(batchSize: Self.batchSize)
        var random = SeededRandom(seed: options.seed, stream: 0x5555_5555)
        let withUUIDs = try batches.map { batch in
            var copy = QuantitySampleBatch(type: batch.quantityType, capacity: batch.count)
            for provenance in batch.provenances { _ = copy.addProvenance(provenance) }
            let columns = batch.columns
            for row in 0..<batch.count {
                try copy.append(startTimestamp: columns.start[row], endTimestamp: columns.end[row], value: columns.value[row],
                                provenanceIndex: Int(columns.provenance[row]), uuid: Self.randomUUID(&random))
            }
            return copy
        }
        let derived = try chunkBytesPerSample(batches, name: "derived-uuids")
        let explicit = try chunkBytesPerSample(withUUIDs, name: "explicit-uuids")
        return BenchmarkResult(
            name: "storage.bytesPerSample.\(profile.rawValue).explicitUUIDs.\(sizeLabel(count))", kind: .size,
            profile: profile.rawValue, storeSamples: count, samples: count, value: explicit,
            note: String(format: "every sample with a random UUID (stored as 16 raw bytes); the same samples with "
                         + "derived UUIDs: %.2f B/sample", derived))
    }

    /// Saves the batches into a new store, closes it, and returns its chunk bytes per sample.
    private func chunkBytesPerSample(_ batches: [QuantitySampleBatch], name: String) throws -> Double {
        let path = workDirectory + "/\(profile.rawValue)-\(name).cadence"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try? FileManager.default.removeItem(atPath: path)
        let store = try HealthStore.open(at: path)
        for batch in batches { try store.save(batch) }
        try store.close()
        let info = try HealthStore.open(at: path, options: .readOnly).info()
        guard info.totalSamples > 0 else { throw BenchmarkFailure("the store \(path) holds no samples") }
        return Double(info.totalChunkBytes) / Double(info.totalSamples)
    }

    /// A version 4 UUID from the seeded generator.
    private static func randomUUID(_ random: inout SeededRandom) -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        for half in 0..<2 {
            let word = random.next()
            for index in 0..<8 { bytes[half * 8 + index] = UInt8(truncatingIfNeeded: word >> (index * 8)) }
        }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
