//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Turns ``SampleColumns`` into bytes that LZ4 can bite on, and back.
///
/// Two sections: the *query* columns every statistic needs (start, duration, value, provenance,
/// sequence, flags) and the *detail* columns only sample listings need (explicit UUIDs, creation
/// times, metadata, occurrence numbers, device addresses), so aggregation never decodes the second.
///
/// - Times: the largest of 1 s, 1 ms or 1 µs dividing every start difference and duration is the
///   scale; starts are stored as bit-packed differences from the previous start, durations
///   bit-packed. A regular series costs zero bits a sample.
/// - Values: when every value is a decimal with at most six fractional digits, the scaled
///   integers' differences are bit-packed; otherwise the raw bits, XOR-ed with the previous value,
///   are split into eight byte planes for LZ4.
package enum ColumnCodec {
    /// The time scales a block may use, coarsest first.
    static let timeScales: [Int64] = [1_000_000, 1_000, 1]
    /// 10^digits for the decimal digits a block's values may have.
    static let decimalPowers: [Double] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]

    // MARK: Encoding

    /// Which optional query columns a reader needs (start, end and value are always decoded): a
    /// skipped provenance column is zero, a skipped sequence column empty (not filled with zeros
    /// that no reader looks at).
    package struct QueryColumnNeeds: OptionSet, Sendable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }
        package static let provenance = QueryColumnNeeds(rawValue: 1)
        package static let sequence = QueryColumnNeeds(rawValue: 2)
        package static let all: QueryColumnNeeds = [.provenance, .sequence]
    }

    /// A block ends once it holds this many rows and the next row starts in another UTC hour.
    package static let minimumBlockRows = 512
    /// A block never holds more rows than this.
    package static let maximumBlockRows = 8_192

    /// Where the blocks of `columns` begin and end: the unit of decoding, and the runs the
    /// chunk's block summaries describe.
    ///
    /// Blocks end on UTC hour boundaries once they hold ``minimumBlockRows`` rows, so with regular
    /// data a block covers whole hours, and hourly or daily intervals in whole-hour time zones
    /// contain whole blocks: their summaries answer without decoding. The first block also ends,
    /// however few its rows, at the first hour edge when the hour after it holds
    /// ``minimumBlockRows`` rows: the tail of an hour a chunk starts late in is then a block of its
    /// own rather than the head of a block of two hours, which would need hour summaries (two
    /// entries cost more than its block summary). Later blocks are not cut so: where sparse rows
    /// precede dense hours (a workout in a day of spot readings) the extra blocks cost more than
    /// the hour summaries they spare.
    ///
    /// - Complexity: O(*n*).
    package static func blockBoundaries(_ columns: SampleColumns) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var blockStart = 0
        for row in 1..<max(columns.count, 1) {
            let rows = row - blockStart
            let newHour = hour(of: columns, row) != hour(of: columns, row - 1)
            if rows >= maximumBlockRows || (newHour && (rows >= minimumBlockRows || (blockStart == 0 && hourFillsBlock(columns, from: row)))) {
                ranges.append(blockStart..<row)
                blockStart = row
            }
        }
        if columns.count > 0 { ranges.append(blockStart..<columns.count) }
        return ranges
    }

    /// Where sorted `columns` are cut into chunks of at most `capacity` rows.
    ///
    /// A chunk that is not the last ends at the last UTC hour edge among its final `capacity / 64`
    /// rows when there is one, so that its neighbour starts on a whole hour: with regular data a
    /// chunk then holds whole hours, and neither it nor its neighbour has a short block at the edge
    /// (a block summary each) or an hour split between two chunks. It gives up at most 1/64 of its
    /// capacity; small capacities (under 64 rows) cut exactly at the capacity.
    ///
    /// - Complexity: O(*n*).
    package static func chunkBoundaries(_ columns: SampleColumns, capacity: Int) -> [Range<Int>] {
        let capacity = max(capacity, 1)
        var ranges: [Range<Int>] = []
        var offset = 0
        while offset < columns.count {
            var end = min(columns.count, offset + capacity)
            if end < columns.count {
                let earliest = end - capacity / 64
                var edge = end
                while edge > earliest, hour(of: columns, edge) == hour(of: columns, edge - 1) { edge -= 1 }
                if edge > earliest { end = edge }
            }
            ranges.append(offset..<end)
            offset = end
        }
        return ranges
    }

    /// The UTC hour in which row `row` starts.
    @inline(__always)
    private static func hour(of columns: SampleColumns, _ row: Int) -> Int64 {
        TimestampArithmetic.floorDivide(columns.start[row], HourSummaries.hour)
    }

    /// Whether the sorted rows from `row` (the first of its UTC hour) on hold ``minimumBlockRows``
    /// rows of that hour.
    private static func hourFillsBlock(_ columns: SampleColumns, from row: Int) -> Bool {
        let last = row + minimumBlockRows - 1
        return last < columns.count && hour(of: columns, last) == hour(of: columns, row)
    }

    /// Encodes the query columns (the rows' order is kept) as independently decodable blocks
    /// (``blockBoundaries(_:)``): the block count, each block's row count and byte length, then the blocks.
    package static func encodeQueryColumns(_ columns: SampleColumns) -> [UInt8] {
        let blocks = blockBoundaries(columns)
        let bodies = blocks.map { encodeQueryBlock(columns, rows: $0) }
        var writer = BinaryWriter(capacity: bodies.reduce(16) { $0 + $1.count + 6 })
        writer.writeVarint(UInt64(blocks.count))
        for (rows, body) in zip(blocks, bodies) {
            writer.writeVarint(UInt64(rows.count))
            writer.writeVarint(UInt64(body.count))
        }
        for body in bodies { writer.write(bytes: body) }
        return writer.bytes
    }

    /// Encodes the query columns of one block, `rows`, decodable on its own.
    package static func encodeQueryBlock(_ columns: SampleColumns, rows: Range<Int>) -> [UInt8] {
        var writer = BinaryWriter(capacity: rows.count * 2)
        let count = rows.count
        let first = rows.lowerBound
        var startDifferences = [Int64](repeating: 0, count: count)
        var durations = [Int64](repeating: 0, count: count)
        var scale: Int64 = 1
        for candidate in timeScales {
            var divides = true
            for row in rows {
                let difference = row == first ? 0 : columns.start[row] &- columns.start[row - 1]
                if difference % candidate != 0 || (columns.end[row] &- columns.start[row]) % candidate != 0 {
                    divides = false
                    break
                }
            }
            if divides { scale = candidate; break }
        }
        for row in rows {
            startDifferences[row - first] = row == first ? 0 : (columns.start[row] &- columns.start[row - 1]) / scale
            durations[row - first] = (columns.end[row] &- columns.start[row]) / scale
        }
        repeatSecond(&startDifferences)
        writer.writeVarint(UInt64(scale))
        writer.write(count > 0 ? columns.start[first] : 0)
        BitPacking.encode(startDifferences, into: &writer)
        BitPacking.encode(durations, into: &writer)
        encodeValues(Array(columns.value[rows]), into: &writer)
        BitPacking.encode(columns.provenance[rows].map { Int64($0) }, into: &writer)
        var sequenceDifferences = [Int64](repeating: 0, count: count)
        for row in rows where row > first { sequenceDifferences[row - first] = columns.sequence[row] &- columns.sequence[row - 1] }
        repeatSecond(&sequenceDifferences)
        writer.write(count > 0 ? columns.sequence[first] : 0)
        BitPacking.encode(sequenceDifferences, into: &writer)
        let hasFlags = !columns.flags.isEmpty && columns.flags[rows].contains { $0 != 0 }
        writer.write(hasFlags)
        if hasFlags { BitPacking.encode(columns.flags[rows].map { Int64($0) }, into: &writer) }
        return writer.bytes
    }

    /// Gives a column of differences the second one's value in its first place, which decoders
    /// ignore (the first row is the first value itself): a regular series then packs in zero bits
    /// a row instead of needing bits for a leading 0.
    private static func repeatSecond(_ differences: inout [Int64]) {
        if differences.count > 1 { differences[0] = differences[1] }
    }

    private static func encodeValues(_ values: [Double], into writer: inout BinaryWriter) {
        decimal: for (digits, power) in decimalPowers.enumerated() {
            var integers = [Int64](repeating: 0, count: values.count)
            for (row, value) in values.enumerated() {
                let scaled = (value * power).rounded()
                guard abs(scaled) < 9.0e15, scaled / power == value else { continue decimal }
                integers[row] = Int64(scaled)
            }
            writer.write(UInt8(digits))
            writer.write(integers.first ?? 0)
            var differences = [Int64](repeating: 0, count: values.count)
            for row in 1..<max(values.count, 1) { differences[row] = integers[row] &- integers[row - 1] }
            repeatSecond(&differences)
            BitPacking.encode(differences, into: &writer)
            return
        }
        writer.write(UInt8(0xFF))
        var planes = [UInt8](repeating: 0, count: values.count * 8)
        var previous: UInt64 = 0
        for (row, value) in values.enumerated() {
            let bits = value.bitPattern ^ previous
            previous = value.bitPattern
            for plane in 0..<8 { planes[plane * values.count + row] = UInt8(truncatingIfNeeded: bits >> (UInt64(plane) * 8)) }
        }
        writer.write(bytes: planes)
    }

    /// Encodes the detail columns; with `metadataSetsApart` (chunk files of version 7 on), the
    /// metadata sets are counted but not written (``MetadataSetGroups`` holds them).
    package static func encodeDetailColumns(_ columns: SampleColumns, metadataSetsApart: Bool = false) -> [UInt8] {
        var writer = BinaryWriter()
        let explicitRows = columns.explicitUUIDs.enumerated().compactMap { $0.element == nil ? nil : $0.offset }
        writer.writeVarint(UInt64(explicitRows.count))
        if !explicitRows.isEmpty {
            var previous = 0
            for row in explicitRows {
                writer.writeVarint(UInt64(row - previous))
                previous = row
                let halves = (columns.explicitUUIDs[row] ?? UUID()).halves
                writer.write(halves.high)
                writer.write(halves.low)
            }
        }
        writer.write(!columns.creation.isEmpty)
        if !columns.creation.isEmpty {
            // Creation times are stored relative to the end time; an absent one as 1 above the maximum.
            var offsets = [Int64](repeating: 0, count: columns.count)
            var maximum = Int64.min
            for row in 0..<columns.count where columns.creation[row] != SampleColumns.absent {
                offsets[row] = columns.creation[row] &- columns.end[row]
                maximum = max(maximum, offsets[row])
            }
            let marker = maximum == Int64.min ? 0 : maximum &+ 1
            for row in 0..<columns.count where columns.creation[row] == SampleColumns.absent { offsets[row] = marker }
            writer.write(marker)
            BitPacking.encode(offsets, into: &writer)
        }
        writer.writeVarint(UInt64(columns.metadataIndex.isEmpty ? 0 : columns.metadataSets.count))
        if !columns.metadataIndex.isEmpty {
            if !metadataSetsApart {
                for set in columns.metadataSets { writeMetadataSet(set, into: &writer) }
            }
            BitPacking.encode(columns.metadataIndex.map { Int64($0) }, into: &writer)
        }
        // Occurrence numbers are almost all 0: only the others are written, as row gaps and values.
        let repeatedRows = columns.occurrence.indices.filter { columns.occurrence[$0] != 0 }
        writer.writeVarint(UInt64(repeatedRows.count))
        var previousRow = 0
        for row in repeatedRows {
            writer.writeVarint(UInt64(row - previousRow))
            previousRow = row
            writer.writeVarint(UInt64(columns.occurrence[row]))
        }
        encodeDeviceAddresses(columns.deviceAddress, into: &writer)
        return writer.bytes
    }

    /// The device address column, last in the detail section (format version 5): whether any
    /// row has an address; if so the smallest address, the shift that drops the low zero bits
    /// every address shares above it (objects are aligned), and each row's `(address − smallest)
    /// >> shift + 1` bit-packed, 0 for none. One export's addresses span a few hundred megabytes
    /// of one process: about 3 bytes a row.
    private static func encodeDeviceAddresses(_ addresses: [UInt64], into writer: inout BinaryWriter) {
        // Plain loops over the column (every save and flush of an export's rows comes here).
        var smallest = UInt64.max
        for address in addresses where address != 0 { smallest = min(smallest, address) }
        let hasAddresses = smallest != .max || addresses.contains(.max)
        writer.write(hasAddresses)
        guard hasAddresses else { return }
        var sharedBits: UInt64 = 0
        for address in addresses where address != 0 { sharedBits |= address &- smallest }
        let shift = sharedBits == 0 ? 0 : sharedBits.trailingZeroBitCount
        writer.write(smallest)
        writer.write(UInt8(shift))
        // `(address − smallest) >> shift` is below 2^64 − 1, so adding 1 never wraps to the 0 of "none".
        BitPacking.encode(addresses.map { $0 == 0 ? 0 : Int64(bitPattern: ($0 &- smallest) >> UInt64(shift) &+ 1) },
                          into: &writer)
    }

    // MARK: Decoding

    /// The row counts and byte ranges of the blocks of an encoded query section.
    private static func blockRanges(_ reader: inout BinaryReader, count: Int) throws -> [(rows: Int, bytes: Range<Int>)] {
        guard count >= 0, count <= 1 << 28 else { throw reader.corrupt("row count \(count) out of range") }
        let blockCount = try reader.readCount(minimumItemSize: 2)
        var sizes: [(rows: Int, length: Int)] = []
        var total = 0
        for _ in 0..<blockCount {
            let rows = Int(clamping: try reader.readVarint())
            let length = try reader.readCount()
            guard rows > 0, rows <= maximumBlockRows else { throw reader.corrupt("a block of \(rows) rows") }
            total += rows
            sizes.append((rows, length))
        }
        guard total == count else { throw reader.corrupt("blocks hold \(total) rows, not \(count)") }
        var ranges: [(rows: Int, bytes: Range<Int>)] = []
        var offset = reader.offset
        for size in sizes {
            ranges.append((size.rows, offset..<offset + size.length))
            offset += size.length
        }
        guard offset - reader.offset <= reader.remaining else { throw reader.corrupt("blocks run past the section") }
        _ = try reader.readBytes(offset - reader.offset)
        return ranges
    }

    /// Decodes `count` rows of query columns into `columns` (replacing its query columns).
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming the file on any inconsistency.
    /// - Complexity: O(*n*): each column is allocated once and written once, without zero-filling.
    package static func decodeQueryColumns(_ reader: inout BinaryReader, count: Int,
                                           into columns: inout SampleColumns) throws {
        let ranges = try blockRanges(&reader, count: count)
        try decodeQueryBlocks(ranges.enumerated().map { ($0.offset, BinaryReader(reader, range: $0.element.bytes), $0.element.rows) },
                              into: &columns)
    }

    /// Decodes only some blocks of an encoded query section (`bytes`, holding `count` rows),
    /// concatenated in the order given, into `columns`.
    ///
    /// - Complexity: O(*k*) for the *k* rows of the chosen blocks.
    package static func decodeQueryBlocks(_ bytes: [UInt8], count: Int, blocks: [Int], path: String,
                                          needs: QueryColumnNeeds = .all, into columns: inout SampleColumns) throws {
        var reader = BinaryReader(bytes, path: path)
        let ranges = try blockRanges(&reader, count: count)
        guard reader.isAtEnd else { throw reader.corrupt("trailing bytes after the blocks") }
        for block in blocks where block < 0 || block >= ranges.count { throw reader.corrupt("block \(block) out of range") }
        try decodeQueryBlocks(blocks.map { ($0, BinaryReader(reader, range: ranges[$0].bytes), ranges[$0].rows) },
                              needs: needs, into: &columns)
    }

    /// Decodes encoded query blocks, each read by a reader over exactly its bytes and holding
    /// `rows` rows, one after another into `columns` (replacing its query columns); `number`
    /// names the block in errors.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming the file on any inconsistency.
    /// - Complexity: O(*k*) for the *k* rows of the blocks.
    package static func decodeQueryBlocks(_ blocks: [(number: Int, reader: BinaryReader, rows: Int)], needs: QueryColumnNeeds = .all,
                                          into columns: inout SampleColumns) throws {
        // Every block's columns are located first (headers only, nothing unpacked), then each
        // column is unpacked block after block straight into its array.
        var encoded: [EncodedQueryBlock] = []
        encoded.reserveCapacity(blocks.count)
        var offset = 0
        for block in blocks {
            var blockReader = block.reader
            encoded.append(try EncodedQueryBlock(&blockReader, rows: offset..<offset + block.rows))
            guard blockReader.isAtEnd else { throw blockReader.corrupt("trailing bytes in block \(block.number)") }
            offset += block.rows
        }
        let rows = offset
        refill(&columns.start, count: rows, zero: 0) { starts in for block in encoded { block.decodeStarts(into: starts) } }
        try columns.start.withUnsafeBufferPointer { starts in
            try refill(&columns.end, count: rows, zero: 0) { ends in
                for block in encoded { try block.decodeEnds(starts: starts, into: ends) }
            }
        }
        refill(&columns.value, count: rows, zero: 0) { values in for block in encoded { block.decodeValues(into: values) } }
        // Columns the reader does not need are zero.
        try refill(&columns.provenance, count: rows, zero: 0) { provenances in
            guard needs.contains(.provenance) else { return }
            for block in encoded { try block.decodeProvenances(into: provenances) }
        }
        if needs.contains(.sequence) {
            refill(&columns.sequence, count: rows, zero: 0) { sequences in
                for block in encoded { block.decodeSequences(into: sequences) }
            }
        } else {
            columns.sequence.removeAll(keepingCapacity: true)
        }
        if encoded.contains(where: { $0.flags != nil }) {
            refill(&columns.flags, count: rows, zero: 0) { flags in for block in encoded { block.decodeFlags(into: flags) } }
        } else {
            columns.flags.removeAll(keepingCapacity: true)
        }
    }

    /// Makes `column` `count` zeros and lets `body` write them, in the column's own buffer when it
    /// holds the only reference and has room: a scan decoding chunk after chunk into the same
    /// columns then touches memory it already has, where fresh arrays of a few hundred kilobytes
    /// each were returned to the system and faulted back in, chunk after chunk.
    private static func refill<Element>(_ column: inout [Element], count: Int, zero: Element,
                                        _ body: (UnsafeMutableBufferPointer<Element>) throws -> Void) rethrows {
        column.removeAll(keepingCapacity: true)
        column.append(contentsOf: repeatElement(zero, count: count))
        try column.withUnsafeMutableBufferPointer { try body($0) }
    }

    /// Whether a detail section holds the device address column, which format version 5 added
    /// at its end.
    package enum DeviceAddressColumn: Sendable {
        /// Never (chunk files of versions 2 to 4): more bytes are damage.
        case absent
        /// Always (chunk files of version 5 on).
        case present
        /// When bytes remain after the occurrence numbers (write-ahead log records, which carry no
        /// version: those written before version 5 end there).
        case trailing
    }

    /// Writes one metadata set: its count of pairs, then each key and value, keys ascending.
    static func writeMetadataSet(_ set: [String: String], into writer: inout BinaryWriter) {
        writer.writeVarint(UInt64(set.count))
        for key in set.keys.sorted() {
            writer.write(key)
            writer.write(set[key] ?? "")
        }
    }

    /// Reads what ``writeMetadataSet(_:into:)`` wrote.
    static func readMetadataSet(_ reader: inout BinaryReader) throws -> [String: String] {
        let pairs = try reader.readCount(minimumItemSize: 2)
        var set = [String: String](minimumCapacity: pairs)
        for _ in 0..<pairs { set[try reader.readString()] = try reader.readString() }
        return set
    }

    /// Reads the metadata sets numbered `numbers` (ascending; `nil` for all) into an array of
    /// `setCount` sets, the others left empty: how a chunk file of version 7 on provides the sets
    /// it keeps apart from its detail section.
    package typealias MetadataSetsApart = (_ numbers: [Int]?, _ setCount: Int) throws -> [[String: String]]

    /// Decodes the detail columns of `columns` (whose query columns are already decoded).
    ///
    /// - Parameters:
    ///   - metadataRows: When given, only the metadata dictionaries these rows refer to are made
    ///     (the others are stepped over and left empty): for a reader that keeps these rows alone,
    ///     so that the strings of the rest are never built.
    ///   - metadataSetsApart: The sets, when the section counts them but does not hold them.
    package static func decodeDetailColumns(_ reader: inout BinaryReader, into columns: inout SampleColumns,
                                            deviceAddresses: DeviceAddressColumn = .trailing,
                                            metadataRows: [Int]? = nil,
                                            metadataSetsApart: MetadataSetsApart? = nil) throws {
        let count = columns.count
        let explicitCount = try reader.readCount(minimumItemSize: 17)
        columns.explicitUUIDs = []
        if explicitCount > 0 {
            columns.explicitUUIDs = [UUID?](repeating: nil, count: count)
            var row = 0
            for _ in 0..<explicitCount {
                // Rows are stored as gaps from the previous one; a gap past the last row is damage
                // (and adding it unchecked could overflow).
                let gap = try reader.readVarint()
                guard gap < UInt64(count - row) else { throw reader.corrupt("UUID row out of range") }
                row += Int(gap)
                columns.explicitUUIDs[row] = UUID(high: try reader.read(UInt64.self), low: try reader.read(UInt64.self))
            }
        }
        columns.creation = []
        if try reader.readBool() {
            let marker = try reader.read(Int64.self)
            var offsets = [Int64](repeating: 0, count: count)
            try offsets.withUnsafeMutableBufferPointer { try BitPacking.decode(from: &reader, into: $0) }
            columns.creation = (0..<count).map { offsets[$0] == marker ? SampleColumns.absent : columns.end[$0] &+ offsets[$0] }
        }
        // Sets kept apart are not bounded by this section's bytes; their holder checks the count.
        let setCount = metadataSetsApart == nil ? try reader.readCount() : Int(clamping: try reader.readVarint())
        columns.metadataSets = []
        columns.metadataIndex = []
        if setCount > 0 {
            // Where each set's pairs begin, when only some sets are made, once the index says which.
            var setStarts: [Int] = []
            for _ in 0..<(metadataSetsApart == nil ? setCount : 0) {
                if metadataRows == nil {
                    columns.metadataSets.append(try readMetadataSet(&reader))
                } else {
                    setStarts.append(reader.offset)
                    for _ in 0..<2 * (try reader.readCount(minimumItemSize: 2)) { try reader.skipBlock() }
                }
            }
            var indexes = [Int64](repeating: 0, count: count)
            try indexes.withUnsafeMutableBufferPointer { try BitPacking.decode(from: &reader, into: $0) }
            columns.metadataIndex = try indexes.map {
                guard $0 >= 0, $0 <= Int64(setCount) else { throw reader.corrupt("metadata index out of range") }
                return Int32($0)
            }
            if let metadataSetsApart {
                let index = columns.metadataIndex
                let numbers = metadataRows.map { rows in
                    Set(rows.lazy.filter { $0 >= 0 && $0 < count && index[$0] > 0 }.map { Int(index[$0]) - 1 }).sorted()
                }
                columns.metadataSets = try metadataSetsApart(numbers, setCount)
                guard columns.metadataSets.count == setCount else { throw reader.corrupt("the metadata sets are not as many as counted") }
            } else if let metadataRows {
                columns.metadataSets = [[String: String]](repeating: [:], count: setCount)
                for row in metadataRows where row >= 0 && row < count && columns.metadataIndex[row] > 0 {
                    let set = Int(columns.metadataIndex[row]) - 1
                    guard columns.metadataSets[set].isEmpty else { continue }
                    var pairs = BinaryReader(reader, range: setStarts[set]..<reader.offset)
                    columns.metadataSets[set] = try readMetadataSet(&pairs)
                }
            }
        }
        let repeatedCount = try reader.readCount(minimumItemSize: 2)
        columns.occurrence = []
        if repeatedCount > 0 {
            columns.occurrence = [UInt32](repeating: 0, count: count)
            var row = 0
            for index in 0..<repeatedCount {
                let gap = try reader.readVarint()
                // Rows are strictly increasing after the first; a gap past the last row is damage.
                guard gap < UInt64(count - row), index == 0 || gap > 0 else { throw reader.corrupt("occurrence row out of range") }
                row += Int(gap)
                guard let occurrence = UInt32(exactly: try reader.readVarint()), occurrence > 0 else {
                    throw reader.corrupt("occurrence number out of range")
                }
                columns.occurrence[row] = occurrence
            }
        }
        columns.deviceAddress = []
        if deviceAddresses == .present || (deviceAddresses == .trailing && !reader.isAtEnd) {
            try decodeDeviceAddresses(&reader, into: &columns)
        }
    }

    /// Reads the column ``encodeDeviceAddresses(_:into:)`` wrote.
    private static func decodeDeviceAddresses(_ reader: inout BinaryReader, into columns: inout SampleColumns) throws {
        guard try reader.readBool() else { return }
        let smallest = try reader.read(UInt64.self)
        let shift = try reader.read(UInt8.self)
        guard shift < 64 else { throw reader.corrupt("device address shift \(shift) out of range") }
        var stored = [Int64](repeating: 0, count: columns.count)
        try stored.withUnsafeMutableBufferPointer { try BitPacking.decode(from: &reader, into: $0) }
        columns.deviceAddress = stored.map {
            $0 == 0 ? 0 : smallest &+ (UInt64(bitPattern: $0) &- 1) << UInt64(shift)
        }
    }
}
