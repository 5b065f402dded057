//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// One portion of a scan — a chunk, part of one, or an unflushed batch — as the blocks a
/// consumer reads: each answered by its summary, or decoded into ``columns``.
package struct ScanPortion {
    /// The portion's summary (for part of a chunk, the whole chunk's: a superset of its rows).
    package let summary: SampleSummary
    /// The summaries of the portion's chunk's blocks (shared with the chunk, not copied), by
    /// ``ScanBlock/index``.
    package let summaries: [SampleSummary]
    /// The decoded rows; empty when every block is answered by its summary.
    package var columns: SampleColumns
    /// The portion's blocks, in order.
    package let blocks: [ScanBlock]
    /// Whether the rows are sorted by start (chunks are; unflushed batches are in save order).
    package let isSortedByStart: Bool
    /// Every decoded row of the portion, in order (with ``ScanPlan/readsEveryRow``, all of its rows).
    package let decodedRows: Range<Int>
    /// The merged summaries a ``ScanBlock/pyramidNode`` names (those of the portion's chunk).
    package var pyramid: SummaryPyramid? = nil
    /// The hour summaries of the portion's chunk, for blocks ``ScanBlock/isAnsweredByHours``.
    package var hourSummaries: HourSummaries? = nil
}

/// A block of a scan: whole UTC hours of samples in a chunk (see ``ColumnCodec/blockBoundaries(_:)``),
/// or a whole unflushed batch.
package struct ScanBlock {
    /// Where the block's summary is in ``ScanPortion/summaries``.
    package let index: Int
    /// The block's rows in ``ScanPortion/columns``, when they were decoded.
    package var rows: Range<Int>?
    /// Whether every row of the block is selected, so per-row tests may be skipped.
    package let isWhollySelected: Bool
    /// Whether the summary answers for the block (``ScanPlan/summaryAnswers`` accepted it and it
    /// is wholly selected): the consumer uses the summary, not the rows.
    package let isAnsweredBySummary: Bool
    /// Whether, the block's summary not answering, its hour summaries do (each wholly selected
    /// and accepted by ``ScanPlan/summaryAnswers``): they hold every row of the block once
    /// (``ScanPortion/hourSummaries``), and the consumer uses them, not the rows.
    package var isAnsweredByHours = false
    /// When the block is answered by a node of ``ScanPortion/pyramid`` rather than by its own
    /// summary, the node's place: the scan block then stands for the node's run of blocks, from
    /// ``index`` on.
    package var pyramidNode: Int? = nil
}

extension TypeSnapshot {
    /// Portions per worker below which chunks are split into parts: with few portions, the
    /// workers' shares are uneven (9 chunks on 2 workers take 5 and 4 chunks' time).
    static let portionsPerWorker = 8

    /// Reads what `plan` needs on `parallelism` cores, in runs of consecutive portions, and maps
    /// each run with `body`, keeping the runs' order (portions by first start).
    ///
    /// Portions the plan cannot use are pruned by their summaries; a wholly selected chunk whose
    /// summary answers is not read at all; other chunks decode only the blocks whose summaries do
    /// not answer (all of them with ``ScanPlan/readsEveryRow``).
    ///
    /// A store of many chunks is read in a few runs of many chunks each (``portionsPerWorker`` a
    /// worker), so that what a consumer spends on a run (its partial result, and merging it) is
    /// spent a few times per query rather than once per chunk: a billion samples lie in some
    /// 15,000 chunks. A store of few chunks has a run per chunk, or per part of one.
    ///
    /// - Parameter minimumPartRows: The fewest rows in a part of a chunk (each part of a chunk
    ///   file older than version 5 decompresses its chunk's whole query section again; tests lower
    ///   it to split small chunks).
    /// - Complexity: O(*c*) for *c* chunks plus the decoded rows, divided among the cores.
    package func scan<Partial>(_ plan: ScanPlan, parallelism: Int, minimumPartRows: Int = 16_384,
                               _ body: (ScanPortionRun) throws -> Partial) throws -> [Partial] {
        let portions = portions(plan, parallelism: parallelism, minimumPartRows: minimumPartRows)
        // A summary is never an answer for a chunk file that is missing or has the wrong size.
        for case .chunk(let chunk, let part, _) in portions where part == 0 { try chunk.checkPresent() }
        let runs = Self.runs(of: portions.count, wanted: parallelism * Self.portionsPerWorker)
        return try concurrentMap(runs, parallelism: parallelism) { run in
            try body(ScanPortionRun(portions: portions[run], plan: plan))
        }
    }

