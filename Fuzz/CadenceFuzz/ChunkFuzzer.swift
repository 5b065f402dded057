//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence

/// Fuzzes the chunk decoder: ``ChunkFile``, the column codec, bit packing, summaries, LZ4.
///
/// Every section of a chunk is CRC-32C-checksummed, so most mutations of a real chunk stop at
/// the checksum. The first byte of an input therefore picks how the rest is fed:
///
/// - `0`: as a chunk file, as it is.
/// - `1`: as a chunk file whose section checksums are recomputed first, so that mutations of
///   the summaries and of the compressed payloads reach the decoders.
/// - `2`: as raw decoder input, `varint count · varint length · query columns · detail columns`,
///   fed to ``ColumnCodec`` directly (no checksum, no LZ4).
/// - `3`: as the raw parts of a chunk, framed into a valid chunk (compressed, checksummed) and
///   decoded: with bit `4` clear, a version 5 chunk from `varint length · summary · varint block
///   count · (varint length · query block)… · detail columns` (with an empty payload section),
///   its compression groups holding at most 1 + (first byte >> 3) blocks, so that small inputs
///   still span several groups; with it set, a version 4 chunk from `varint length · summary · varint length · query columns
///   · detail columns`.
///
/// A chunk's payload section (its directory and each payload block) is read row by row and
/// whole, and its checksums are recomputed in mode `1` too, as are a version 7 chunk's metadata
/// set groups', whose rows' metadata is read for some rows alone and for all.
///
/// Whatever decodes is encoded again and decoded again, and must come back the same.
enum ChunkFuzzer {
    static let path = "fuzz/chunk-0000000001.cdc"

    static func run(_ input: [UInt8]) {
        guard let selector = input.first else { return }
        let body = Array(input.dropFirst())
        switch selector & 3 {
        case 0: decodeChunk(body)
        case 1: decodeChunk(refreshingChecksums(body))
        case 2: decodeRawColumns(body)
        default:
            let version: UInt16 = selector & 4 == 0 ? 5 : 4
            let bound = ChunkFile.QueryGroupBound(blocks: 1 + Int(selector >> 3), bytes: ChunkFile.QueryGroupBound.standard.bytes)
            expectingCadenceErrors("framing") { try framedChunk(body, version: version, bound: bound) }.map(decodeChunk)
        }
    }

    /// Decodes a chunk file every way the store does.
    static func decodeChunk(_ bytes: [UInt8]) {
        guard let chunk = expectingCadenceErrors("ChunkFile.init", { try ChunkFile(bytes: bytes, path: path) }) else {
            return
        }
        if chunk.blockRows.count != chunk.blocks.count || chunk.blockRows.last.map({ $0.upperBound != chunk.count }) == true {
            fuzzFailure("the block rows do not cover the chunk")
        }
        var columns = SampleColumns()
        // Blocks in an order of the input's choosing, some skipped, some columns not needed.
        let blocks = Array(chunk.blockRows.indices.reversed())
        expectingCadenceErrors("decodeQueryBlocks") {
            try chunk.decodeQueryBlocks(blocks, needs: [], into: &columns)
        }
        expectingCadenceErrors("decodeQueryBlocks") {
            try chunk.decodeQueryBlocks(Array(blocks.prefix(2)), needs: .all, into: &columns)
        }
        // An index past the end must be refused, never read.
        if expectingCadenceErrors("decodeQueryBlocks", {
            try chunk.decodeQueryBlocks([chunk.blocks.count], into: &columns)
        }) != nil {
            fuzzFailure("a block index past the end was accepted")
        }
        expectingCadenceErrors("decodeQueryColumns") { try chunk.decodeQueryColumns(into: &columns) }
        decodePayloads(chunk)
        decodeHourSummaries(chunk)
        guard let all = expectingCadenceErrors("decodeAllColumns", { try chunk.decodeAllColumns(readingPayloads: true) })
        else { return }
        if all.count != chunk.count { fuzzFailure("decoded \(all.count) rows of a \(chunk.count)-row chunk") }
        // Some rows' metadata alone (a listing's, its metadata set groups decoded only where
        // they hold those rows') must be the full decode's.
        let some = [all.count - 1, all.count / 2].filter { $0 >= 0 }
        if let partial = expectingCadenceErrors("decodeAllColumns(metadataRows:)", { try chunk.decodeAllColumns { _ in some } }),
           !some.allSatisfy({ partial.metadata(at: $0) == all.metadata(at: $0) }) {
            fuzzFailure("a row's metadata decoded alone differs from the full decode's")
        }
        decodeRowsByUUID(chunk, all: all)
        roundTrip(all, typeIdentifier: chunk.typeIdentifier)
    }

