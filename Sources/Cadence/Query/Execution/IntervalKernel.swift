//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// The per-sample kernel of a collection: adds the decoded rows of one portion of a scan, block
/// after block, to the partial accumulators of the intervals they overlap
/// (<doc:HowCadenceComputes#Intervals-and-contributions>).
///
/// One kernel serves a whole portion. It owns what its blocks reuse: the buffer of the rows a
/// block selects, the interval the last row started in (carried from block to block, so rows
/// sorted by start find their interval by stepping forward, not by a search per block), and the
/// sources and merge ranks seen so far. Two paths:
/// - ``addSortedRuns(_:rows:into:)``: sorted, wholly selected rows taken interval by interval;
///   the end of each interval's run is found once, and a run whose rows all end inside the
///   interval becomes one accumulator column by column
///   (``StatisticsAccumulator/init(sortedContainedRows:starts:ends:values:sequences:latestEnd:hasLength:style:)``).
/// - ``addRow(_:_:into:)``: any row, prorated over every interval it overlaps.
struct IntervalKernel {
    /// Interval `j` is `[edges[j], edges[j + 1])`.
    private let edges: [Int64]
    private let style: AggregationStyle
    /// Whether per-source accumulators are kept.
    private let separate: Bool
    private let sourceOfProvenance: [Int32]
    private let rankOfProvenance: [Int32]
    /// The first interval the portion touches: `merged[0]` is its accumulator.
    let first: Int
    /// The accumulators of the portion's intervals, from ``first`` on.
    private(set) var merged: [StatisticsAccumulator]
    /// Per source, the same (only when sources are kept apart).
    private(set) var perSource: [Int: [StatisticsAccumulator]] = [:]
    /// A source's accumulators before its first row (empty unless sources are kept apart).
    private let emptyIntervals: [StatisticsAccumulator]
    /// Which merge ranks and which sources the added rows have.
    var ranksSeen: [Bool]
    var sourcesSeen: [Bool]
    /// Reused by every block: which of its rows are selected.
    private var selected: [Bool] = []
    /// The interval the last located row started in (-1 before the first edge, the interval
    /// count after the last), and its bounds (an empty range before any row).
    private var interval = -1
    private var intervalStart = Int64.max
    private var intervalEnd = Int64.min
    /// The provenance and user-entered flag of the last row whose source was noted (runs of one
    /// source write the seen arrays once, not once a row).
    private var lastRankIndex = -1

    /// A kernel for the intervals `range` of `edges`.
    init(edges: [Int64], range: ClosedRange<Int>, style: AggregationStyle, separate: Bool, ranking: SourceRanking) {
        self.edges = edges
        self.style = style
        self.separate = separate
        sourceOfProvenance = ranking.sourceOfProvenance
        rankOfProvenance = ranking.rankOfProvenance
        first = range.lowerBound
        merged = [StatisticsAccumulator](repeating: StatisticsAccumulator(), count: range.count)
        emptyIntervals = separate ? merged : []
        ranksSeen = [Bool](repeating: false, count: ranking.rankCount)
        sourcesSeen = [Bool](repeating: false, count: ranking.sources.count)
    }

    /// The number of intervals among the edges.
    private var intervalCount: Int { edges.count - 1 }

    /// Adds the accumulator of a run lying inside interval `index` (a summary's, or a merged partial).
    mutating func add(_ statistics: StatisticsAccumulator, toInterval index: Int, source: Int?) {
        merged[index &- first].merge(statistics)
        if separate, let source {
            perSource[source, default: emptyIntervals][index &- first].merge(statistics)
        }
    }

    /// Adds decoded rows to the intervals they overlap.
    ///
    /// - Parameters:
    ///   - selection: Which rows are selected; `nil` when every row is known to be (its block's
    ///     summary said so), so the per-row test is skipped.
    ///   - sortedByStart: The rows are sorted by start (a chunk's are).
    ///   - notesSources: Whether each row's source and merge rank are marked as seen (the caller
    ///     marked them from the block's summary when it has one provenance).
    /// - Complexity: O(*n* + *k*) for *n* rows overlapping *k* intervals, plus O(log *r*) for each
    ///   interval's run of *r* rows.
    mutating func add(_ columns: SampleColumns, rows: Range<Int>, selection: RowSelection?, sortedByStart: Bool,
                      notesSources: Bool) {
        guard !rows.isEmpty else { return }
        if let selection {
            selected.removeAll(keepingCapacity: true)
            for row in rows { selected.append(selection.selects(columns, row)) }
        }
        // The accumulators are taken out while the rows are added through buffers (no reference
        // counting or uniqueness checks per row), and put back after.
        var accumulators: [StatisticsAccumulator] = []
        swap(&accumulators, &merged)
        defer { swap(&accumulators, &merged) }
        let selected = selection == nil ? nil : selected
        accumulators.withUnsafeMutableBufferPointer { accumulators in
            RowBuffers.with(columns, edges: edges, notesSources: notesSources) { buffers in
                if let selected {
                    for row in rows where selected[row &- rows.lowerBound] { addRow(row, buffers, into: accumulators) }
                } else if separate || !sortedByStart {
                    for row in rows { addRow(row, buffers, into: accumulators) }
                } else {
                    addSortedRuns(buffers, rows: rows, into: accumulators)
                }
            }
        }
    }

