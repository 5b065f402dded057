//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation
import Testing

@Suite("Timestamp")
struct TimestampTests {
    typealias Support = TimeTestSupport

    @Test("converts known instants to and from Date", arguments: [
        // The epoch.
        (0.0, Timestamp(0)),
        // One and a half seconds after it.
        (1.5, 1_500_000),
        // Half a second before it: negative fractions round correctly.
        (-0.5, -500_000),
        // One millisecond before it.
        (-0.001, -1_000),
        // A 2024 instant with milliseconds.
        (1_710_046_800.123, 1_710_046_800_123_000),
        // Foundation's reference date.
        (978_307_200, 978_307_200_000_000),
    ])
    func knownInstants(secondsSince1970: Double, timestamp: Timestamp) {
        #expect(Date(timeIntervalSince1970: secondsSince1970).timestamp == timestamp)
        #expect(abs(Date(timestamp: timestamp).timeIntervalSince1970 - secondsSince1970) < 1e-6)
    }

    @Test("whole seconds and milliseconds round-trip exactly across the supported range")
    func roundTripMilliseconds() {
        var random = Support.SplitMix64(seed: 42)
        for _ in 0..<20_000 {
            let milliseconds = Timestamp.random(in: supportedTimestampRange, using: &random) / 1_000 * 1_000
            #expect(Date(timestamp: milliseconds).timestamp == milliseconds)
            let seconds = milliseconds / 1_000_000 * 1_000_000
            #expect(Date(timestamp: seconds).timestamp == seconds)
        }
        #expect(Date(timestamp: supportedTimestampRange.lowerBound).timestamp == supportedTimestampRange.lowerBound)
        let lastMillisecond = supportedTimestampRange.upperBound / 1_000 * 1_000
        #expect(Date(timestamp: lastMillisecond).timestamp == lastMillisecond)
    }

    @Test("microseconds round-trip exactly between 1800 and 2200")
    func roundTripMicroseconds() {
        var random = Support.SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            let timestamp = Timestamp.random(in: -5_364_662_400_000_000 ... 7_258_118_400_000_000, using: &random)
            #expect(Date(timestamp: timestamp).timestamp == timestamp)
        }
    }

    @Test("dates beyond Int64 microseconds saturate instead of trapping", arguments: [
        // Positive infinity.
        (Double.infinity, Timestamp.max),
        // Negative infinity.
        (-Double.infinity, Int64.min),
        // NaN has no order; it becomes the epoch.
        (Double.nan, Timestamp(0)),
        // 10^15 seconds is beyond ±292 000 years.
        (1e15, Int64.max),
        // And its negative.
        (-1e15, Int64.min),
    ])
    func saturation(sinceReference: Double, expected: Timestamp) {
        #expect(Date(timeIntervalSinceReferenceDate: sinceReference).timestamp == expected)
    }

    @Test("extreme timestamps convert to dates without trapping")
    func extremeTimestamps() {
        #expect(Date(timestamp: Int64.max).timeIntervalSince1970 > 9e12)
        #expect(Date(timestamp: Int64.min).timeIntervalSince1970 < -9e12)
    }

    @Test("proleptic Gregorian day numbers match a day-by-day walk from 1900 to 2100")
    func dayWalk() {
        var dayNumber = ProlepticGregorian.dayNumber(year: 1900, month: 1, day: 1)
        #expect(dayNumber == -25_567)
        for year: Int64 in 1900...2100 {
            for month: Int64 in 1...12 {
                for day in 1...ProlepticGregorian.daysInMonth(month, year: year) {
                    #expect(ProlepticGregorian.dayNumber(year: year, month: month, day: day) == dayNumber)
                    let civil = ProlepticGregorian.civilDate(dayNumber: dayNumber)
                    #expect(civil.year == year && civil.month == month && civil.day == day)
                    dayNumber += 1
                }
            }
        }
    }

    @Test("month boundaries round-trip from year -1000 to 10000")
    func monthBoundaries() {
        for year: Int64 in -1_000...10_000 {
            for month: Int64 in 1...12 {
                let last = ProlepticGregorian.daysInMonth(month, year: year)
                let first = ProlepticGregorian.dayNumber(year: year, month: month, day: 1)
                let end = ProlepticGregorian.dayNumber(year: year, month: month, day: last)
                #expect(end - first == last - 1)
                let firstCivil = ProlepticGregorian.civilDate(dayNumber: first)
                let endCivil = ProlepticGregorian.civilDate(dayNumber: end)
                #expect(firstCivil.year == year && firstCivil.month == month && firstCivil.day == 1)
                #expect(endCivil.year == year && endCivil.month == month && endCivil.day == last)
                // The next day starts the next month.
                let next = ProlepticGregorian.civilDate(dayNumber: end + 1)
                #expect(next.day == 1 && next.month == month % 12 + 1)
            }
        }
    }

    @Test("day numbers agree with Foundation after the Gregorian reform")
    func agreesWithFoundation() throws {
        let calendar = try Support.calendar("UTC")
        var random = Support.SplitMix64(seed: 99)
        for _ in 0..<5_000 {
            let dayNumber = Int64.random(in: -141_427 ... 2_932_896, using: &random)  // 1583-01-01 ... 9999-12-31
            let civil = ProlepticGregorian.civilDate(dayNumber: dayNumber)
            let components = calendar.dateComponents([.year, .month, .day], from: Date(timestamp: dayNumber * 86_400_000_000))
            #expect(components.year == Int(civil.year) && components.month == Int(civil.month) && components.day == Int(civil.day))
        }
    }
}
