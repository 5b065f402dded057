//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Category durations and counts per interval (<doc:HowCadenceComputes#Category-durations>) **[Cadence rule]**: the time sweep of a
/// category statistics collection.
///
/// The samples of the requested values' track are gathered through the scan (the predicate
/// selects them) and swept over time. At each instant the best-ranked source (the ranking of <doc:HowCadenceComputes#Merging-sources>,
/// per-type priority list included) with a track sample covering it decides: the instant counts
/// when that source has a sample there whose value is in the set. So Watch stages, a third-party
/// app and a manual entry never double count, and one source's states decide each instant. Per
/// source (`separateBySource`), an instant counts when the source's own samples in the set cover it.
/// The count of an interval is the number of samples in the set that start in it.
///
/// - Complexity: O(*s* log *s* + (*s* + *m*) · *r*) for *s* track samples, *m* intervals and *r*
///   merge ranks (sources × 2), plus the scan.
package struct CategoryDurationSweep {
    let snapshot: StoreSnapshot
    /// The storage series of the category type.
    let series: QuantityType
    let predicate: SamplePredicate
    /// The raw values whose time and samples are measured.
    let values: Set<Int>
    /// The values of their track (a superset of `values`); `nil` for every value.
    let track: Set<Int>?
    let separate: Bool
    let edges: [Int64]
    let ranking: SourceRanking
    let parallelism: Int

    /// A sample of the track, with its merge rank and source.
    private struct Row {
        var start: Int64
        var end: Int64
        var rank: Int32
        var source: Int32
        var isInSet: Bool
    }

    package init(snapshot: StoreSnapshot, series: QuantityType, predicate: SamplePredicate, values: Set<Int>,
                 track: Set<Int>?, separate: Bool, edges: [Int64], ranking: SourceRanking, parallelism: Int) {
        self.snapshot = snapshot
        self.series = series
        self.predicate = predicate
        self.values = values
        self.track = track
        self.separate = separate
        self.edges = edges
        self.ranking = ranking
        self.parallelism = parallelism
    }

    /// What ``note(_:into:)`` counts per interval: the accumulators, the sources seen and the
    /// start counts.
    private struct Tally {
        var merged: [StatisticsAccumulator]
        var perSource: [[StatisticsAccumulator]]
        var sourcesSeen: [Bool]
        var startCounts: PerInterval<Int>
    }

    /// Measures every interval.
    package func run() throws -> AggregationOutput {
        let intervalCount = max(edges.count - 1, 0)
        let sourceCount = ranking.sources.count
        let separateCount = separate ? sourceCount : 0
        var tally = Tally(
            merged: [StatisticsAccumulator](repeating: StatisticsAccumulator(), count: intervalCount),
            perSource: [[StatisticsAccumulator]](repeating: [StatisticsAccumulator](repeating: StatisticsAccumulator(), count: intervalCount), count: separateCount),
            sourcesSeen: [Bool](repeating: false, count: sourceCount),
            startCounts: PerInterval(repeating: 0, intervals: intervalCount, sources: separateCount))
        let duration: PerInterval<Double>
        if intervalCount > 0, let stored = snapshot.types[series.identifier] {
            let rows = try gather(stored)
            note(rows, into: &tally)
            duration = sweep(rows)
        } else {
            duration = PerInterval(repeating: 0, intervals: intervalCount, sources: separateCount)
        }
        return AggregationOutput(
            edges: edges, sources: ranking.sources, sourcesSeen: tally.sourcesSeen, merged: tally.merged,
            perSource: tally.perSource,
            kind: .category(AggregationOutput.CategoryMeasures(duration: duration, startCounts: tally.startCounts)))
    }

    /// The selected samples of the track, through the scan.
    private func gather(_ stored: TypeSnapshot) throws -> [Row] {
        var plan = ScanPlan(selection: RowSelection(predicate, type: stored, provenances: snapshot.provenances))
        plan.span = edges[0]...edges[edges.count - 1]
        plan.readsEveryRow = true
        let track = track.map { Set($0.map(Double.init)) }
        let values = Set(values.map(Double.init))
        let ranking = ranking
        let pieces = try stored.scan(plan, parallelism: parallelism) { run -> [Row] in
            var rows: [Row] = []
            try run.forEach { portion in
                let columns = portion.columns
                for block in portion.blocks {
                    guard let range = block.rows else { continue }
                    for row in range where (block.isWhollySelected || plan.selection.selects(columns, row))
                        && track?.contains(columns.value[row]) != false {
                        let provenance = Int(columns.provenance[row])
                        let rankIndex = provenance * 2 + (columns.flags(at: row) & SampleFlags.userEntered != 0 ? 1 : 0)
                        guard rankIndex < ranking.rankOfProvenance.count else { continue }
                        rows.append(Row(start: columns.start[row], end: columns.end[row],
                                        rank: ranking.rankOfProvenance[rankIndex], source: ranking.sourceOfProvenance[provenance],
                                        isInSet: values.contains(columns.value[row])))
                    }
                }
            }
            return rows
        }
        return pieces.flatMap { $0 }
    }

    /// Counts the samples in the set that start in each interval, and marks the intervals they
    /// overlap as having data (an instant sample: the interval holding it).
    private func note(_ rows: [Row], into tally: inout Tally) {
        let lookup = IntervalLookup(edges: edges)
        for row in rows where row.isInSet {
            let source = Int(row.source)
            let first = lookup.upperBound(row.start) - 1
            if first >= 0 && first < lookup.count {
                tally.startCounts.merged[first] += 1
                if separate { tally.startCounts.perSource[source][first] += 1 }
            }
            let last = row.end == row.start ? first : lookup.upperBound(row.end - 1) - 1
            guard last >= 0, first < lookup.count else { continue }
            tally.sourcesSeen[source] = true
            for interval in max(first, 0)...min(last, lookup.count - 1) {
                let overlap = min(row.end, edges[interval + 1]) - max(row.start, edges[interval])
                tally.merged[interval].add(start: row.start, end: row.end, value: 0, energy: 0, sequence: 0,
                                           overlap: max(overlap, 0))
                if separate {
                    tally.perSource[source][interval].add(start: row.start, end: row.end, value: 0, energy: 0, sequence: 0,
                                                          overlap: max(overlap, 0))
                }
            }
        }
    }

    /// Sweeps the samples' edges in time order: between two edges, the covering samples are
    /// fixed, so the slice's winner and each source's coverage are decided once. Returns the
    /// seconds counted per interval, merged and per source.
    private func sweep(_ rows: [Row]) -> PerInterval<Double> {
        // Events: +1 at a start, −1 at an end (zero-length samples never cover time).
        var events: [(time: Int64, row: Int32, delta: Int32)] = []
        events.reserveCapacity(rows.count * 2)
        for (index, row) in rows.enumerated() where row.start < row.end {
            events.append((row.start, Int32(index), 1))
            events.append((row.end, Int32(index), -1))
        }
        events.sort { $0.time < $1.time }
        var coveringTrack = [Int32](repeating: 0, count: ranking.rankCount)
        var coveringSet = [Int32](repeating: 0, count: ranking.rankCount)
        var coveringSource = [Int32](repeating: 0, count: separate ? ranking.sources.count : 0)
        // Microseconds, exact; converted to seconds once at the end.
        var merged = [Int64](repeating: 0, count: edges.count - 1)
        var perSource = [[Int64]](repeating: [Int64](repeating: 0, count: edges.count - 1), count: coveringSource.count)
        var next = 0
        while next < events.count {
            let time = events[next].time
            while next < events.count && events[next].time == time {
                let event = events[next]
                let row = rows[Int(event.row)]
                coveringTrack[Int(row.rank)] += event.delta
                if row.isInSet {
                    coveringSet[Int(row.rank)] += event.delta
                    if separate { coveringSource[Int(row.source)] += event.delta }
                }
                next += 1
            }
            guard next < events.count else { break }
            let sliceEnd = events[next].time
            let winner = coveringTrack.firstIndex { $0 > 0 }
            let mergedCounts = winner.map { coveringSet[$0] > 0 } ?? false
            let anySource = separate && coveringSource.contains { $0 > 0 }
            guard mergedCounts || anySource else { continue }
            forEachIntervalPart(of: time..<sliceEnd) { interval, overlap in
                if mergedCounts { merged[interval] += overlap }
                for source in coveringSource.indices where coveringSource[source] > 0 {
                    perSource[source][interval] += overlap
                }
            }
        }
        return PerInterval(merged: merged.map { Double($0) / 1_000_000 },
                           perSource: perSource.map { $0.map { Double($0) / 1_000_000 } })
    }

    /// Calls `body` with each interval a time range overlaps and the microseconds of the overlap.
    private func forEachIntervalPart(of range: Range<Int64>, _ body: (Int, Int64) -> Void) {
        let lower = max(range.lowerBound, edges[0])
        let upper = min(range.upperBound, edges[edges.count - 1])
        guard lower < upper else { return }
        var interval = edges.partitionPoint { $0 > lower } - 1
        while interval < edges.count - 1 && edges[interval] < upper {
            let overlap = min(upper, edges[interval + 1]) - max(lower, edges[interval])
            if overlap > 0 { body(interval, overlap) }
            interval += 1
        }
    }
}
