//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// The result of a ``StatisticsCollectionQuery``: statistics for every interval, enumerable
/// (HealthKit's `HKStatisticsCollection`, <doc:HowCadenceComputes#Collections-and-windows>).
public struct StatisticsCollection: Sendable {
    /// The query that produced it.
    public let query: StatisticsCollectionQuery
    let edges: IntervalEdges
    /// Makes intervals and statistics from the computed numbers; every ``Statistics`` of the
    /// collection shares it.
    let builder: StatisticsBuilder

    /// A collection of results already computed (see ``CollectionPlan``).
    init(query: StatisticsCollectionQuery, output: AggregationOutput, edges: IntervalEdges) {
        self.query = query
        self.edges = edges
        builder = StatisticsBuilder(type: query.quantityType, options: query.options, output: output)
    }

    /// The computed numbers.
    var output: AggregationOutput { builder.output }

    /// Statistics for every interval with at least one contributing sample, in order (including
    /// partial intervals outside the predicate's dates, <doc:HowCadenceComputes#Collections-and-windows>).
    ///
    /// - Complexity: O(*m*) for *m* intervals.
    public func statistics() -> [Statistics] {
        builder.statistics()
    }

    /// Calls `body` with every interval that ``statistics()`` lists, in order, as it is held:
    /// nothing is allocated per interval (``statistics(of:)`` makes a ``Statistics`` of one).
    ///
    ///     var peak = 0.0
    ///     collection.forEachInterval { interval in peak = max(peak, interval.values.maximum ?? 0) }
    ///
    /// - Complexity: O(*m*) for *m* intervals.
    public func forEachInterval(_ body: (Interval) throws -> Void) rethrows {
        try builder.forEachInterval(body)
    }

    /// The statistics of `interval` (with its sources' values under `separateBySource`), as
    /// ``statistics()`` lists them.
    public func statistics(of interval: Interval) -> Statistics {
        builder.statistics(of: interval)
    }

    /// The statistics of the interval containing `date`; an empty interval has `nil` values.
    public func statistics(for date: Date) -> Statistics? {
        let time = date.timestamp
        if let index = edges.intervalIndex(containing: time), index < output.merged.count {
            return statistics(atIndex: index)
        }
        guard let single = try? IntervalEdges(calendar: query.calendar, anchor: query.anchorDate.timestamp,
                                              components: query.intervalComponents, covering: time...time),
              single.count > 0 else { return nil }
        let interval = single.interval(at: 0)
        return builder.statistics(of: builder.emptyInterval(start: interval.start, end: interval.end))
    }

    /// Every interval from the one containing `start` to the one containing `end`, inclusive, empty
    /// ones with `nil` values; set the second argument to `true` to stop early.
    ///
    /// - Throws: ``CadenceError/Code/invalidQuery`` if the range holds more than
    ///   ``IntervalEdges/defaultMaximumEdgeCount`` intervals.
    public func enumerateStatistics(from start: Date, to end: Date, _ body: (Statistics, inout Bool) throws -> Void) throws {
        try enumerateIntervals(from: start, to: end) { interval, stop in try body(builder.statistics(of: interval), &stop) }
    }

    /// Every interval from the one containing `start` to the one containing `end`, inclusive, as
    /// ``enumerateStatistics(from:to:_:)`` gives them but as they are held: nothing is allocated
    /// per interval. Set the second argument to `true` to stop early.
    ///
    /// - Throws: ``CadenceError/Code/invalidQuery`` if the range holds more than
    ///   ``IntervalEdges/defaultMaximumEdgeCount`` intervals.
    /// - Complexity: O(*m*) for *m* intervals in the range.
    public func enumerateIntervals(from start: Date, to end: Date, _ body: (Interval, inout Bool) throws -> Void) throws {
        guard start <= end else { return }
        let range = try IntervalEdges(calendar: query.calendar, anchor: query.anchorDate.timestamp,
                                      components: query.intervalComponents, covering: start.timestamp...end.timestamp)
        var stop = false
        let count = output.merged.count
        for index in 0..<range.count {
            let local = range.intervalNumber(at: index) - edges.firstIntervalNumber
            let interval: Interval
            if local >= 0 && local < count {
                interval = builder.interval(at: local)
            } else {
                let edges = range.interval(at: index)
                interval = builder.emptyInterval(start: edges.start, end: edges.end)
            }
            try body(interval, &stop)
            if stop { return }
        }
    }

    /// Every interval from the one containing `start` to the one containing `end`, as an array.
    public func statistics(from start: Date, to end: Date) throws -> [Statistics] {
        var result: [Statistics] = []
        try enumerateStatistics(from: start, to: end) { statistics, _ in result.append(statistics) }
        return result
    }

    /// The sources that contributed to any interval.
    public func sources() -> Set<Source> {
        Set(output.sourcesSeen.indices.filter { output.sourcesSeen[$0] }.map { output.sources[$0] })
    }

    func statistics(atIndex index: Int) -> Statistics {
        builder.statistics(of: builder.interval(at: index))
    }
}

extension StatisticsCollection {
    /// One interval of a collection as the collection holds it: its edges and the numbers of all
    /// sources merged. Making or copying one allocates nothing; ``StatisticsCollection/statistics(of:)``
    /// makes its ``Statistics``, with its sources' values.
    public struct Interval: Sendable {
        /// The interval's start, in microseconds (see ``Timestamp``).
        public let start: Timestamp
        /// The interval's end, exclusive, in microseconds.
        public let end: Timestamp
        /// The values of all sources merged.
        public let values: StatisticsValues
        /// Where the interval's numbers are in the collection, or `nil` for an interval outside
        /// the computed ones (no sample contributed).
        let index: Int?

        /// The interval's start.
        public var startDate: Date { Date(timestamp: start) }
        /// The interval's end.
        public var endDate: Date { Date(timestamp: end) }
        /// Whether no sample contributed.
        public var isEmpty: Bool { values.isEmpty }
    }
}
