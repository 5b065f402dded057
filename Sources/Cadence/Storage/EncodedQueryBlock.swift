//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// One block of an encoded query section (see ``ColumnCodec``), its columns located but not yet
/// unpacked: each `decode…` method unpacks one column of the block into the block's rows of a
/// whole column, in one loop that also does the column's own step (running sums, scales, checks).
///
/// Reading a block touches only its headers; a column the reader does not need is never unpacked.
struct EncodedQueryBlock {
    /// Where the block's rows go in the decoded columns.
    let rows: Range<Int>
    private let scale: Int64
    private let firstStart: Int64
    private let startSteps: PackedColumn
    private let durations: PackedColumn
    /// The reader at the durations, to name the place of damage found while decoding them.
    private let durationsReader: BinaryReader
    private let values: EncodedValues
    private let provenances: PackedColumn
    private let provenancesReader: BinaryReader
    private let firstSequence: Int64
    private let sequenceSteps: PackedColumn
    /// The flags, when some row of the block has one.
    let flags: PackedColumn?

    /// How the block's values are stored.
    private enum EncodedValues {
        /// Decimals with `power` = 10^digits: a first scaled integer and the differences.
        case decimal(power: Double, first: Int64, steps: PackedColumn)
        /// Raw bits XOR-ed with the previous value, in eight byte planes.
        case planes(ArraySlice<UInt8>)
    }

    /// Locates the columns of a block of `rows.count` rows.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` for an invalid scale, width or value encoding, or
    ///   data too short.
    init(_ reader: inout BinaryReader, rows: Range<Int>) throws {
        self.rows = rows
        let count = rows.count
        guard let scale = Int64(exactly: try reader.readVarint()), ColumnCodec.timeScales.contains(scale) else {
            throw reader.corrupt("invalid time scale")
        }
        self.scale = scale
        firstStart = try reader.read(Int64.self)
        startSteps = try PackedColumn(from: &reader, count: count)
        durationsReader = reader
        durations = try PackedColumn(from: &reader, count: count)
        let digits = try reader.read(UInt8.self)
        if digits == 0xFF {
            values = .planes(try reader.readBytes(count * 8))
        } else {
            guard Int(digits) < ColumnCodec.decimalPowers.count else { throw reader.corrupt("invalid value encoding") }
            let first = try reader.read(Int64.self)
            values = .decimal(power: ColumnCodec.decimalPowers[Int(digits)], first: first,
                              steps: try PackedColumn(from: &reader, count: count))
        }
        provenancesReader = reader
        provenances = try PackedColumn(from: &reader, count: count)
        firstSequence = try reader.read(Int64.self)
        sequenceSteps = try PackedColumn(from: &reader, count: count)
        flags = try reader.readBool() ? try PackedColumn(from: &reader, count: count) : nil
    }

    /// Writes the block's start times.
    func decodeStarts(into starts: UnsafeMutableBufferPointer<Int64>) {
        guard !rows.isEmpty else { return }
        let first = rows.lowerBound
        // The first row is the first start whatever its stored difference.
        var running = firstStart &- startSteps.value(at: 0) &* scale
        startSteps.forEach { row, step in
            running &+= step &* scale
            starts[first &+ row] = running
        }
    }

    /// Writes the block's end times from its (already decoded) start times.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` when a sample would end before it starts or
    ///   after the end of time (damage that would trap wherever `end - start` is computed).
    func decodeEnds(starts: UnsafeBufferPointer<Int64>, into ends: UnsafeMutableBufferPointer<Int64>) throws {
        let first = rows.lowerBound
        var damaged = false
        if durations.width == 0 {
            // One length for the whole block (instantaneous or regular samples): checked once.
            let (length, lengthOverflows) = durations.minimum.multipliedReportingOverflow(by: scale)
            damaged = lengthOverflows || length < 0
            if !damaged && length == 0 {
                // Both slices hold the block's rows, so every start is copied; the index returned adds nothing.
                _ = UnsafeMutableBufferPointer(rebasing: ends[rows]).update(fromContentsOf: UnsafeBufferPointer(rebasing: starts[rows]))
                return
            }
            for row in rows where !damaged {
                let (end, endOverflows) = starts[row].addingReportingOverflow(length)
                damaged = endOverflows
                ends[row] = end
            }
        } else {
            durations.forEach { row, duration in
                let (length, lengthOverflows) = duration.multipliedReportingOverflow(by: scale)
                let (end, endOverflows) = starts[first &+ row].addingReportingOverflow(length)
                damaged = damaged || lengthOverflows || endOverflows || length < 0
                ends[first &+ row] = end
            }
        }
        if damaged { throw durationsReader.corrupt("a sample ends before it starts or after the end of time") }
    }

    /// Writes the block's values.
    func decodeValues(into output: UnsafeMutableBufferPointer<Double>) {
        let first = rows.lowerBound
        switch values {
        case .planes(let planes):
            let count = rows.count
            planes.withUnsafeBytes { planes in
                var previous: UInt64 = 0
                for row in 0..<count {
                    var bits: UInt64 = 0
                    for plane in 0..<8 { bits |= UInt64(planes[plane &* count &+ row]) << (UInt64(plane) &* 8) }
                    previous ^= bits
                    output[first &+ row] = Double(bitPattern: previous)
                }
            }
        case .decimal(let power, let firstInteger, let steps):
            guard !rows.isEmpty else { return }
            // The first row is the first integer whatever its stored difference.
            var running = firstInteger &- steps.value(at: 0)
            if power == 1 {
                steps.forEach { row, step in
                    running &+= step
                    output[first &+ row] = Double(running)
                }
            } else {
                steps.forEach { row, step in
                    running &+= step
                    output[first &+ row] = Double(running) / power
                }
            }
        }
    }

    /// Writes the block's provenance numbers.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` for a number that is not a `UInt32`.
    func decodeProvenances(into output: UnsafeMutableBufferPointer<UInt32>) throws {
        let first = rows.lowerBound
        if provenances.width == 0 {
            // One source for the whole block, the common case: checked once.
            guard let provenance = UInt32(exactly: provenances.minimum) else {
                throw provenancesReader.corrupt("provenance out of range")
            }
            UnsafeMutableBufferPointer(rebasing: output[rows]).update(repeating: provenance)
            return
        }
        var outOfRange = false
        provenances.forEach { row, provenance in
            outOfRange = outOfRange || UInt32(exactly: provenance) == nil
            output[first &+ row] = UInt32(truncatingIfNeeded: provenance)
        }
        if outOfRange { throw provenancesReader.corrupt("provenance out of range") }
    }

    /// Writes the block's change sequence numbers.
    func decodeSequences(into output: UnsafeMutableBufferPointer<Int64>) {
        guard !rows.isEmpty else { return }
        let first = rows.lowerBound
        // The first row is the first sequence whatever its stored difference.
        var running = firstSequence &- sequenceSteps.value(at: 0)
        sequenceSteps.forEach { row, step in
            running &+= step
            output[first &+ row] = running
        }
    }

    /// Writes the block's flags (zero when it has none).
    func decodeFlags(into output: UnsafeMutableBufferPointer<UInt8>) {
        guard let flags else {
            UnsafeMutableBufferPointer(rebasing: output[rows]).update(repeating: 0)
            return
        }
        let first = rows.lowerBound
        flags.forEach { row, flag in output[first &+ row] = UInt8(truncatingIfNeeded: flag) }
    }
}
