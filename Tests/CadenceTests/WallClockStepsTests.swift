//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// Calendar-unit interval starts computed on integers, against Foundation's Calendar for every
/// start: zones with daylight saving, half-hour and 45-minute offsets and odd transitions, anchors
/// on month ends and far from the edges (before 1970 and after 2100), long runs of edges.
@Suite("Interval starts on the wall clock")
struct WallClockStepsTests {
    typealias Support = TimeTestSupport

    static let zones = ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kathmandu",
                        "America/St_Johns", "Pacific/Apia", "Pacific/Kwajalein", "Africa/Casablanca", "UTC"]
    /// Zones whose offset once changed by a whole day.
    static let dateLineZones: Set = ["Pacific/Apia", "Pacific/Kwajalein"]

    @Test("Every start equals Foundation's, or is left to it", arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func agreesWithFoundation(seed: UInt64) throws {
        var random = Support.SplitMix64(seed: seed)
        for _ in 0..<12 {
            let zone = try #require(Self.zones.randomElement(using: &random))
            let calendar = try Support.calendar(zone)
            let unit = try #require([IntervalComponents.Unit.day, .week, .month, .year].randomElement(using: &random))
            let count = [1, 1, 2, 3, 7][Int.random(in: 0..<5, using: &random)]
            let components = try IntervalComponents(count: count, unit: unit)
            // Anchors from 1600 to 2800, often on a month's last days or at a transition's hour.
            let year = Int.random(in: 1_600...2_800, using: &random)
            let month = Int.random(in: 1...12, using: &random)
            let day = [1, 15, 28, 29, 30, 31][Int.random(in: 0..<6, using: &random)]
            let hour = [0, 1, 2, 3, 12, 23][Int.random(in: 0..<6, using: &random)]
            guard let anchorDate = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour,
                                                                      minute: [0, 30, 45][Int.random(in: 0..<3, using: &random)]))
            else { continue }
            var anchor = anchorDate.timestamp
            if Bool.random(using: &random) { anchor += Int64.random(in: 0..<60, using: &random) * 1_000_000 }
            guard var steps = WallClockSteps(calendar: calendar, anchor: anchor, components: components) else { continue }
            // A run of starts from a year between 1900 and 2100, in order, as the edges ask for them.
            let unitsPerYear: Int64 = [.day: 365, .week: 52, .month: 12, .year: 1][unit] ?? 1
            let first = Int64(Int.random(in: 1_900...2_100, using: &random) - year) * unitsPerYear / Int64(count)
            let length: Int64 = unit == .year ? 60 : 400
            var answered: Int64 = 0
            for number in first..<(first + length) {
                let expected = try Support.foundationStart(calendar: calendar, anchor: anchor, components: components,
                                                           number: Int(number))
                guard let start = steps.start(of: number) else {
                    // As the edges do: Foundation answers, and the steps learn from it.
                    steps.calibrate(number: number, start: expected)
                    continue
                }
                answered += 1
                #expect(start == expected, "\(zone) \(components) anchor \(anchor) number \(number)")
            }
            // Only starts near an offset change (and months before the anchor, and everything in
            // zones that moved across the date line between the anchor and the starts) are left to Foundation.
            #expect(answered * 4 >= length * 3 || (first < 0 && (unit == .month || unit == .year))
                    || Self.dateLineZones.contains(zone), "\(zone) \(components) anchor \(anchor) from \(first): \(answered) answered")
        }
    }

    @Test("A decade of days in a zone with daylight saving needs Foundation only near its changes")
    func fewFoundationCalls() throws {
        let calendar = try Support.calendar("Europe/Berlin")
        let anchor = try Support.instant("2015-01-01T03:00:00+01:00")
        let daily = IntervalComponents.days(1)
        var steps = try #require(WallClockSteps(calendar: calendar, anchor: anchor, components: daily))
        var leftToFoundation = 0
        for number in Int64(0)..<3_653 {
            let expected = try Support.foundationStart(calendar: calendar, anchor: anchor, components: daily, number: Int(number))
            if let start = steps.start(of: number) {
                #expect(start == expected)
            } else {
                steps.calibrate(number: number, start: expected)
                leftToFoundation += 1
            }
        }
        // The first start, then two changes a year, each leaving the day before, of and after to Foundation.
        #expect(leftToFoundation > 1 && leftToFoundation <= 1 + 20 * 3)
    }

    @Test("Edges across a zone's move over the date line match Foundation",
          arguments: [("Pacific/Apia", "2012-01-01T00:00:00Z"), ("Pacific/Kwajalein", "1993-01-01T00:00:00Z")])
    func acrossTheDateLine(zone: String, from text: String) throws {
        let calendar = try Support.calendar(zone)
        // Anchored before the move; the second range crosses it too.
        let anchor = try #require(calendar.date(from: DateComponents(year: 1969, month: 8, day: 14, hour: 6))).timestamp
        let from = try Support.instant(text)
        for components in [IntervalComponents.days(1), .days(5), .weeks(1), .months(1)] {
            let range = from...(from + 400 * 86_400_000_000)
            // Foundation's own starts over the range (and a little beyond), which can fail to increase there.
            let first = Int(TimestampArithmetic.floorDivide(range.lowerBound - anchor, components.nominalMicroseconds)) - 3
            let last = Int(TimestampArithmetic.floorDivide(range.upperBound - anchor, components.nominalMicroseconds)) + 3
            let starts = try (first...last).map {
                try Support.foundationStart(calendar: calendar, anchor: anchor, components: components, number: $0)
            }
            guard zip(starts, starts.dropFirst()).allSatisfy({ $0 < $1 }) else {
                // The edges refuse what Foundation cannot order.
                #expect(throws: CadenceError.self, "\(zone) \(components)") {
                    try IntervalEdges(calendar: calendar, anchor: anchor, components: components, covering: range)
                }
                continue
            }
            let edges = try IntervalEdges(calendar: calendar, anchor: anchor, components: components, covering: range)
            for (index, edge) in edges.edges.enumerated() {
                #expect(edge == starts[edges.firstIntervalNumber + index - first], "\(zone) \(components) edge \(index)")
            }
        }
    }

    @Test("Anchors with a fraction of a second are left to Foundation")
    func fractionalAnchor() throws {
        let calendar = try Support.calendar("Europe/Berlin")
        let anchor = try Support.instant("2024-01-01T03:00:00.5+01:00")
        #expect(WallClockSteps(calendar: calendar, anchor: anchor, components: .days(1)) == nil)
    }

    @Test("Month ends clamp as Foundation does", arguments: ["2024-01-31T10:00:00-05:00", "2023-03-31T23:30:00-04:00",
                                                              "2024-02-29T00:00:00-05:00", "1899-12-31T12:00:00-05:00"])
    func monthEnds(anchorText: String) throws {
        let calendar = try Support.calendar("America/New_York")
        let anchor = try Support.instant(anchorText)
        for components in [IntervalComponents.months(1), .months(5), .years(1)] {
            var steps = try #require(WallClockSteps(calendar: calendar, anchor: anchor, components: components))
            for number in Int64(-30)...30 {
                let expected = try Support.foundationStart(calendar: calendar, anchor: anchor, components: components,
                                                           number: Int(number))
                guard let start = steps.start(of: number) else {
                    steps.calibrate(number: number, start: expected)
                    continue
                }
                #expect(start == expected, "\(anchorText) \(components) \(number)")
            }
        }
    }
}
