//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Interval starts for calendar units (days, weeks, months, years) computed on integers: the
/// anchor's local date moved by whole days or months (clamped to the month's length, as the
/// calendar does), at the anchor's local time of day, turned into an instant with the zone's offset.
///
/// That instant is only given when the zone's offset is the same from 27 hours before it to 27
/// hours after it: then no other instant has the same local time (offsets differ by at most
/// 26 hours), so the calendar could not have answered differently. Near an offset change, and
/// for dates the calendar may count as Julian (before 1583), ``start(of:)`` returns `nil` and the
/// caller asks Foundation, whose answer calibrates the steps (``calibrate(number:start:)``): they
/// answer only after one. Once a change of offset by more than three hours is seen (a zone moving
/// across the date line, where Foundation's day count and the civil one part), Foundation answers
/// every start. So it does for anchors with a fraction of a second (Foundation's
/// floating-point arithmetic can land a microsecond away) and for months and years before the
/// anchor (Foundation on Linux clamps some month ends differently going backwards). Offsets come from a ``UTCOffsetCache``, so a run of starts in order
/// asks the time zone about twice per offset change rather than once per start.
struct WallClockSteps {
    private let unit: IntervalComponents.Unit
    /// Days (for days and weeks) or months (for months and years) per interval.
    private let stride: Int64
    private let anchorDayNumber: Int64
    /// Months since year 0 of the anchor's local date.
    private let anchorMonth: Int64
    private let anchorDay: Int64
    /// The anchor's local time of day, in microseconds.
    private let anchorTimeOfDay: Int64
    private var offsets: UTCOffsetCache
    /// The offset of the last start given, in seconds: the first guess for the next.
    private var offsetGuess: Int
    /// Days between Foundation's local date of a start and the civil count from the anchor, as
    /// last calibrated; `nil` until a Foundation answer has been seen.
    private var dayShift: Int64?
    /// An offset change larger than this between consecutive starts leaves every start to Foundation.
    private static let largestOrdinaryChange = 3 * 3_600
    /// Whether such a change was seen.
    private var sawLargeChange = false

    /// How far either side of a start the offset must stay the same (more than any offset change).
    private static let margin: Int64 = 27 * TimestampArithmetic.microsecondsPerHour
    /// Local years the integer arithmetic answers for: after the Julian calendar, before the end of the range.
    private static let years: ClosedRange<Int64> = 1_583...9_998

    /// Steps for `components` from `anchor`, or `nil` for fixed-length units, several units, or an
    /// anchor with a fraction of a second or whose local date lies outside the years answered.
    init?(calendar: Calendar, anchor: Timestamp, components: IntervalComponents) {
        // Several units are added by Foundation, as it orders them.
        guard anchor % TimestampArithmetic.microsecondsPerSecond == 0, components.smallerTerms.isEmpty else { return nil }
        switch components.unit {
        case .minute, .hour: return nil
        case .day: stride = Int64(components.count)
        case .week: stride = 7 * Int64(components.count)
        case .month: stride = Int64(components.count)
        case .year: stride = 12 * Int64(components.count)
        }
        unit = components.unit
        offsets = UTCOffsetCache(timeZone: calendar.timeZone)
        offsetGuess = offsets.secondsFromGMT(at: anchor)
        let local = anchor + Int64(offsetGuess) * TimestampArithmetic.microsecondsPerSecond
        anchorDayNumber = TimestampArithmetic.floorDivide(local, TimestampArithmetic.microsecondsPerDay)
        anchorTimeOfDay = local - anchorDayNumber * TimestampArithmetic.microsecondsPerDay
        let (year, month, day) = ProlepticGregorian.civilDate(dayNumber: anchorDayNumber)
        guard Self.years.contains(year) else { return nil }
        anchorMonth = year * 12 + month - 1
        anchorDay = day
    }

    /// The start of interval `number`, or `nil` when Foundation must be asked (see the type).
    mutating func start(of number: Int64) -> Timestamp? {
        guard let dayShift, let dayNumber = civilDayNumber(of: number) else { return nil }
        let local = (dayNumber + dayShift) * TimestampArithmetic.microsecondsPerDay + anchorTimeOfDay
        // Try the offset of the previous answer, then the one found around that guess.
        var offset = offsetGuess
        for _ in 0..<2 {
            let guess = local - Int64(offset) * TimestampArithmetic.microsecondsPerSecond
            guard let found = offsets.constantOffset(around: guess, margin: Self.margin) else { return nil }
            guard abs(found - offsetGuess) <= Self.largestOrdinaryChange else {
                sawLargeChange = true
                self.dayShift = nil
                return nil
            }
            if found == offset {
                offsetGuess = offset
                return guess
            }
            offset = found
        }
        return nil
    }

    /// Learns from Foundation's `start` of interval `number` how its day count relates to the
    /// civil one; a start whose local time of day is not the anchor's (moved by a gap) teaches nothing.
    mutating func calibrate(number: Int64, start: Timestamp) {
        dayShift = nil
        guard !sawLargeChange, let dayNumber = civilDayNumber(of: number) else { return }
        let offset = offsets.secondsFromGMT(at: start)
        let local = start + Int64(offset) * TimestampArithmetic.microsecondsPerSecond
        let localDay = TimestampArithmetic.floorDivide(local, TimestampArithmetic.microsecondsPerDay)
        guard abs(offset - offsetGuess) <= Self.largestOrdinaryChange else {
            sawLargeChange = true
            return
        }
        guard local - localDay * TimestampArithmetic.microsecondsPerDay == anchorTimeOfDay else { return }
        dayShift = localDay - dayNumber
        offsetGuess = offset
    }

    /// The civil local day of interval `number`'s start counted from the anchor's, or `nil` outside
    /// the cases answered.
    private func civilDayNumber(of number: Int64) -> Int64? {
        let (steps, overflow) = number.multipliedReportingOverflow(by: stride)
        guard !overflow, abs(steps) < 12 * 10_000 * 366 else { return nil }
        let dayNumber: Int64
        switch unit {
        case .day, .week:
            dayNumber = anchorDayNumber + steps
            guard Self.years.contains(ProlepticGregorian.civilDate(dayNumber: dayNumber).year) else { return nil }
        case .month, .year, .minute, .hour:
            guard number >= 0 else { return nil }
            let month = anchorMonth + steps
            let year = TimestampArithmetic.floorDivide(month, 12)
            guard Self.years.contains(year) else { return nil }
            let monthOfYear = month - year * 12 + 1
            let day = min(anchorDay, ProlepticGregorian.daysInMonth(monthOfYear, year: year))
            dayNumber = ProlepticGregorian.dayNumber(year: year, month: monthOfYear, day: day)
        }
        return dayNumber
    }
}
