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
/// no per-sample allocation); ``SweepRows`` then lays the portions end to end, and each range of
/// the sweep copies out only the rows it needs.
struct SweepColumns {
    var start: [Int64] = []
    var end: [Int64] = []
    var value: [Double] = []
    var rank: [Int32] = []
    /// Each row's dense source number; empty unless sources are kept apart.
    var source: [Int32] = []
    /// Whether the rows are sorted by start.
    var isSortedByStart = true
    /// The latest end of any row (which lets a range of the sweep skip the pieces that end
    /// before it).
    private(set) var maximumEnd = Int64.min
    /// At least the longest row's length (which bounds how far before a range the rows reaching
    /// it can start).
    private(set) var longestDuration: Int64 = 0

    var count: Int { start.count }

    init() {}

    /// Columns of the given rows, in order.
    init(start: [Int64], end: [Int64], value: [Double], rank: [Int32], source: [Int32], isSortedByStart: Bool) {
        self.start = start
        self.end = end
        self.value = value
        self.rank = rank
        self.source = source
        self.isSortedByStart = isSortedByStart
        measureBounds()
    }

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
        // The blocks' summaries bound every row they hold (a row lasts at most from its block's
        // earliest start to its latest end), so the rows need no pass of their own.
        for block in portion.blocks where block.rows?.isEmpty == false {
            let summary = portion.summaries[block.index]
            maximumEnd = max(maximumEnd, summary.maximumEnd)
            longestDuration = max(longestDuration, summary.maximumEnd &- summary.minimumStart)
        }
    }

    /// Sets ``maximumEnd`` and ``longestDuration`` from the rows.
    private mutating func measureBounds() {
        var latest = Int64.min
        var longest: Int64 = 0
        start.withUnsafeBufferPointer { starts in
            end.withUnsafeBufferPointer { ends in
                for row in 0..<starts.count {
                    latest = max(latest, ends[row])
                    longest = max(longest, ends[row] &- starts[row])
                }
            }
        }
        maximumEnd = latest
        longestDuration = longest
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

    /// Appends `rows` of another piece of columns (and their sources, when they have them).
    mutating func append(_ piece: SweepColumns, rows: Range<Int>) {
        guard !rows.isEmpty else { return }
        start.append(contentsOf: piece.start[rows])
        end.append(contentsOf: piece.end[rows])
        value.append(contentsOf: piece.value[rows])
        rank.append(contentsOf: piece.rank[rows])
        if !piece.source.isEmpty { source.append(contentsOf: piece.source[rows]) }
        maximumEnd = max(maximumEnd, piece.maximumEnd)
        longestDuration = max(longestDuration, piece.longestDuration)
    }

    /// The pieces' rows as one run sorted by start, ties in piece order: unsorted pieces are
    /// sorted, then the sorted runs are merged pairwise, as an order of rows applied to every
    /// column once. Needed only when pieces overlap in time (unflushed batches, chunks written
    /// out of order).
    ///
    /// - Complexity: O(*s* log *r*) for *s* rows in *r* runs when the pieces are sorted,
    ///   O(*s* log *s*) otherwise.
    static func sorted(_ pieces: [SweepColumns]) -> SweepColumns {
        var joined = SweepColumns()
        let total = pieces.reduce(0) { $0 + $1.count }
        joined.start.reserveCapacity(total)
        joined.end.reserveCapacity(total)
        joined.value.reserveCapacity(total)
        joined.rank.reserveCapacity(total)
        var runs: [(rows: Range<Int>, isSorted: Bool)] = []
        for piece in pieces {
            runs.append((joined.count..<joined.count + piece.count, piece.isSortedByStart))
            joined.append(piece, rows: 0..<piece.count)
        }
        joined.sortByStart(runs: runs)
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
}