    /// Decodes the rows of two UUIDs alone: each must be a row the full decode gives, metadata included.
    static func decodeRowsByUUID(_ chunk: ChunkFile, all: SampleColumns) {
        let asked = Set([0, all.count / 2].filter { $0 < all.count }.compactMap(all.explicitUUID(at:)))
        guard let found = expectingCadenceErrors("decodeRows", { try chunk.decodeRows(withExplicitUUIDsIn: asked) }),
              let found else { return }
        for row in 0..<found.count {
            let same = (0..<all.count).contains { full in
                all.explicitUUID(at: full) == found.explicitUUID(at: row) && all.metadata(at: full) == found.metadata(at: row)
                    && all.start[full] == found.start[row] && all.sequence[full] == found.sequence[row]
            }
            if !same || found.explicitUUID(at: row).map(asked.contains) != true {
                fuzzFailure("row \(row) decoded by UUID is not a row of the full decode")
            }
        }
    }

    /// Reads a chunk's payloads one by one and all at once; both must agree.
    static func decodePayloads(_ chunk: ChunkFile) {
        guard let section = expectingCadenceErrors("payloads", { try chunk.payloads() }), let section else { return }
        if section.rows.contains(where: { $0 < 0 || $0 >= chunk.count }) { fuzzFailure("a payload of a row past the chunk") }
        guard let all = expectingCadenceErrors("allPayloads", { try section.allPayloads(rowCount: chunk.count) }) else {
            return
        }
        if !all.isEmpty && all.count != chunk.count { fuzzFailure("\(all.count) payloads of a \(chunk.count)-row chunk") }
        for row in [0, chunk.count / 2, chunk.count - 1] where row >= 0 {
            let one = expectingCadenceErrors("payload(atRow:)", { try section.payload(atRow: row) })
            if let one, one ?? [] != (all.isEmpty ? [] : all[row]) { fuzzFailure("row \(row)'s payload read alone differs") }
        }
    }

    /// Reads every block's hour summaries: an accepted section holds each row of its blocks once.
    static func decodeHourSummaries(_ chunk: ChunkFile) {
        guard let hours = chunk.hourSummaries else { return }
        var entries = 0
        for block in chunk.blocks.indices {
            guard let summaries = hours.summaries(ofBlock: block) else { continue }
            entries += summaries.count
            if summaries.reduce(0, { $0 + $1.count }) != chunk.blocks[block].count {
                fuzzFailure("the hour summaries of block \(block) do not count its rows")
            }
        }
        if entries != hours.count { fuzzFailure("\(hours.count) hour summaries, \(entries) of them in blocks") }
    }

    /// Feeds the raw column sections to the decoders.
    static func decodeRawColumns(_ body: [UInt8]) {
        var reader = BinaryReader(body, path: path)
        guard let (count, query, detail) = expectingCadenceErrors("raw framing", { () throws -> (Int, [UInt8], [UInt8]) in
            let count = Int(clamping: try reader.readVarint())
            let query = Array(try reader.readBlock())
            return (count, query, Array(try reader.readBytes(reader.remaining)))
        }) else { return }
        var columns = SampleColumns()
        expectingCadenceErrors("decodeQueryBlocks") {
            try ColumnCodec.decodeQueryBlocks(query, count: count, blocks: [0, 0], path: path, needs: .provenance,
                                              into: &columns)
        }
        let decoded = expectingCadenceErrors("decodeQueryColumns+decodeDetailColumns") { () throws -> SampleColumns in
            var columns = SampleColumns()
            var queryReader = BinaryReader(query, path: path)
            try ColumnCodec.decodeQueryColumns(&queryReader, count: count, into: &columns)
            var detailReader = BinaryReader(detail, path: path)
            try ColumnCodec.decodeDetailColumns(&detailReader, into: &columns)
            return columns
        }
        if let decoded { roundTrip(decoded, typeIdentifier: "HKQuantityTypeIdentifierStepCount") }
    }

