//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Synchronization

/// A chunk file's payload section (version 5 on), after its detail section.
extension ChunkFile {
    /// The most bytes a compressed section's input may hold by default: well under the 2 GiB an
    /// LZ4 block can hold, so that no flush or compaction builds a section LZ4 refuses.
    package static let sectionLimit = 1 << 30

    /// Appends the payload section of `columns`.
    static func writePayloadSection(_ columns: SampleColumns, limit: Int, into writer: inout BinaryWriter) throws {
        writer.write(bytes: try PayloadSection.encode(columns.payloads, limit: limit))
    }

    /// Gives `columns`, decoded from this file, its rows' payloads: read when `reading`, else the
    /// file to read them from when asked (the section is not touched until then).
    func attachPayloads(to columns: inout SampleColumns, reading: Bool) throws {
        if reading {
            guard let section = try payloads(), !section.rows.isEmpty else { return }
            columns.payloads = try section.allPayloads(rowCount: count)
        } else {
            columns.payloadSource = ChunkPayloads(self)
        }
    }
}

extension ChunkFile {
    /// Decodes every column, the rows' payloads read, for rewriting the rows into a new chunk file
    /// (a compaction, an upgrade): a version 4 workout row's routes move from its attributes into
    /// its payload, where this version keeps them.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming the file when a section is damaged.
    package func decodeForRewriting() throws -> SampleColumns {
        var columns = try decodeAllColumns(readingPayloads: true)
        if version < 5 && typeIdentifier == Workout.typeIdentifier { try columns.moveWorkoutRoutesToPayloads() }
        return columns
    }
}

/// A chunk file's payloads, its payload directory read on first use and then kept: rows decoded
/// from a chunk carry one, so that a listing reads no part of the payload section unless a row's
/// payload is asked for.
package final class ChunkPayloads: RowPayloadSource {
    private let file: ChunkFile
    /// The chunk's row of each row asked about, when the rows were decoded alone (else the same).
    private let fileRows: [Int]?
    private let section = Mutex<PayloadSection??>(nil)

    /// The payloads of `file`'s rows, or of its rows `fileRows` alone, in that order.
    init(_ file: ChunkFile, rows fileRows: [Int]? = nil) {
        self.file = file
        self.fileRows = fileRows
    }

    /// The chunk file, for error messages.
    package var path: String { file.path }

    /// The payload of `row` (counted among the rows these are the payloads of), or `nil` when it has none.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming the file when the directory or the
    ///   block is damaged.
    /// - Complexity: O(*p*) the first time (the directory), then O(log *p*) plus the one block.
    package func payload(atRow row: Int) throws -> [UInt8]? {
        let read: PayloadSection?
        if let known = section.withLock({ $0 }) {
            read = known
        } else {
            read = try file.payloads()
            section.withLock { $0 = .some(read) }
        }
        guard let fileRows else { return try read?.payload(atRow: row) }
        return fileRows.indices.contains(row) ? try read?.payload(atRow: fileRows[row]) : nil
    }
}

/// A chunk's section would be over the limit its writer was given: the rows must go into more
/// chunks (see ``ChunkFile/encodeSplitting(_:typeIdentifier:style:sectionLimit:)``).
package struct SectionOverLimit: Error {
    /// The section's input bytes.
    package var byteCount: Int

    /// `bytes`, checked against `limit`.
    static func check(_ bytes: [UInt8], limit: Int) throws -> [UInt8] {
        guard bytes.count <= limit else { throw SectionOverLimit(byteCount: bytes.count) }
        return bytes
    }
}

extension ChunkFile {
    /// Encodes sorted `columns` into as many chunk files as keep every compressed section's input
    /// within `sectionLimit`: the rows are halved until each part's sections fit.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` when a single row's details are over the limit.
    /// - Complexity: O(*n* log *k*) for *n* rows cut into *k* parts.
    package static func encodeSplitting(_ columns: SampleColumns, typeIdentifier: String, style: AggregationStyle,
                                        sectionLimit: Int = sectionLimit) throws
        -> [(bytes: [UInt8], summary: SampleSummary)]
    {
        do {
            return [try encode(columns, typeIdentifier: typeIdentifier, style: style, sectionLimit: sectionLimit)]
        } catch let over as SectionOverLimit {
            guard columns.count > 1 else {
                throw CadenceError(.invalidArgument, "a \(typeIdentifier) sample's details of \(over.byteCount) bytes are over the \(sectionLimit) bytes a chunk section may hold")
            }
            let half = columns.count / 2
            return try [0..<half, half..<columns.count].flatMap { rows in
                try encodeSplitting(columns.selecting(rows), typeIdentifier: typeIdentifier, style: style,
                                    sectionLimit: sectionLimit)
            }
        }
    }
}
