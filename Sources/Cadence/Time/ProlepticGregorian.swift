//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Integer conversions between civil dates and day numbers in the proleptic Gregorian calendar.
///
/// Day 0 is 1970-01-01. The Gregorian leap rule is applied to every year, including years before
/// the 1582 reform (unlike Foundation's `Calendar(identifier: .gregorian)`, which switches to the
/// Julian calendar before 1582-10-15). RFC 3339 and the Apple Health export format are defined
/// on the proleptic Gregorian calendar, so parsing and formatting use these functions.
///
/// The arithmetic counts years from March, which puts the leap day at the end of the counted year,
/// and works in 400-year cycles of 146 097 days, which repeat exactly.
package enum ProlepticGregorian {
    /// Days in a 400-year cycle.
    private static let daysPerCycle: Int64 = 146_097
    /// Days from 0000-03-01 to 1970-01-01.
    private static let daysFromMarchOfYearZeroToEpoch: Int64 = 719_468

    /// Whether `year` has a February 29.
    ///
    /// - Parameter year: A proleptic Gregorian year (year 0 is 1 BCE).
    /// - Returns: `true` for years divisible by 4, except centuries not divisible by 400.
    @inlinable
    package static func isLeapYear(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days in a month.
    ///
    /// - Parameters:
    ///   - month: 1 through 12.
    ///   - year: The year, for February.
    /// - Returns: 28 through 31, or 0 for a month outside 1...12.
    @inlinable
    package static func daysInMonth(_ month: Int64, year: Int64) -> Int64 {
        switch month {
        case 1, 3, 5, 7, 8, 10, 12: return 31
        case 4, 6, 9, 11: return 30
        case 2: return isLeapYear(year) ? 29 : 28
        default: return 0
        }
    }

    /// The day number of a civil date.
    ///
    /// - Parameters:
    ///   - year: Any year within ±25 000 000 000 000 (no overflow checks beyond that).
    ///   - month: 1 through 12.
    ///   - day: 1 through the length of the month (not validated; other values count on).
    /// - Returns: Days since 1970-01-01; negative before it.
    /// - Complexity: O(1), integer arithmetic only.
    package static func dayNumber(year: Int64, month: Int64, day: Int64) -> Int64 {
        // Count years from March so that February, with its leap day, ends the year.
        let marchYear = month <= 2 ? year - 1 : year
        let cycle = TimestampArithmetic.floorDivide(marchYear, 400)
        let yearOfCycle = marchYear - cycle * 400  // 0...399
        let monthFromMarch = month <= 2 ? month + 9 : month - 3  // March 0 ... February 11
        // Months March...January alternate 31/30 days in a 153-day five-month pattern.
        let dayOfMarchYear = (153 * monthFromMarch + 2) / 5 + (day - 1)
        let dayOfCycle = 365 * yearOfCycle + yearOfCycle / 4 - yearOfCycle / 100 + dayOfMarchYear
        return cycle * daysPerCycle + dayOfCycle - daysFromMarchOfYearZeroToEpoch
    }

    /// The civil date of a day number.
    ///
    /// - Parameter dayNumber: Days since 1970-01-01; any value a timestamp can produce.
    /// - Returns: The proleptic Gregorian year, month (1...12) and day (1...31).
    /// - Complexity: O(1), integer arithmetic only.
    package static func civilDate(dayNumber: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = dayNumber + daysFromMarchOfYearZeroToEpoch
        let cycle = TimestampArithmetic.floorDivide(shifted, daysPerCycle)
        let dayOfCycle = shifted - cycle * daysPerCycle  // 0...146 096
        // Squeeze out leap days so every year counts 365 days. A four-year group's leap day is its
        // day 1460, so dayOfCycle / 1460 steps up on each leap day (which then counts as the last
        // day of its year); a century of 36 524 days lacks one leap day, so add those back; the
        // cycle's final day, 146 096, is a leap day again.
        let squeezed = dayOfCycle - dayOfCycle / 1_460 + dayOfCycle / 36_524 - dayOfCycle / 146_096
        let yearOfCycle = squeezed / 365
        let dayOfMarchYear = dayOfCycle - (365 * yearOfCycle + yearOfCycle / 4 - yearOfCycle / 100)
        let monthFromMarch = (5 * dayOfMarchYear + 2) / 153
        let day = dayOfMarchYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = cycle * 400 + yearOfCycle + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}
