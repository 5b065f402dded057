//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation
import Testing

@Suite("IntervalComponents")
struct IntervalComponentsTests {
    @Test("parses the command-line syntax", arguments: [
        // Fifteen minutes, the usual sub-hour bucket.
        ("15min", 15, IntervalComponents.Unit.minute),
        // One hour.
        ("1h", 1, .hour),
        // One day.
        ("1d", 1, .day),
        // Two weeks.
        ("2w", 2, .week),
        // One month: "mo", not "m", which would be ambiguous.
        ("1mo", 1, .month),
        // One year.
        ("1y", 1, .year),
        // The count may be omitted and means 1.
        ("d", 1, .day),
        // Omitted count for minutes.
        ("min", 1, .minute),
        // Leading zeros are only digits.
        ("007h", 7, .hour),
        // Larger counts.
        ("90min", 90, .minute),
    ])
    func parses(text: String, count: Int, unit: IntervalComponents.Unit) throws {
        let components = try IntervalComponents(parsing: text)
        #expect(components.count == count)
        #expect(components.unit == unit)
        #expect(try IntervalComponents(parsing: components.description) == components)
    }

    @Test("rejects malformed, zero and negative intervals", arguments: [
        // Zero is not a positive multiple.
        "0h",
        // Zero with an omitted-looking prefix.
        "00d",
        // Negative counts are not part of the syntax.
        "-1d",
        // An explicit plus sign is not part of the syntax either.
        "+1d",
        // "m" is ambiguous between minutes and months.
        "5m",
        // Unknown unit.
        "3s",
        // Long unit names are not accepted.
        "1day",
        // Upper case is not accepted.
        "1H",
        // Whitespace is not accepted.
        " 1h",
        // A count without a unit.
        "15",
        // Empty text.
        "",
        // The unit must come last.
        "h1",
        // Too many digits to be a count.
        "1234567890123456789012h",
        // Longer than 10 000 years.
        "10001y",
        // Several units: largest first, each once.
        "12h1d",
        "1d1d",
        "1d0h",
    ])
    func rejects(text: String) {
        let error = #expect(throws: CadenceError.self) { try IntervalComponents(parsing: text) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("\"\(text)\"") == true)
    }

