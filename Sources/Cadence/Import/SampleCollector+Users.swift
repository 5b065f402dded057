//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

extension SampleCollector {
    /// Saves the samples collected for one user of a user-partitioned input into the collector's
    /// store, numbered like an import of the user's rows alone (look-alike records all stay: see
    /// <doc:HowCadenceComputes#Identity>), and
    /// counts them in the summary.
    ///
    /// - Throws: What saving throws.
    mutating func saveUserSamples() throws {
        var batches = takeBatches()
        var occurrences = OccurrenceCounter()
        for index in batches.indices { try occurrences.number(&batches[index]) }
        let saved = try store.save(batches)
        summary.imported = saved.saved
        summary.duplicates = saved.duplicates
    }
}

extension SampleCollector {
    /// The snapshot a store would hold after ``saveUserSamples()`` had saved the samples of
    /// `type` collected for one user, built in memory without a store: the same provenance
    /// numbers (every batch's provenances in batch order, the noted ones of uncollected types
    /// too — see ``noteProvenance(ofSeries:sourceName:sourceVersion:device:)``), the same
    /// occurrence numbers, the same duplicates dropped and the same change sequences. Counts the
    /// samples in the summary.
    ///
    /// - Throws: What saving throws: more sources than a store holds.
    /// - Complexity: O(*n*) for the type's *n* samples, plus O(*p*) for *p* provenances.
    mutating func takeUserSnapshot(of type: QuantityType) throws -> StoreSnapshot {
        var batches = takeBatches()
        var occurrences = OccurrenceCounter()
        for index in batches.indices { try occurrences.number(&batches[index]) }
        var provenances: [Provenance] = []
        var numbers: [Provenance: UInt32] = [:]
        var collected: (batch: QuantitySampleBatch, numbers: [UInt32])?
        for batch in batches {
            let isCollected = batch.quantityType.identifier.isIdentical(to: type.identifier)
            // A store saves no empty batch: only an uncollected type's batch is empty and still counts.
            guard !isCollected || batch.count > 0 else { continue }
            let batchNumbers: [UInt32] = try batch.provenances.map { provenance in
                if let number = numbers[provenance] { return number }
                guard provenances.count < HealthStore.maximumSources else {
                    throw CadenceError(.invalidArgument, "the user's samples have more than \(HealthStore.maximumSources) sources "
                                       + "(distinct source, version and device), more than a store holds", path: summary.file)
                }
                numbers[provenance] = UInt32(provenances.count)
                provenances.append(provenance)
                return UInt32(provenances.count - 1)
            }
            if isCollected { collected = (batch, batchNumbers) }
        }
        var types: [String: TypeSnapshot] = [:]
        var lastSequence: Int64 = 0
        if let (batch, batchNumbers) = collected {
            var index = UUIDIndex()
            let keep = try index.newRows(of: batch, stored: nil, provenances: batch.provenances, storeProvenances: provenances)
            var columns = keep.count == batch.count ? batch.columns : batch.columns.selecting(keep)
            for row in 0..<columns.count {
                columns.provenance[row] = batchNumbers[Int(columns.provenance[row])]
                lastSequence += 1
                columns.sequence[row] = lastSequence
            }
            if !columns.isEmpty {
                var typeSnapshot = TypeSnapshot(type: batch.quantityType)
                typeSnapshot.head = [HeadBatch(columns: columns, style: batch.quantityType.aggregationStyle)]
                types[batch.quantityType.identifier] = typeSnapshot
            }
            summary.imported = columns.count
            summary.duplicates = batch.count - keep.count
        }
        return StoreSnapshot(storeIdentifier: UUID(), lastSequence: lastSequence, deletionHorizon: 0, provenances: provenances,
                             sourcePriority: SourcePriorities(), types: types)
    }
}
