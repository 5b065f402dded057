//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A chunk's hour-grain summaries: for a block that holds more than one UTC hour (or more than one
/// source) of samples, one ``SampleSummary`` per hour and provenance of its rows, so that an
/// interval edge falling between two of its hours need not decode it (layout in FORMAT.md, "Hour
/// summaries").
///
/// An entry covers the block's rows of one provenance that lie wholly inside one UTC hour
/// [*h*, *h* + 1 h): start at or after *h* and before *h* + 1 h, end at or before *h* + 1 h. A block
/// gets entries only when every one of its rows lies so (a row crossing an hour edge is prorated
/// from the decoded block), so a block's entries hold each of its rows exactly once, and its
/// entries' counts add up to its row count. A block lying inside one hour with one provenance has
/// none: its own summary is its hour summary.
///
/// The entries are a flat array of fixed-size records in the file's bytes, read in place: opening
/// the chunk checks them once (a few per chunk), and a query reads only those of the blocks it
/// asks for.
package struct HourSummaries: Sendable {
    /// A UTC hour in microseconds.
    package static let hour: Int64 = 3_600_000_000
    /// The bytes of one entry.
    static let entrySize = 128
    /// The tag of the section among the optional trailing sections of a chunk file of version 5 on.
    static let tag: UInt8 = 1
    /// The fewest rows per entry a block must have to get entries: an entry costs 128 bytes, so
    /// a block of few samples an hour (which an hourly query decodes cheaply) would double in size.
    package static let minimumRowsPerEntry = 256

    /// The chunk file's bytes (shared, not copied).
    private let bytes: [UInt8]
    /// Where the first entry is in ``bytes``.
    private let firstEntry: Int
    /// The entries of each block that has any, by block index.
    private let blockEntries: [Int: Range<Int>]

    /// The number of entries.
    package let count: Int

    /// The summaries of block `block`'s rows hour by hour (and provenance by provenance), in order
    /// of hour, or `nil` when the block has none.
    ///
    /// - Complexity: O(*e*) for the block's *e* entries, read in place.
    package func summaries(ofBlock block: Int) -> [SampleSummary]? {
        guard let entries = blockEntries[block] else { return nil }
        return bytes.withUnsafeBytes { raw in entries.map { Self.summary(raw, at: firstEntry + $0 * Self.entrySize) } }
    }

    // MARK: Writing

    /// Appends the section for the blocks `blocks` of sorted `columns`: a tag and a checksummed
    /// section of entries. Nothing is written when no block gets entries, so a chunk without them
    /// is laid out as before.
    package static func write(_ columns: SampleColumns, blocks: [Range<Int>], style: AggregationStyle,
                              into writer: inout BinaryWriter) {
        var entries = BinaryWriter()
        for (index, rows) in blocks.enumerated() {
            // Most blocks are one hour of one source: told apart without grouping their rows.
            guard rows.count >= 2 * minimumRowsPerEntry, holdsSeveralGroups(columns, rows: rows),
                  let groups = hourGroups(columns, rows: rows), groups.count > 1,
                  rows.count >= minimumRowsPerEntry * groups.count else { continue }
            for group in groups {
                let summary = group.rows.map { SampleSummary(columns, rows: $0, style: style) }
                    ?? SampleSummary(columns, rows: group.run, style: style)
                write(summary, block: index, into: &entries)
            }
        }
        guard entries.count > 0 else { return }
        writer.write(tag)
        ChecksummedSection.write(entries.bytes, into: &writer)
    }

    /// Whether sorted rows start in more than one UTC hour or come from more than one provenance.
    private static func holdsSeveralGroups(_ columns: SampleColumns, rows: Range<Int>) -> Bool {
        guard let first = rows.first, let last = rows.last else { return false }
        if TimestampArithmetic.floorDivide(columns.start[first], hour) != TimestampArithmetic.floorDivide(columns.start[last], hour) {
            return true
        }
        let provenance = columns.provenance[first]
        return columns.provenance[rows].contains { $0 != provenance }
    }

    /// The rows of one hour of one provenance: `run`, the hour's rows, when they are all of that
    /// provenance (summarised without gathering them), else `rows`.
    private struct HourGroup {
        var run: Range<Int>
        var rows: [Int]?
    }

    /// The rows of a block grouped by UTC hour, then provenance, or `nil` when a row crosses an
    /// hour edge.
    private static func hourGroups(_ columns: SampleColumns, rows: Range<Int>) -> [HourGroup]? {
        var groups: [HourGroup] = []
        var first = rows.lowerBound
        // Rows are sorted by start, so an hour's rows are consecutive.
        while first < rows.upperBound {
            let hourEnd = (TimestampArithmetic.floorDivide(columns.start[first], hour) + 1) * hour
            let provenance = columns.provenance[first]
            var oneProvenance = true
            var end = first
            while end < rows.upperBound, columns.start[end] < hourEnd {
                guard columns.end[end] <= hourEnd else { return nil }
                if columns.provenance[end] != provenance { oneProvenance = false }
                end += 1
            }
            if oneProvenance {
                groups.append(HourGroup(run: first..<end))
            } else {
                // The hour's groups go in order of provenance, each with its rows in order.
                var byProvenance: [UInt32: [Int]] = [:]
                for row in first..<end { byProvenance[columns.provenance[row], default: []].append(row) }
                for key in byProvenance.keys.sorted() { groups.append(HourGroup(run: first..<end, rows: byProvenance[key])) }
            }
            first = end
        }
        return groups
    }

    private static func write(_ summary: SampleSummary, block: Int, into writer: inout BinaryWriter) {
        let statistics = summary.statistics
        writer.write(UInt32(block))
        writer.write(summary.provenances.first ?? 0)
        writer.write(UInt32(summary.count))
        writer.write(UInt32(summary.userEnteredCount))
        for value in [summary.minimumStart, summary.maximumStart, summary.maximumEnd, summary.minimumSequence,
                      summary.maximumSequence, statistics.mostRecent.end, statistics.mostRecent.start,
                      statistics.mostRecent.sequence] { writer.write(value) }
        for value in [statistics.valueSum, statistics.weightedSum, statistics.weight, statistics.minimum,
                      statistics.maximum, statistics.mostRecent.value] { writer.write(value) }
    }

    // MARK: Reading

    /// Reads the section at `reader` (after its tag) of a chunk file whose bytes are `bytes` and
    /// whose block summaries are `blocks`, checking its checksum and every entry against its block.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming the file for a checksum failure, a length
    ///   that is not whole entries, entries out of order or outside their block, or a block whose
    ///   entries do not count its rows.
    init(reading reader: inout BinaryReader, bytes: [UInt8], blocks: [SampleSummary]) throws {
        let path = reader.path
        let payloadStart = reader.offset + 8
        let payload = try ChecksummedSection.read(&reader, name: "hour summaries")
        guard !payload.isEmpty, payload.count % Self.entrySize == 0 else {
            throw CadenceError(.corruptFile, "the hour summaries are not whole entries", path: path)
        }
        let count = payload.count / Self.entrySize
        var ranges: [Int: Range<Int>] = [:]
        try bytes.withUnsafeBytes { raw in
            var index = 0
            var lastBlock = -1
            while index < count {
                let block = Int(Self.load(raw, payloadStart + index * Self.entrySize, as: UInt32.self))
                guard block < blocks.count, block > lastBlock else {
                    throw CadenceError(.corruptFile, "hour summary \(index) names block \(block) out of order", path: path)
                }
                var rows = 0
                var previous: (hour: Int64, provenance: UInt32)?
                let first = index
                while index < count,
                      Int(Self.load(raw, payloadStart + index * Self.entrySize, as: UInt32.self)) == block {
                    let entry = Self.summary(raw, at: payloadStart + index * Self.entrySize)
                    let hour = TimestampArithmetic.floorDivide(entry.minimumStart, Self.hour)
                    let key = (hour, entry.provenances.first ?? 0)
                    guard entry.count > 0, entry.count <= blocks[block].count, entry.userEnteredCount <= entry.count,
                          entry.minimumStart <= entry.maximumStart, entry.maximumStart <= entry.maximumEnd,
                          TimestampArithmetic.floorDivide(entry.maximumStart, Self.hour) == hour,
                          entry.maximumEnd <= (hour + 1) * Self.hour, entry.minimumSequence <= entry.maximumSequence,
                          previous.map({ $0 < key }) ?? true,
                          blocks[block].provenances.contains(key.1) else {
                        throw CadenceError(.corruptFile, "hour summary \(index) does not fit block \(block)", path: path)
                    }
                    previous = key
                    rows += entry.count
                    index += 1
                }
                guard rows == blocks[block].count else {
                    throw CadenceError(.corruptFile, "the hour summaries of block \(block) count \(rows) of its \(blocks[block].count) rows",
                                       path: path)
                }
                ranges[block] = first..<index
                lastBlock = block
            }
        }
        self.bytes = bytes
        self.count = count
        firstEntry = payloadStart
        blockEntries = ranges
    }

    /// The entry at byte `offset`.
    private static func summary(_ raw: UnsafeRawBufferPointer, at offset: Int) -> SampleSummary {
        var summary = SampleSummary()
        summary.provenances = [load(raw, offset + 4, as: UInt32.self)]
        summary.userEnteredCount = Int(load(raw, offset + 12, as: UInt32.self))
        summary.statistics.count = Int(load(raw, offset + 8, as: UInt32.self))
        summary.statistics.earliestStart = load(raw, offset + 16, as: Int64.self)
        summary.maximumStart = load(raw, offset + 24, as: Int64.self)
        summary.statistics.latestEnd = load(raw, offset + 32, as: Int64.self)
        summary.minimumSequence = load(raw, offset + 40, as: Int64.self)
        summary.maximumSequence = load(raw, offset + 48, as: Int64.self)
        summary.statistics.mostRecent = MostRecentSample(
            end: load(raw, offset + 56, as: Int64.self), start: load(raw, offset + 64, as: Int64.self),
            sequence: load(raw, offset + 72, as: Int64.self), value: loadDouble(raw, offset + 120))
        summary.statistics.valueSum = loadDouble(raw, offset + 80)
        // Every sample lies wholly inside the hour: its sum is its value sum, as a block's.
        summary.statistics.sum = summary.statistics.valueSum
        summary.statistics.weightedSum = loadDouble(raw, offset + 88)
        summary.statistics.weight = loadDouble(raw, offset + 96)
        summary.statistics.minimum = loadDouble(raw, offset + 104)
        summary.statistics.maximum = loadDouble(raw, offset + 112)
        return summary
    }

    @inline(__always)
    private static func load<T: FixedWidthInteger>(_ raw: UnsafeRawBufferPointer, _ offset: Int, as type: T.Type) -> T {
        T(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    @inline(__always)
    private static func loadDouble(_ raw: UnsafeRawBufferPointer, _ offset: Int) -> Double {
        Double(bitPattern: load(raw, offset, as: UInt64.self))
    }
}
