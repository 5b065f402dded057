//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Runs statistics over a snapshot: plans a scan of the type's storage, accumulates each run of
/// portions the scan yields on its own core, merges the partials, and sweeps over time where sources must be
/// merged.
///
/// Two kernels (<doc:HowCadenceComputes#Intervals-and-contributions>, <doc:HowCadenceComputes#Merging-sources>):
/// - *Per-run accumulation* (``Aggregator/accumulate(_:selection:separate:gatherRows:)``): each run of
///   portions of the scan produces partial ``StatisticsAccumulator``s for the intervals it touches; partials merge at
///   the end. Blocks that lie wholly inside one interval and are wholly selected come as summaries,
///   without decoding. This gives counts, prorated sums without merging, the discrete statistics
///   and most recent.
/// - *Time sweep* (`SourceMergingSweep.swift`): when sources must be merged (a cumulative sum with
///   more than one source rank) or durations are asked for, the selected samples are gathered,
///   sorted by start, and swept over time in parallel partitions of intervals; each slice between
///   sample edges goes to the best-ranked source covering it.
package struct Aggregator {
    package let snapshot: StoreSnapshot
    package let type: QuantityType
    package let predicate: SamplePredicate
    package let options: StatisticsOptions
    package let edges: [Int64]
    package let ranking: SourceRanking
    /// Worker count for `concurrentPerform` (1 forces the serial path, for measuring speed-up).
    package var parallelism = ProcessInfo.processInfo.activeProcessorCount
    /// The fewest rows in a part of a chunk (tests lower it to split small chunks).
    package var minimumPartRows = 16_384
    /// The fewest intervals in a slice of the final merge of partials (fewer are not worth a
    /// worker's wake-up; tests lower it to merge a few intervals in slices).
    package var minimumMergeIntervals = 4_096
    /// How many partitions of intervals the source-merging sweep takes (nil: four a worker, of
    /// equal shares of the samples; tests force small ones to put seams everywhere).
    package var sweepPartitionCount: Int?
    /// What the summaries say of the selected samples, when the caller surveyed them already
    /// (a collection plan does, for its edges); surveyed here otherwise.
    var survey: SelectionSurvey?

    package init(snapshot: StoreSnapshot, type: QuantityType, predicate: SamplePredicate, options: StatisticsOptions,
                 edges: [Int64], sourcePriority: [String]?) {
        self.init(snapshot: snapshot, type: type, predicate: predicate, options: options, edges: edges,
                  ranking: SourceRanking(for: type.identifier, in: snapshot, priority: sourcePriority))
    }

    /// An aggregator ranking sources by `ranking`, made already for `type` in `snapshot` (a
    /// collection plan ranks them once for its survey and its aggregation).
    init(snapshot: StoreSnapshot, type: QuantityType, predicate: SamplePredicate, options: StatisticsOptions,
         edges: [Int64], ranking: SourceRanking) {
        self.snapshot = snapshot
        self.type = type
        self.predicate = predicate
        self.options = options
        self.edges = edges
        self.ranking = ranking
    }

    /// The scan this query needs over `typeSnapshot`: its selection, the span of its intervals, the
    /// columns it reads, and blocks answered by summaries where they lie inside one interval (and
    /// have one source, when sources are kept apart).
    func plan(for typeSnapshot: TypeSnapshot, separate: Bool) -> ScanPlan {
        var plan = ScanPlan(selection: RowSelection(predicate, type: typeSnapshot, provenances: snapshot.provenances))
        plan.span = edges[0]...edges[edges.count - 1]
        // Every query reads each row's source: the collection reports the sources that contributed
        // (``StatisticsCollection/sources()``), whatever the style.
        var needs: ColumnCodec.QueryColumnNeeds = [.provenance]
        if options.contains(.mostRecent) || !plan.selection.hidden.isEmpty || plan.selection.general != nil {
            needs.insert(.sequence)
        }
        plan.columns = needs
        plan.summaryAnswers = SummaryAnswers(intervals: IntervalLookup(edges: edges),
                                             sourceOfProvenance: separate ? ranking.sourceOfProvenance : nil)
        return plan
    }

    // MARK: Running

    /// Aggregates the type's samples into the intervals.
    ///
    /// - Complexity: O(*c* + *d* + *m*) for *c* chunks, *d* decoded samples and *m* intervals, plus
    ///   O(*s* · *a*) over the *s* selected samples, at most *a* of them overlapping, when sources
    ///   must be merged or durations are requested (O(*s* log *s*) when chunks overlap in time);
    ///   divided among the cores.
    package func run() throws -> AggregationOutput {
        let intervalCount = max(edges.count - 1, 0)
        let separate = options.contains(.separateBySource)
        var output = AggregationOutput(
            edges: edges, sources: ranking.sources, sourcesSeen: [], merged: [],
            perSource: separate ? [[StatisticsAccumulator]](repeating: [StatisticsAccumulator](repeating: StatisticsAccumulator(), count: intervalCount), count: ranking.sources.count) : [],
            kind: .quantity(AggregationOutput.QuantityMeasures(mergedSum: nil, duration: nil)))
        guard intervalCount > 0, let typeSnapshot = snapshot.types[type.identifier] else {
            output.merged = [StatisticsAccumulator](repeating: StatisticsAccumulator(), count: intervalCount)
            return output
        }
        // Whether the time sweep will be needed, judged from the summaries (a superset of the
        // selected samples): if so, every row is read once for both kernels.
        let probe = plan(for: typeSnapshot, separate: separate)
        let survey = self.survey ?? SelectionSurvey(typeSnapshot, plan: probe, ranking: ranking)
        let mayMerge = options.contains(.cumulativeSum) && !type.aggregationStyle.isDiscrete && survey.hasSeveralRanks
        let gatherRows = mayMerge || options.contains(.duration)
        var scanPlan = probe
        scanPlan.readsEveryRow = gatherRows
        let partials = try typeSnapshot.scan(scanPlan, parallelism: parallelism, minimumPartRows: minimumPartRows) { run in
            try accumulate(run, selection: scanPlan.selection, separate: separate, gatherRows: gatherRows)
        }
        var ranksSeen = [Bool](repeating: false, count: ranking.rankCount)
        output.merged = mergedPartials(partials, intervalCount: intervalCount)
        output.sourcesSeen = [Bool](repeating: false, count: ranking.sources.count)
        // Partials are read in place: a copy of one would retain each of its arrays.
        partials.withUnsafeBufferPointer { partials in
            for index in partials.indices {
                for (source, accumulators) in partials[index].perSource {
                    for (offset, accumulator) in accumulators.enumerated() {
                        output.perSource[source][partials[index].first + offset].merge(accumulator)
                    }
                }
                partials[index].ranksSeen.withUnsafeBufferPointer { seen in
                    for rank in seen.indices where seen[rank] { ranksSeen[rank] = true }
                }
                partials[index].sourcesSeen.withUnsafeBufferPointer { seen in
                    for source in seen.indices where seen[source] { output.sourcesSeen[source] = true }
                }
            }
        }
        let needsMerge = options.contains(.cumulativeSum) && !type.aggregationStyle.isDiscrete
            && ranksSeen.filter { $0 }.count > 1
        if needsMerge || options.contains(.duration) {
            let sweep = sweepAll(SweepRows(partials.flatMap(\.sweepColumns)), separate: separate)
            output.kind = .quantity(AggregationOutput.QuantityMeasures(
                mergedSum: needsMerge ? sweep.sum : nil,
                duration: options.contains(.duration) ? PerInterval(merged: sweep.duration, perSource: sweep.perSourceDuration) : nil))
        }
        return output
    }

    /// The partials' accumulators merged per interval, built in parallel: each worker fills its
    /// own slice of the intervals (allocating, initialising and merging into its slice), taking
    /// the partials that overlap it in their order, so every interval merges the same partials in
    /// the same order as one pass would. Serially, these page faults and merges of a million
    /// intervals were a share of a fast scan that no second core could take.
    ///
    /// - Complexity: O(*m* + *p* · *w*) for *m* intervals, *p* partials and *w* slices, divided
    ///   among the cores.
    private func mergedPartials(_ partials: [Partial], intervalCount: Int) -> [StatisticsAccumulator] {
        let sliceIntervals = max(minimumMergeIntervals, 1)
        let slices = parallelism > 1 && intervalCount / 2 >= sliceIntervals
            ? min(parallelism * 4, intervalCount / sliceIntervals) : 1
        return [StatisticsAccumulator](unsafeUninitializedCapacity: intervalCount) { buffer, initialized in
            let merged = buffer
            _ = concurrentMap(Array(0..<slices), parallelism: parallelism) { slice in
                let low = intervalCount * slice / slices
                let high = intervalCount * (slice + 1) / slices
                let target = UnsafeMutableBufferPointer(rebasing: merged[low..<high])
                target.initialize(repeating: StatisticsAccumulator())
                partials.withUnsafeBufferPointer { partials in
                    for index in partials.indices {
                        let partialFirst = partials[index].first
                        let first = max(low, partialFirst)
                        let end = min(high, partialFirst &+ partials[index].merged.count)
                        guard first < end else { continue }
                        partials[index].merged.withUnsafeBufferPointer { accumulators in
                            for interval in first..<end {
                                target[interval &- low].merge(accumulators[interval &- partialFirst])
                            }
                        }
                    }
                }
            }
            initialized = intervalCount
        }
    }

    /// Maps `body` over `items` with `DispatchQueue.concurrentPerform`, keeping the order; the first
    /// error thrown is rethrown (typed, so a body that cannot throw needs no `try`).
    func parallelMap<T, R, E: Error>(_ items: [T], _ body: (T) throws(E) -> R) throws(E) -> [R] {
        try concurrentMap(items, parallelism: parallelism, body)
    }
}
