//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The time sweep that merges sources (SPEC §5) and measures durations: selected samples sorted
/// by start, swept over time in parallel partitions of intervals, each slice between sample
/// edges going to the best-ranked source covering it.
extension Aggregator {

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

    /// The units' gathered rows as one run sorted by start, with the running maximum of ends.
    ///
    /// Units come in order of their first start and each chunk is sorted, so the pieces are
    /// usually in order already. They are copied into place in parallel, each checking its own
    /// order and taking its own running maximum; the maximum is then carried across pieces, which
    /// rewrites only a piece's first rows, those ending before an earlier piece's latest end.
    ///
    /// - Complexity: O(*s*) divided among the cores when already sorted, O(*s* log *s*) otherwise.
    func sortedRows(_ pieces: [[SweepRow]]) -> SortedRows {
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
    func sweepAll(_ rows: SortedRows, separate: Bool) -> SweepOutput {
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
        var next = sorted.maximumEndOfPrefix.partitionPoint { $0 >= low }
        let stop = sorted.rows.partitionPoint { $0.start >= high }
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
}