    @Test("factories validate their count")
    func factories() throws {
        #expect(IntervalComponents.minutes(5).description == "5min")
        #expect(IntervalComponents.hours(2).description == "2h")
        #expect(IntervalComponents.days(3).description == "3d")
        #expect(IntervalComponents.weeks(1).description == "1w")
        #expect(IntervalComponents.months(6).description == "6mo")
        #expect(IntervalComponents.years(10).description == "10y")
        #expect(throws: CadenceError.self) { try IntervalComponents(count: 0, unit: .hour) }
        #expect(throws: CadenceError.self) { try IntervalComponents(count: -1, unit: .day) }
        #expect(throws: CadenceError.self) { try IntervalComponents(count: Int.max, unit: .minute) }
        // The static forms never fail; where the interval is used, a bad one is refused.
        let anchor = Date(timeIntervalSince1970: 0)
        for bad in [IntervalComponents.hours(0), .days(-1), .minutes(Int.max), .years(Int.min)] {
            let error = #expect(throws: CadenceError.self) {
                try StatisticsCollectionQuery(quantityType: .stepCount, options: .cumulativeSum, anchorDate: anchor,
                                              intervalComponents: bad)
            }
            #expect(error?.code == .invalidArgument)
            #expect(throws: CadenceError.self) {
                try IntervalEdges(calendar: Calendar(identifier: .gregorian), anchor: 0, components: bad, covering: 0...1)
            }
        }
        // A query whose interval is changed after it was made is refused when it runs.
        var query = try StatisticsCollectionQuery(quantityType: .stepCount, options: .cumulativeSum, anchorDate: anchor,
                                                  intervalComponents: .days(1))
        query.intervalComponents = .days(0)
        #expect(throws: CadenceError.self) { try HealthStore.inMemory().execute(query) }
        #expect(IntervalComponents.minutes(1).isFixedLength)
        #expect(IntervalComponents.hours(1).isFixedLength)
        #expect(!IntervalComponents.days(1).isFixedLength)
    }

    @Test("converts to and from DateComponents", arguments: [
        // Minutes.
        (DateComponents(minute: 15), "15min"),
        // Hours.
        (DateComponents(hour: 1), "1h"),
        // Days.
        (DateComponents(day: 1), "1d"),
        // HealthKit's usual weekly components stay seven days.
        (DateComponents(day: 7), "7d"),
        // Weeks travel as weekOfYear.
        (DateComponents(weekOfYear: 2), "2w"),
        // Months.
        (DateComponents(month: 3), "3mo"),
        // Years.
        (DateComponents(year: 1), "1y"),
        // Zero-valued extra fields are ignored.
        (DateComponents(hour: 0, minute: 30), "30min"),
    ])
    func dateComponents(components: DateComponents, expected: String) throws {
        let interval = try IntervalComponents(components)
        #expect(interval.description == expected)
        #expect(try IntervalComponents(interval.dateComponents) == interval)
    }

    @Test("rejects DateComponents that are not positive units", arguments: [
        // Nothing set.
        DateComponents(),
        // Two units, one negative.
        DateComponents(hour: 1, minute: -30),
        // Seconds are not an interval unit.
        DateComponents(second: 30),
        // Negative.
        DateComponents(day: -1),
        // A unit plus an unsupported field.
        DateComponents(day: 1, second: 5),
    ])
    func rejectsDateComponents(components: DateComponents) {
        let error = #expect(throws: CadenceError.self) { try IntervalComponents(components) }
        #expect(error?.code == .invalidArgument)
    }

    @Test("encodes as its textual form")
    func codable() throws {
        let value = [IntervalComponents.minutes(15), IntervalComponents.months(1)]
        let data = try JSONEncoder().encode(value)
        #expect(String(decoding: data, as: UTF8.self) == #"["15min","1mo"]"#)
        #expect(try JSONDecoder().decode([IntervalComponents].self, from: data) == value)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([IntervalComponents].self, from: Data(#"["0h"]"#.utf8))
        }
    }

    @Test("an interval of several units: sums, text and DateComponents agree, and edges are what Foundation adds",
          arguments: ["UTC", "America/New_York", "Australia/Lord_Howe"])
    func severalUnits(zone: String) throws {
        let dayAndHalf = IntervalComponents.days(1) + .hours(12)
        #expect(dayAndHalf.description == "1d12h" && !dayAndHalf.isFixedLength)
        #expect(try IntervalComponents(parsing: "1d12h") == dayAndHalf)
        #expect(try IntervalComponents(DateComponents(day: 1, hour: 12)) == dayAndHalf)
        #expect(try IntervalComponents(dayAndHalf.dateComponents) == dayAndHalf)
        #expect(IntervalComponents.hours(12) + .days(1) == dayAndHalf)
        #expect(IntervalComponents.days(1) + .days(2) == .days(3))
        let ninety = IntervalComponents.hours(1) + .minutes(30)
        #expect(ninety.isFixedLength && ninety.description == "1h30min")

        let calendar = try TimeTestSupport.calendar(zone)
        let anchor = try TimeTestSupport.instant("2024-03-01T00:00:00Z")
        let edges = try IntervalEdges(calendar: calendar, anchor: anchor, components: dayAndHalf,
                                      covering: anchor...(try TimeTestSupport.instant("2024-11-30T00:00:00Z")))
        for (offset, edge) in edges.edges.enumerated() {
            let number = edges.firstIntervalNumber + offset
            #expect(edge == (try TimeTestSupport.foundationStart(calendar: calendar, anchor: anchor, components: dayAndHalf,
                                                          number: number)), "interval \(number)")
        }
        let fixed = try IntervalEdges(calendar: calendar, anchor: anchor, components: ninety, covering: anchor...(anchor + 1))
        #expect(fixed.edges == [anchor, anchor + 90 * 60_000_000])
    }
}
