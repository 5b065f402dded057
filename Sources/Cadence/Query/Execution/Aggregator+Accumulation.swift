//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The per-run kernel: each run of portions of a scan becomes partial interval accumulators.
extension Aggregator {
    /// What one run of portions contributes: accumulators for the intervals it touches, from `first` on.
    struct Partial {
        var first = 0
        var merged: [StatisticsAccumulator] = []
        var perSource: [Int: [StatisticsAccumulator]] = [:]
        /// Which merge ranks the selected samples have (merging is needed only for two or more).
        var ranksSeen: [Bool] = []
        /// The selected rows of each portion, for the time sweep (only gathered when it may be needed).
        var sweepColumns: [SweepColumns] = []
        /// Which sources contributed.
        var sourcesSeen: [Bool] = []
    }

    /// Accumulates a run of portions into one partial: blocks answered by their summaries are
    /// added whole, decoded blocks row by row, by one ``IntervalKernel`` for the intervals the run
    /// touches; with `gatherRows`, each portion's selected rows are also kept for the sweep.
    ///
    /// - Throws: What reading a chunk throws.
    func accumulate(_ run: ScanPortionRun, selection: RowSelection, separate: Bool, gatherRows: Bool) throws -> Partial {
        let intervals = IntervalLookup(edges: edges)
        guard let range = intervals.range(from: run.minimumStart, to: run.maximumEnd) else {
            return Partial(ranksSeen: [Bool](repeating: false, count: ranking.rankCount),
                           sourcesSeen: [Bool](repeating: false, count: ranking.sources.count))
        }
        var kernel = IntervalKernel(edges: edges, range: range, style: type.aggregationStyle, separate: separate,
                                    ranking: ranking)
        var sweepColumns: [SweepColumns] = []
        // Portions come in order of start: the interval of a summary is found from the previous one's.
        var position = range.lowerBound
        try run.forEach { portion in
            add(portion, intervals, &position, selection: selection, separate: separate, to: &kernel)
            if gatherRows {
                sweepColumns.append(SweepColumns(gathering: portion, selection: selection, ranking: ranking,
                                                 keepsSources: separate))
            }
        }
        return Partial(first: kernel.first, merged: kernel.merged, perSource: kernel.perSource,
                       ranksSeen: kernel.ranksSeen, sweepColumns: sweepColumns, sourcesSeen: kernel.sourcesSeen)
    }

    /// Adds one portion's blocks to `kernel`; `position` is the interval of the last summary added.
    private func add(_ portion: ScanPortion, _ intervals: IntervalLookup, _ position: inout Int, selection: RowSelection,
                     separate: Bool, to kernel: inout IntervalKernel) {
        // A portion of one provenance, none entered by a person, has one source and one rank: they
        // are marked once for it rather than for each summary answered.
        let marksOnce = portion.summary.provenances.count == 1 && portion.summary.userEnteredCount == 0
        var answered = false
        portion.summaries.withUnsafeBufferPointer { summaries in
            // A portion without block summaries has no blocks.
            guard let firstSummary = summaries.baseAddress else { return }
            let pyramid = portion.pyramid
            for block in portion.blocks {
                // A run of whole blocks answered by one merged summary.
                if let node = block.pyramidNode, let pyramid {
                    answered = pyramid.withNode(node) {
                        addAnswered($0, intervals, &position, separate: separate, marks: !marksOnce, to: &kernel)
                    } || answered
                } else if block.isAnsweredBySummary {
                    answered = addAnswered(firstSummary + block.index, intervals, &position, separate: separate,
                                           marks: !marksOnce, to: &kernel) || answered
                } else if block.isAnsweredByHours, let hours = portion.hourSummaries?.summaries(ofBlock: block.index) {
                    hours.withUnsafeBufferPointer { hours in
                        guard let firstHour = hours.baseAddress else { return }
                        for hour in hours.indices {
                            answered = addAnswered(firstHour + hour, intervals, &position, separate: separate,
                                                   marks: !marksOnce, to: &kernel) || answered
                        }
                    }
                } else if let rows = block.rows {
                    let summary = summaries[block.index]
                    // A wholly selected block of one provenance, none entered by a person: its
                    // summary names the one source and rank of every row, so rows are not asked.
                    let oneProvenance = block.isWhollySelected && summary.provenances.count == 1
                        && summary.userEnteredCount == 0
                    if oneProvenance {
                        ranking.markRanks(of: summary, in: &kernel.ranksSeen)
                        ranking.markSources(summary, in: &kernel.sourcesSeen)
                    }
                    kernel.add(portion.columns, rows: rows, selection: block.isWhollySelected ? nil : selection,
                               sortedByStart: portion.isSortedByStart, notesSources: !oneProvenance)
                }
            }
        }
        if marksOnce && answered {
            ranking.markRanks(of: portion.summary, in: &kernel.ranksSeen)
            ranking.markSources(portion.summary, in: &kernel.sourcesSeen)
        }
    }

    /// Adds a run the scan answered by its summary (which lies inside one interval), found from
    /// `position` on, marking its sources and ranks as seen when `marks`; returns whether it
    /// lay in an interval.
    ///
    /// The summary is read where it lies, through a pointer: a summary lent as a value across
    /// the kernel's changes is first copied whole (168 bytes and a retain, more than adding it
    /// costs). The cursor and kernel are passed rather than captured, so no access to them is
    /// checked at run time.
    @inline(__always)
    private func addAnswered(_ summary: UnsafePointer<SampleSummary>, _ intervals: IntervalLookup, _ position: inout Int,
                             separate: Bool, marks: Bool, to kernel: inout IntervalKernel) -> Bool {
        guard let interval = intervals.containing(summary.pointee, from: &position) else { return false }
        kernel.add(summary.pointee.statistics, toInterval: interval,
                   source: separate ? ranking.singleSource(summary.pointee) : nil)
        if marks {
            ranking.markRanks(of: summary.pointee, in: &kernel.ranksSeen)
            ranking.markSources(summary.pointee, in: &kernel.sourcesSeen)
        }
        return true
    }
}
