//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// The boundaries of consecutive statistics-collection intervals over a range of time.
///
/// Interval *k* (any integer, negative before the anchor) starts at
/// `calendar.date(byAdding: components × k, to: anchor)` and ends where interval *k + 1* starts.
/// Each start is computed from the anchor directly, never by adding one interval to the previous
/// start, so month ends do not drift: monthly intervals anchored on January 31 start on January 31,
/// February 29 (in 2024), March 31, April 30 and so on.
///
/// ``edges`` holds the starts of every interval that intersects the requested range followed by the
/// end of the last one, so interval `j` of this value is `edges[j] ..< edges[j + 1]`, and it is
/// interval number ``firstIntervalNumber`` `+ j` counted from the anchor.
///
/// Minute and hour intervals are fixed lengths of elapsed time (`anchor + k × 3600 s` for hours)
/// and need no calendar calls. Day, week, month and year intervals follow the calendar's wall
/// clock, exactly as Foundation computes them:
///
/// - A day that contains a daylight-saving change lasts 23 or 25 hours.
/// - A start whose wall-clock time does not exist (in the spring-forward gap) moves forward by the
///   length of the gap: 02:30 becomes 03:30.
/// - A start whose wall-clock time occurs twice (in the fall-back overlap) is the first occurrence
///   when *k* is positive. When *k* is negative, Foundation on Linux keeps the UTC offset of the
///   anchor where it can, which can select the second occurrence.
/// - Foundation's Gregorian calendar is Julian before 1582-10-15.
///
/// Calendar-unit starts are computed on integers (the local date moved by days or months, at the
/// anchor's time of day, less the zone's offset) wherever the zone's offset is the same for a day
/// either side, which gives what Foundation gives; near an offset change, before 1583, for anchors
/// with a fraction of a second and for months and years before the anchor, Foundation is asked.
///
/// - Complexity: Creating the edges costs O(1) calendar calls to locate the first interval, then
///   O(1) per edge, with a few calendar and time zone calls per offset change the edges pass;
///   fixed-length intervals cost no calendar calls at all.
public struct IntervalEdges: Sendable {
    /// The default cap on ``edges``' length: 50 million edges, 400 MB.
    public static let defaultMaximumEdgeCount = 50_000_000

    /// The calendar whose wall clock day, week, month and year intervals follow.
    public let calendar: Calendar
    /// The start of interval number 0.
    public let anchor: Timestamp
    /// The length of one interval.
    public let components: IntervalComponents
    /// Interval boundaries in increasing order: interval `j` is `edges[j] ..< edges[j + 1]`.
    ///
    /// Empty when the requested range was empty; otherwise it holds at least two edges.
    public let edges: [Timestamp]
    /// The number, counted from the anchor, of the interval that starts at `edges[0]`.
    public let firstIntervalNumber: Int

