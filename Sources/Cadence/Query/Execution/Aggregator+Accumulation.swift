//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The per-portion kernel: each portion of a scan becomes partial interval accumulators.
extension Aggregator {
    /// What one portion contributes: accumulators for the intervals it touches, from `first` on.
    struct Partial {
        var first = 0
        var merged: [StatisticsAccumulator] = []
        var perSource: [Int: [StatisticsAccumulator]] = [:]
        /// Which merge ranks the selected samples have (merging is needed only for two or more).
        var ranksSeen: [Bool] = []
        /// The selected rows, for the time sweep (only gathered when it may be needed).
        var sweepColumns = SweepColumns()
        /// Which sources contributed.
        var sourcesSeen: [Bool] = []
    }

    /// Accumulates one portion: blocks answered by their summaries are added whole, decoded blocks
    /// row by row; with `gatherRows`, the portion's selected rows are also kept for the sweep.
    func accumulate(_ portion: ScanPortion, selection: RowSelection, separate: Bool, gatherRows: Bool) -> Partial {
        var partial = Partial()
        partial.ranksSeen = [Bool](repeating: false, count: ranking.rankCount)
        partial.sourcesSeen = [Bool](repeating: false, count: ranking.sources.count)
        let intervals = IntervalLookup(edges: edges)
        guard let range = intervals.range(of: portion.summary) else { return partial }
        partial.first = range.lowerBound
        partial.merged = [StatisticsAccumulator](repeating: StatisticsAccumulator(), count: range.count)
        portion.summaries.withUnsafeBufferPointer { summaries in
            // Blocks come in order of start: the interval of a summary is found from the previous one's.
            var position = range.lowerBound
            /// Adds a run the scan answered by its summary (which lies inside one interval).
            func add(_ summary: SampleSummary) {
                guard let interval = intervals.containing(summary, from: &position) else { return }
                partial.merged[interval - partial.first].add(summary)
                if separate, let source = ranking.singleSource(summary) {
                    partial.perSource[source, default: [StatisticsAccumulator](repeating: StatisticsAccumulator(), count: range.count)][interval - partial.first].add(summary)
                }
                ranking.markRanks(of: summary, in: &partial.ranksSeen)
                ranking.markSources(summary, in: &partial.sourcesSeen)
            }
            for block in portion.blocks {
                // One copy of the summary a block (each read of the buffer copies and retains it).
                let summary = summaries[block.index]
                if block.isAnsweredBySummary {
                    add(summary)
                } else if let hours = block.hourSummaries {
                    for hour in hours { add(hour) }
                } else if let rows = block.rows {
                    // A wholly selected block of one provenance, none entered by a person: its
                    // summary names the one source and rank of every row, so rows are not asked.
                    let oneProvenance = block.isWhollySelected && summary.provenances.count == 1
                        && summary.userEnteredCount == 0
                    if oneProvenance {
                        ranking.markRanks(of: summary, in: &partial.ranksSeen)
                        ranking.markSources(summary, in: &partial.sourcesSeen)
                    }
                    accumulateRows(portion.columns, rows: rows, selection: selection, selectAll: block.isWhollySelected,
                                   separate: separate, sortedByStart: portion.isSortedByStart, notesSources: !oneProvenance,
                                   into: &partial)
                }
            }
        }
        if gatherRows {
            partial.sweepColumns = SweepColumns(gathering: portion, selection: selection, ranking: ranking, keepsSources: separate)
        }
        return partial
    }

