//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The selected samples the source-merging sweep reads, as columns: start, end, value, merge
/// rank and (when sources are kept apart) source.
///
/// Each scan portion gathers its own columns straight from its decoded blocks (no row structs,
/// no per-sample allocation); ``joined(_:parallelism:)`` then puts the portions' columns into
/// one run sorted by start — a parallel copy when they are in order already, as chunks are, and a
/// merge of the sorted runs otherwise.
struct SweepColumns {
    var start: [Int64] = []
    var end: [Int64] = []
    var value: [Double] = []
    var rank: [Int32] = []
    /// Each row's dense source number; empty unless sources are kept apart.
    var source: [Int32] = []
    /// The running maximum of ``end`` (which lets a sweep partition find the first sample still
    /// open at its start); filled by ``joined(_:parallelism:)``.
    var maximumEndOfPrefix: [Int64] = []
    /// Whether the rows are sorted by start.
    var isSortedByStart = true

    var count: Int { start.count }

    init() {}

    /// The selected rows of `portion`'s decoded blocks, in order.
    ///
    /// Wholly selected blocks are copied column by column; other blocks by runs of selected rows.
    ///
    /// - Complexity: O(*d*) for the *d* decoded rows.
    init(gathering portion: ScanPortion, selection: RowSelection, ranking: SourceRanking, keepsSources: Bool) {
        let columns = portion.columns
        let capacity = portion.decodedRows.count
        start.reserveCapacity(capacity)
        end.reserveCapacity(capacity)
        value.reserveCapacity(capacity)
        rank.reserveCapacity(capacity)
        if keepsSources { source.reserveCapacity(capacity) }
        for block in portion.blocks {
            guard let rows = block.rows else { continue }
            if block.isWhollySelected {
                append(columns, rows: rows, ranking: ranking, keepsSources: keepsSources)
                continue
            }
            var runStart = rows.lowerBound
            for row in rows where !selection.selects(columns, row) {
                append(columns, rows: runStart..<row, ranking: ranking, keepsSources: keepsSources)
                runStart = row &+ 1
            }
            append(columns, rows: runStart..<rows.upperBound, ranking: ranking, keepsSources: keepsSources)
        }
        isSortedByStart = portion.isSortedByStart || start.withUnsafeBufferPointer { starts in
            starts.indices.dropFirst().allSatisfy { starts[$0 &- 1] <= starts[$0] }
        }
    }

    /// Appends `rows` of `columns` with their merge ranks (and sources).
    private mutating func append(_ columns: SampleColumns, rows: Range<Int>, ranking: SourceRanking, keepsSources: Bool) {
        guard !rows.isEmpty else { return }
        start.append(contentsOf: columns.start[rows])
        end.append(contentsOf: columns.end[rows])
        value.append(contentsOf: columns.value[rows])
        let first = rank.count
        rank.append(contentsOf: repeatElement(0, count: rows.count))
        rank.withUnsafeMutableBufferPointer { ranks in
            columns.provenance.withUnsafeBufferPointer { provenances in
                columns.flags.withUnsafeBufferPointer { flags in
                    let rankOfProvenance = ranking.rankOfProvenance
                    let hasFlags = !flags.isEmpty
                    for row in rows {
                        let userEntered = hasFlags && flags[row] & SampleFlags.userEntered != 0 ? 1 : 0
                        let rankIndex = Int(provenances[row]) &* 2 &+ userEntered
                        ranks[first &+ (row &- rows.lowerBound)] = rankIndex < rankOfProvenance.count ? rankOfProvenance[rankIndex] : 0
                    }
                }
            }
        }
        if keepsSources {
            let sourceOfProvenance = ranking.sourceOfProvenance
            source.append(contentsOf: columns.provenance[rows].lazy.map { provenance in
                Int(provenance) < sourceOfProvenance.count ? sourceOfProvenance[Int(provenance)] : 0
            })
        }
    }

