//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// The length of one statistics-collection interval: a positive multiple of one calendar unit.
///
///     let quarterHours = IntervalComponents.minutes(15)
///     let weekly = try IntervalComponents(parsing: "1w")
///
/// Like HealthKit's `DateComponents`, the static forms (``days(_:)`` …) never fail: a count that is
/// not positive, or an interval longer than 10 000 years, is refused where the interval is used,
/// by ``StatisticsCollectionQuery/init(quantityType:quantitySamplePredicate:options:anchorDate:intervalComponents:calendar:sourcePriority:)``
/// and ``IntervalEdges``. ``init(count:unit:)`` and the parsing forms check at once.
///
/// Minutes and hours are fixed lengths of elapsed time. Days, weeks, months and years follow the
/// local wall clock of the query's calendar: a day across a daylight-saving change lasts 23 or
/// 25 hours, and a month lasts 28 to 31 days. A week is exactly seven calendar days.
///
/// The textual form, used by the command line and by `Codable`, is `N` followed by a unit —
/// `min`, `h`, `d`, `w`, `mo` or `y` — where `N` may be omitted to mean 1: `15min`, `1h`, `d`,
/// `2w`, `1mo`, `y`.
public struct IntervalComponents: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A calendar unit an interval can be measured in.
    public enum Unit: String, Hashable, Sendable, Codable, CaseIterable {
        /// 60 seconds of elapsed time.
        case minute
        /// 3600 seconds of elapsed time.
        case hour
        /// One calendar day on the local wall clock (23, 24 or 25 hours, or stranger in rare zones).
        case day
        /// Seven calendar days.
        case week
        /// One calendar month on the local wall clock.
        case month
        /// One calendar year on the local wall clock.
        case year

        /// The suffix of the textual form: `min`, `h`, `d`, `w`, `mo` or `y`.
        public var symbol: String {
            switch self {
            case .minute: return "min"
            case .hour: return "h"
            case .day: return "d"
            case .week: return "w"
            case .month: return "mo"
            case .year: return "y"
            }
        }

        /// A typical length in microseconds, used to estimate interval numbers and sizes.
        ///
        /// Months and years use the mean Gregorian lengths (30.436875 and 365.2425 days).
        package var nominalMicroseconds: Int64 {
            switch self {
            case .minute: return TimestampArithmetic.microsecondsPerMinute
            case .hour: return TimestampArithmetic.microsecondsPerHour
            case .day: return TimestampArithmetic.microsecondsPerDay
            case .week: return 7 * TimestampArithmetic.microsecondsPerDay
            case .month: return 2_629_746_000_000
            case .year: return 31_556_952_000_000
            }
        }
    }

    /// The unit being counted.
    public let unit: Unit
    /// How many units one interval spans; at least 1 in an interval a query accepts.
    public let count: Int

    /// The longest interval accepted, in microseconds: 10 000 mean Gregorian years, longer than
    /// the whole of ``supportedTimestampRange``.
    private static let maximumNominalMicroseconds: Int64 = 10_000 * Unit.year.nominalMicroseconds

    /// Creates an interval of `count` units.
    ///
    /// - Parameters:
    ///   - count: A positive number of units.
    ///   - unit: The unit.
    /// - Throws: ``CadenceError`` with code `.invalidArgument` when `count` is zero or negative, or
    ///   when the interval would be longer than 10 000 years.
    public init(count: Int, unit: Unit) throws {
        self.init(unchecked: count, unit: unit)
        try validate()
    }

    /// An interval of `count` units, checked where it is used.
    private init(unchecked count: Int, unit: Unit) {
        self.count = count
        self.unit = unit
    }

    /// Checks that the interval spans a positive number of units and at most 10 000 years.
    ///
    /// - Throws: ``CadenceError`` with code `.invalidArgument` naming the count and the unit.
    package func validate() throws {
        guard count > 0 else {
            throw CadenceError(
                .invalidArgument,
                "An interval must span a positive number of \(unit.rawValue)s, not \(count).")
        }
        guard Int64(count) <= Self.maximumNominalMicroseconds / unit.nominalMicroseconds else {
            throw CadenceError(
                .invalidArgument,
                "An interval of \(count) \(unit.rawValue)s is longer than 10000 years.")
        }
    }

    /// An interval of `count` minutes of elapsed time.
    ///
    /// - Parameter count: A positive number (checked where the interval is used) of minutes.
    /// - Returns: The interval.
    public static func minutes(_ count: Int) -> IntervalComponents {
        IntervalComponents(unchecked: count, unit: .minute)
    }

    /// An interval of `count` hours of elapsed time.
    ///
    /// - Parameter count: A positive number (checked where the interval is used) of hours.
    /// - Returns: The interval.
    public static func hours(_ count: Int) -> IntervalComponents {
        IntervalComponents(unchecked: count, unit: .hour)
    }

    /// An interval of `count` calendar days.
    ///
    /// - Parameter count: A positive number (checked where the interval is used) of days.
    /// - Returns: The interval.
    public static func days(_ count: Int) -> IntervalComponents {
        IntervalComponents(unchecked: count, unit: .day)
    }

    /// An interval of `count` weeks of seven calendar days.
    ///
    /// - Parameter count: A positive number (checked where the interval is used) of weeks.
    /// - Returns: The interval.
    public static func weeks(_ count: Int) -> IntervalComponents {
        IntervalComponents(unchecked: count, unit: .week)
    }

    /// An interval of `count` calendar months.
    ///
    /// - Parameter count: A positive number (checked where the interval is used) of months.
    /// - Returns: The interval.
    public static func months(_ count: Int) -> IntervalComponents {
        IntervalComponents(unchecked: count, unit: .month)
    }

    /// An interval of `count` calendar years.
    ///
    /// - Parameter count: A positive number (checked where the interval is used) of years.
    /// - Returns: The interval.
    public static func years(_ count: Int) -> IntervalComponents {
        IntervalComponents(unchecked: count, unit: .year)
    }

    /// Parses the command-line form `N(min|h|d|w|mo|y)`.
    ///
    /// `N` is one or more ASCII digits and may be left out to mean 1. No signs, spaces or other
    /// unit spellings are accepted: `15min`, `1h`, `d`, `2w`, `1mo`, `10y`.
    ///
    /// - Parameter text: The text to parse.
    /// - Throws: ``CadenceError`` with code `.invalidArgument` naming the text when it does not
    ///   follow the syntax, or when `N` is zero or too large.
    public init(parsing text: String) throws {
        let utf8 = text.utf8
        let digitEnd = utf8.firstIndex { $0 < UInt8(ascii: "0") || $0 > UInt8(ascii: "9") } ?? utf8.endIndex
        let digits = utf8[utf8.startIndex..<digitEnd]
        let symbol = String(decoding: utf8[digitEnd...], as: UTF8.self)
        guard let unit = Unit.allCases.first(where: { $0.symbol == symbol }) else {
            throw CadenceError(
                .invalidArgument,
                "Invalid interval \"\(text)\": expected a count followed by min, h, d, w, mo or y, as in 15min or 1d.")
        }
        var count = 1
        if !digits.isEmpty {
            let value = digits.count <= 18 ? digits.reduce(Int64(0)) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) } : nil
            guard let value, let fitting = Int(exactly: value) else {
                throw CadenceError(.invalidArgument, "Invalid interval \"\(text)\": the count is too large.")
            }
            count = fitting
        }
        do {
            try self.init(count: count, unit: unit)
        } catch let error as CadenceError {
            throw CadenceError(.invalidArgument, "Invalid interval \"\(text)\": \(error.message)")
        }
    }

    /// Creates an interval from Foundation date components holding exactly one positive field.
    ///
    /// The fields understood are `minute`, `hour`, `day`, `weekOfYear` (read as weeks), `month` and
    /// `year`; every other field must be unset or zero. This accepts what HealthKit callers pass as
    /// `intervalComponents`, such as `DateComponents(day: 7)`.
    ///
    /// - Parameter dateComponents: The components.
    /// - Throws: ``CadenceError`` with code `.invalidArgument` when no field, more than one field,
    ///   or an unsupported field is set, or when the value is not positive.
    public init(_ dateComponents: DateComponents) throws {
        let candidates: [(Int?, Unit)] = [
            (dateComponents.minute, .minute), (dateComponents.hour, .hour), (dateComponents.day, .day),
            (dateComponents.weekOfYear, .week), (dateComponents.month, .month), (dateComponents.year, .year),
        ]
        let unsupported: [Int?] = [
            dateComponents.era, dateComponents.second, dateComponents.nanosecond, dateComponents.weekday,
            dateComponents.weekdayOrdinal, dateComponents.quarter, dateComponents.weekOfMonth,
            dateComponents.yearForWeekOfYear, dateComponents.dayOfYear,
        ]
        let set = candidates.compactMap { value, unit in value.flatMap { $0 == 0 ? nil : ($0, unit) } }
        guard set.count == 1, let only = set.first, unsupported.allSatisfy({ $0 == nil || $0 == 0 }) else {
            throw CadenceError(
                .invalidArgument,
                "Interval components must set exactly one of minute, hour, day, weekOfYear, month or year; got \(dateComponents).")
        }
        try self.init(count: only.0, unit: only.1)
    }

    /// The interval as Foundation date components with one field set.
    ///
    /// Weeks are expressed as `weekOfYear`, which Foundation adds as seven calendar days.
    public var dateComponents: DateComponents {
        // A multiplication by one cannot overflow.
        dateComponents(multipliedBy: 1) ?? DateComponents()
    }

    /// The interval multiplied by `factor`, as Foundation date components.
    ///
    /// - Parameter factor: Any integer, including zero and negatives.
    /// - Returns: The components, or `nil` when `count × factor` overflows `Int`.
    package func dateComponents(multipliedBy factor: Int) -> DateComponents? {
        let (amount, overflow) = count.multipliedReportingOverflow(by: factor)
        guard !overflow else { return nil }
        switch unit {
        case .minute: return DateComponents(minute: amount)
        case .hour: return DateComponents(hour: amount)
        case .day: return DateComponents(day: amount)
        case .week: return DateComponents(weekOfYear: amount)
        case .month: return DateComponents(month: amount)
        case .year: return DateComponents(year: amount)
        }
    }

    /// Whether every interval has the same elapsed length (minutes and hours).
    ///
    /// Fixed-length intervals are computed as `anchor + k × length` without calling the calendar.
    public var isFixedLength: Bool { unit == .minute || unit == .hour }

    /// A typical interval length in microseconds: exact for minutes and hours, the mean Gregorian
    /// length for the calendar units.
    package var nominalMicroseconds: Int64 {
        // An interval not yet checked may be any length; it saturates rather than overflows.
        let (length, overflow) = Int64(count).multipliedReportingOverflow(by: unit.nominalMicroseconds)
        return overflow ? (count > 0 ? .max : .min) : length
    }

    /// The textual form, such as `15min` or `1mo`.
    public var description: String { "\(count)\(unit.symbol)" }

    /// Decodes the textual form, such as `"15min"`.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.dataCorrupted` when the string is not a valid interval.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(parsing: text)
        } catch let error as CadenceError {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
        }
    }

    /// Encodes the textual form, such as `"15min"`.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