    /// Accumulates decoded rows into the partial's intervals.
    ///
    /// - Parameters:
    ///   - selectAll: Every row is known to be selected (its block summary said so), so the per-row
    ///     selection is skipped.
    ///   - notesSources: Whether each row's source and merge rank are marked as seen (the caller
    ///     marked them from the block's summary when it has one provenance).
    func accumulateRows(_ columns: SampleColumns, rows: Range<Int>, selection: RowSelection, selectAll: Bool,
                        separate: Bool, sortedByStart: Bool = true, notesSources: Bool = true,
                        into partial: inout Partial) {
        guard !rows.isEmpty else { return }
        var selected = [Bool]()
        if !selectAll {
            selected = [Bool](repeating: false, count: rows.count)
            for row in rows { selected[row - rows.lowerBound] = selection.selects(columns, row) }
        }
        let hasFlags = !columns.flags.isEmpty
        var ranksSeen = partial.ranksSeen
        var sourcesSeen = partial.sourcesSeen
        var perSource = partial.perSource
        let first = partial.first
        let style = type.aggregationStyle
        let intervalCount = edges.count - 1
        let sourceOfProvenance = ranking.sourceOfProvenance
        let rankOfProvenance = ranking.rankOfProvenance
        let emptyIntervals = separate ? [StatisticsAccumulator](repeating: StatisticsAccumulator(), count: partial.merged.count) : []
        edges.withUnsafeBufferPointer { edges in
        columns.start.withUnsafeBufferPointer { starts in
        columns.end.withUnsafeBufferPointer { ends in
        columns.value.withUnsafeBufferPointer { values in
        columns.sequence.withUnsafeBufferPointer { sequences in
        columns.provenance.withUnsafeBufferPointer { provenances in
        partial.merged.withUnsafeMutableBufferPointer { merged in
            // The interval of the previous row: rows are sorted by start, so the next row's
            // interval is usually the same and the binary search is skipped.
            var interval = -1
            var intervalStart = Int64.max
            var intervalEnd = Int64.min
            var lastRankIndex = -1

            @inline(__always) func noteRank(_ row: Int, _ provenance: Int) {
                guard notesSources else { return }
                // Compared as a whole (source and user-entered flag): runs of one source's rows,
                // flagged or not, then write the captured arrays once, not once a row.
                let rankIndex = provenance &* 2 &+ (hasFlags && columns.flags[row] & SampleFlags.userEntered != 0 ? 1 : 0)
                guard rankIndex != lastRankIndex else { return }
                lastRankIndex = rankIndex
                if rankIndex < rankOfProvenance.count { ranksSeen[Int(rankOfProvenance[rankIndex])] = true }
                if provenance < sourceOfProvenance.count { sourcesSeen[Int(sourceOfProvenance[provenance])] = true }
            }

            @inline(__always) func locate(_ start: Int64) {
                if start >= intervalStart && start < intervalEnd { return }
                if interval >= 0 && start >= intervalEnd && interval &+ 2 <= intervalCount && start < edges[interval &+ 2] {
                    // Sorted rows move on to the next interval most often: no search.
                    interval &+= 1
                } else {
                    // Binary search over the integer edges: no calendar work per sample.
                    interval = edges.partitionPoint { $0 > start } &- 1
                }
                intervalStart = interval >= 0 ? edges[interval] : Int64.min
                intervalEnd = interval < intervalCount ? edges[interval &+ 1] : Int64.max
            }

            /// The general path: any sample, spread over every interval it overlaps.
            func accumulateRow(_ row: Int) {
                let start = starts[row]
                let end = ends[row]
                let value = values[row]
                let sequence = sequences[row]
                let provenance = Int(provenances[row])
                noteRank(row, provenance)
                let energy = style == .discreteEquivalentContinuousLevel ? SampleSummary.energy(value, style: style) : value
                locate(start)
                if start == end {
                    guard interval >= 0 && interval < intervalCount else { return }
                    merged[interval &- first].add(start: start, end: end, value: value, energy: energy,
                                                  sequence: sequence, overlap: 0)
                    if separate {
                        let source = provenance < sourceOfProvenance.count ? Int(sourceOfProvenance[provenance]) : 0
                        perSource[source, default: emptyIntervals][interval &- first]
                            .add(start: start, end: end, value: value, energy: energy, sequence: sequence, overlap: 0)
                    }
                    return
                }
                var current = max(interval, 0)
                while current < intervalCount && edges[current] < end {
                    let overlap = min(end, edges[current &+ 1]) &- max(start, edges[current])
                    if overlap > 0 {
                        merged[current &- first].add(start: start, end: end, value: value, energy: energy,
                                                     sequence: sequence, overlap: overlap)
                        if separate {
                            let source = provenance < sourceOfProvenance.count ? Int(sourceOfProvenance[provenance]) : 0
                            perSource[source, default: emptyIntervals][current &- first]
                                .add(start: start, end: end, value: value, energy: energy, sequence: sequence, overlap: overlap)
                        }
                    }
                    current &+= 1
                }
            }

            guard selectAll && !separate && sortedByStart else {
                for row in rows where selectAll || selected[row &- rows.lowerBound] { accumulateRow(row) }
                return
            }
            // Sorted, fully selected rows: take them interval by interval. When every row starting
            // in the interval also ends in it (the common case), they become one accumulator
            // column by column; otherwise rows that lie wholly inside add to a local accumulator
            // (no proration, no search) and rows crossing its end take the general path.
            var row = rows.lowerBound
            while row < rows.upperBound {
                locate(starts[row])
                guard interval >= 0 && interval < intervalCount else {
                    accumulateRow(row)
                    row &+= 1
                    continue
                }
                let low = starts.partitionPoint(in: row &+ 1..<rows.upperBound) { $0 >= intervalEnd }
                var latestEnd = Int64.min
                var lengths: Int64 = 0
                for inside in row..<low {
                    latestEnd = max(latestEnd, ends[inside])
                    lengths |= ends[inside] &- starts[inside]
                }
                if notesSources {
                    for inside in row..<low { noteRank(inside, Int(provenances[inside])) }
                }
                if latestEnd <= intervalEnd {
                    merged[interval &- first].merge(StatisticsAccumulator(
                        sortedContainedRows: row..<low, starts: starts, ends: ends, values: values, sequences: sequences,
                        latestEnd: latestEnd, hasLength: lengths != 0, style: style))
                    row = low
                    continue
                }
                var local = StatisticsAccumulator()
                for inside in row..<low {
                    let end = ends[inside]
                    if end > intervalEnd {
                        accumulateRow(inside)
                        continue
                    }
                    noteRank(inside, Int(provenances[inside]))
                    let value = values[inside]
                    local.addContained(start: starts[inside], end: end, value: value,
                                       energy: style == .discreteEquivalentContinuousLevel ? SampleSummary.energy(value, style: style) : value,
                                       sequence: sequences[inside])
                }
                merged[interval &- first].merge(local)
                row = low
            }
        }
        }
        }
        }
        }
        }
        }
        partial.ranksSeen = ranksSeen
        partial.sourcesSeen = sourcesSeen
        partial.perSource = perSource
    }
}
