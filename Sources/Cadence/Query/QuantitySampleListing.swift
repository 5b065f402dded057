//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// The samples a quantity sample query lists, as the scan read them: each portion's columns and
/// the listed rows in the query's order, its limit applied. For writers of columns (Arrow), which
/// need no ``QuantitySample`` made per row.
package struct QuantitySampleListing: Sendable {
    /// A listed row: its portion in ``portions`` and its row there.
    package struct Row: Sendable {
        package var portion: Int32
        package var row: Int32
    }

    /// The type as stored.
    package let type: QuantityType
    /// The store's provenances, by the columns' provenance numbers.
    package let provenances: [Provenance]
    /// The columns of each portion scanned.
    package let portions: [SampleColumns]
    /// The listed rows, in the query's order.
    package let rows: [Row]
    let identity: SampleIdentity
    /// Each portion's metadata digests, for deriving UUIDs (see ``SampleIdentity/metadataDigests(of:)``).
    let metadataDigests: [[UInt64]]

    /// The UUID of the sample listed `index`-th, as the sample query gives it.
    package func uuid(at index: Int) -> UUID {
        let row = rows[index]
        return uuid(of: portions[Int(row.portion)], row: row)
    }

    /// The UUID of a listed row whose portion's columns the caller holds (`columns` is
    /// `portions[row.portion]`): a writer going through a portion's rows copies its columns once.
    package func uuid(of columns: SampleColumns, row: Row) -> UUID {
        identity.uuid(of: columns, row: Int(row.row), metadataDigests: metadataDigests[Int(row.portion)])
    }
}

extension HealthStore {
    /// The samples `query` lists, as ``execute(_:)-(SampleQuery<QuantitySample>)`` lists them, in
    /// columns; nil when the query sorts by key paths, which need the samples, or the type has series samples.
    ///
    /// - Parameter type: The query's type, for a store that holds none of it.
    /// - Complexity: O(*n* log *n*) over the *n* selected samples (O(*n*) when their order is the scan's).
    package func listing(_ query: SampleQuery<QuantitySample>, of type: QuantityType) throws -> QuantitySampleListing? {
        guard query.keyPathSortDescriptors.isEmpty else { return nil }
        return try read { snapshot in
            // Series samples are listed by their owners, which the samples give.
            guard snapshot.types[QuantitySeriesStorage.ownerSeries(of: type).identifier] == nil else { return nil }
            try query.reading.validate(query.predicate)
            let stored = snapshot.types[query.reading.identifier]
            var portions: [SampleColumns] = []
            var rows: [QuantitySampleListing.Row] = []
            var listed: [ListedRow] = []
            if let stored {
                let plan = ScanPlan(listing: query.predicate, of: stored, provenances: snapshot.provenances)
                try stored.forEachSelectedPortion(plan) { columns, selected in
                    let portion = Int32(portions.count)
                    portions.append(columns)
                    // A row the sample query makes no sample of (an unknown provenance, a value
                    // or dates a sample refuses) is not listed.
                    for row in selected where Int(columns.provenance[row]) < snapshot.provenances.count
                        && columns.value[row].isFinite && columns.start[row] <= columns.end[row] {
                        listed.append(ListedRow(start: columns.start[row], end: columns.end[row],
                                                sequence: columns.sequence[row], index: rows.count))
                        rows.append(QuantitySampleListing.Row(portion: portion, row: Int32(row)))
                    }
                }
            }
            listed.sort(by: ListedRow.order(query.sortDescriptors))
            let kept = query.limit > 0 ? listed.prefix(query.limit) : listed[...]
            let storedType = stored?.type ?? type
            return QuantitySampleListing(
                type: storedType, provenances: snapshot.provenances, portions: portions, rows: kept.map { rows[$0.index] },
                identity: SampleIdentity(type: storedType.identifier, provenances: snapshot.provenances),
                metadataDigests: portions.map(SampleIdentity.metadataDigests))
        }
    }
}
