//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// The length of one statistics-collection interval: a positive multiple of one calendar unit,
/// or a sum of several (`.days(1) + .hours(12)`, HealthKit's `DateComponents(day: 1, hour: 12)`).
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
/// `2w`, `1mo`, `y`; several units follow one another, largest first: `1d12h`.
///
/// An interval of several units starts interval *k* at `calendar.date(byAdding:to:)` of every
/// unit times *k*, as Foundation adds them (largest unit first); it has a fixed length only when
/// all its units are minutes and hours.
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

    /// One unit of an interval and how many of it.
    public struct Term: Hashable, Sendable {
        /// The unit.
        public let unit: Unit
        /// How many of it; at least 1 in an interval a query accepts.
        public let count: Int
    }

    /// The unit being counted (the largest, for an interval of several units).
    public let unit: Unit
    /// How many units one interval spans; at least 1 in an interval a query accepts.
    public let count: Int
    /// The smaller units of an interval of several, largest first, such as the 12 hours of
    /// `1d12h`; empty for an interval of one unit.
    public let smallerTerms: [Term]

    /// Every unit of the interval with its count, largest unit first.
    public var terms: [Term] { [Term(unit: unit, count: count)] + smallerTerms }

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
        self.smallerTerms = []
    }

    /// An interval of these terms, checked where it is used: units sorted largest first, the
    /// counts of a unit given twice added (saturating).
    private init(unchecked terms: [Term]) {
        var merged: [Unit: Int] = [:]
        for term in terms { merged[term.unit] = (merged[term.unit] ?? 0).addingSaturating(term.count) }
        let sorted = merged.map { Term(unit: $0.key, count: $0.value) }
            .sorted { $0.unit.nominalMicroseconds > $1.unit.nominalMicroseconds }
        // `terms` is never empty where this is called; the fallback only keeps it total.
        let first = sorted.first ?? Term(unit: .day, count: 0)
        self.unit = first.unit
        self.count = first.count
        self.smallerTerms = Array(sorted.dropFirst())
    }

    /// The sum of two intervals: `.days(1) + .hours(12)` is a day and a half, on the wall clock
    /// for the day and in elapsed time for the hours.
    public static func + (left: IntervalComponents, right: IntervalComponents) -> IntervalComponents {
        IntervalComponents(unchecked: left.terms + right.terms)
    }

    /// Checks that the interval spans a positive number of units and at most 10 000 years.
    ///
    /// - Throws: ``CadenceError`` with code `.invalidArgument` naming the count and the unit.
    package func validate() throws {
        for term in terms where term.count <= 0 {
            throw CadenceError(
                .invalidArgument,
                "An interval must span a positive number of \(term.unit.rawValue)s, not \(term.count).")
        }
        guard nominalMicroseconds <= Self.maximumNominalMicroseconds else {
            throw CadenceError(
                .invalidArgument,
                "An interval of \(terms.map { "\($0.count) \($0.unit.rawValue)s" }.joined(separator: " and ")) is longer than 10000 years.")
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

    /// Parses the command-line form `N(min|h|d|w|mo|y)`, or several such terms, largest unit first
    /// (`1d12h`).
    ///
    /// `N` is one or more ASCII digits and may be left out to mean 1. No signs, spaces or other
    /// unit spellings are accepted: `15min`, `1h`, `d`, `2w`, `1mo`, `10y`, `1d12h`.
    ///
    /// - Parameter text: The text to parse.
    /// - Throws: ``CadenceError`` with code `.invalidArgument` naming the text when it does not
    ///   follow the syntax, when a unit repeats or comes after a smaller one, or when `N` is zero
    ///   or too large.
    public init(parsing text: String) throws {
        let syntax = CadenceError(
            .invalidArgument,
            "Invalid interval \"\(text)\": expected a count followed by min, h, d, w, mo or y, as in 15min, 1d or 1d12h.")
        var rest = Substring(text)
        var terms: [Term] = []
        repeat {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            rest = rest.dropFirst(digits.count)
            let symbol = rest.prefix { !($0.isASCII && $0.isNumber) }
            rest = rest.dropFirst(symbol.count)
            guard let unit = Unit.allCases.first(where: { $0.symbol == symbol }) else { throw syntax }
            var count = 1
            if !digits.isEmpty {
                guard digits.count <= 18, let value = Int(digits) else {
                    throw CadenceError(.invalidArgument, "Invalid interval \"\(text)\": the count is too large.")
                }
                count = value
            }
            if let previous = terms.last, previous.unit.nominalMicroseconds <= unit.nominalMicroseconds { throw syntax }
            terms.append(Term(unit: unit, count: count))
        } while !rest.isEmpty
        self.init(unchecked: terms)
        do {
            try validate()
        } catch let error as CadenceError {
            throw CadenceError(.invalidArgument, "Invalid interval \"\(text)\": \(error.message)")
        }
    }

    /// Creates an interval from Foundation date components holding one or more positive fields.
    ///
    /// The fields understood are `minute`, `hour`, `day`, `weekOfYear` (read as weeks), `month` and
    /// `year`; every other field must be unset or zero. This accepts what HealthKit callers pass as
    /// `intervalComponents`, such as `DateComponents(day: 7)` or `DateComponents(day: 1, hour: 12)`.
    ///
    /// - Parameter dateComponents: The components.
    /// - Throws: ``CadenceError`` with code `.invalidArgument` when no field or an unsupported field
    ///   is set, or when a value is not positive.
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
        let set = candidates.compactMap { value, unit in value.flatMap { $0 == 0 ? nil : Term(unit: unit, count: $0) } }
        guard !set.isEmpty, unsupported.allSatisfy({ $0 == nil || $0 == 0 }) else {
            throw CadenceError(
                .invalidArgument,
                "Interval components must set minute, hour, day, weekOfYear, month or year, and nothing else; got \(dateComponents).")
        }
        self.init(unchecked: set)
        try validate()
    }

    /// The interval as Foundation date components, one field set for each unit.
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
        var components = DateComponents()
        for term in terms {
            let (amount, overflow) = term.count.multipliedReportingOverflow(by: factor)
            guard !overflow else { return nil }
            switch term.unit {
            case .minute: components.minute = amount
            case .hour: components.hour = amount
            case .day: components.day = amount
            case .week: components.weekOfYear = amount
            case .month: components.month = amount
            case .year: components.year = amount
            }
        }
        return components
    }

    /// Whether every interval has the same elapsed length (minutes and hours).
    ///
    /// Fixed-length intervals are computed as `anchor + k × length` without calling the calendar.
    public var isFixedLength: Bool { terms.allSatisfy { $0.unit == .minute || $0.unit == .hour } }

    /// A typical interval length in microseconds: exact for minutes and hours, the mean Gregorian
    /// length for the calendar units.
    package var nominalMicroseconds: Int64 {
        // An interval not yet checked may be any length; it saturates rather than overflows.
        terms.reduce(Int64(0)) { total, term in
            let (length, overflow) = Int64(term.count).multipliedReportingOverflow(by: term.unit.nominalMicroseconds)
            return total.addingSaturating(overflow ? (term.count > 0 ? .max : .min) : length)
        }
    }

    /// The textual form, such as `15min` or `1mo`.
    public var description: String { terms.map { "\($0.count)\($0.unit.symbol)" }.joined() }

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

extension FixedWidthInteger {
    /// The sum, held at the type's bounds instead of overflowing.
    fileprivate func addingSaturating(_ other: Self) -> Self {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