    /// `count` portions in consecutive runs: one a portion when there are at most `wanted`, else
    /// `wanted` runs of nearly equal counts.
    static func runs(of count: Int, wanted: Int) -> [Range<Int>] {
        let runCount = count <= wanted ? count : max(wanted, 1)
        return (0..<runCount).map { count * $0 / runCount..<count * ($0 + 1) / runCount }
    }

    /// Calls `body` for every selected row, chunks in the manifest's order then unflushed
    /// batches in save order, on the calling thread.
    ///
    /// - Complexity: O(*n*) for the *n* rows of the portions the plan does not prune.
    package func forEachSelectedRow(_ plan: ScanPlan, _ body: (SampleColumns, Int) throws -> Void) throws {
        try forEachSelectedPortion(plan) { columns, rows in
            for row in rows { try body(columns, row) }
        }
    }

    /// Calls `body` with each portion's columns and its selected rows, in the order of
    /// ``forEachSelectedRow(_:_:)``: for readers that keep the columns rather than visit rows.
    ///
    /// - Complexity: O(*n*) for the *n* rows of the portions the plan does not prune.
    package func forEachSelectedPortion(_ plan: ScanPlan, _ body: (SampleColumns, [Int]) throws -> Void) throws {
        let portions = (chunks.map { PortionToRead.chunk($0, part: 0, parts: 1) } + head.map(PortionToRead.head))
            .filter { plan.mayMatch($0.summary) }
        for portion in portions {
            // The reader may keep the columns: each portion decodes into buffers of its own.
            var fresh = SampleColumns()
            let scanned = try portion.read(plan, reusing: &fresh)
            var selected: [Int] = []
            for block in scanned.blocks {
                guard let rows = block.rows else { continue }
                if block.isWhollySelected {
                    selected += rows
                } else {
                    for row in rows where plan.selection.selects(scanned.columns, row) { selected.append(row) }
                }
            }
            try body(scanned.columns, selected)
        }
    }

    /// The portions `plan` can use, in order of first start, chunks split into parts when there are
    /// too few portions for the workers.
    private func portions(_ plan: ScanPlan, parallelism: Int, minimumPartRows: Int) -> [PortionToRead] {
        let portions = (chunks.map { PortionToRead.chunk($0, part: 0, parts: 1) } + head.map(PortionToRead.head))
            .filter { plan.mayMatch($0.summary) }
            .sorted { $0.summary.minimumStart < $1.summary.minimumStart }
        let wanted = parallelism * Self.portionsPerWorker
        // Decoding every column (a predicate on details) is not done by blocks, so parts would repeat it.
        guard parallelism > 1, !plan.decodesEveryColumn, !portions.isEmpty, portions.count < wanted else { return portions }
        let partsWanted = (wanted + portions.count - 1) / portions.count
        return portions.flatMap { portion -> [PortionToRead] in
            guard case .chunk(let chunk, _, _) = portion else { return [portion] }
            let parts = max(1, min(partsWanted, chunk.summary.count / max(minimumPartRows, 1)))
            return (0..<parts).map { PortionToRead.chunk(chunk, part: $0, parts: parts) }
        }
    }
}

