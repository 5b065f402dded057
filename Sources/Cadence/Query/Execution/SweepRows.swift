//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The rows the source-merging sweep reads, in order of start: the scan's gathered pieces laid
/// end to end, never copied into one run. Each range of the sweep copies out the rows that reach
/// it, on its own worker, so no serial join of every column comes before the sweep.
///
/// Chunks are sorted by start and come in order, so the pieces are usually in order already;
/// when they overlap in time (unflushed batches, chunks written out of order) they are sorted
/// into one piece first.
struct SweepRows {
    /// The non-empty pieces, each sorted by start, none starting before the previous one's last row.
    let pieces: [SweepColumns]
    /// Each piece's first row, then the row count.
    let offsets: [Int]

    /// The rows of `gathered`, in order of start (ties in the order of the pieces).
    ///
    /// - Complexity: O(*p*) for *p* pieces when they are in order; otherwise the sort of
    ///   ``SweepColumns/sorted(_:)``.
    init(_ gathered: [SweepColumns]) {
        let nonEmpty = gathered.filter { $0.count > 0 }
        var inOrder = true
        var previousLast = Int64.min
        for piece in nonEmpty {
            inOrder = inOrder && piece.isSortedByStart && previousLast <= piece.start[0]
            previousLast = piece.start[piece.count - 1]
        }
        pieces = inOrder || nonEmpty.isEmpty ? nonEmpty : [SweepColumns.sorted(nonEmpty)]
        var offsets = [0]
        for piece in pieces { offsets.append(offsets[offsets.count - 1] + piece.count) }
        self.offsets = offsets
    }

    var count: Int { offsets[offsets.count - 1] }

    /// The piece holding `row` (a row below ``count``).
    private func piece(holding row: Int) -> Int {
        offsets.partitionPoint { $0 > row } - 1
    }

    /// The start of `row` (a row below ``count``).
    func start(ofRow row: Int) -> Int64 {
        let index = piece(holding: row)
        return pieces[index].start[row - offsets[index]]
    }

    /// The rows a range of time from `low` to `high` needs: from the first that may still be
    /// open at `low` to the last starting before `high`. A few rows ending before `low` may
    /// lead them (the sweep skips them); none that reach `low` are left out.
    ///
    /// - Complexity: O(*p* + log *s*) for *p* pieces and *s* rows.
    func rows(reaching low: Int64, before high: Int64) -> Range<Int> {
        var lower = count
        // Pieces whose rows all end before `low` are skipped whole; in the first that reaches
        // it, no row starting before `low` minus its longest row can.
        for (index, piece) in pieces.enumerated() where piece.maximumEnd >= low {
            let (from, overflow) = low.subtractingReportingOverflow(piece.longestDuration)
            lower = offsets[index] + (overflow ? 0 : piece.start.partitionPoint { $0 >= from })
            break
        }
        let last = pieces.partitionPoint { $0.start[$0.count - 1] >= high }
        let upper = last == pieces.count ? count : offsets[last] + pieces[last].start.partitionPoint { $0 >= high }
        return lower..<max(lower, upper)
    }

    /// The columns holding `rows` and where they lie in them: a piece's own columns when the
    /// rows lie in one piece, else the rows copied out of the pieces into new columns.
    ///
    /// - Complexity: O(*r*) for the *r* rows when they span pieces, O(log *p*) otherwise.
    func columns(_ rows: Range<Int>) -> (columns: SweepColumns, rows: Range<Int>) {
        guard !rows.isEmpty else { return (SweepColumns(), 0..<0) }
        let first = piece(holding: rows.lowerBound)
        if rows.upperBound <= offsets[first + 1] {
            return (pieces[first], rows.lowerBound - offsets[first]..<rows.upperBound - offsets[first])
        }
        var copied = SweepColumns()
        copied.start.reserveCapacity(rows.count)
        copied.end.reserveCapacity(rows.count)
        copied.value.reserveCapacity(rows.count)
        copied.rank.reserveCapacity(rows.count)
        if !pieces[first].source.isEmpty { copied.source.reserveCapacity(rows.count) }
        var index = first
        while index < pieces.count && offsets[index] < rows.upperBound {
            let low = max(rows.lowerBound, offsets[index]) - offsets[index]
            let high = min(rows.upperBound, offsets[index + 1]) - offsets[index]
            copied.append(pieces[index], rows: low..<high)
            index += 1
        }
        return (copied, 0..<copied.count)
    }
}
