//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// A ``StatisticsCollectionQuery`` compiled against one snapshot: the span its samples can reach
/// and the calendar's interval edges over it, ready to run. The query stays a plain value; the
/// collection it yields only holds results.
package struct CollectionPlan {
    package let query: StatisticsCollectionQuery
    let snapshot: StoreSnapshot
    let edges: IntervalEdges
    /// Whether any sample can contribute (no span, no intervals to aggregate).
    let hasData: Bool
    /// The snapshot's sources ranked for the query.
    let ranking: SourceRanking
    /// What the summaries say of the samples the query selects (its span, its sources' ranks).
    let survey: SelectionSurvey?

    /// Plans `query` over `snapshot`.
    ///
    /// - Throws: ``CadenceError/Code/invalidQuery`` when the data's span would need too many intervals.
    package init(_ query: StatisticsCollectionQuery, snapshot: StoreSnapshot) throws {
        // The query's fields are variables, so its interval is checked again here.
        try query.intervalComponents.validate()
        self.query = query
        self.snapshot = snapshot
        let ranking = SourceRanking(for: query.quantityType.identifier, in: snapshot, priority: query.sourcePriority)
        self.ranking = ranking
        survey = snapshot.types[query.quantityType.identifier].map { type in
            SelectionSurvey(type, plan: ScanPlan(selection: RowSelection(query.predicate, type: type, provenances: snapshot.provenances)),
                            ranking: ranking)
        }
        let span = survey?.span
        hasData = span != nil
        let covering = span ?? 0...0
        let maximumIntervals = try Self.maximumIntervals(query: query, sourceCount: snapshot.provenances.count,
                                                         covering: covering)
        edges = try IntervalEdges(calendar: query.calendar, anchor: query.anchorDate.timestamp, components: query.intervalComponents,
                                  covering: covering, maximumEdgeCount: maximumIntervals + 1)
    }

    /// The most memory one query's intervals may take: a quarter of the machine's, at most 2 GiB.
    static let intervalMemoryBudget = Int(min(ProcessInfo.processInfo.physicalMemory / 4, 2 << 30))

    /// How many intervals fit in ``intervalMemoryBudget`` — an edge and the accumulators of each
    /// (one per source too when separated by source) — checked against an estimate of the count
    /// before anything is allocated.
    ///
    /// - Throws: ``CadenceError/Code/invalidQuery`` when the query's intervals would not fit.
    private static func maximumIntervals(query: StatisticsCollectionQuery, sourceCount: Int,
                                         covering: ClosedRange<Int64>) throws -> Int {
        let accumulators = 2 + (query.options.contains(.separateBySource) ? sourceCount : 0)
        let bytesPerInterval = MemoryLayout<Timestamp>.stride + accumulators * MemoryLayout<StatisticsAccumulator>.stride
        let maximum = max(2, intervalMemoryBudget / bytesPerInterval)
        let length = max(1, query.intervalComponents.nominalMicroseconds)
        let estimate = (covering.upperBound - covering.lowerBound) / length + 1
        guard estimate <= maximum else {
            let neededMiB = (estimate * Int64(bytesPerInterval)) >> 20
            throw CadenceError(.invalidQuery, "the query needs about \(estimate) intervals of \(query.intervalComponents) (\(neededMiB) MiB "
                               + "of memory), more than one query may use (\(intervalMemoryBudget >> 20) MiB); use a longer interval or a shorter time range")
        }
        return maximum
    }

    /// Aggregates the intervals on `parallelism` cores (1 forces the serial path).
    ///
    /// - Complexity: O(*c* + *m*) for *c* chunks and *m* intervals when summaries answer, plus the
    ///   samples that must be decoded, spread over the cores.
    package func execute(parallelism: Int? = nil) throws -> StatisticsCollection {
        if let category = query.category {
            let sweep = CategoryDurationSweep(
                snapshot: snapshot, series: query.quantityType, predicate: query.predicate, values: category.values,
                track: category.type.track(of: category.values), separate: query.options.contains(.separateBySource),
                edges: hasData ? edges.edges : [], ranking: ranking,
                parallelism: parallelism ?? ProcessInfo.processInfo.activeProcessorCount)
            return StatisticsCollection(query: query, output: try sweep.run(), edges: edges)
        }
        var aggregator = Aggregator(snapshot: snapshot, type: query.quantityType, predicate: query.predicate,
                                    options: query.options, edges: hasData ? edges.edges : [], ranking: ranking)
        if let parallelism { aggregator.parallelism = max(1, parallelism) }
        aggregator.survey = survey
        return StatisticsCollection(query: query, output: try aggregator.run(), edges: edges)
    }

}