/// Consecutive portions of a scan, handed to one worker and read one at a time, in order.
package struct ScanPortionRun {
    fileprivate let portions: ArraySlice<PortionToRead>
    fileprivate let plan: ScanPlan
    /// The earliest start of the run's samples; for part of a chunk, its chunk's (a bound).
    package let minimumStart: Int64
    /// The latest end of the run's samples; for part of a chunk, its chunk's (a bound).
    package let maximumEnd: Int64

    fileprivate init(portions: ArraySlice<PortionToRead>, plan: ScanPlan) {
        self.portions = portions
        self.plan = plan
        var minimumStart = Int64.max
        var maximumEnd = Int64.min
        for portion in portions {
            minimumStart = min(minimumStart, portion.summary.minimumStart)
            maximumEnd = max(maximumEnd, portion.summary.maximumEnd)
        }
        self.minimumStart = minimumStart
        self.maximumEnd = maximumEnd
    }

    /// Reads each portion of the run and calls `body` with it, in order: the next portion decodes
    /// into the buffers of the last one's columns (a copy `body` kept stays its own).
    ///
    /// - Throws: What reading a chunk throws (a missing or damaged file), or what `body` throws.
    package func forEach(_ body: (ScanPortion) throws -> Void) throws {
        // The last portion's decoded columns, whose buffers the next decodes into.
        var spare = SampleColumns()
        for portion in portions {
            var read = try portion.read(plan, reusing: &spare)
            try body(read)
            spare.takeQueryBuffers(from: &read.columns)
        }
    }
}

