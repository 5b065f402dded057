//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation
import Testing

@Suite("IntervalEdges")
struct IntervalEdgesTests {
    typealias Support = TimeTestSupport

    /// Edges covering `from...through` (RFC 3339 texts) in a zone.
    func edges(
        _ zone: String, anchor: String, _ components: IntervalComponents, from: String, through: String
    ) throws -> IntervalEdges {
        try IntervalEdges(
            calendar: Support.calendar(zone), anchor: Support.instant(anchor), components: components,
            covering: Support.instant(from)...Support.instant(through))
    }

    /// The interval starts rendered in a zone.
    func starts(_ edges: IntervalEdges, _ zone: String) throws -> [String] {
        try edges.edges.dropLast().map { try Support.text($0, zone) }
    }

    /// Interval lengths in hours.
    func hours(_ edges: IntervalEdges) -> [Double] {
        zip(edges.edges, edges.edges.dropFirst()).map { Double($1 - $0) / Double(Support.hour) }
    }

    @Test("Worked example: the New York day containing 2024-03-10 01:00 runs 03:00 to 03:00 and lasts 23 hours")
    func specVector() throws {
        let zone = "America/New_York"
        let calendar = try Support.calendar(zone)
        let anchor = try Support.instant("2024-01-01T03:00:00-05:00")
        let instant = try Support.instant("2024-03-10T01:00:00-05:00")
        let edges = try IntervalEdges(
            calendar: calendar, anchor: anchor, components: .days(1), covering: instant...(instant + 30 * Support.hour))
        let index = try #require(edges.intervalIndex(containing: instant))
        let interval = edges.interval(at: index)
        #expect(try Support.text(interval.start, zone) == "2024-03-09T03:00:00-05:00")
        #expect(try Support.text(interval.end, zone) == "2024-03-10T03:00:00-04:00")
        #expect(interval.end - interval.start == 23 * Support.hour)
        let next = edges.interval(at: index + 1)
        #expect(next.end - next.start == 24 * Support.hour)
        #expect(edges.intervalNumber(at: index) == 68)  // January 1 + 68 days = March 9
    }

    @Test("New York days at midnight last 23 hours in spring and 25 hours in autumn", arguments: [
        // Spring forward: 2024-03-10 skips 02:00–03:00.
        ("2024-03-10T00:00:00-05:00", 23.0),
        // Fall back: 2024-11-03 repeats 01:00–02:00.
        ("2024-11-03T00:00:00-04:00", 25.0),
        // An ordinary day.
        ("2024-06-01T00:00:00-04:00", 24.0),
    ])
    func newYorkDays(dayStart: String, expectedHours: Double) throws {
        let edges = try edges(
            "America/New_York", anchor: "2024-01-01T00:00:00-05:00", .days(1), from: dayStart, through: dayStart)
        #expect(edges.count == 1)
        #expect(try Support.text(edges.edges[0], "America/New_York") == dayStart)
        #expect(hours(edges) == [expectedHours])
    }

    @Test("monthly intervals anchored on January 31 clamp to month ends without drifting", arguments: [
        // UTC.
        ("UTC", "2024-01-31T00:00:00Z", ["2024-01-31T00:00:00Z", "2024-02-29T00:00:00Z", "2024-03-31T00:00:00Z", "2024-04-30T00:00:00Z"]),
        // New York, which changes offset on March 10 in between.
        ("America/New_York", "2024-01-31T00:00:00-05:00",
         ["2024-01-31T00:00:00-05:00", "2024-02-29T00:00:00-05:00", "2024-03-31T00:00:00-04:00", "2024-04-30T00:00:00-04:00"]),
    ])
    func monthEnds(zone: String, anchor: String, expected: [String]) throws {
        let edges = try edges(zone, anchor: anchor, .months(1), from: anchor, through: "2024-04-30T12:00:00Z")
        let actual = try starts(edges, zone)
        #expect(actual == expected)
        #expect(edges.firstIntervalNumber == 0)
        // The next edge is May 31, not May 30: computed from the anchor, not from April 30.
        #expect(try Support.text(edges.edges[4], zone).hasPrefix("2024-05-31T00:00:00"))
    }

