//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Dispatch
import Foundation

/// The result of aggregating one type over a list of intervals.
package struct AggregationOutput: Sendable {
    /// The intervals' edges: interval `j` is `[edges[j], edges[j + 1])`.
    package var edges: [Int64]
    /// The snapshot's sources, densely numbered.
    package var sources: [Source]
    /// Every source's samples together, per interval.
    package var merged: [IntervalAccumulator]
    /// The source-merged prorated sum per interval, when it differs from `merged[j].sum`.
    package var mergedSum: [Double]?
    /// Seconds covered by the union of contributing samples per interval, when requested.
    package var duration: [Double]?
    /// Per source, per interval (only with `separateBySource`).
    package var perSource: [[IntervalAccumulator]]
    /// Per source, the union's seconds per interval (with `separateBySource` and `duration`).
    package var perSourceDuration: [[Double]]
    /// Which of ``sources`` contributed to any interval.
    package var sourcesSeen: [Bool] = []
}

/// Runs statistics over a snapshot: prunes chunks by their summaries, answers what summaries can
/// answer exactly, decodes the rest, and aggregates in parallel with `concurrentPerform`.
///
/// Two kernels (SPEC §4–§5):
/// - *Per-unit accumulation*: each chunk (or head batch) is a unit of work producing partial
///   ``IntervalAccumulator``s for the intervals it touches; partials merge at the end. Blocks
///   (whole UTC hours of samples, see ``ColumnCodec/blockBoundaries(_:)``) that lie wholly inside one interval and are wholly selected are added from
///   their summaries without decoding. This gives counts, prorated sums without merging, the
///   discrete statistics and most recent.
/// - *Time sweep*: when sources must be merged (a cumulative sum with more than one source rank)
///   or durations are asked for, the selected samples are gathered, sorted by start, and swept
///   over time in parallel partitions of intervals; each slice between sample edges goes to the
///   best-ranked source covering it.
package struct Aggregator {
    package let snapshot: StoreSnapshot
    package let type: QuantityType
    package let predicate: SamplePredicate
    package let options: StatisticsOptions
    package let edges: [Int64]
    package let ranking: SourceRanking
    /// Worker count for `concurrentPerform` (1 forces the serial path, for measuring speed-up).
    package var parallelism = ProcessInfo.processInfo.activeProcessorCount

    package init(snapshot: StoreSnapshot, type: QuantityType, predicate: SamplePredicate, options: StatisticsOptions,
                 edges: [Int64], sourcePriority: [String]?) {
        self.snapshot = snapshot
        self.type = type
        self.predicate = predicate
        self.options = options
        self.edges = edges
        self.ranking = SourceRanking(provenances: snapshot.provenances, priority: sourcePriority ?? snapshot.sourcePriority)
    }

    /// A unit of work: a chunk file, part of one, or a head batch.
    enum Unit {
        /// Part `part` of `parts` of a chunk's blocks, split by rows (`parts` is 1 for the whole chunk).
        case chunk(ChunkHandle, part: Int, parts: Int)
        case head(HeadBatch)

        /// The unit's summary; for part of a chunk, the whole chunk's (a superset).
        var summary: SampleSummary {
            switch self {
            case .chunk(let chunk, _, _): return chunk.summary
            case .head(let batch): return batch.summary
            }
        }
    }

    /// Work units per worker below which chunks are split into parts: with few units, the
    /// workers' shares are uneven (9 chunks on 2 workers take 5 and 4 chunks' time).
    static let unitsPerWorker = 8
    /// The fewest rows in a part of a chunk, as each part decompresses its chunk's query section
    /// again (tests lower it to split small chunks).
    package var minimumPartRows = 16_384

    /// The selection, compiled once per query.
    struct Filter {
        var lower = Int64.min
        var upper = Int64.max
        var dateOptions: SamplePredicate.DateOptions = []
        /// Whether each provenance number is selected (nil: all are).
        var provenanceSelected: [Bool]?
        /// The whole predicate, when it is not a simple date-and-source conjunction.
        var general: SamplePredicate?
        var needsDetails = false
        var hidden: Set<Int64> = []
        /// ``hidden``, sorted, to test a run's sequence range by binary search.
        var hiddenSorted: [Int64] = []
        var pruneEndAtLeast = Int64.min
        var pruneStartBelow = Int64.max
    }

    private func compileFilter(hidden: Set<Int64>) -> Filter {
        var filter = Filter()
        filter.hidden = hidden
        filter.hiddenSorted = hidden.sorted()
        let bounds = predicate.pruningBounds
        filter.pruneEndAtLeast = bounds.endAtLeast
        filter.pruneStartBelow = bounds.startBelow
        if let simple = predicate.simpleForm {
            filter.lower = simple.lower
            filter.upper = simple.upper
            filter.dateOptions = simple.options
            if let names = simple.sources {
                filter.provenanceSelected = snapshot.provenances.map { names.contains($0.source.name) }
            }
        } else {
            filter.general = predicate
            filter.needsDetails = predicate.needsDetails
        }
        return filter
    }

    // MARK: Running

    /// Aggregates the type's samples into the intervals.
    ///
    /// - Complexity: O(*c* + *d* + *m*) for *c* chunks, *d* decoded samples and *m* intervals, plus
    ///   O(*s* log *s*) over the *s* selected samples when sources must be merged or durations
    ///   are requested; divided among the cores.
    package func run() throws -> AggregationOutput {
        let intervalCount = max(edges.count - 1, 0)
        let separate = options.contains(.separateBySource)
        var output = AggregationOutput(
            edges: edges, sources: ranking.sources,
            merged: [IntervalAccumulator](repeating: IntervalAccumulator(), count: intervalCount),
            mergedSum: nil, duration: nil,
            perSource: separate ? [[IntervalAccumulator]](repeating: [IntervalAccumulator](repeating: IntervalAccumulator(), count: intervalCount), count: ranking.sources.count) : [],
            perSourceDuration: [])
        guard intervalCount > 0, let typeSnapshot = snapshot.types[type.identifier] else { return output }
        let filter = compileFilter(hidden: typeSnapshot.hiddenSequences)
        var units = (typeSnapshot.chunks.map { Unit.chunk($0, part: 0, parts: 1) } + typeSnapshot.head.map(Unit.head)).filter { unit in
            let summary = unit.summary
            guard summary.count > 0, summary.maximumEnd >= filter.pruneEndAtLeast,
                  summary.minimumStart < filter.pruneStartBelow,
                  summary.maximumEnd >= edges[0], summary.minimumStart <= edges[intervalCount] else { return false }
            if let selected = filter.provenanceSelected {
                return summary.provenances.contains { Int($0) < selected.count && selected[Int($0)] }
            }
            return true
        }
        .sorted { $0.summary.minimumStart < $1.summary.minimumStart }
        for case .chunk(let chunk, _, _) in units { try chunk.checkPresent() }
        units = split(units, filter: filter)
        // Whether the time sweep will be needed, judged from the summaries (a superset of the
        // selected samples): if so, the per-unit pass gathers the rows it decodes, so nothing
        // is decoded twice.
        var summaryRanks = Set<Int32>()
        for unit in units { summaryRanks.formUnion(ranks(of: unit.summary)) }
        let mayMerge = options.contains(.cumulativeSum) && !type.aggregationStyle.isDiscrete && summaryRanks.count > 1
        let gatherRows = mayMerge || options.contains(.duration)
        let partials = try parallelMap(units) {
            try accumulate($0, filter: filter, separate: separate, gatherRows: gatherRows)
        }
        var ranksSeen = [Bool](repeating: false, count: ranking.rankCount)
        for partial in partials {
            for (offset, accumulator) in partial.merged.enumerated() { output.merged[partial.first + offset].merge(accumulator) }
            for (source, accumulators) in partial.perSource {
                for (offset, accumulator) in accumulators.enumerated() {
                    output.perSource[source][partial.first + offset].merge(accumulator)
                }
            }
            for (rank, seen) in partial.ranksSeen.enumerated() where seen { ranksSeen[rank] = true }
            if output.sourcesSeen.isEmpty { output.sourcesSeen = [Bool](repeating: false, count: ranking.sources.count) }
            for (source, seen) in partial.sourcesSeen.enumerated() where seen { output.sourcesSeen[source] = true }
        }
        let needsMerge = options.contains(.cumulativeSum) && !type.aggregationStyle.isDiscrete
            && ranksSeen.filter { $0 }.count > 1
        if needsMerge || options.contains(.duration) {
            let rows = sortedRows(partials.map(\.sweepRows))
            let sweep = sweepAll(rows, separate: separate)
            if needsMerge { output.mergedSum = sweep.sum }
            if options.contains(.duration) {
                output.duration = sweep.duration
                output.perSourceDuration = sweep.perSourceDuration
            }
        }
        return output
    }

    /// Splits chunks into parts of their blocks when there are too few units to keep every worker
    /// busy; the parts of a chunk stay in order, so gathered rows stay sorted by start.
    private func split(_ units: [Unit], filter: Filter) -> [Unit] {
        let wanted = parallelism * Self.unitsPerWorker
        // Decoding every column (a predicate on details) is not done by blocks, so parts would repeat it.
        guard parallelism > 1, !filter.needsDetails, !units.isEmpty, units.count < wanted else { return units }
        let partsWanted = (wanted + units.count - 1) / units.count
        return units.flatMap { unit -> [Unit] in
            guard case .chunk(let chunk, _, _) = unit else { return [unit] }
            let parts = max(1, min(partsWanted, chunk.summary.count / minimumPartRows))
            return (0..<parts).map { Unit.chunk(chunk, part: $0, parts: parts) }
        }
    }

    /// The blocks of part `part` of `parts` of a chunk: those whose first row lies in the part's
    /// share of the rows.
    private func blocks(of file: ChunkFile, part: Int, parts: Int) -> Range<Int> {
        guard parts > 1 else { return file.blocks.indices }
        /// The first block starting at or after `row`.
        func firstBlock(from row: Int) -> Int {
            var low = 0
            var high = file.blockRows.count
            while low < high {
                let middle = (low + high) / 2
                if file.blockRows[middle].lowerBound < row { low = middle + 1 } else { high = middle }
            }
            return low
        }
        let count = file.count
        return firstBlock(from: count * part / parts)..<firstBlock(from: count * (part + 1) / parts)
    }

    // MARK: Per-unit accumulation

    struct Partial {
        var first = 0
        var merged: [IntervalAccumulator] = []
        var perSource: [Int: [IntervalAccumulator]] = [:]
        /// Which merge ranks the selected samples have (merging is needed only for two or more).
        var ranksSeen: [Bool] = []
        /// The selected rows, for the time sweep (only gathered when it may be needed).
        var sweepRows: [SweepRow] = []
        /// Which sources contributed.
        var sourcesSeen: [Bool] = []
    }

    /// The first and last interval a run of samples can touch, or nil when it touches none.
    @inline(__always)
    private func intervalRange(_ summary: SampleSummary) -> ClosedRange<Int>? {
        let intervalCount = edges.count - 1
        let first = max(upperBound(summary.minimumStart) - 1, 0)
        let last = min(upperBound(summary.maximumEnd) - 1, intervalCount - 1)
        return first <= last ? first...last : nil
    }

    /// The number of edges `<= time`.
    @inline(__always)
    private func upperBound(_ time: Int64) -> Int {
        edges.withUnsafeBufferPointer { edges in
            var low = 0
            var high = edges.count
            while low < high {
                let middle = (low &+ high) >> 1
                if edges[middle] <= time { low = middle &+ 1 } else { high = middle }
            }
            return low
        }
    }

    /// Whether every sample of a run is selected by a simple filter (so its summary may be used).
    private func selectsAll(_ summary: SampleSummary, _ filter: Filter) -> Bool {
        guard filter.general == nil else { return false }
        if !filter.hiddenSorted.isEmpty {
            // The first hidden sequence at or above the run's minimum must lie above its maximum.
            var low = 0
            var high = filter.hiddenSorted.count
            while low < high {
                let middle = (low + high) / 2
                if filter.hiddenSorted[middle] < summary.minimumSequence { low = middle + 1 } else { high = middle }
            }
            if low < filter.hiddenSorted.count && filter.hiddenSorted[low] <= summary.maximumSequence { return false }
        }
        if let selected = filter.provenanceSelected,
           !summary.provenances.allSatisfy({ Int($0) < selected.count && selected[Int($0)] }) {
            return false
        }
        // See SamplePredicate.dateMatches: the smallest start and the largest start or end bound the run.
        let lowest = summary.minimumStart
        let highest = filter.dateOptions.contains(.strictEndDate) ? summary.maximumEnd : summary.maximumStart
        return lowest >= filter.lower && highest < filter.upper
    }

    /// The interval that wholly contains a run (zero-length samples at the run's end included), if any.
    private func containingInterval(_ summary: SampleSummary) -> Int? {
        let index = upperBound(summary.minimumStart) - 1
        guard index >= 0, index < edges.count - 1 else { return nil }
        let end = edges[index + 1]
        return summary.maximumStart < end && summary.maximumEnd <= end ? index : nil
    }

    /// The single source of a run, or nil when it has several.
    private func singleSource(_ summary: SampleSummary) -> Int? {
        guard let first = summary.provenances.first, Int(first) < ranking.sourceOfProvenance.count else { return nil }
        let source = ranking.sourceOfProvenance[Int(first)]
        for provenance in summary.provenances.dropFirst()
        where Int(provenance) >= ranking.sourceOfProvenance.count || ranking.sourceOfProvenance[Int(provenance)] != source {
            return nil
        }
        return Int(source)
    }

    private func markSources(_ summary: SampleSummary, in seen: inout [Bool]) {
        for provenance in summary.provenances where Int(provenance) < ranking.sourceOfProvenance.count {
            seen[Int(ranking.sourceOfProvenance[Int(provenance)])] = true
        }
    }

    private func ranks(of summary: SampleSummary) -> [Int32] {
        summary.provenances.flatMap { provenance -> [Int32] in
            let base = Int(provenance) * 2
            guard base + 1 < ranking.rankOfProvenance.count else { return [] }
            return summary.userEnteredCount > 0 ? [ranking.rankOfProvenance[base], ranking.rankOfProvenance[base + 1]]
                : [ranking.rankOfProvenance[base]]
        }
    }

    private func accumulate(_ unit: Unit, filter: Filter, separate: Bool, gatherRows: Bool) throws -> Partial {
        var partial = Partial()
        partial.ranksSeen = [Bool](repeating: false, count: ranking.rankCount)
        partial.sourcesSeen = [Bool](repeating: false, count: ranking.sources.count)
        let summary = unit.summary
        guard let range = intervalRange(summary) else { return partial }
        partial.first = range.lowerBound
        partial.merged = [IntervalAccumulator](repeating: IntervalAccumulator(), count: range.count)
        // A whole chunk inside one interval costs nothing to decode.
        let wholeUnit: Bool
        if case .chunk(_, _, let parts) = unit { wholeUnit = parts == 1 } else { wholeUnit = true }
        if wholeUnit, !gatherRows, selectsAll(summary, filter), let interval = containingInterval(summary), !separate || singleSource(summary) != nil {
            partial.merged[interval - partial.first].add(summary)
            if separate, let source = singleSource(summary) {
                var perSource = [IntervalAccumulator](repeating: IntervalAccumulator(), count: range.count)
                perSource[interval - partial.first].add(summary)
                partial.perSource[source] = perSource
            }
            for rank in ranks(of: summary) { partial.ranksSeen[Int(rank)] = true }
            markSources(summary, in: &partial.sourcesSeen)
            return partial
        }
        switch unit {
        case .chunk(let chunk, let part, let parts):
            let file = try chunk.file()
            let partBlocks = blocks(of: file, part: part, parts: parts)
            guard !partBlocks.isEmpty else { return partial }
            // Blocks wholly inside one interval and wholly selected are added from their summaries;
            // only the others are decoded.
            var decode: [Int] = []
            var decodeAll: [Bool] = []
            for index in partBlocks {
                let block = file.blocks[index]
                let fullySelected = selectsAll(block, filter)
                if fullySelected, let interval = containingInterval(block), !separate || singleSource(block) != nil {
                    partial.merged[interval - partial.first].add(block)
                    if separate, let source = singleSource(block) {
                        partial.perSource[source, default: [IntervalAccumulator](repeating: IntervalAccumulator(), count: range.count)][interval - partial.first].add(block)
                    }
                    for rank in ranks(of: block) { partial.ranksSeen[Int(rank)] = true }
                    markSources(block, in: &partial.sourcesSeen)
                } else {
                    decode.append(index)
                    decodeAll.append(fullySelected)
                }
            }
            if gatherRows {
                // The sweep needs every selected row: decode the unit's blocks once for both kernels.
                // `rowOffset` is where the decoded columns start in the chunk's rows.
                let (columns, rowOffset) = filter.needsDetails ? (try file.decodeAllColumns(), 0) : try {
                    var columns = SampleColumns()
                    try file.decodeQueryBlocks(Array(partBlocks), into: &columns)
                    return (columns, file.blockRows[partBlocks.lowerBound].lowerBound)
                }()
                for (position, block) in decode.enumerated() {
                    let rows = file.blockRows[block]
                    accumulateRows(columns, rows: rows.lowerBound - rowOffset..<rows.upperBound - rowOffset, filter: filter,
                                   selectAll: decodeAll[position], separate: separate, into: &partial)
                }
                let rows = file.blockRows[partBlocks.lowerBound].lowerBound..<file.blockRows[partBlocks.upperBound - 1].upperBound
                gather(columns, rows: rows.lowerBound - rowOffset..<rows.upperBound - rowOffset, filter: filter,
                       into: &partial.sweepRows)
                return partial
            }
            guard !decode.isEmpty else { return partial }
            var columns = SampleColumns()
            if filter.needsDetails {
                columns = try file.decodeAllColumns()
                for (position, block) in decode.enumerated() {
                    let rows = file.blockRows[block]
                    accumulateRows(columns, rows: rows, filter: filter, selectAll: decodeAll[position], separate: separate,
                                   into: &partial)
                }
            } else {
                try file.decodeQueryBlocks(decode, needs: columnNeeds(filter, separate: separate), into: &columns)
                var offset = 0
                for (position, block) in decode.enumerated() {
                    let count = file.blockRows[block].count
                    accumulateRows(columns, rows: offset..<offset + count, filter: filter, selectAll: decodeAll[position],
                                   separate: separate, into: &partial)
                    offset += count
                }
            }
        case .head(let batch):
            accumulateRows(batch.columns, rows: 0..<batch.columns.count, filter: filter, selectAll: false,
                           separate: separate, sortedByStart: false, into: &partial)
            if gatherRows { gather(batch.columns, rows: 0..<batch.columns.count, filter: filter, into: &partial.sweepRows) }
        }
        return partial
    }

    /// The optional columns this query reads: provenance for sources and merge ranks, sequence
    /// for most recent and deletions.
    private func columnNeeds(_ filter: Filter, separate: Bool) -> ColumnCodec.QueryColumnNeeds {
        var needs: ColumnCodec.QueryColumnNeeds = []
        if separate || filter.provenanceSelected != nil || filter.general != nil || !type.aggregationStyle.isDiscrete {
            needs.insert(.provenance)
        }
        if options.contains(.mostRecent) || !filter.hidden.isEmpty || filter.general != nil { needs.insert(.sequence) }
        return needs
    }

    /// Whether a decoded row is selected.
    @inline(__always)
    private func selects(_ columns: SampleColumns, _ row: Int, _ filter: Filter) -> Bool {
        if !filter.hidden.isEmpty && filter.hidden.contains(columns.sequence[row]) { return false }
        if let general = filter.general {
            return general.matches(columns: columns, row: row, provenances: snapshot.provenances,
                                   typeIdentifier: type.identifier, canonicalUnit: type.canonicalUnit)
        }
        if let selected = filter.provenanceSelected {
            let number = Int(columns.provenance[row])
            guard number < selected.count, selected[number] else { return false }
        }
        return SamplePredicate.dateMatches(start: columns.start[row], end: columns.end[row], lower: filter.lower,
                                           upper: filter.upper, options: filter.dateOptions)
    }

    /// Accumulates decoded rows into the partial's intervals.
    ///
    /// - Parameter selectAll: Every row is known to be selected (its block summary said so), so
    ///   the per-row selection is skipped.
    private func accumulateRows(_ columns: SampleColumns, rows: Range<Int>, filter: Filter, selectAll: Bool,
                                separate: Bool, sortedByStart: Bool = true, into partial: inout Partial) {
        guard !rows.isEmpty else { return }
        var selected = [Bool]()
        if !selectAll {
            selected = [Bool](repeating: false, count: rows.count)
            for row in rows { selected[row - rows.lowerBound] = selects(columns, row, filter) }
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
        let emptyIntervals = separate ? [IntervalAccumulator](repeating: IntervalAccumulator(), count: partial.merged.count) : []
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
            var lastProvenance = -1

            @inline(__always) func noteRank(_ row: Int, _ provenance: Int) {
                if provenance != lastProvenance || hasFlags {
                    lastProvenance = provenance
                    let rankIndex = provenance &* 2 &+ (hasFlags && columns.flags[row] & SampleFlags.userEntered != 0 ? 1 : 0)
                    if rankIndex < rankOfProvenance.count { ranksSeen[Int(rankOfProvenance[rankIndex])] = true }
                    if provenance < sourceOfProvenance.count { sourcesSeen[Int(sourceOfProvenance[provenance])] = true }
                }
            }

            @inline(__always) func locate(_ start: Int64) {
                if start >= intervalStart && start < intervalEnd { return }
                // Binary search over the integer edges: no calendar work per sample.
                var low = 0
                var high = edges.count
                while low < high {
                    let middle = (low &+ high) >> 1
                    if edges[middle] <= start { low = middle &+ 1 } else { high = middle }
                }
                interval = low &- 1
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
            // Sorted, fully selected rows: take them interval by interval. Rows that lie wholly
            // inside the interval add to a local accumulator (no proration, no search); rows
            // crossing its end take the general path.
            var row = rows.lowerBound
            while row < rows.upperBound {
                locate(starts[row])
                guard interval >= 0 && interval < intervalCount else {
                    accumulateRow(row)
                    row &+= 1
                    continue
                }
                var low = row &+ 1
                var high = rows.upperBound
                while low < high {
                    let middle = (low &+ high) >> 1
                    if starts[middle] < intervalEnd { low = middle &+ 1 } else { high = middle }
                }
                var local = IntervalAccumulator()
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

    // MARK: Parallelism

    /// Maps `body` over `items` with `DispatchQueue.concurrentPerform`, keeping the order; the first
    /// error thrown is rethrown (typed, so a body that cannot throw needs no `try`).
    private func parallelMap<T, R, E: Error>(_ items: [T], _ body: (T) throws(E) -> R) throws(E) -> [R] {
        try concurrentMap(items, parallelism: parallelism, body)
    }

    // MARK: Time sweep

    /// A selected sample for the time sweep, with its merge rank and source.
    struct SweepRow {
        var start: Int64
        var end: Int64
        var value: Double
        var rank: Int32
        var source: Int32
    }

    /// Selected samples sorted by start, with the running maximum of their ends (which lets a
    /// sweep partition find the first sample still open at its start).
    struct SortedRows {
        var rows: [SweepRow]
        var maximumEndOfPrefix: [Int64]
    }

    /// Appends the selected rows of `columns` among `range` with their merge rank and source.
    private func gather(_ columns: SampleColumns, rows range: Range<Int>, filter: Filter, into rows: inout [SweepRow]) {
        rows.reserveCapacity(rows.count + range.count)
        let rankOfProvenance = ranking.rankOfProvenance
        let sourceOfProvenance = ranking.sourceOfProvenance
        for row in range where selects(columns, row, filter) {
            let provenance = Int(columns.provenance[row])
            let rankIndex = provenance &* 2 &+ (columns.flags(at: row) & SampleFlags.userEntered != 0 ? 1 : 0)
            rows.append(SweepRow(start: columns.start[row], end: columns.end[row], value: columns.value[row],
                                 rank: rankIndex < rankOfProvenance.count ? rankOfProvenance[rankIndex] : 0,
                                 source: provenance < sourceOfProvenance.count ? sourceOfProvenance[provenance] : 0))
        }
    }

    /// The units' gathered rows as one run sorted by start, with the running maximum of ends.
    ///
    /// Units come in order of their first start and each chunk is sorted, so the pieces are
    /// usually in order already. They are copied into place in parallel, each checking its own
    /// order and taking its own running maximum; the maximum is then carried across pieces, which
    /// rewrites only a piece's first rows, those ending before an earlier piece's latest end.
    ///
    /// - Complexity: O(*s*) divided among the cores when already sorted, O(*s* log *s*) otherwise.
    private func sortedRows(_ pieces: [[SweepRow]]) -> SortedRows {
        var offsets: [Int] = []
        var total = 0
        for piece in pieces {
            offsets.append(total)
            total += piece.count
        }
        var inOrder = true
        var maximumEnd: [Int64] = []
        var rows = [SweepRow](unsafeUninitializedCapacity: total) { rowBuffer, rowCount in
            maximumEnd = [Int64](unsafeUninitializedCapacity: total) { maximumBuffer, maximumCount in
                let piecesInOrder = parallelMap(Array(pieces.indices)) { index in
                    pieces[index].withUnsafeBufferPointer { piece in
                        let offset = offsets[index]
                        var running = Int64.min
                        var previousStart = Int64.min
                        var sorted = true
                        for position in piece.indices {
                            let row = piece[position]
                            rowBuffer.initializeElement(at: offset &+ position, to: row)
                            running = max(running, row.end)
                            maximumBuffer.initializeElement(at: offset &+ position, to: running)
                            sorted = sorted && previousStart <= row.start
                            previousStart = row.start
                        }
                        return sorted
                    }
                }
                inOrder = !piecesInOrder.contains(false)
                rowCount = total
                maximumCount = total
            }
        }
        var carried = Int64.min
        for (index, piece) in pieces.enumerated() where !piece.isEmpty {
            let offset = offsets[index]
            if offset > 0 && rows[offset - 1].start > rows[offset].start { inOrder = false }
            var row = offset
            while row < offset + piece.count && maximumEnd[row] < carried {
                maximumEnd[row] = carried
                row += 1
            }
            carried = maximumEnd[offset + piece.count - 1]
        }
        guard !inOrder else { return SortedRows(rows: rows, maximumEndOfPrefix: maximumEnd) }
        rows.sort { $0.start < $1.start }
        var running = Int64.min
        for index in rows.indices {
            running = max(running, rows[index].end)
            maximumEnd[index] = running
        }
        return SortedRows(rows: rows, maximumEndOfPrefix: maximumEnd)
    }

    struct SweepOutput {
        var sum: [Double]
        var duration: [Double]
        var perSourceDuration: [[Double]]
    }

    /// Sweeps partitions of intervals in parallel; each partition owns its intervals' results.
    private func sweepAll(_ rows: SortedRows, separate: Bool) -> SweepOutput {
        let intervalCount = edges.count - 1
        let partitionCount = max(1, min(intervalCount, parallelism * 4))
        let ranges = (0..<partitionCount).map { part in
            (intervalCount * part / partitionCount)..<(intervalCount * (part + 1) / partitionCount)
        }.filter { !$0.isEmpty }
        let pieces = parallelMap(ranges) { range in sweep(rows, intervals: range, separate: separate) }
        var output = SweepOutput(sum: [Double](repeating: 0, count: intervalCount),
                                 duration: [Double](repeating: 0, count: intervalCount),
                                 perSourceDuration: separate ? [[Double]](repeating: [Double](repeating: 0, count: intervalCount), count: ranking.sources.count) : [])
        for (range, piece) in zip(ranges, pieces) {
            for (offset, interval) in range.enumerated() {
                output.sum[interval] = piece.sum[offset]
                output.duration[interval] = piece.duration[offset]
                for source in 0..<piece.perSourceDuration.count {
                    output.perSourceDuration[source][interval] = piece.perSourceDuration[source][offset]
                }
            }
        }
        return output
    }

    private func sweep(_ sorted: SortedRows, intervals: Range<Int>, separate: Bool) -> SweepOutput {
        var output = SweepOutput(sum: [Double](repeating: 0, count: intervals.count),
                                 duration: [Double](repeating: 0, count: intervals.count),
                                 perSourceDuration: separate ? [[Double]](repeating: [Double](repeating: 0, count: intervals.count), count: ranking.sources.count) : [])
        let low = edges[intervals.lowerBound]
        let high = edges[intervals.upperBound]
        // First sample whose prefix reaches `low`, and the end of samples starting before `high`.
        var next = partitionPoint(sorted.maximumEndOfPrefix) { $0 >= low }
        let stop = partitionPoint(sorted.rows.lazy.map(\.start)) { $0 >= high }
        var active: [Int] = []
        var time = low
        var interval = intervals.lowerBound
        var seenSources = [Bool](repeating: false, count: separate ? ranking.sources.count : 0)
        sorted.rows.withUnsafeBufferPointer { rows in
        while true {
            active.removeAll { rows[$0].end <= time }
            // Add samples starting at or before `time`; count zero-length ones at `time` now.
            var instants: [Int] = []
            while next < stop && rows[next].start <= time {
                if rows[next].start == rows[next].end {
                    if rows[next].start >= low && rows[next].start == time { instants.append(next) }
                } else if rows[next].end > time {
                    active.append(next)
                }
                next += 1
            }
            for instant in instants {
                let rank = rows[instant].rank
                if !active.contains(where: { rows[$0].rank < rank }) {
                    output.sum[interval - intervals.lowerBound] += rows[instant].value
                }
            }
            if active.isEmpty {
                guard next < stop else { break }
                time = max(rows[next].start, low)
                while interval + 1 <= intervals.upperBound - 1 && edges[interval + 1] <= time { interval += 1 }
                continue
            }
            var sliceEnd = edges[interval + 1]
            if next < stop { sliceEnd = min(sliceEnd, rows[next].start) }
            var winner = Int32.max
            for index in active {
                sliceEnd = min(sliceEnd, rows[index].end)
                winner = min(winner, rows[index].rank)
            }
            let length = sliceEnd - time
            if length > 0 {
                let slot = interval - intervals.lowerBound
                for index in active where rows[index].rank == winner {
                    output.sum[slot] += rows[index].value * (Double(length) / Double(rows[index].end - rows[index].start))
                }
                output.duration[slot] += Double(length) * 1e-6
                if separate {
                    for index in 0..<seenSources.count { seenSources[index] = false }
                    for index in active where !seenSources[Int(rows[index].source)] {
                        seenSources[Int(rows[index].source)] = true
                        output.perSourceDuration[Int(rows[index].source)][slot] += Double(length) * 1e-6
                    }
                }
            }
            time = sliceEnd
            if time >= edges[interval + 1] {
                interval += 1
                if interval >= intervals.upperBound { break }
            }
        }
        }
        return output
    }

    /// The first index whose element satisfies `predicate`, for a predicate that is false then true.
    private func partitionPoint<C: RandomAccessCollection>(_ elements: C, _ predicate: (C.Element) -> Bool) -> Int
    where C.Index == Int {
        var low = elements.startIndex
        var high = elements.endIndex
        while low < high {
            let middle = (low + high) / 2
            if predicate(elements[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