    /// The pieces' rows as one run sorted by start, with ``maximumEndOfPrefix``.
    ///
    /// Pieces come in order of their first start and each chunk's rows are sorted, so the pieces
    /// are usually in order already: they are then copied into place in parallel, each taking its
    /// own running maximum of ends, and the maximum is carried across pieces (rewriting only a
    /// piece's first rows, those ending before an earlier piece's latest end). Otherwise each
    /// unsorted piece is sorted and the sorted runs are merged pairwise.
    ///
    /// - Complexity: O(*s*) divided among the cores when in order, O(*s* log *r*) for *r* runs
    ///   when only the pieces are sorted, O(*s* log *s*) otherwise.
    static func joined(_ pieces: [SweepColumns], parallelism: Int) -> SweepColumns {
        var offsets: [Int] = []
        var total = 0
        var inOrder = true
        var previousLast = Int64.min
        for piece in pieces {
            offsets.append(total)
            total += piece.count
            inOrder = inOrder && piece.isSortedByStart
            if let first = piece.start.first, let last = piece.start.last {
                inOrder = inOrder && previousLast <= first
                previousLast = last
            }
        }
        let keepsSources = pieces.contains { !$0.source.isEmpty }
        var joined = SweepColumns()
        joined.start = concatenated(pieces.map(\.start), offsets: offsets, total: total, parallelism: parallelism)
        joined.end = concatenated(pieces.map(\.end), offsets: offsets, total: total, parallelism: parallelism)
        joined.value = concatenated(pieces.map(\.value), offsets: offsets, total: total, parallelism: parallelism)
        joined.rank = concatenated(pieces.map(\.rank), offsets: offsets, total: total, parallelism: parallelism)
        if keepsSources {
            joined.source = concatenated(pieces.map(\.source), offsets: offsets, total: total, parallelism: parallelism)
        }
        guard inOrder else {
            joined.sortByStart(runs: zip(offsets, pieces).map { offset, piece in
                (offset..<offset + piece.count, piece.isSortedByStart)
            })
            joined.maximumEndOfPrefix = joined.end
            var running = Int64.min
            for index in joined.maximumEndOfPrefix.indices {
                running = max(running, joined.maximumEndOfPrefix[index])
                joined.maximumEndOfPrefix[index] = running
            }
            return joined
        }
        joined.maximumEndOfPrefix = concatenated(pieces.map(\.end), offsets: offsets, total: total,
                                                 parallelism: parallelism) { maxima in
            var running = Int64.min
            for index in maxima.indices {
                running = max(running, maxima[index])
                maxima[index] = running
            }
        }
        var carried = Int64.min
        for (index, piece) in pieces.enumerated() where piece.count > 0 {
            let offset = offsets[index]
            var row = offset
            while row < offset + piece.count && joined.maximumEndOfPrefix[row] < carried {
                joined.maximumEndOfPrefix[row] = carried
                row += 1
            }
            carried = joined.maximumEndOfPrefix[offset + piece.count - 1]
        }
        return joined
    }

    /// Sorts the rows by start (ties keep their order): unsorted runs are sorted, then the
    /// sorted runs are merged pairwise, as an order of rows applied to every column once.
    private mutating func sortByStart(runs: [(rows: Range<Int>, isSorted: Bool)]) {
        var order = [Int](0..<count)
        var scratch = order
        var bounds = runs.filter { !$0.rows.isEmpty }.map(\.rows)
        start.withUnsafeBufferPointer { starts in
            for run in runs where !run.isSorted {
                order[run.rows].sort { starts[$0] < starts[$1] || (starts[$0] == starts[$1] && $0 < $1) }
            }
            while bounds.count > 1 {
                var merged: [Range<Int>] = []
                for pair in stride(from: 0, to: bounds.count, by: 2) {
                    guard pair + 1 < bounds.count else {
                        scratch[bounds[pair]] = order[bounds[pair]]
                        merged.append(bounds[pair])
                        continue
                    }
                    let left = bounds[pair]
                    let right = bounds[pair + 1]
                    var leftIndex = left.lowerBound
                    var rightIndex = right.lowerBound
                    for target in left.lowerBound..<right.upperBound {
                        let takesLeft = rightIndex == right.upperBound
                            || (leftIndex < left.upperBound && starts[order[leftIndex]] <= starts[order[rightIndex]])
                        if takesLeft {
                            scratch[target] = order[leftIndex]
                            leftIndex += 1
                        } else {
                            scratch[target] = order[rightIndex]
                            rightIndex += 1
                        }
                    }
                    merged.append(left.lowerBound..<right.upperBound)
                }
                swap(&order, &scratch)
                bounds = merged
            }
        }
        start = order.map { start[$0] }
        end = order.map { end[$0] }
        value = order.map { value[$0] }
        rank = order.map { rank[$0] }
        if !source.isEmpty { source = order.map { source[$0] } }
        isSortedByStart = true
    }

    /// The pieces one after another, copied in parallel; `finish` then runs on each piece's copy.
    private static func concatenated<Element>(
        _ pieces: [[Element]], offsets: [Int], total: Int, parallelism: Int,
        finish: (UnsafeMutableBufferPointer<Element>) -> Void = { _ in }
    ) -> [Element] {
        [Element](unsafeUninitializedCapacity: total) { buffer, initialized in
            _ = concurrentMap(Array(pieces.indices), parallelism: parallelism) { index in
                let piece = UnsafeMutableBufferPointer(rebasing: buffer[offsets[index]..<offsets[index] + pieces[index].count])
                _ = piece.initialize(fromContentsOf: pieces[index])
                finish(piece)
            }
            initialized = total
        }
    }
}