    /// Computes the intervals that contain any instant of a closed range.
    ///
    /// The result runs from the interval containing `range.lowerBound` through the interval
    /// containing `range.upperBound`, inclusive. With hourly intervals anchored on the hour, the
    /// range 10:30...13:00 gives the intervals starting 10:00, 11:00, 12:00 and 13:00.
    ///
    /// - Parameters:
    ///   - calendar: A Gregorian (or ISO 8601) calendar; its time zone defines the wall clock.
    ///   - anchor: The start of interval 0. It may lie anywhere in ``supportedTimestampRange``,
    ///     before, inside or after the range.
    ///   - components: The length of one interval.
    ///   - range: The instants to cover, within ``supportedTimestampRange``.
    ///   - maximumEdgeCount: The most edges to produce before giving up; at least 2.
    /// - Throws: ``CadenceError`` with code `.invalidArgument` for a calendar that is not Gregorian,
    ///   an anchor or range outside ``supportedTimestampRange`` or a cap below 2; with code
    ///   `.invalidQuery` when more than `maximumEdgeCount` edges would be needed or the calendar
    ///   cannot compute an interval start.
    /// - Complexity: O(*E*) for *E* edges; calendar units ask Foundation only near the zone's offset
    ///   changes (a few calls for each) and in the cases above.
    public init(
        calendar: Calendar,
        anchor: Timestamp,
        components: IntervalComponents,
        covering range: ClosedRange<Timestamp>,
        maximumEdgeCount: Int = IntervalEdges.defaultMaximumEdgeCount
    ) throws {
        try Self.validate(calendar: calendar, anchor: anchor, components: components, maximumEdgeCount: maximumEdgeCount)
        guard supportedTimestampRange.contains(range.lowerBound),
              supportedTimestampRange.contains(range.upperBound)
        else {
            throw CadenceError(
                .invalidArgument,
                "The time range \(range.lowerBound)...\(range.upperBound) lies outside years 0001 through 9999.")
        }
        self.calendar = calendar
        self.anchor = anchor
        self.components = components
        var generator = Self.Generator(calendar: calendar, anchor: anchor, components: components)
        (edges, firstIntervalNumber) = try generator.edges(
            from: range.lowerBound, through: range.upperBound, maximumEdgeCount: maximumEdgeCount)
    }

    /// Computes the intervals that intersect a half-open range.
    ///
    /// The result runs from the interval containing `range.lowerBound` through the interval
    /// containing the range's last instant, `range.upperBound - 1`. An empty range intersects no
    /// interval and gives empty ``edges``.
    ///
    /// - Parameters:
    ///   - calendar: A Gregorian (or ISO 8601) calendar; its time zone defines the wall clock.
    ///   - anchor: The start of interval 0, within ``supportedTimestampRange``.
    ///   - components: The length of one interval.
    ///   - range: The instants to cover, within ``supportedTimestampRange``.
    ///   - maximumEdgeCount: The most edges to produce before giving up; at least 2.
    /// - Throws: As the closed-range initializer.
    /// - Complexity: O(*E*) for *E* edges.
    public init(
        calendar: Calendar,
        anchor: Timestamp,
        components: IntervalComponents,
        covering range: Range<Timestamp>,
        maximumEdgeCount: Int = IntervalEdges.defaultMaximumEdgeCount
    ) throws {
        guard !range.isEmpty else {
            try Self.validate(calendar: calendar, anchor: anchor, components: components, maximumEdgeCount: maximumEdgeCount)
            self.init(calendar: calendar, anchor: anchor, components: components, edges: [], firstIntervalNumber: 0)
            return
        }
        try self.init(
            calendar: calendar, anchor: anchor, components: components,
            covering: range.lowerBound...(range.upperBound - 1), maximumEdgeCount: maximumEdgeCount)
    }

    private init(
        calendar: Calendar, anchor: Timestamp, components: IntervalComponents, edges: [Timestamp],
        firstIntervalNumber: Int
    ) {
        self.calendar = calendar
        self.anchor = anchor
        self.components = components
        self.edges = edges
        self.firstIntervalNumber = firstIntervalNumber
    }

    /// The number of intervals: one less than the number of edges, or 0 when there are none.
    public var count: Int { Swift.max(edges.count - 1, 0) }

    /// The position of the interval that contains an instant.
    ///
    /// Finds `j` with `edges[j] <= timestamp < edges[j + 1]` by binary search for the first edge
    /// greater than `timestamp`.
    ///
    /// - Parameter timestamp: Any instant.
    /// - Returns: The interval's position in `0 ..< count`, or `nil` when the instant lies before the
    ///   first edge or at or after the last.
    /// - Complexity: O(log *E*), no allocation.
    @inlinable
    public func intervalIndex(containing timestamp: Timestamp) -> Int? {
        edges.withUnsafeBufferPointer { buffer -> Int? in
            guard let first = buffer.first, let last = buffer.last, first <= timestamp, timestamp < last else {
                return nil
            }
            // The first edge after the instant ends its interval (the last edge is after it).
            return buffer.partitionPoint(in: 1..<buffer.count - 1) { $0 > timestamp } - 1
        }
    }

