//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// What reading stored quantity series needs of the scan: owning samples restored from their
/// rows, and the entries counted from them. How series are stored stays below, in Storage.
extension QuantitySeriesStorage {
    /// The public owning sample of `type` for a row of its owner series, its count and values
    /// read back from ``valuesKey``; `nil` for a row that cannot be shown.
    package static func owner(of columns: SampleColumns, row: Int, type: QuantityType,
                              provenances: inout RestoredProvenances, identity: SampleIdentity) -> QuantitySample? {
        guard var sample = StoredSample.sample(of: columns, row: row, type: type, provenances: &provenances,
                                               identity: identity) else { return nil }
        let fields = (sample.metadata.removeValue(forKey: valuesKey) ?? "").split(separator: " ")
        guard let count = fields.first.flatMap({ Int($0) }), count >= 1 else { return sample }
        sample.count = count
        if fields.count == 6, let minimum = Double(fields[1]), let maximum = Double(fields[2]),
           let mostRecent = Double(fields[3]), let start = Int64(fields[4]), let end = Int64(fields[5]), start <= end {
            sample.seriesValues = QuantitySeriesValues(
                minimum: minimum, maximum: maximum, mostRecent: mostRecent,
                mostRecentDateInterval: DateInterval(start: Date(timestamp: start), end: Date(timestamp: end)))
        }
        return sample
    }

    /// The entries of the series samples an owner series holds, from each owner's ``valuesKey``.
    ///
    /// - Complexity: O(*n*) for its *n* owners, whose chunks are decoded.
    package static func entryCount(of owners: TypeSnapshot, provenances: [Provenance]) throws -> Int {
        var count = 0
        try owners.forEachSelectedRow(ScanPlan(listing: .all, of: owners, provenances: provenances)) { columns, row in
            let fields = columns.metadata(at: row)[valuesKey]?.split(separator: " ")
            count += fields?.first.flatMap { Int($0) } ?? 1
        }
        return count
    }
}