    @Test("hourly edges are exactly 3600 s apart across both New York transitions", arguments: [
        // Across spring forward: 22:00 to 06:00 is 7 elapsed hours, so 8 intervals including 06:00.
        ("2024-03-09T22:00:00-05:00", "2024-03-10T06:00:00-04:00", 8),
        // Across fall back, including both 01:00 hours: 9 elapsed hours, 10 intervals.
        ("2024-11-02T22:00:00-04:00", "2024-11-03T06:00:00-05:00", 10),
    ])
    func hourlyAcrossDaylightSaving(from: String, through: String, intervalCount: Int) throws {
        let edges = try edges(
            "America/New_York", anchor: "2024-01-01T00:00:00-05:00", .hours(1), from: from, through: through)
        #expect(Set(zip(edges.edges, edges.edges.dropFirst()).map { $1 - $0 }) == [Support.hour])
        #expect(edges.count == intervalCount)
    }

    @Test("hourly intervals from 10:30 through 13:00 include the interval starting at 13:00")
    func hourlyInclusiveEnd() throws {
        let edges = try edges("UTC", anchor: "2024-05-01T00:00:00Z", .hours(1), from: "2024-05-01T10:30:00Z", through: "2024-05-01T13:00:00Z")
        #expect(try starts(edges, "UTC") == [
            "2024-05-01T10:00:00Z", "2024-05-01T11:00:00Z", "2024-05-01T12:00:00Z", "2024-05-01T13:00:00Z",
        ])
        #expect(edges.firstIntervalNumber == 10)
        // The half-open form [10:30, 13:00) stops at the interval containing 12:59:59.999999.
        let halfOpen = try IntervalEdges(
            calendar: Support.calendar("UTC"), anchor: Support.instant("2024-05-01T00:00:00Z"), components: .hours(1),
            covering: Support.instant("2024-05-01T10:30:00Z")..<Support.instant("2024-05-01T13:00:00Z"))
        #expect(halfOpen.count == 3)
    }

    @Test("days follow the wall clock in other zones", arguments: [
        // Berlin springs forward on 2024-03-31.
        ("Europe/Berlin", "2024-03-30T00:00:00+01:00", "2024-04-01T12:00:00+02:00", [24.0, 23.0, 24.0]),
        // Berlin falls back on 2024-10-27.
        ("Europe/Berlin", "2024-10-26T00:00:00+02:00", "2024-10-28T12:00:00+01:00", [24.0, 25.0, 24.0]),
        // Lord Howe falls back half an hour on 2024-04-07.
        ("Australia/Lord_Howe", "2024-04-06T00:00:00+11:00", "2024-04-08T12:00:00+10:30", [24.0, 24.5, 24.0]),
        // Lord Howe springs forward half an hour on 2024-10-06.
        ("Australia/Lord_Howe", "2024-10-05T00:00:00+10:30", "2024-10-07T12:00:00+11:00", [24.0, 23.5, 24.0]),
        // UTC has no transitions.
        ("UTC", "2024-03-30T00:00:00Z", "2024-04-01T12:00:00Z", [24.0, 24.0, 24.0]),
    ])
    func wallClockDays(zone: String, anchor: String, through: String, expectedHours: [Double]) throws {
        let edges = try edges(zone, anchor: anchor, .days(1), from: anchor, through: through)
        #expect(hours(edges) == expectedHours)
    }

    @Test("anchors far before and after the range, including negative interval numbers", arguments: [
        // Daily from the 1970 epoch: interval number = days since the epoch.
        ("UTC", "1970-01-01T00:00:00Z", IntervalComponents.Unit.day, "2024-03-10T12:00:00Z", 19_792, "2024-03-10T00:00:00Z"),
        // Monthly from 1970 in New York.
        ("America/New_York", "1970-01-01T00:00:00-05:00", .month, "2024-03-10T12:00:00-04:00", 650, "2024-03-01T00:00:00-05:00"),
        // Weekly anchored in 2100: the range lies before the anchor.
        ("Europe/Berlin", "2100-01-04T00:00:00+01:00", .week, "2024-03-10T12:00:00+01:00", -3_957, "2024-03-04T00:00:00+01:00"),
        // Yearly anchored in 2100 on March 1.
        ("UTC", "2100-03-01T00:00:00Z", .year, "2024-03-10T12:00:00Z", -76, "2024-03-01T00:00:00Z"),
        // Hourly from 1970: fixed arithmetic with a large interval number.
        ("America/New_York", "1970-01-01T00:00:00Z", .hour, "2024-03-10T12:34:00Z", 475_020, "2024-03-10T12:00:00Z"),
        // Five-minute intervals anchored in 2100.
        ("UTC", "2100-01-01T00:02:00Z", .minute, "2024-03-10T12:34:00Z", -7_974_570, "2024-03-10T12:32:00Z"),
    ])
    func farAnchors(
        zone: String, anchor: String, unit: IntervalComponents.Unit, instant: String, number: Int, expectedStart: String
    ) throws {
        let components = try IntervalComponents(count: unit == .minute ? 5 : 1, unit: unit)
        let edges = try edges(zone, anchor: anchor, components, from: instant, through: instant)
        #expect(edges.count == 1)
        #expect(edges.firstIntervalNumber == number)
        #expect(edges.edges[0] == (try Support.instant(expectedStart)))
        #expect(edges.edges[0] == (try Support.foundationStart(
            calendar: Support.calendar(zone), anchor: Support.instant(anchor), components: components, number: number)))
    }

    @Test("interval numbers just before the anchor are negative")
    func negativeNumbers() throws {
        let edges = try edges("UTC", anchor: "2024-01-01T00:00:00Z", .days(1), from: "2023-12-30T05:00:00Z", through: "2024-01-01T05:00:00Z")
        #expect(edges.firstIntervalNumber == -2)
        #expect((0..<edges.count).map(edges.intervalNumber(at:)) == [-2, -1, 0])
        #expect(try IntervalEdges.intervalStart(
            number: -1, calendar: Support.calendar("UTC"), anchor: Support.instant("2024-01-01T00:00:00Z"), components: .days(1))
            == Support.instant("2023-12-31T00:00:00Z"))
    }

    // Foundation's own behaviour on this platform, which the edges inherit.
    @Test("Foundation resolves wall-clock gaps and overlaps as How Cadence computes says", arguments: [
        // 02:30 does not exist on 2020-03-08: it moves forward by the one-hour gap to 03:30.
        ("2020-03-01T02:30:00-05:00", 7, "2020-03-08T03:30:00-04:00"),
        // 01:30 occurs twice on 2020-11-01: the first occurrence (-04:00) is chosen.
        ("2020-10-25T01:30:00-04:00", 7, "2020-11-01T01:30:00-04:00"),
        // Backwards into the gap also lands after it.
        ("2020-03-15T02:30:00-04:00", -7, "2020-03-08T03:30:00-04:00"),
        // Backwards from standard time into the overlap: Foundation keeps -05:00, the SECOND occurrence.
        ("2020-11-08T01:30:00-05:00", -7, "2020-11-01T01:30:00-05:00"),
        // Backwards from summer time into the overlap: -04:00, the first occurrence.
        ("2021-04-01T01:30:00-04:00", -151, "2020-11-01T01:30:00-04:00"),
    ])
    func foundationTransitions(anchor: String, days: Int, expected: String) throws {
        let zone = "America/New_York"
        let calendar = try Support.calendar(zone)
        let anchorTimestamp = try Support.instant(anchor)
        let start = try IntervalEdges.intervalStart(number: days, calendar: calendar, anchor: anchorTimestamp, components: .days(1))
        #expect(try Support.text(start, zone) == expected)
        let weekly = try IntervalEdges.intervalStart(
            number: days.signum(), calendar: calendar, anchor: anchorTimestamp, components: .days(abs(days)))
        #expect(weekly == start)
    }

    @Test("Samoa's skipped 2011-12-30 gives a 24-hour interval, not a duplicate edge")
    func samoa() throws {
        let zone = "Pacific/Apia"
        let edges = try edges(zone, anchor: "2011-12-28T12:00:00-10:00", .days(1), from: "2011-12-28T12:00:00-10:00", through: "2012-01-01T11:00:00+14:00")
        #expect(try starts(edges, zone) == [
            "2011-12-28T12:00:00-10:00", "2011-12-29T12:00:00-10:00", "2011-12-31T12:00:00+14:00",
        ])
        #expect(hours(edges) == [24, 24, 24])
    }

    @Test("weeks are seven calendar days")
    func weeksAreSevenDays() throws {
        let calendar = try Support.calendar("America/New_York")
        let anchor = try Support.instant("2020-01-05T01:30:00-05:00")
        let range = try Support.instant("2020-02-01T00:00:00Z")...Support.instant("2021-02-01T00:00:00Z")
        let weeks = try IntervalEdges(calendar: calendar, anchor: anchor, components: .weeks(1), covering: range)
        let days = try IntervalEdges(calendar: calendar, anchor: anchor, components: .days(7), covering: range)
        #expect(weeks.edges == days.edges)
        #expect(weeks.firstIntervalNumber == days.firstIntervalNumber)
    }

    @Test("binary search places instants on the correct side of every edge")
    func intervalIndexBoundaries() throws {
        let edges = try edges("UTC", anchor: "2024-01-01T00:00:00Z", .hours(6), from: "2024-01-01T00:00:00Z", through: "2024-01-02T23:00:00Z")
        #expect(edges.count == 8)
        #expect(edges.intervalIndex(containing: edges.edges[0] - 1) == nil)
        #expect(edges.intervalIndex(containing: edges.edges[edges.count]) == nil)
        #expect(edges.intervalIndex(containing: Int64.min) == nil)
        #expect(edges.intervalIndex(containing: Int64.max) == nil)
        for index in 0..<edges.count {
            let interval = edges.interval(at: index)
            #expect(edges.intervalIndex(containing: interval.start) == index)
            #expect(edges.intervalIndex(containing: interval.end - 1) == index)
            #expect(edges.intervalIndex(containing: (interval.start + interval.end) / 2) == index)
        }
    }

    @Test("an empty half-open range has no intervals")
    func emptyRange() throws {
        let instant = try Support.instant("2024-01-01T00:00:00Z")
        let edges = try IntervalEdges(
            calendar: Support.calendar("UTC"), anchor: instant, components: .days(1), covering: instant..<instant)
        #expect(edges.edges.isEmpty)
        #expect(edges.count == 0)
        #expect(edges.intervalIndex(containing: instant) == nil)
    }

    @Test("requests needing too many edges throw instead of allocating", arguments: [
        // One-minute intervals over all supported years, against the default 50 million cap.
        (IntervalComponents.Unit.minute, 1, "0001-01-01T00:00:00Z", "9999-12-31T00:00:00Z", IntervalEdges.defaultMaximumEdgeCount),
        // Daily intervals over a week need 8 edges; the cap is 7.
        (.day, 1, "2024-01-01T00:00:00Z", "2024-01-07T12:00:00Z", 7),
        // Monthly intervals: the estimate fits but February is shorter than a mean month.
        (.month, 1, "2023-02-01T00:00:00Z", "2023-03-01T00:00:00Z", 2),
    ])
    func tooManyEdges(unit: IntervalComponents.Unit, count: Int, from: String, through: String, cap: Int) throws {
        let error = #expect(throws: CadenceError.self) {
            try IntervalEdges(
                calendar: Support.calendar("UTC"), anchor: Support.instant("2023-01-01T00:00:00Z"),
                components: IntervalComponents(count: count, unit: unit),
                covering: Support.instant(from)...Support.instant(through), maximumEdgeCount: cap)
        }
        #expect(error?.code == .invalidQuery)
    }

    @Test("the edge cap is inclusive")
    func capIsInclusive() throws {
        let edges = try IntervalEdges(
            calendar: Support.calendar("UTC"), anchor: Support.instant("2024-01-01T00:00:00Z"), components: .days(1),
            covering: Support.instant("2024-01-01T00:00:00Z")...Support.instant("2024-01-07T12:00:00Z"), maximumEdgeCount: 8)
        #expect(edges.edges.count == 8)
    }

    @Test("rejects unsupported calendars, anchors, ranges and caps")
    func invalidArguments() throws {
        let anchor = try Support.instant("2024-01-01T00:00:00Z")
        var buddhist = Calendar(identifier: .buddhist)
        buddhist.timeZone = try timeZone(named: "UTC")
        let cases: [() throws -> IntervalEdges] = [
            // Not a Gregorian calendar.
            { try IntervalEdges(calendar: buddhist, anchor: anchor, components: .days(1), covering: anchor...anchor) },
            // Anchor beyond year 9999.
            { try IntervalEdges(calendar: Support.calendar("UTC"), anchor: Int64.max, components: .days(1), covering: anchor...anchor) },
            // Range starting before year 0001.
            { try IntervalEdges(calendar: Support.calendar("UTC"), anchor: anchor, components: .days(1), covering: Int64.min...anchor) },
            // A cap too small to hold one interval.
            { try IntervalEdges(calendar: Support.calendar("UTC"), anchor: anchor, components: .days(1), covering: anchor...anchor, maximumEdgeCount: 1) },
        ]
        for make in cases {
            let error = #expect(throws: CadenceError.self) { try make() }
            #expect(error?.code == .invalidArgument)
        }
    }

    @Test("a year of five-minute intervals is fast and makes no calendar calls")
    func fiveMinutesOverAYear() throws {
        let clock = ContinuousClock()
        var edges: IntervalEdges?
        let elapsed = try clock.measure {
            edges = try IntervalEdges(
                calendar: Support.calendar("America/New_York"), anchor: Support.instant("1970-01-01T00:00:00Z"),
                components: .minutes(5),
                covering: Support.instant("2024-01-01T00:00:00-05:00")..<Support.instant("2025-01-01T00:00:00-05:00"))
        }
        let result = try #require(edges)
        #expect(result.count == 366 * 288)
        #expect(elapsed < .seconds(1))
        let instant = try Support.instant("2024-07-04T12:34:56-04:00")
        let index = try #require(result.intervalIndex(containing: instant))
        #expect(try Support.text(result.interval(at: index).start, "America/New_York") == "2024-07-04T12:30:00-04:00")
    }

    @Test("a century of New York days and an anchor 8000 years away stay fast")
    func calendarUnitsScale() throws {
        let clock = ContinuousClock()
        let calendar = try Support.calendar("America/New_York")
        let elapsed = try clock.measure {
            let days = try IntervalEdges(
                calendar: calendar, anchor: Support.instant("2000-01-01T00:00:00-05:00"), components: .days(1),
                covering: Support.instant("1950-01-01T00:00:00Z")...Support.instant("2050-01-01T00:00:00Z"))
            #expect(days.count == 36_525 + 1)
            let months = try IntervalEdges(
                calendar: calendar, anchor: Support.instant("9999-01-31T00:00:00Z"), components: .months(1),
                covering: Support.instant("1990-06-15T00:00:00Z")...Support.instant("1990-06-15T00:00:00Z"))
            #expect(months.count == 1)
            #expect(months.firstIntervalNumber == (1990 - 9999) * 12 + 4)
        }
        #expect(elapsed < .seconds(5))
    }
}