    /// The bounds of the interval at a position.
    ///
    /// - Parameter index: A position in `0 ..< count`; other values trap like an array subscript.
    /// - Returns: The half-open interval's first instant and the first instant after it.
    public func interval(at index: Int) -> (start: Timestamp, end: Timestamp) {
        (edges[index], edges[index + 1])
    }

    /// The number, counted from the anchor, of the interval at a position.
    ///
    /// - Parameter index: A position in `0 ..< count`.
    /// - Returns: ``firstIntervalNumber`` `+ index`: interval 0 starts at the anchor, interval −1
    ///   ends there.
    public func intervalNumber(at index: Int) -> Int { firstIntervalNumber + index }

    /// The start of interval number `k` for an anchor and interval length.
    ///
    /// - Parameters:
    ///   - number: The interval number *k*; negative numbers lie before the anchor.
    ///   - calendar: A Gregorian calendar; its time zone defines the wall clock.
    ///   - anchor: The start of interval 0.
    ///   - components: The length of one interval.
    /// - Returns: `calendar.date(byAdding: components × k, to: anchor)` rounded to the microsecond,
    ///   or `anchor + k × length` for minutes and hours.
    /// - Throws: ``CadenceError`` with code `.invalidQuery` when the start overflows or Foundation
    ///   cannot compute it.
    /// - Complexity: At most one calendar call and two time zone calls.
    public static func intervalStart(
        number: Int, calendar: Calendar, anchor: Timestamp, components: IntervalComponents
    ) throws -> Timestamp {
        try components.validate()
        var generator = Generator(calendar: calendar, anchor: anchor, components: components)
        return try generator.start(of: Int64(number))
    }

    private static func validate(calendar: Calendar, anchor: Timestamp, components: IntervalComponents,
                                 maximumEdgeCount: Int) throws {
        try components.validate()
        guard calendar.identifier == .gregorian || calendar.identifier == .iso8601 else {
            throw CadenceError(
                .invalidArgument,
                "Interval edges need a Gregorian calendar, not \(calendar.identifier).")
        }
        guard supportedTimestampRange.contains(anchor) else {
            throw CadenceError(.invalidArgument, "The interval anchor \(anchor) lies outside years 0001 through 9999.")
        }
        guard maximumEdgeCount >= 2 else {
            throw CadenceError(.invalidArgument, "The maximum edge count must be at least 2, not \(maximumEdgeCount).")
        }
    }
}

extension IntervalEdges {
    /// Computes interval starts for one anchor, calendar and interval length.
    private struct Generator {
        let calendar: Calendar
        let anchor: Timestamp
        let anchorDate: Date
        let components: IntervalComponents
        /// The exact length for fixed-length units, the mean length for calendar units.
        let nominalLength: Int64
        /// Calendar-unit starts on integers, where the zone allows (Foundation otherwise).
        var wallClock: WallClockSteps?

        /// The most ±1 corrections the first-interval search makes before giving up; the estimate
        /// is off by at most one or two for every real time zone.
        private static let maximumCorrectionSteps = 1_000

        init(calendar: Calendar, anchor: Timestamp, components: IntervalComponents) {
            self.calendar = calendar
            self.anchor = anchor
            self.anchorDate = Date(timestamp: anchor)
            self.components = components
            self.nominalLength = components.nominalMicroseconds
            self.wallClock = WallClockSteps(calendar: calendar, anchor: anchor, components: components)
        }

