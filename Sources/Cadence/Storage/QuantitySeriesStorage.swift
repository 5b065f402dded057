//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// How quantity series samples are stored (FORMAT.md, "Quantity series"): each entry is a row of
/// its type's series, so statistics read entries with the kernels and block summaries every
/// sample goes through; each owning sample is a row of a companion series of its own
/// (``ownerSeries(of:)``), which no statistic reads, so nothing is counted twice.
///
/// An entry row links to its owner through a reserved metadata key (``ownerKey``, the owner's
/// UUID) and numbers itself among its owner's entries in its occurrence column, so its derived
/// UUID is stable: saving the same series again finds every row a duplicate. Rows of both
/// series are saved by one log record and deleted together.
package enum QuantitySeriesStorage {
    /// The prefix of an owner series' identifier: no HealthKit identifier starts with it.
    static let ownerSeriesPrefix = KindAttributes.prefix + "seriesOwners."
    /// The entry row's metadata key holding its owner's UUID.
    package static let ownerKey = KindAttributes.prefix + "seriesOwner"
    /// The owner row's metadata key holding its entry count and, for a discrete type, its
    /// extremes and most recent entry: `count[ minimum maximum mostRecent start end]`, times in
    /// microseconds since 1970.
    static let valuesKey = KindAttributes.prefix + "seriesValues"
    /// The sync identifier of an entry's deleted object: anchored queries report the owner's
    /// deletion, never its entries'.
    package static let entryDeletionMarker = KindAttributes.prefix + "seriesEntry"

    /// The companion series holding the owning samples of `type`'s series samples.
    package static func ownerSeries(of type: QuantityType) -> QuantityType {
        QuantityType(identifier: ownerSeriesPrefix + type.identifier, aggregationStyle: type.aggregationStyle,
                     canonicalUnit: type.canonicalUnit)
    }

    /// Whether `identifier` names an owner series (hidden from the types a store lists).
    package static func isOwnerSeries(_ identifier: String) -> Bool { identifier.hasExactPrefix(ownerSeriesPrefix) }

    /// The owner UUID of each of `columns`' metadata sets, by 1-based metadata index (0 = none):
    /// a row's owner is `links[metadataIndex[row]]`, read without a dictionary lookup per row.
    package static func ownerLinks(of columns: SampleColumns) -> [UUID?] {
        [nil] + columns.metadataSets.map { $0[ownerKey].flatMap(UUID.init(uuidString:)) }
    }

    /// The owner of an entry row, or `nil` for an ordinary sample's row.
    package static func owner(ofEntry columns: SampleColumns, row: Int) -> UUID? {
        guard !columns.metadataIndex.isEmpty, columns.metadataIndex[row] != 0 else { return nil }
        return columns.metadata(at: row)[ownerKey].flatMap(UUID.init(uuidString:))
    }

    /// The batches that store `series`: one of entries per type, one of owners per owner series,
    /// for one transaction.
    ///
    /// - Complexity: O(*n*) for *n* entries.
    package static func batches(_ series: [QuantitySeriesSample]) throws -> [QuantitySampleBatch] {
        var entries: [String: QuantitySampleBatch] = [:]
        var owners: [String: QuantitySampleBatch] = [:]
        var occurrences: [String: [UInt32]] = [:]
        for item in series {
            let owner = item.sample
            let type = owner.quantityType
            var metadata = owner.metadata
            metadata[valuesKey] = values(of: owner)
            let provenance = Provenance(source: owner.source, sourceVersion: owner.sourceVersion, device: owner.device)
            var ownerBatch = owners[type.identifier] ?? QuantitySampleBatch(type: ownerSeries(of: type))
            try ownerBatch.append(start: owner.startDate, end: owner.endDate, value: owner.value,
                                  provenanceIndex: ownerBatch.addProvenance(provenance), uuid: owner.uuid,
                                  creationDate: owner.creationDate, metadata: metadata)
            owners[type.identifier] = ownerBatch
            var batch = entries[type.identifier] ?? QuantitySampleBatch(type: type)
            let entryProvenance = batch.addProvenance(provenance)
            // The owner link, and the flag merging ranks user-entered samples by.
            var link = [ownerKey: owner.uuid.uuidString]
            link[MetadataKey.wasUserEntered] = owner.metadata[MetadataKey.wasUserEntered] == "1" ? "1" : nil
            for (index, entry) in item.entries.enumerated() {
                try batch.append(start: entry.dateInterval.start, end: entry.dateInterval.end, value: entry.quantity.value,
                                 provenanceIndex: entryProvenance, metadata: link)
                occurrences[type.identifier, default: []].append(UInt32(clamping: index))
            }
            entries[type.identifier] = batch
        }
        // Numbered once a batch: setting them per series would copy the batch's numbers each time.
        for (identifier, numbers) in occurrences { entries[identifier]?.setOccurrences(numbers) }
        return entries.keys.sorted().compactMap { entries[$0] } + owners.keys.sorted().compactMap { owners[$0] }
    }

    /// The text of ``valuesKey`` for an owning sample.
    private static func values(of owner: QuantitySample) -> String {
        guard let values = owner.seriesValues else { return String(owner.count) }
        let interval = values.mostRecentDateInterval
        return [String(owner.count), String(values.minimum), String(values.maximum), String(values.mostRecent),
                String(interval.start.timestamp), String(interval.end.timestamp)].joined(separator: " ")
    }
}