    /// Moves the interval to the one containing `start`: the same or the next one for rows
    /// sorted by start (no search), a binary search over the integer edges otherwise.
    @inline(__always)
    private mutating func locate(_ start: Int64, _ edges: UnsafeBufferPointer<Int64>) {
        if start >= intervalStart && start < intervalEnd { return }
        if interval >= 0 && start >= intervalEnd && interval &+ 2 <= intervalCount && start < edges[interval &+ 2] {
            interval &+= 1
        } else {
            interval = edges.partitionPoint { $0 > start } &- 1
        }
        intervalStart = interval >= 0 ? edges[interval] : Int64.min
        intervalEnd = interval < intervalCount ? edges[interval &+ 1] : Int64.max
    }

    /// Marks a row's source and merge rank as seen (when the buffers note sources).
    @inline(__always)
    private mutating func noteSource(_ row: Int, _ buffers: RowBuffers) {
        guard buffers.notesSources else { return }
        let provenance = Int(buffers.provenances[row])
        let userEntered = !buffers.flags.isEmpty && buffers.flags[row] & SampleFlags.userEntered != 0
        let rankIndex = provenance &* 2 &+ (userEntered ? 1 : 0)
        guard rankIndex != lastRankIndex else { return }
        lastRankIndex = rankIndex
        if rankIndex < rankOfProvenance.count { ranksSeen[Int(rankOfProvenance[rankIndex])] = true }
        if provenance < sourceOfProvenance.count { sourcesSeen[Int(sourceOfProvenance[provenance])] = true }
    }

    /// The general path: one row, spread over every interval it overlaps (a zero-length row
    /// goes whole to the interval it lies in).
    private mutating func addRow(_ row: Int, _ buffers: RowBuffers, into merged: UnsafeMutableBufferPointer<StatisticsAccumulator>) {
        let edges = buffers.edges
        let start = buffers.starts[row]
        let end = buffers.ends[row]
        let value = buffers.values[row]
        let sequence = buffers.sequence(row)
        noteSource(row, buffers)
        let energy = StatisticsAccumulator.energy(value, style: style)
        let source = separate ? sourceOf(Int(buffers.provenances[row])) : 0
        locate(start, edges)
        if start == end {
            guard interval >= 0 && interval < intervalCount else { return }
            merged[interval &- first].add(start: start, end: end, value: value, energy: energy, sequence: sequence, overlap: 0)
            if separate {
                perSource[source, default: emptyIntervals][interval &- first]
                    .add(start: start, end: end, value: value, energy: energy, sequence: sequence, overlap: 0)
            }
            return
        }
        var current = max(interval, 0)
        while current < intervalCount && edges[current] < end {
            let overlap = min(end, edges[current &+ 1]) &- max(start, edges[current])
            if overlap > 0 {
                merged[current &- first].add(start: start, end: end, value: value, energy: energy, sequence: sequence,
                                             overlap: overlap)
                if separate {
                    perSource[source, default: emptyIntervals][current &- first]
                        .add(start: start, end: end, value: value, energy: energy, sequence: sequence, overlap: overlap)
                }
            }
            current &+= 1
        }
    }

    /// The dense source number of a provenance (0 for one the ranking does not know).
    @inline(__always)
    private func sourceOf(_ provenance: Int) -> Int {
        provenance < sourceOfProvenance.count ? Int(sourceOfProvenance[provenance]) : 0
    }