    /// Encodes decoded columns, sorted, into a chunk again and checks that it decodes to the same rows.
    static func roundTrip(_ columns: SampleColumns, typeIdentifier: String) {
        if columns.start.count != columns.end.count || columns.start.count != columns.value.count
            || columns.start.count != columns.provenance.count || columns.start.count != columns.sequence.count
            || (!columns.flags.isEmpty && columns.flags.count != columns.count)
            || (!columns.explicitUUIDs.isEmpty && columns.explicitUUIDs.count != columns.count)
            || (!columns.creation.isEmpty && columns.creation.count != columns.count)
            || (!columns.metadataIndex.isEmpty && columns.metadataIndex.count != columns.count)
            || (!columns.payloads.isEmpty && columns.payloads.count != columns.count)
            || (!columns.deviceAddress.isEmpty && columns.deviceAddress.count != columns.count) {
            fuzzFailure("decoded columns of different lengths")
        }
        for row in 0..<columns.count {
            _ = columns.metadata(at: row)
            _ = columns.creation(at: row)
            _ = columns.explicitUUID(at: row)
        }
        // A chunk holds its rows sorted, as every writer sorts them before encoding; decoded
        // bytes need not be (the decoder does not check the order).
        let columns = columns.sortedByStart()
        guard let encoded = expectingCadenceErrors("ChunkFile.encode", {
            try ChunkFile.encode(columns, typeIdentifier: typeIdentifier, style: .discreteArithmetic)
        }) else { return }
        guard let again = expectingCadenceErrors("re-decoding", {
            try ChunkFile(bytes: encoded.bytes, path: path).decodeAllColumns(readingPayloads: true)
        }) else {
            fuzzFailure("a chunk encoded from decoded columns does not decode")
        }
        let sameValues = zip(columns.value, again.value).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }
        guard again.start == columns.start, again.end == columns.end, sameValues,
              again.provenance == columns.provenance, again.sequence == columns.sequence,
              again.flags.allSatisfy({ $0 == 0 }) ? columns.flags.allSatisfy({ $0 == 0 }) : again.flags == columns.flags,
              (0..<columns.count).allSatisfy({ again.explicitUUID(at: $0) == columns.explicitUUID(at: $0) }),
              (0..<columns.count).allSatisfy({ again.creation(at: $0) == columns.creation(at: $0) }),
              (0..<columns.count).allSatisfy({ again.metadata(at: $0) == columns.metadata(at: $0) }),
              (0..<columns.count).allSatisfy({ (try? again.payload(at: $0)) == (try? columns.payload(at: $0)) }),
              (0..<columns.count).allSatisfy({ again.deviceAddress(at: $0) == columns.deviceAddress(at: $0) })
        else {
            fuzzFailure("decoded columns do not survive encoding and decoding")
        }
    }

    /// `bytes` with every section checksum of a chunk file recomputed, where the framing allows.
    static func refreshingChecksums(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        var offset = 10
        offset = refreshSection(&bytes, at: offset)
        let isVersionFive = bytes.count >= 10 && UInt16(bytes[8]) | UInt16(bytes[9]) << 8 >= 5
        if isVersionFive {
            offset = refreshQueryBlocks(&bytes, at: offset)
        } else {
            offset = refreshSection(&bytes, at: offset + 4)
        }
        offset = refreshSection(&bytes, at: offset + 4)
        guard isVersionFive else { return bytes }
        if UInt16(bytes[8]) | UInt16(bytes[9]) << 8 >= 7 { offset = refreshMetadataSetGroups(&bytes, at: offset) }
        // The payload section: its directory, the blocks' length, then each block.
        offset = refreshSection(&bytes, at: offset + 4)
        guard offset >= 0, offset <= bytes.count - 8 else { return bytes }
        let blocksLength = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
        offset += 8
        let blocksEnd = blocksLength <= UInt64(bytes.count - offset) ? offset + Int(blocksLength) : bytes.count
        while offset < blocksEnd { offset = refreshSection(&bytes, at: offset + 4) }
        // The optional hour summaries: a tag, then a checksummed section.
        if offset < bytes.count { _ = refreshSection(&bytes, at: offset + 1) }
        return bytes
    }

    /// Recomputes the checksums of a version 5 chunk's query block groups (each in the directory
    /// at `offset`), then the directory's own; returns where the groups end.
    static func refreshQueryBlocks(_ bytes: inout [UInt8], at offset: Int) -> Int {
        refreshGroups(&bytes, at: offset, header: { (try? $0.readVarint()) != nil }, beforeChecksum: { directory in
            guard let stored = try? directory.readVarint(), (try? directory.readVarint()) != nil else { return nil }
            return stored
        }, afterChecksum: { (try? $0.readVarint()) != nil })
    }

    /// Recomputes the checksums of a version 7 chunk's metadata set groups (each in the directory
    /// at `offset`), then the directory's own; returns where the groups end.
    static func refreshMetadataSetGroups(_ bytes: inout [UInt8], at offset: Int) -> Int {
        refreshGroups(&bytes, at: offset, header: { _ in true }, beforeChecksum: { directory in
            guard (try? directory.readVarint()) != nil, let stored = try? directory.readVarint(),
                  (try? directory.readVarint()) != nil else { return nil }
            return stored
        }, afterChecksum: { _ in true })
    }

    /// Recomputes the checksum of each group a directory section at `offset` lists (`header`
    /// reads what comes before the group count; per group, `beforeChecksum` reads the fields
    /// before its checksum and returns its stored length, `afterChecksum` those after it), then
    /// the directory's own; returns where the groups, stored after the directory, end.
    static func refreshGroups(_ bytes: inout [UInt8], at offset: Int, header: (inout BinaryReader) -> Bool,
                              beforeChecksum: (inout BinaryReader) -> UInt64?,
                              afterChecksum: (inout BinaryReader) -> Bool) -> Int {
        guard offset >= 0, offset <= bytes.count - 8 else { return bytes.count }
        let length = Int(UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24)
        let payload = offset + 8
        guard length <= bytes.count - payload else { return bytes.count }
        var directory = BinaryReader(Array(bytes[payload..<payload + length]), path: path)
        var group = payload + length
        if header(&directory), let count = try? directory.readVarint() {
            for _ in 0..<count {
                guard let stored = beforeChecksum(&directory), stored <= UInt64(bytes.count - group),
                      directory.remaining >= 4 else { break }
                let checksum = bytes[group..<group + Int(stored)].withUnsafeBytes { CRC32C.checksum($0) }
                for index in 0..<4 {
                    bytes[payload + directory.offset + index] = UInt8(truncatingIfNeeded: checksum >> (8 * UInt32(index)))
                }
                _ = try? directory.read(UInt32.self)
                group += Int(stored)
                guard afterChecksum(&directory) else { break }
            }
        }
        _ = refreshSection(&bytes, at: offset)
        return group
    }

    /// Recomputes the checksum of the section framed at `offset`; returns where the next one starts.
    static func refreshSection(_ bytes: inout [UInt8], at offset: Int) -> Int {
        guard offset >= 0, offset <= bytes.count - 8 else { return bytes.count }
        let length = Int(UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24)
        let payload = offset + 8
        guard length <= bytes.count - payload else { return bytes.count }
        let checksum = bytes[payload..<payload + length].withUnsafeBytes { CRC32C.checksum($0) }
        for index in 0..<4 { bytes[offset + 4 + index] = UInt8(truncatingIfNeeded: checksum >> (8 * UInt32(index))) }
        return payload + length
    }

    /// A valid chunk frame of `version` (magic, version, checksummed summary, compressed and
    /// checksummed column sections) around raw parts taken from `body`.
    static func framedChunk(_ body: [UInt8], version: UInt16,
                            bound: ChunkFile.QueryGroupBound = .standard) throws -> [UInt8] {
        var reader = BinaryReader(body, path: path)
        let summary = Array(try reader.readBlock())
        var writer = BinaryWriter()
        writer.write(bytes: Array("CDNCHUNK".utf8))
        writer.write(version)
        ChecksummedSection.write(summary, into: &writer)
        if version >= 5 {
            let blockCount = try reader.readCount()
            try ChunkFile.writeQueryBlocks(try (0..<blockCount).map { _ in Array(try reader.readBlock()) }, bound: bound,
                                            into: &writer)
        } else {
            try ChecksummedSection.writeCompressed(Array(try reader.readBlock()), into: &writer)
        }
        try ChecksummedSection.writeCompressed(Array(try reader.readBytes(reader.remaining)), into: &writer)
        if version >= 5 { writer.write(bytes: try PayloadSection.encode([], limit: ChunkFile.sectionLimit)) }
        return writer.bytes
    }
}