/// A portion of work before it is read.
fileprivate enum PortionToRead {
    /// Part `part` of `parts` of a chunk's blocks, split by rows (`parts` is 1 for the whole chunk).
    case chunk(ChunkHandle, part: Int, parts: Int)
    case head(HeadBatch)

    var summary: SampleSummary {
        switch self {
        case .chunk(let chunk, _, _): return chunk.summary
        case .head(let batch): return batch.summary
        }
    }

    /// Reads the portion; decoded query columns go into `spare`'s buffers (taken from it).
    func read(_ plan: ScanPlan, reusing spare: inout SampleColumns) throws -> ScanPortion {
        switch self {
        case .head(let batch):
            let block = ScanBlock(index: 0, rows: 0..<batch.columns.count, isWhollySelected: false,
                                  isAnsweredBySummary: false)
            return ScanPortion(summary: batch.summary, summaries: [batch.summary], columns: batch.columns, blocks: [block],
                               isSortedByStart: false, decodedRows: 0..<batch.columns.count)
        case .chunk(let chunk, let part, let parts):
            return try Self.read(chunk, part: part, parts: parts, plan, reusing: &spare)
        }
    }

    private static func read(_ chunk: ChunkHandle, part: Int, parts: Int, _ plan: ScanPlan,
                             reusing spare: inout SampleColumns) throws -> ScanPortion {
        let selection = plan.selection
        // A whole chunk answered by its summary costs nothing to read.
        if parts == 1, !plan.readsEveryRow, selection.selectsAll(chunk.summary), answersWhole(chunk.summary, plan) {
            let block = ScanBlock(index: 0, rows: nil, isWhollySelected: true, isAnsweredBySummary: true)
            return ScanPortion(summary: chunk.summary, summaries: [chunk.summary], columns: SampleColumns(), blocks: [block],
                               isSortedByStart: true, decodedRows: 0..<0)
        }
        let file = try chunk.file(keeping: plan.keepsChunkFiles)
        // A lookup by UUID decodes only the rows that hold them, found from the chunk's UUID
        // column (a chunk that holds none is passed over): its other rows can never be selected.
        if parts == 1, plan.decodesEveryColumn, let uuids = plan.uuids, let found = try file.decodeRows(withExplicitUUIDsIn: uuids) {
            let block = ScanBlock(index: 0, rows: 0..<found.count, isWhollySelected: false, isAnsweredBySummary: false)
            return ScanPortion(summary: chunk.summary, summaries: [chunk.summary], columns: found,
                               blocks: found.isEmpty ? [] : [block], isSortedByStart: true, decodedRows: 0..<found.count)
        }
        let partBlocks = blocks(of: file, part: part, parts: parts)
        var scanBlocks: [ScanBlock] = []
        scanBlocks.reserveCapacity(partBlocks.count)
        // The blocks to decode, and where each is among the scan blocks.
        var decode: [Int] = []
        var decodePlaces: [Int] = []
        // Read once, not once a block (each read would retain its arrays).
        let summaryAnswers = plan.summaryAnswers
        let pyramid = file.pyramid
        file.blockStarts.withUnsafeBufferPointer { starts in file.blocks.withUnsafeBufferPointer { summaries in
            var position = -1
            var index = partBlocks.lowerBound
            // Blocks [index, runEnd) start inside the interval the last answered block lies in.
            var runEnd = index
            while index < partBlocks.upperBound {
                // A listing passes over the blocks that cannot hold a selected row: their rows are
                // neither tested nor listed.
                if plan.decodesEveryColumn, !plan.mayMatch(summaries[index]) {
                    index += 1
                    continue
                }
                if index + 1 < runEnd,
                   let node = answeringNode(pyramid, from: index, to: runEnd, selection, summaryAnswers, &position) {
                    scanBlocks.append(ScanBlock(index: index, rows: nil, isWhollySelected: true, isAnsweredBySummary: true,
                                                pyramidNode: node.place))
                    index += node.blocks
                    continue
                }
                let selectsAll = selection.selectsAll(summaries[index])
                let answeredUntil = selectsAll ? summaryAnswers?.end(of: summaries[index], from: &position) : nil
                let answered = answeredUntil != nil
                if let answeredUntil, !plan.readsEveryRow {
                    // The next block begins the next interval in the common case of intervals no
                    // longer than blocks (hourly): no search then.
                    let next = index + 1
                    runEnd = next == partBlocks.upperBound || starts[next] >= answeredUntil ? next
                        : starts.partitionPoint(in: next..<partBlocks.upperBound) { $0 >= answeredUntil }
                    if runEnd - index >= 2,
                       let node = answeringNode(pyramid, from: index, to: runEnd, selection, summaryAnswers, &position) {
                        scanBlocks.append(ScanBlock(index: index, rows: nil, isWhollySelected: true, isAnsweredBySummary: true,
                                                    pyramidNode: node.place))
                        index += node.blocks
                        continue
                    }
                }
                // A block across an interval edge may still be answered hour by hour.
                var hours = false
                if !answered, let summaryAnswers,
                   let hourSummaries = file.hourSummaries?.summaries(ofBlock: index) {
                    hours = hourSummaries.allSatisfy {
                        selection.selectsAll($0) && summaryAnswers.end(of: $0, from: &position) != nil
                    }
                }
                if plan.readsEveryRow || (!answered && !hours) {
                    decode.append(index)
                    decodePlaces.append(scanBlocks.count)
                }
                scanBlocks.append(ScanBlock(index: index, rows: nil, isWhollySelected: selectsAll || hours,
                                            isAnsweredBySummary: answered, isAnsweredByHours: hours))
                index += 1
            }
        } }
        var columns = SampleColumns()
        var decodedRows = 0..<0
        if !decode.isEmpty {
            if plan.decodesEveryColumn {
                let decodedBlocks = zip(decode, decodePlaces).map { (rows: file.blockRows[$0], isWhollySelected: scanBlocks[$1].isWhollySelected) }
                columns = try file.decodeAllColumns { columns in
                    Self.rowsNeedingMetadata(decodedBlocks, of: columns, file.count, selection)
                }
                for (index, place) in zip(decode, decodePlaces) { scanBlocks[place].rows = file.blockRows[index] }
            } else {
                columns.takeQueryBuffers(from: &spare)
                try file.decodeQueryBlocks(decode, needs: plan.columns, into: &columns)
                // Decoded blocks lie one after another in the columns, in order.
                var offset = 0
                for (index, place) in zip(decode, decodePlaces) {
                    let count = file.blockRows[index].count
                    scanBlocks[place].rows = offset..<offset + count
                    offset += count
                }
            }
            let first = scanBlocks[decodePlaces[0]].rows ?? 0..<0
            let last = scanBlocks[decodePlaces[decodePlaces.count - 1]].rows ?? 0..<0
            decodedRows = first.lowerBound..<last.upperBound
        }
        return ScanPortion(summary: chunk.summary, summaries: file.blocks, columns: columns, blocks: scanBlocks,
                           isSortedByStart: true, decodedRows: decodedRows, pyramid: file.pyramid,
                           hourSummaries: file.hourSummaries)
    }

    /// The rows of `blocks` whose metadata a listing needs, given their query `columns`, or `nil`
    /// when it needs every row's (all `count` rows of the chunk are selected, or the selection
    /// tests metadata itself). Only the rows of blocks not wholly selected are tested.
    ///
    /// - Complexity: O(*r*) for the *r* rows of `blocks`.
    private static func rowsNeedingMetadata(_ blocks: [(rows: Range<Int>, isWhollySelected: Bool)], of columns: SampleColumns,
                                            _ count: Int, _ selection: RowSelection) -> [Int]? {
        let takesWhole = { (block: (rows: Range<Int>, isWhollySelected: Bool)) in selection.needsDetails || block.isWhollySelected }
        if blocks.allSatisfy(takesWhole), blocks.reduce(0, { $0 + $1.rows.count }) == count { return nil }
        var rows: [Int] = []
        for block in blocks {
            if takesWhole(block) {
                rows.append(contentsOf: block.rows)
            } else {
                rows.append(contentsOf: block.rows.lazy.filter { selection.selects(columns, $0) })
            }
        }
        return rows.count == count ? nil : rows
    }

    /// Whether `summary` answers for its rows by itself, asked with no cursor.
    private static func answersWhole(_ summary: SampleSummary, _ plan: ScanPlan) -> Bool {
        var position = -1
        return plan.summaryAnswers?.end(of: summary, from: &position) != nil
    }

    /// The largest node of `pyramid` that starts at block `first`, lies within blocks
    /// [`first`, `end`) and answers for its blocks (wholly selected by `selection`, accepted by
    /// `summaryAnswers`, a plan's ``ScanPlan/summaryAnswers``), with its place and block count;
    /// `nil` when no node of two blocks or more does.
    ///
    /// - Complexity: O(log *b*) checks of summaries.
    private static func answeringNode(_ pyramid: SummaryPyramid, from first: Int, to end: Int, _ selection: RowSelection,
                                      _ summaryAnswers: SummaryAnswers?,
                                      _ position: inout Int) -> (place: Int, blocks: Int)? {
        guard let summaryAnswers else { return nil }
        // The highest level whose node at `first` is aligned there and ends by `end`.
        var level = min(pyramid.topLevel, first.trailingZeroBitCount,
                        Int.bitWidth - 1 - (end - first).leadingZeroBitCount)
        while level >= 1 {
            if let place = pyramid.node(level: level, index: first >> level),
               selection.selectsAll(pyramid[place]), summaryAnswers.end(of: pyramid[place], from: &position) != nil {
                return (place, 1 << level)
            }
            level -= 1
        }
        return nil
    }

    /// The blocks of part `part` of `parts` of a chunk: those whose first row lies in the part's
    /// share of the rows.
    private static func blocks(of file: ChunkFile, part: Int, parts: Int) -> Range<Int> {
        guard parts > 1 else { return file.blocks.indices }
        let count = file.count
        let first = file.blockRows.partitionPoint { $0.lowerBound >= count * part / parts }
        let end = file.blockRows.partitionPoint { $0.lowerBound >= count * (part + 1) / parts }
        return first..<end
    }
}
