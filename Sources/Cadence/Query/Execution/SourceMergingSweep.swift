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

    /// Sweeps one partition of intervals: from its first edge, time advances slice by slice (a
    /// slice ends at the next sample start, sample end or edge); each slice's length goes to the
    /// best-ranked open samples' sums and to the duration.
    ///
    /// The open samples live in one buffer compacted in place and zero-length samples are taken
    /// from the rows just added, so a step allocates nothing.
    ///
    /// - Complexity: O(*s* · *a*) for the *s* rows reaching the partition and at most *a* of them
    ///   open at once.
    private func sweep(_ sorted: SortedRows, intervals: Range<Int>, separate: Bool) -> SweepOutput {
        var sum = [Double](repeating: 0, count: intervals.count)
        var duration = [Double](repeating: 0, count: intervals.count)
        var perSourceDuration = separate ? [[Double]](repeating: [Double](repeating: 0, count: intervals.count), count: ranking.sources.count) : []
        let low = edges[intervals.lowerBound]
        let high = edges[intervals.upperBound]
        // First sample whose prefix reaches `low`, and the end of samples starting before `high`.
        var next = sorted.maximumEndOfPrefix.partitionPoint { $0 >= low }
        let stop = sorted.rows.partitionPoint { $0.start >= high }
        guard next < stop else { return SweepOutput(sum: sum, duration: duration, perSourceDuration: perSourceDuration) }
        var seenSources = [Bool](repeating: false, count: separate ? ranking.sources.count : 0)
        // The open samples (indexes into the rows); never more than the rows reaching the partition.
        let active = UnsafeMutableBufferPointer<Int>.allocate(capacity: stop - next)
        defer { active.deallocate() }
        var activeCount = 0
        var time = low
        var interval = intervals.lowerBound
        let first = intervals.lowerBound
        edges.withUnsafeBufferPointer { edges in
        sorted.rows.withUnsafeBufferPointer { rows in
        sum.withUnsafeMutableBufferPointer { sums in
        duration.withUnsafeMutableBufferPointer { durations in
            while true {
                // Close the samples that ended.
                var kept = 0
                for position in 0..<activeCount where rows[active[position]].end > time {
                    active[kept] = active[position]
                    kept &+= 1
                }
                activeCount = kept
                // Open the samples starting at or before `time`.
                let added = next
                while next < stop && rows[next].start <= time {
                    if rows[next].start != rows[next].end && rows[next].end > time {
                        active[activeCount] = next
                        activeCount &+= 1
                    }
                    next &+= 1
                }
                // Zero-length samples at `time` count whole unless a better rank is open.
                for instant in added..<next where rows[instant].start == rows[instant].end
                    && rows[instant].start == time && rows[instant].start >= low {
                    let rank = rows[instant].rank
                    var shadowed = false
                    for position in 0..<activeCount where rows[active[position]].rank < rank { shadowed = true }
                    if !shadowed { sums[interval &- first] += rows[instant].value }
                }
                if activeCount == 0 {
                    guard next < stop else { break }
                    time = max(rows[next].start, low)
                    while interval &+ 1 <= intervals.upperBound &- 1 && edges[interval &+ 1] <= time { interval &+= 1 }
                    continue
                }
                var sliceEnd = edges[interval &+ 1]
                if next < stop { sliceEnd = min(sliceEnd, rows[next].start) }
                var winner = Int32.max
                for position in 0..<activeCount {
                    let row = rows[active[position]]
                    sliceEnd = min(sliceEnd, row.end)
                    winner = min(winner, row.rank)
                }
                let length = sliceEnd &- time
                if length > 0 {
                    let slot = interval &- first
                    for position in 0..<activeCount where rows[active[position]].rank == winner {
                        let row = rows[active[position]]
                        sums[slot] += row.value * (Double(length) / Double(row.end &- row.start))
                    }
                    durations[slot] += Double(length) * 1e-6
                    if separate {
                        for index in 0..<seenSources.count { seenSources[index] = false }
                        for position in 0..<activeCount where !seenSources[Int(rows[active[position]].source)] {
                            let source = Int(rows[active[position]].source)
                            seenSources[source] = true
                            perSourceDuration[source][slot] += Double(length) * 1e-6
                        }
                    }
                }
                time = sliceEnd
                if time >= edges[interval &+ 1] {
                    interval &+= 1
                    if interval >= intervals.upperBound { break }
                }
            }
        }
        }
        }
        }
        return SweepOutput(sum: sum, duration: duration, perSourceDuration: perSourceDuration)
    }
}
