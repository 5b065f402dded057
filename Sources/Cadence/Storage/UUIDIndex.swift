//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// The UUIDs of the samples a store holds, per type, for refusing a second copy of a sample
/// (<doc:HowCadenceComputes#Identity>): built from storage the first time a save of that type may repeat stored samples,
/// then kept up to date with every save and delete. A save that replaces by start (activity
/// summaries) builds none: it reads the stored rows at its own starts instead. Owned by the writer.
struct UUIDIndex: Sendable {
    private var byType: [String: Set<UUID>] = [:]

    /// Adds the rows of a committed save, if the type's index was built.
    mutating func insert(_ columns: SampleColumns, of type: String, provenances: [Provenance]) {
        guard var index = byType[type] else { return }
        let identity = SampleIdentity(type: type, provenances: provenances)
        let metadataDigests = SampleIdentity.metadataDigests(of: columns)
        for row in 0..<columns.count { index.insert(identity.uuid(of: columns, row: row, metadataDigests: metadataDigests)) }
        byType[type] = index
    }

    /// Forgets a deleted sample.
    mutating func remove(_ uuid: UUID, of type: String) { byType[type]?.remove(uuid) }

    /// The rows of `batch` whose UUID is neither stored nor repeated earlier in the batch.
    ///
    /// A batch of rows newer than everything stored, sorted and with derived UUIDs only (the
    /// common import and ingest case) can repeat only itself, and only among rows with equal
    /// starts: those alone are hashed, and no index is built.
    ///
    /// When the caller gives `sameStart`, the UUIDs of every stored row starting where a row of
    /// the batch starts (a series whose rows are replaced by their start), those alone are
    /// checked, and no index is built.
    ///
    /// - Parameters:
    ///   - provenances: The batch's provenances, by the batch's provenance numbers.
    ///   - sameStart: The UUIDs of the stored rows sharing a start with the batch's, when known.
    /// - Complexity: O(*n*) for the batch's *n* rows, plus O(*s*) once to build the type's index
    ///   from its *s* stored samples when the batch may repeat them and `sameStart` is `nil`.
    mutating func newRows(of batch: QuantitySampleBatch, stored typeSnapshot: TypeSnapshot?, provenances: [Provenance],
                          storeProvenances: [Provenance], sameStart: Set<UUID>? = nil) throws -> [Int] {
        let columns = batch.columns
        let identifier = batch.quantityType.identifier
        let identity = SampleIdentity(type: identifier, provenances: provenances)
        let metadataDigests = SampleIdentity.metadataDigests(of: columns)
        if let sameStart, columns.explicitUUIDs.isEmpty {
            return Self.unrepeatedRows(of: columns, stored: sameStart, identity: identity, metadataDigests: metadataDigests)
        }
        let latestStored = typeSnapshot?.outlineSummaries.map(\.maximumStart).max() ?? .min
        // Rows with explicit UUIDs, or starting no later than stored data, may repeat stored samples.
        let needsIndex = !columns.explicitUUIDs.isEmpty || (columns.start.min() ?? .max) <= latestStored
        if needsIndex && byType[identifier] == nil, let typeSnapshot {
            byType[identifier] = try Self.build(typeSnapshot, provenances: storeProvenances)
        }
        let isSorted = zip(columns.start, columns.start.dropFirst()).allSatisfy { $0 <= $1 }
        if !needsIndex && isSorted && columns.explicitUUIDs.isEmpty {
            var keep: [Int] = []
            keep.reserveCapacity(columns.count)
            var runUUIDs: Set<UUID> = []
            for row in 0..<columns.count {
                let startsRun = row == 0 || columns.start[row - 1] != columns.start[row]
                let endsRun = row + 1 == columns.count || columns.start[row + 1] != columns.start[row]
                if startsRun && endsRun {
                    keep.append(row)
                    continue
                }
                if startsRun { runUUIDs.removeAll(keepingCapacity: true) }
                if runUUIDs.insert(identity.uuid(of: columns, row: row, metadataDigests: metadataDigests)).inserted {
                    keep.append(row)
                }
            }
            return keep
        }
        return Self.unrepeatedRows(of: columns, stored: needsIndex ? byType[identifier] ?? [] : [], identity: identity,
                                   metadataDigests: metadataDigests)
    }

    /// The rows of `columns` whose UUID is neither in `stored` nor repeated earlier in the columns.
    private static func unrepeatedRows(of columns: SampleColumns, stored: Set<UUID>, identity: SampleIdentity,
                                       metadataDigests: [UInt64]) -> [Int] {
        var keep: [Int] = []
        keep.reserveCapacity(columns.count)
        var seen = Set<UUID>(minimumCapacity: columns.count)
        for row in 0..<columns.count {
            let uuid = identity.uuid(of: columns, row: row, metadataDigests: metadataDigests)
            if stored.contains(uuid) || !seen.insert(uuid).inserted { continue }
            keep.append(row)
        }
        return keep
    }

    private static func build(_ type: TypeSnapshot, provenances: [Provenance]) throws -> Set<UUID> {
        var index = Set<UUID>()
        let identity = SampleIdentity(type: type.type.identifier, provenances: provenances)
        try StoredSample.forEachRow(of: type, details: true) { columns, row in
            index.insert(identity.uuid(of: columns, row: row, metadataDigests: nil))
        }
        return index
    }
}
