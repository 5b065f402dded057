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
        var reader = BinaryReader(bytes, path: path, range: detailRange)
        let rawLength = Int(try reader.read(UInt32.self))
        let compressed = try ChecksummedSection.read(&reader, name: "detail columns")
        // The column: a count, then per UUID a row gap (a varint of at most 10 bytes) and 16 bytes.
        let (prefix, overflow) = count.multipliedReportingOverflow(by: 26)
        let length = overflow ? rawLength : min(rawLength, prefix + 10)
        let column = try LZ4Codec.decompress(compressed, decompressedCount: rawLength, prefix: length, path: path)
        var raw = BinaryReader(column, path: path)
        let explicitCount = try raw.readCount(minimumItemSize: 17)
        guard explicitCount == count else { return nil }
        var found: [Int] = []
        var row = 0
        for index in 0..<explicitCount {
            let gap = try raw.readVarint()
            // Every row has one, so each follows the previous; anything else is left to the full decoder.
            guard gap == (index == 0 ? 0 : 1) else { return nil }
            row += Int(gap)
            if uuids.contains(UUID(high: try raw.read(UInt64.self), low: try raw.read(UInt64.self))) { found.append(row) }
        }
        return found
    }
}
