//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The time sweep that merges sources (<doc:HowCadenceComputes#Merging-sources>) and measures durations: selected samples sorted
/// by start, swept over time in parallel partitions of intervals, each slice between sample
/// edges going to the best-ranked source covering it.
extension Aggregator {

    struct SweepOutput {
        var sum: [Double]
        var duration: [Double]
        var perSourceDuration: [[Double]]
    }

    /// Sweeps partitions of intervals in parallel; each partition owns its intervals' results,
    /// so the results are the serial sweep's bit for bit (a partition starts with the samples
    /// open at its first edge, in the order the serial sweep holds them there). Each partition
    /// copies out its own rows from the scan's pieces, so the gathering is divided among the
    /// workers too.
    func sweepAll(_ rows: SweepRows, separate: Bool) -> SweepOutput {
        let intervalCount = edges.count - 1
        let ranges = sweepPartitions(rows)
        let pieces = parallelMap(ranges) { range in
            let (columns, span) = rows.columns(rows.rows(reaching: edges[range.lowerBound], before: edges[range.upperBound]))
            return sweep(columns, rows: span, intervals: range, separate: separate)
        }
        var output = SweepOutput(sum: [Double](repeating: 0, count: intervalCount),
                                 duration: [Double](repeating: 0, count: intervalCount),
                                 perSourceDuration: separate ? [[Double]](repeating: [Double](repeating: 0, count: intervalCount), count: ranking.sources.count) : [])
        for (range, piece) in zip(ranges, pieces) {
            output.sum.replaceSubrange(range, with: piece.sum)
            output.duration.replaceSubrange(range, with: piece.duration)
            for source in piece.perSourceDuration.indices {
                output.perSourceDuration[source].replaceSubrange(range, with: piece.perSourceDuration[source])
            }
        }
        return output
    }

    /// The sweep's partitions of intervals: with ``sweepPartitionCount``, that many with equal
    /// numbers of intervals; otherwise four a worker, cut at the edges where equal shares of the
    /// sorted samples start (so the workers' shares are even when the samples are not).
    ///
    /// - Complexity: O(*p* log *m*) for *p* partitions and *m* intervals.
    func sweepPartitions(_ rows: SweepRows) -> [Range<Int>] {
        let intervalCount = edges.count - 1
        var cuts = [0]
        if let forced = sweepPartitionCount {
            let count = max(1, min(intervalCount, forced))
            cuts += (1..<count).map { intervalCount * $0 / count }
        } else {
            let count = parallelism > 1 ? parallelism * 4 : 1
            for part in 1..<max(count, 1) {
                let row = rows.count * part / count
                guard row < rows.count else { continue }
                let start = rows.start(ofRow: row)
                cuts.append(min(max(edges.partitionPoint { $0 > start } - 1, 0), intervalCount))
            }
        }
        cuts.append(intervalCount)
        return zip(cuts, cuts.dropFirst()).map { $0..<$1 }.filter { !$0.isEmpty }
    }

    /// Sweeps one partition of intervals: from its first edge, time advances slice by slice (a
    /// slice ends at the next sample start, sample end or edge); each slice's length goes to the
    /// best-ranked open samples' sums and to the duration.
    ///
    /// The open samples live in one buffer compacted in place and zero-length samples are taken
    /// from the rows just added, so a step allocates nothing.
    ///
    /// - Complexity: O(*s* · *a*) for the *s* `rows` of `columns` reaching the partition and at
    ///   most *a* of them open at once.
    private func sweep(_ columns: SweepColumns, rows: Range<Int>, intervals: Range<Int>, separate: Bool) -> SweepOutput {
        var sum = [Double](repeating: 0, count: intervals.count)
        var duration = [Double](repeating: 0, count: intervals.count)
        var perSourceDuration = separate ? [[Double]](repeating: [Double](repeating: 0, count: intervals.count), count: ranking.sources.count) : []
        let low = edges[intervals.lowerBound]
        var next = rows.lowerBound
        let stop = rows.upperBound
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
        columns.start.withUnsafeBufferPointer { starts in
        columns.end.withUnsafeBufferPointer { ends in
        columns.value.withUnsafeBufferPointer { values in
        columns.rank.withUnsafeBufferPointer { ranks in
        sum.withUnsafeMutableBufferPointer { sums in
        duration.withUnsafeMutableBufferPointer { durations in
            while true {
                // Close the samples that ended; the kept ones give the earliest end and the best
                // rank, so no second pass over the open samples is needed.
                var kept = 0
                var earliestEnd = Int64.max
                var winner = Int32.max
                for position in 0..<activeCount {
                    let row = active[position]
                    let end = ends[row]
                    if end > time {
                        active[kept] = row
                        kept &+= 1
                        earliestEnd = min(earliestEnd, end)
                        winner = min(winner, ranks[row])
                    }
                }
                activeCount = kept
                // Open the samples starting at or before `time`.
                let added = next
                var addedInstant = false
                while next < stop && starts[next] <= time {
                    let end = ends[next]
                    if starts[next] != end {
                        if end > time {
                            active[activeCount] = next
                            activeCount &+= 1
                            earliestEnd = min(earliestEnd, end)
                            winner = min(winner, ranks[next])
                        }
                    } else {
                        addedInstant = true
                    }
                    next &+= 1
                }
                // Zero-length samples at `time` count whole unless a better rank is open.
                for instant in added..<(addedInstant ? next : added) where starts[instant] == ends[instant]
                    && starts[instant] == time && starts[instant] >= low && ranks[instant] <= winner {
                    sums[interval &- first] += values[instant]
                }
                if activeCount == 0 {
                    guard next < stop else { break }
                    time = max(starts[next], low)
                    while interval &+ 1 <= intervals.upperBound &- 1 && edges[interval &+ 1] <= time { interval &+= 1 }
                    continue
                }
                var sliceEnd = min(edges[interval &+ 1], earliestEnd)
                if next < stop { sliceEnd = min(sliceEnd, starts[next]) }
                let length = sliceEnd &- time
                if length > 0 {
                    let slot = interval &- first
                    for position in 0..<activeCount where ranks[active[position]] == winner {
                        let row = active[position]
                        sums[slot] += values[row] * (Double(length) / Double(ends[row] &- starts[row]))
                    }
                    durations[slot] += Double(length) * 1e-6
                    if separate {
                        for index in 0..<seenSources.count { seenSources[index] = false }
                        for position in 0..<activeCount where !seenSources[Int(columns.source[active[position]])] {
                            let source = Int(columns.source[active[position]])
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
        }
        }
        }
        return SweepOutput(sum: sum, duration: duration, perSourceDuration: perSourceDuration)
    }
}
