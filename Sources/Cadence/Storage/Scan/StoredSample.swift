//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Row-level access to a type's stored samples (chunks, then head), skipping deleted ones, through
/// the scan: used by deletes, UUID indexes and compaction; and a stored row as a public sample.
package enum StoredSample {
    /// Calls `body` for every visible row, chunk by chunk; of chunks and head batches, only those
    /// holding a start in `starts` are read (the rows passed may still start outside it).
    ///
    /// - Parameters:
    ///   - details: Whether UUIDs, creation times and metadata must be decoded too.
    ///   - keepingFiles: Whether chunk files read stay loaded for later reads; a pass over every
    ///     chunk of a large store that will not come back passes `false`, to hold one chunk at a time.
    /// - Complexity: O(*n*) for the *n* rows of the portions read.
    package static func forEachRow(of type: TypeSnapshot, details: Bool,
                                   startingIn starts: ClosedRange<Int64> = Int64.min...Int64.max, keepingFiles: Bool = true,
                                   _ body: (SampleColumns, Int) throws -> Void) throws {
        var plan = ScanPlan(selection: RowSelection(.all, type: type, provenances: []))
        plan.starts = starts
        plan.readsDetails = details
        plan.keepsChunkFiles = keepingFiles
        try type.forEachSelectedRow(plan, body)
    }

    /// The UUID of a stored row: its explicit one, or the one derived from its attributes and
    /// occurrence (<doc:HowCadenceComputes#Identity>). For many rows, use a ``SampleIdentity`` built once.
    package static func uuid(of columns: SampleColumns, row: Int, type: String, snapshotProvenances: [Provenance]) -> UUID {
        if let uuid = columns.explicitUUID(at: row) { return uuid }
        let number = Int(columns.provenance[row])
        let provenance = number < snapshotProvenances.count ? snapshotProvenances[number] : Provenance(source: Source(name: ""))
        return QuantitySample.derivedUUID(type: type, provenance: provenance, value: columns.value[row],
                                          start: columns.start[row], end: columns.end[row],
                                          creation: columns.creation(at: row), metadata: columns.metadata(at: row),
                                          occurrence: Int(columns.occurrence(at: row)))
    }

    /// A public sample for a stored row, its UUID derived with `identity` (built once for the
    /// type and the provenances, so no string is hashed per row) and its provenance restored
    /// through `provenances` (once for each device address a reader meets).
    package static func sample(of columns: SampleColumns, row: Int, type: QuantityType,
                               provenances: inout RestoredProvenances, identity: SampleIdentity) -> QuantitySample? {
        guard let provenance = provenances.provenance(of: columns, row: row) else { return nil }
        let creation = columns.creation(at: row).map { Date(timestamp: $0) }
        return try? QuantitySample(
            uuid: identity.uuid(of: columns, row: row, metadataDigests: nil),
            type: type, value: columns.value[row], start: Date(timestamp: columns.start[row]),
            end: Date(timestamp: columns.end[row]), source: provenance.source, sourceVersion: provenance.sourceVersion,
            device: provenance.device, creationDate: creation, metadata: columns.metadata(at: row))
    }
}