    /// The contained-run path: sorted, wholly selected rows (sources merged), interval by
    /// interval. When every row starting in the interval also ends in it (the common case), they
    /// become one accumulator column by column; otherwise rows that lie wholly inside add to a
    /// local accumulator (no proration, no search) and rows crossing its end take the general path.
    private mutating func addSortedRuns(_ buffers: RowBuffers, rows: Range<Int>,
                                        into merged: UnsafeMutableBufferPointer<StatisticsAccumulator>) {
        let starts = buffers.starts
        let ends = buffers.ends
        var row = rows.lowerBound
        while row < rows.upperBound {
            locate(starts[row], buffers.edges)
            guard interval >= 0 && interval < intervalCount else {
                addRow(row, buffers, into: merged)
                row &+= 1
                continue
            }
            // The run's end, found once for the interval.
            let low = Self.firstStart(atOrAfter: intervalEnd, in: starts, from: row &+ 1, to: rows.upperBound)
            if buffers.notesSources {
                for inside in row..<low { noteSource(inside, buffers) }
            }
            let run = row..<low
            let (latestEnd, hasLength) = Self.latestEnd(of: run, starts: starts, ends: ends)
            if latestEnd <= intervalEnd {
                merged[interval &- first].merge(StatisticsAccumulator(
                    sortedContainedRows: run, starts: starts, ends: ends, values: buffers.values,
                    sequences: buffers.sequences, latestEnd: latestEnd, hasLength: hasLength, style: style))
                row = low
                continue
            }
            var local = StatisticsAccumulator()
            for inside in run {
                let end = ends[inside]
                if end > intervalEnd {
                    addRow(inside, buffers, into: merged)
                    continue
                }
                let value = buffers.values[inside]
                local.addContained(start: starts[inside], end: end, value: value,
                                   energy: StatisticsAccumulator.energy(value, style: style), sequence: buffers.sequence(inside))
            }
            merged[interval &- first].merge(local)
            row = low
        }
    }

    /// The first row in `lower..<upper` starting at or after `time` (`upper` if none), rows
    /// sorted by start: galloping from `lower`, so a short run costs a few steps whatever the
    /// block's length.
    ///
    /// - Complexity: O(log *r*) for a run of *r* rows.
    @inline(__always)
    static func firstStart(atOrAfter time: Int64, in starts: UnsafeBufferPointer<Int64>, from lower: Int, to upper: Int) -> Int {
        var low = lower
        var step = 8
        // Double the step until a start at or after `time` is passed, then search the last step.
        while low &+ step < upper && starts[low &+ step] < time {
            low &+= step
            step &<<= 1
        }
        return starts.partitionPoint(in: low..<min(low &+ step, upper)) { $0 >= time }
    }

    /// The latest end of a non-empty run of rows sorted by start, and whether any row has a
    /// length: when none has (one comparison of memory), the latest end is the last start.
    @inline(__always)
    static func latestEnd(of rows: Range<Int>, starts: UnsafeBufferPointer<Int64>, ends: UnsafeBufferPointer<Int64>)
        -> (latestEnd: Int64, hasLength: Bool) {
        if let startBase = starts.baseAddress, let endBase = ends.baseAddress,
           memcmp(startBase + rows.lowerBound, endBase + rows.lowerBound, rows.count &* MemoryLayout<Int64>.stride) == 0 {
            return (starts[rows.upperBound &- 1], false)
        }
        var latest = Int64.min
        var lengths: Int64 = 0
        for row in rows {
            latest = max(latest, ends[row])
            lengths |= ends[row] &- starts[row]
        }
        return (latest, lengths != 0)
    }
}

/// The columns a kernel reads, as buffers: no bounds checks or reference counting per row.
/// Valid only inside ``with(_:notesSources:_:)``.
struct RowBuffers {
    let edges: UnsafeBufferPointer<Int64>
    let starts: UnsafeBufferPointer<Int64>
    let ends: UnsafeBufferPointer<Int64>
    let values: UnsafeBufferPointer<Double>
    /// Empty when the scan did not read them (``ColumnCodec/QueryColumnNeeds``): every row's is then 0.
    let sequences: UnsafeBufferPointer<Int64>
    let provenances: UnsafeBufferPointer<UInt32>
    /// Empty when no row has a flag.
    let flags: UnsafeBufferPointer<UInt8>
    /// Whether each row's source and merge rank are noted.
    let notesSources: Bool

    /// A row's change sequence number.
    @inline(__always)
    func sequence(_ row: Int) -> Int64 { sequences.isEmpty ? 0 : sequences[row] }

    /// Calls `body` with the buffers of `columns`.
    static func with<R>(_ columns: SampleColumns, edges: [Int64], notesSources: Bool, _ body: (RowBuffers) -> R) -> R {
        edges.withUnsafeBufferPointer { edges in
        columns.start.withUnsafeBufferPointer { starts in
        columns.end.withUnsafeBufferPointer { ends in
        columns.value.withUnsafeBufferPointer { values in
        columns.sequence.withUnsafeBufferPointer { sequences in
        columns.provenance.withUnsafeBufferPointer { provenances in
        columns.flags.withUnsafeBufferPointer { flags in
            body(RowBuffers(edges: edges, starts: starts, ends: ends, values: values, sequences: sequences,
                            provenances: provenances, flags: flags, notesSources: notesSources))
        }
        }
        }
        }
        }
        }
        }
    }
}