        /// The start of interval `number`.
        mutating func start(of number: Int64) throws -> Timestamp {
            if components.isFixedLength {
                let (offset, overflow) = number.multipliedReportingOverflow(by: nominalLength)
                let (start, overflowAgain) = anchor.addingReportingOverflow(offset)
                guard !overflow, !overflowAgain else { throw overflowError(number) }
                return start
            }
            if let start = wallClock?.start(of: number) { return start }
            guard let factor = Int(exactly: number),
                  let amount = components.dateComponents(multipliedBy: factor),
                  let date = calendar.date(byAdding: amount, to: anchorDate)
            else { throw overflowError(number) }
            wallClock?.calibrate(number: number, start: date.timestamp)
            return date.timestamp
        }

        private func overflowError(_ number: Int64) -> CadenceError {
            CadenceError(
                .invalidQuery,
                "Cannot compute the start of interval \(number) of \(components) from anchor \(anchor).")
        }

        /// The edges from the interval containing `from` through the interval containing `through`.
        mutating func edges(from: Timestamp, through: Timestamp, maximumEdgeCount: Int) throws -> ([Timestamp], Int) {
            // Both bounds and the anchor lie in the supported range, so these differences fit.
            let estimatedFirst = TimestampArithmetic.floorDivide(from - anchor, nominalLength)
            let estimatedCount = (through - from) / nominalLength + 2
            guard estimatedCount <= Int64(maximumEdgeCount) else { throw tooManyEdges(maximumEdgeCount) }

            if components.isFixedLength {
                // Exact arithmetic: no correction and no calendar.
                let lastNumber = TimestampArithmetic.floorDivide(through - anchor, nominalLength)
                let edgeCount = lastNumber - estimatedFirst + 2
                guard edgeCount <= Int64(maximumEdgeCount), let firstNumber = Int(exactly: estimatedFirst) else {
                    throw tooManyEdges(maximumEdgeCount)
                }
                let firstStart = anchor + estimatedFirst * nominalLength
                let length = nominalLength
                let edges = (0..<edgeCount).map { firstStart + $0 * length }
                return (edges, firstNumber)
            }

            // Locate k with start(k) <= from < start(k + 1), stepping from the estimate.
            var number = estimatedFirst
            var start = try self.start(of: number)
            var steps = 0
            while start > from {
                steps += 1
                guard steps <= Self.maximumCorrectionSteps else { throw notConverging() }
                number -= 1
                start = try self.start(of: number)
            }
            var next = try self.start(of: number + 1)
            while next <= from {
                steps += 1
                guard steps <= Self.maximumCorrectionSteps else { throw notConverging() }
                number += 1
                start = next
                next = try self.start(of: number + 1)
            }
            guard let firstNumber = Int(exactly: number) else { throw overflowError(number) }

            var edges: [Timestamp] = []
            // Calendar intervals may be somewhat shorter than their mean length; leave headroom.
            edges.reserveCapacity(Int(Swift.min(estimatedCount + estimatedCount / 8 + 2, Int64(maximumEdgeCount))))
            edges.append(start)
            edges.append(next)
            var edgeNumber = number + 1
            while next <= through {
                guard edges.count < maximumEdgeCount else { throw tooManyEdges(maximumEdgeCount) }
                edgeNumber += 1
                let following = try self.start(of: edgeNumber)
                guard following > next else { throw notIncreasing(edgeNumber) }
                edges.append(following)
                next = following
            }
            return (edges, firstNumber)
        }

        private func tooManyEdges(_ maximumEdgeCount: Int) -> CadenceError {
            CadenceError(
                .invalidQuery,
                "The query needs more than \(maximumEdgeCount) intervals of \(components); use a longer interval or a shorter time range.")
        }

        private func notConverging() -> CadenceError {
            CadenceError(
                .invalidQuery,
                "Cannot locate the first interval of \(components) from anchor \(anchor) in time zone \(calendar.timeZone.identifier).")
        }

        private func notIncreasing(_ number: Int64) -> CadenceError {
            CadenceError(
                .invalidQuery,
                "The calendar gave interval \(number) of \(components) a start no later than the previous one in time zone \(calendar.timeZone.identifier).")
        }
    }
}
