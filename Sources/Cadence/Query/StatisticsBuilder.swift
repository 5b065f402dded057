//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Turns accumulated intervals into ``StatisticsCollection/Interval`` views and ``Statistics``
/// values, applying the nil rules of <doc:HowCadenceComputes#Statistics-options> through ``StatisticsValues``.
///
/// One is made per collection (or statistics query) and shared by every ``Statistics`` it
/// makes: a ``Statistics`` is this reference and an interval's place, and reads its numbers
/// here when asked, so that listing a million intervals writes a few words each instead of
/// copying their accumulators (whose fresh pages cost more than the query at that count).
final class StatisticsBuilder: Sendable {
    let type: QuantityType
    let options: StatisticsOptions
    let output: AggregationOutput
    /// Each source's number in ``AggregationOutput/sources``, when sources were kept apart: a
    /// report asks every interval for each of its sources.
    private let sourceNumbers: [Source: Int]

    init(type: QuantityType, options: StatisticsOptions, output: AggregationOutput) {
        self.type = type
        self.options = options
        self.output = output
        sourceNumbers = output.perSource.isEmpty ? [:]
            : Dictionary(output.sources.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
    }

    /// The merged values of the `index`th computed interval.
    func values(at index: Int) -> StatisticsValues {
        let mergedSum: Double?
        let duration: Double?
        let count: Int?
        switch output.kind {
        case .quantity(let quantity):
            mergedSum = quantity.mergedSum?[index]
            duration = quantity.duration?.merged[index]
            count = nil
        case .category(let category):
            mergedSum = nil
            duration = category.duration.merged[index]
            count = category.startCounts.merged[index]
        }
        return StatisticsValues(output.merged[index], mergedSum: mergedSum, coveredSeconds: duration, startCount: count,
                                style: type.aggregationStyle, options: options)
    }

    /// The values of an interval no sample contributed to.
    var emptyValues: StatisticsValues { .empty(style: type.aggregationStyle, options: options) }

    /// The values of `source` in the `index`th computed interval, or `nil` when it has none there
    /// or sources were not kept apart.
    func values(of source: Source, at index: Int) -> StatisticsValues? {
        sourceNumbers[source].flatMap { values(ofSource: $0, at: index) }
    }

    /// The values of source number `source` (in ``AggregationOutput/sources``) in the `index`th
    /// computed interval, or `nil` when it has none there or sources were not kept apart.
    private func values(ofSource source: Int, at index: Int) -> StatisticsValues? {
        guard source < output.perSource.count, output.perSource[source][index].count > 0 else { return nil }
        let duration: Double?
        let count: Int?
        switch output.kind {
        case .quantity(let quantity):
            duration = quantity.duration?.perSource[source][index]
            count = nil
        case .category(let category):
            duration = category.duration.perSource[source][index]
            count = category.startCounts.perSource[source][index]
        }
        return StatisticsValues(output.perSource[source][index], mergedSum: nil, coveredSeconds: duration,
                                startCount: count, style: type.aggregationStyle, options: options)
    }

    /// The sources with values of their own in the `index`th computed interval.
    func sources(at index: Int) -> [Source] {
        output.perSource.indices.filter { output.perSource[$0][index].count > 0 }.map { output.sources[$0] }
    }

    /// The `index`th computed interval.
    func interval(at index: Int) -> StatisticsCollection.Interval {
        StatisticsCollection.Interval(start: output.edges[index], end: output.edges[index + 1], values: values(at: index),
                                      index: index)
    }

    /// An interval outside the computed ones.
    func emptyInterval(start: Int64, end: Int64) -> StatisticsCollection.Interval {
        StatisticsCollection.Interval(start: start, end: end, values: emptyValues, index: nil)
    }

    /// Calls `body` with every computed interval that has a contributing sample, in order.
    func forEachInterval(_ body: (StatisticsCollection.Interval) throws -> Void) rethrows {
        for index in output.merged.indices where output.merged[index].count > 0 {
            try body(interval(at: index))
        }
    }

    /// The statistics of every computed interval that has a contributing sample, in order.
    ///
    /// - Complexity: O(*m*) for *m* computed intervals; nothing is copied but their places.
    func statistics() -> [Statistics] {
        let merged = output.merged
        let edges = output.edges
        var result: [Statistics] = []
        result.reserveCapacity(merged.reduce(0) { $1.count > 0 ? $0 + 1 : $0 })
        for index in merged.indices where merged[index].count > 0 {
            result.append(Statistics(builder: self, index: index, start: edges[index], end: edges[index + 1]))
        }
        return result
    }

    /// The statistics of `interval`, with its sources' values when the output holds them: this
    /// output's interval with the same edges (an interval of another collection is looked up by
    /// its edges), or no values when there is none.
    func statistics(of interval: StatisticsCollection.Interval) -> Statistics {
        Statistics(builder: self, index: index(from: interval.start, to: interval.end, hint: interval.index),
                   start: interval.start, end: interval.end)
    }

    /// Where the computed interval [`start`, `end`) is, `hint` first.
    ///
    /// - Complexity: O(1) with the right hint, else O(log *m*) for *m* intervals.
    private func index(from start: Int64, to end: Int64, hint: Int?) -> Int? {
        let edges = output.edges
        let holds = { (index: Int) in index >= 0 && index < self.output.merged.count && edges[index] == start && edges[index + 1] == end }
        if let hint, holds(hint) { return hint }
        let found = edges.partitionPoint { $0 >= start }
        return holds(found) ? found : nil
    }

    /// The statistics of the whole `output` as its one interval from `start` to `end` (a
    /// ``StatisticsQuery``'s total).
    func statistics(interval index: Int, start: Int64, end: Int64) -> Statistics {
        Statistics(builder: self, index: index, start: start, end: end)
    }
}
