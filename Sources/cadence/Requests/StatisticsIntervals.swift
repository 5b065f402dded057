//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// The intervals of a statistics collection, read once from `--interval`, `--anchor` and the
/// `--from`/`--to` range: their length, where they start, the calendar that lays them out and the
/// range whose intervals are listed.
///
///     let intervals = try StatisticsIntervals(interval: "1d", anchor: nil, from: from, to: to, timeZone: zone)
///     let query = try StatisticsCollectionQuery(quantityType: .stepCount, options: .cumulativeSum,
///                                               anchorDate: intervals.anchorDate,
///                                               intervalComponents: intervals.components, calendar: intervals.calendar)
///     let days = try intervals.statistics(of: query, in: store)   // or forEachInterval(of:_:), allocation-free
struct StatisticsIntervals: Sendable {
    /// The interval length.
    let components: IntervalComponents
    /// The Gregorian calendar of the time zone dates are read in.
    let calendar: Calendar
    /// Where intervals start.
    let anchorDate: Date
    /// The start of the range listed, inclusive.
    let from: Date
    /// The end of the range listed, exclusive.
    let to: Date

    /// Reads the interval arguments.
    ///
    /// - Parameters:
    ///   - interval: The `--interval` text, such as `1d`.
    ///   - anchor: The `--anchor` text, or `nil` for ``defaultAnchor(calendar:)``.
    ///   - timeZone: The zone plain days and calendar intervals are read in.
    /// - Throws: ``CadenceError/Code/invalidArgument`` for an unreadable length or anchor.
    init(interval: String, anchor: String?, from: Date, to: Date, timeZone: TimeZone) throws {
        components = try IntervalComponents(parsing: interval)
        calendar = ArgumentValues.calendar(in: timeZone)
        anchorDate = try anchor.map { try ArgumentValues.date($0, option: "--anchor", timeZone: timeZone) }
            ?? Self.defaultAnchor(calendar: calendar)
        self.from = from
        self.to = to
    }

    /// The default anchor: local midnight of 2000-01-01 in the calendar's zone.
    static func defaultAnchor(calendar: Calendar) throws -> Date {
        guard let anchor = calendar.date(from: DateComponents(year: 2000, month: 1, day: 1)) else {
            throw CadenceError(.invalidArgument, "Local midnight of 2000-01-01 does not exist in \(calendar.timeZone.identifier); give --anchor.")
        }
        return anchor
    }

    /// Runs `query` (built with these intervals) on `store` and lists every interval that
    /// intersects [``from``, ``to``), empty ones included.
    ///
    /// - Throws: Whatever reading the store throws.
    func statistics(of query: StatisticsCollectionQuery, in store: HealthStore) throws -> [Statistics] {
        let collection = try store.execute(query)
        var result: [Statistics] = []
        try forEachInterval(of: collection) { result.append(collection.statistics(of: $0)) }
        return result
    }

    /// Calls `body` with every interval of `collection` that intersects [``from``, ``to``), empty
    /// ones included, in order, as the collection holds them (nothing allocated per interval).
    ///
    /// - Throws: Whatever `body` throws, and ``CadenceError/Code/invalidQuery`` for more intervals
    ///   than a collection lists.
    func forEachInterval(of collection: StatisticsCollection, _ body: (StatisticsCollection.Interval) throws -> Void) throws {
        // From the interval holding `from` to the one holding the last instant before `to`: every
        // interval that intersects [from, to), and no interval that starts at `to`.
        let lastInstant = Date(timestamp: to.timestamp - 1)
        try collection.enumerateIntervals(from: from, to: lastInstant) { interval, _ in try body(interval) }
    }
}
