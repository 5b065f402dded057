//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Finding rows by explicit UUID from the detail section's first column alone.
extension ChunkFile {
    /// The rows whose explicit UUID is in `uuids`, ascending, read from the UUID column, which
    /// opens the detail section: only as much of it is decompressed as that column can take, and
    /// nothing else of the chunk is decoded. `nil` when some row has no explicit UUID (its derived
    /// UUID needs every detail column).
    ///
    /// A lookup by UUID (a workout and its route, a correlation's members) thereby passes over the
    /// chunks that do not hold it without decoding their details.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming the file when the detail section fails
    ///   its checksum or its UUID column is malformed.
    /// - Complexity: O(*n*) for the chunk's *n* rows, with no per-row allocation.
    package func rows(withExplicitUUIDsIn uuids: Set<UUID>) throws -> [Int]? {
        try rows(withExplicitUUIDsIn: uuids, section: try detailSection())
    }

    /// The rows whose explicit UUID is in `uuids` (see ``rows(withExplicitUUIDsIn:)``), decoded
    /// alone, in order, their payloads left in the file; empty when the chunk holds none, `nil`
    /// when some row has no explicit UUID.
    ///
    /// Only their metadata is made into strings: a lookup of one workout in a chunk of a thousand
    /// builds one workout's attributes, not a thousand.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming the file when a section is damaged.
    /// - Complexity: O(*n*) for the chunk's *n* rows, plus the found rows' metadata.
    package func decodeRows(withExplicitUUIDsIn uuids: Set<UUID>) throws -> SampleColumns? {
        let section = try detailSection()
        guard let rows = try rows(withExplicitUUIDsIn: uuids, section: section) else { return nil }
        guard !rows.isEmpty else { return SampleColumns() }
        var columns = SampleColumns()
        try decodeQueryColumns(into: &columns)
        let raw = try LZ4Codec.decompress(section.compressed, decompressedCount: section.rawLength, path: path)
        try decodeDetailColumns(raw, into: &columns, metadataRows: rows)
        var found = columns.selecting(rows)
        found.payloadSource = ChunkPayloads(self, rows: rows)
        return found
    }

    private func rows(withExplicitUUIDsIn uuids: Set<UUID>, section: (compressed: ArraySlice<UInt8>, rawLength: Int))
        throws -> [Int]?
    {
        // The column: a count, then per UUID a row gap (a varint of at most 10 bytes) and 16 bytes.
        let (prefix, overflow) = count.multipliedReportingOverflow(by: 26)
        let length = overflow ? section.rawLength : min(section.rawLength, prefix + 10)
        let column = try LZ4Codec.decompress(section.compressed, decompressedCount: section.rawLength, prefix: length,
                                             path: path)
        var raw = BinaryReader(column, path: path)
        let explicitCount = try raw.readCount(minimumItemSize: 17)
        guard explicitCount == count else { return nil }
        var found: [Int] = []
        var row = 0
        for index in 0..<explicitCount {
            let gap = try raw.readVarint()
            // Every row has one, so each follows the previous; anything else is left to the full decode.
            guard gap == (index == 0 ? 0 : 1) else { return nil }
            row += Int(gap)
            if uuids.contains(UUID(high: try raw.read(UInt64.self), low: try raw.read(UInt64.self))) { found.append(row) }
        }
        return found
    }
}
