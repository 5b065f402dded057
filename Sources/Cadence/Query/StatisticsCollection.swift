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
    let output: AggregationOutput
    let edges: IntervalEdges

    /// A collection of results already computed (see ``CollectionPlan``).
    init(query: StatisticsCollectionQuery, output: AggregationOutput, edges: IntervalEdges) {
        self.query = query
        self.output = output
        self.edges = edges
    }

    /// Statistics for every interval with at least one contributing sample, in order (including
    /// partial intervals outside the predicate's dates, <doc:HowCadenceComputes#Collections-and-windows>).
    ///
    /// - Complexity: O(*m*) for *m* intervals.
    public func statistics() -> [Statistics] {
        let builder = self.builder
        return output.merged.withUnsafeBufferPointer { merged in
            var result: [Statistics] = []
            result.reserveCapacity(merged.reduce(0) { $1.count > 0 ? $0 + 1 : $0 })
            for index in merged.indices where merged[index].count > 0 {
                result.append(builder.statistics(interval: index, start: output.edges[index], end: output.edges[index + 1]))
            }
            return result
        }
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
        return emptyStatistics(start: interval.start, end: interval.end)
    }

    /// Every interval from the one containing `start` to the one containing `end`, inclusive, empty
    /// ones with `nil` values; set the second argument to `true` to stop early.
    ///
    /// - Throws: ``CadenceError/Code/invalidQuery`` if the range holds more than
    ///   ``IntervalEdges/defaultMaximumEdgeCount`` intervals.
    public func enumerateStatistics(from start: Date, to end: Date, _ body: (Statistics, inout Bool) throws -> Void) throws {
        guard start <= end else { return }
        let range = try IntervalEdges(calendar: query.calendar, anchor: query.anchorDate.timestamp,
                                      components: query.intervalComponents, covering: start.timestamp...end.timestamp)
        var stop = false
        let builder = self.builder
        for index in 0..<range.count {
            let number = range.intervalNumber(at: index)
            let local = number - edges.firstIntervalNumber
            let statistics: Statistics
            if local >= 0 && local < output.merged.count {
                statistics = builder.statistics(interval: local, start: output.edges[local], end: output.edges[local + 1])
            } else {
                let interval = range.interval(at: index)
                statistics = emptyStatistics(start: interval.start, end: interval.end)
            }
            try body(statistics, &stop)
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

    private func emptyStatistics(start: Int64, end: Int64) -> Statistics {
        Statistics(quantityType: query.quantityType, startDate: Date(timestamp: start), endDate: Date(timestamp: end),
                   merged: Statistics.Values(), bySource: [:])
    }

    /// Builds the statistics of any interval; make one per pass over many intervals (it holds the
    /// output's arrays, whose reference counting per interval would cost more than the statistics).
    private var builder: StatisticsBuilder {
        StatisticsBuilder(type: query.quantityType, options: query.options, output: output)
    }

    func statistics(atIndex index: Int) -> Statistics {
        builder.statistics(interval: index, start: output.edges[index], end: output.edges[index + 1])
    }
}

/// Turns accumulated intervals into ``Statistics`` values, applying the nil rules of <doc:HowCadenceComputes#Statistics-options>.
struct StatisticsBuilder {
    let type: QuantityType
    let options: StatisticsOptions
    let output: AggregationOutput

    func values(_ accumulator: StatisticsAccumulator, mergedSum: Double?, duration: Double?, count: Int? = nil)
        -> Statistics.Values
    {
        var values = Statistics.Values()
        guard accumulator.count > 0 else { return values }
        values.isEmpty = false
        values.count = count
        if count != nil {
            // A category collection (How Cadence computes: Category durations): durations and counts only.
            if options.contains(.duration) { values.duration = duration ?? 0 }
            return values
        }
        let style = type.aggregationStyle
        if options.contains(.cumulativeSum) && !style.isDiscrete { values.sum = mergedSum ?? accumulator.sum }
        if style.isDiscrete {
            if options.contains(.discreteAverage) { values.average = accumulator.average(style: style) }
            if options.contains(.discreteMin) { values.minimum = accumulator.minimum }
            if options.contains(.discreteMax) { values.maximum = accumulator.maximum }
        }
        if options.contains(.mostRecent) {
            values.mostRecent = accumulator.mostRecentValue
            values.mostRecentInterval = DateInterval(start: Date(timestamp: accumulator.mostRecentStart),
                                                     end: Date(timestamp: accumulator.mostRecentEnd))
        }
        if options.contains(.duration) { values.duration = duration ?? 0 }
        return values
    }

    func statistics(interval index: Int, start: Int64, end: Int64) -> Statistics {
        let merged = values(output.merged[index], mergedSum: output.mergedSum?[index], duration: output.duration?[index],
                            count: output.startCount?[index])
        var bySource: [Source: Statistics.Values] = [:]
        for (source, accumulators) in output.perSource.enumerated() where accumulators[index].count > 0 {
            let duration = output.perSourceDuration.isEmpty ? nil : output.perSourceDuration[source][index]
            let count = output.perSourceStartCount.isEmpty ? nil : output.perSourceStartCount[source][index]
            bySource[output.sources[source]] = values(accumulators[index], mergedSum: nil, duration: duration, count: count)
        }
        return Statistics(quantityType: type, startDate: Date(timestamp: start), endDate: Date(timestamp: end),
                          merged: merged, bySource: bySource)
    }
}
