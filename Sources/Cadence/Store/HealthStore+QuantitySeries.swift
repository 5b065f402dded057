//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

extension HealthStore {
    /// Saves a series sample with its entries in one transaction (one log record): after a crash
    /// the sample is there with every entry, or none of them is (<doc:HowCadenceComputes#Quantity-series>).
    ///
    /// - Returns: The rows saved: the owning sample and each entry count once; saving the same
    ///   series again finds them all duplicates.
    @discardableResult
    public func save(_ series: QuantitySeriesSample) throws -> SaveSummary { try save([series]) }

    /// Saves several series samples with their entries in one transaction.
    ///
    /// - Complexity: O(*n*) for *n* entries, as for ``save(_:restoringDeleted:)``.
    @discardableResult
    public func save(_ series: [QuantitySeriesSample]) throws -> SaveSummary {
        try save(try QuantitySeriesStorage.batches(series))
    }

    /// Deletes the quantity samples of `type` that `predicate` selects, judged on the samples a
    /// sample query lists: ordinary samples and series owners, whose entries go with them.
    func deleteQuantitySamples(of type: QuantityType, matching predicate: SamplePredicate) throws -> Int {
        try predicate.validate(for: type)
        let identifier = type.identifier
        let owners = QuantitySeriesStorage.ownerSeries(of: type).identifier
        // Only the type's and its owners' rows are decoded: the other types' chunks are not read.
        return try delete(types: [identifier, owners]) { snapshot in
            // The owners the predicate selects, so that their entries go too.
            var selected: Set<UUID> = []
            if let stored = snapshot.types[owners] {
                let identity = SampleIdentity(type: owners, provenances: snapshot.provenances)
                let plan = ScanPlan(listing: predicate, of: stored, provenances: snapshot.provenances)
                try stored.forEachSelectedRow(plan) { columns, row in
                    selected.insert(identity.uuid(of: columns, row: row, metadataDigests: nil))
                }
            }
            return { provenances, stored, columns, row in
                switch stored.type.identifier {
                case owners:
                    return predicate.matches(columns: columns, row: row, provenances: provenances, typeIdentifier: owners,
                                             canonicalUnit: stored.type.canonicalUnit)
                case identifier:
                    if let owner = QuantitySeriesStorage.owner(ofEntry: columns, row: row) { return selected.contains(owner) }
                    return predicate.matches(columns: columns, row: row, provenances: provenances,
                                             typeIdentifier: identifier, canonicalUnit: stored.type.canonicalUnit)
                default:
                    return false
                }
            }
        }
    }
}
