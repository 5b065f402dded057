//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// A calendar day without a time or a time zone: the day an ``ActivitySummary`` covers
/// (HealthKit's `dateComponents(for:)` with era, year, month and day).
///
/// Days are proleptic Gregorian and compare in calendar order.
///
///     let day = try ActivityDay("2019-05-14")
///     day.next.description  // "2019-05-15"
public struct ActivityDay: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The year, 1 through 9999.
    public let year: Int
    /// The month, 1 through 12.
    public let month: Int
    /// The day of the month, 1 through its length.
    public let day: Int

    /// Creates a day from its components.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` for a year outside 1...9999, a month outside
    ///   1...12, or a day the month does not have (2023-02-29).
    public init(year: Int, month: Int, day: Int) throws {
        guard (1...9999).contains(year), (1...12).contains(month),
              day >= 1, Int64(day) <= ProlepticGregorian.daysInMonth(Int64(month), year: Int64(year))
        else {
            throw CadenceError(.invalidArgument, "\(year)-\(month)-\(day) is not a calendar day (year 1 through 9999)")
        }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `yyyy-MM-dd`, as an export's `dateComponents` attribute writes a day.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` naming the text when it is not such a day.
    public init(_ text: String) throws {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else {
            throw CadenceError(.invalidArgument, "'\(text)' is not a day of the form yyyy-MM-dd")
        }
        try self.init(year: year, month: month, day: day)
    }

    /// The day `dayNumber` days after 1970-01-01, if it lies in years 1 through 9999.
    init?(dayNumber: Int64) {
        let civil = ProlepticGregorian.civilDate(dayNumber: dayNumber)
        guard let day = try? ActivityDay(year: Int(civil.year), month: Int(civil.month), day: Int(civil.day)) else {
            return nil
        }
        self = day
    }

    /// The day holding `timestamp`, read in UTC: the day of the floating UTC-midnight interval a
    /// store keeps a summary under.
    package init?(timestamp: Timestamp) {
        self.init(dayNumber: TimestampArithmetic.floorDivide(timestamp, TimestampArithmetic.microsecondsPerDay))
    }

    /// The day holding `date` in UTC: the day of a summary a store keeps in the interval that
    /// starts at that day's UTC midnight (`nil` outside years 1 through 9999).
    public init?(date: Date) {
        self.init(timestamp: date.timestamp)
    }

    /// Days since 1970-01-01 (negative before it).
    package var dayNumber: Int64 {
        ProlepticGregorian.dayNumber(year: Int64(year), month: Int64(month), day: Int64(day))
    }

    /// The day's UTC midnight, where its stored interval starts.
    package var startTimestamp: Timestamp { dayNumber * TimestampArithmetic.microsecondsPerDay }

    /// The next day's UTC midnight, where its stored interval ends.
    package var endTimestamp: Timestamp { startTimestamp + TimestampArithmetic.microsecondsPerDay }

    /// The following day (9999-12-31 has none and returns itself).
    public var next: ActivityDay { ActivityDay(dayNumber: dayNumber + 1) ?? self }

    /// The day before (0001-01-01 has none and returns itself).
    public var previous: ActivityDay { ActivityDay(dayNumber: dayNumber - 1) ?? self }

    /// The day as date components (era, year, month, day, in the Gregorian calendar), the form
    /// HealthKit's activity summaries give.
    public var dateComponents: DateComponents {
        DateComponents(calendar: Calendar(identifier: .gregorian), era: 1, year: year, month: month, day: day)
    }

    /// `yyyy-MM-dd`.
    public var description: String {
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    /// Decodes the `yyyy-MM-dd` text ``encode(to:)`` writes, checked as ``init(_:)`` checks it.
    public init(from decoder: any Decoder) throws {
        try self.init(try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the day as its `yyyy-MM-dd` text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    public static func < (left: ActivityDay, right: ActivityDay) -> Bool {
        (left.year, left.month, left.day) < (right.year, right.month, right.day)
    }
}
