//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation
import Testing

@Suite("IntervalEdges properties")
struct IntervalEdgesPropertyTests {
    typealias Support = TimeTestSupport

    /// Zones with ordinary, half-hour, 45-minute, negative-half-hour and unusual transitions.
    static let zones = [
        "UTC", "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kolkata",
        "America/St_Johns", "Pacific/Chatham", "America/Santiago", "Asia/Tehran", "Europe/London",
        "Pacific/Apia", "America/Sao_Paulo", "Africa/Casablanca", "Asia/Kathmandu",
    ]

    /// 1900-01-01T00:00:00Z through 2100-01-01T00:00:00Z, in microseconds.
    static let window: ClosedRange<Timestamp> = -2_208_988_800_000_000 ... 4_102_444_800_000_000

    @Test("edges match Foundation, increase strictly, cover the range and bracket every instant", arguments: [
        // Each seed drives 60 random cases: zone, unit, count, anchor, range.
        UInt64(1), 2, 3, 4, 5,
    ])
    func randomQueries(seed: UInt64) throws {
        var random = Support.SplitMix64(seed: seed)
        for _ in 0..<60 {
            let zone = try #require(Self.zones.randomElement(using: &random))
            let calendar = try Support.calendar(zone)
            let unit = try #require(IntervalComponents.Unit.allCases.randomElement(using: &random))
            let count = [1, 1, 1, 2, 3, 5, 7, 15][Int.random(in: 0..<8, using: &random)]
            let components = try IntervalComponents(count: count, unit: unit)
            var anchor = Timestamp.random(in: Self.window, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: anchor -= anchor % 1_000_000  // whole seconds
            case 1: anchor -= anchor % 3_600_000_000  // whole hours, often at transition times
            default: break  // arbitrary microseconds
            }
            let from = Timestamp.random(in: Self.window, using: &random)
            let span = Timestamp.random(in: 0...(components.nominalMicroseconds * 40), using: &random)
            let through = Swift.min(from + span, Self.window.upperBound)
            let edges = try IntervalEdges(calendar: calendar, anchor: anchor, components: components, covering: from...through)
            let description = "\(zone) \(components) anchor \(anchor) range \(from)...\(through)"

            #expect(edges.edges.count >= 2, "\(description)")
            for (index, edge) in edges.edges.enumerated() {
                let expected = try Support.foundationStart(
                    calendar: calendar, anchor: anchor, components: components, number: edges.firstIntervalNumber + index)
                #expect(edge == expected, "\(description) edge \(index)")
            }
            #expect(zip(edges.edges, edges.edges.dropFirst()).allSatisfy { $0 < $1 }, "\(description)")
            #expect(edges.intervalIndex(containing: from) == 0, "\(description)")
            #expect(edges.intervalIndex(containing: through) == edges.count - 1, "\(description)")
            if components.isFixedLength {
                #expect(Set(zip(edges.edges, edges.edges.dropFirst()).map { $1 - $0 }) == [components.nominalMicroseconds])
            }

            for _ in 0..<20 {
                let instant = Timestamp.random(in: edges.edges[0]...(edges.edges[edges.count] - 1), using: &random)
                let index = try #require(edges.intervalIndex(containing: instant), "\(description) instant \(instant)")
                let interval = edges.interval(at: index)
                #expect(interval.start <= instant && instant < interval.end, "\(description) instant \(instant)")
            }
        }
    }

    @Test("half-open ranges end at the interval containing the last instant", arguments: [
        // Seeds for 40 random half-open ranges each.
        UInt64(11), 12,
    ])
    func halfOpenRanges(seed: UInt64) throws {
        var random = Support.SplitMix64(seed: seed)
        for _ in 0..<40 {
            let zone = try #require(Self.zones.randomElement(using: &random))
            let calendar = try Support.calendar(zone)
            let components = try IntervalComponents(
                count: Int.random(in: 1...3, using: &random),
                unit: try #require(IntervalComponents.Unit.allCases.randomElement(using: &random)))
            let anchor = Timestamp.random(in: Self.window, using: &random)
            let closed = try IntervalEdges(
                calendar: calendar, anchor: anchor, components: components,
                covering: anchor...(anchor + components.nominalMicroseconds * 5))
            // Ending exactly on an edge excludes the interval starting there.
            let end = closed.edges[3]
            let halfOpen = try IntervalEdges(calendar: calendar, anchor: anchor, components: components, covering: closed.edges[0]..<end)
            #expect(halfOpen.edges == Array(closed.edges[0...3]))
        }
    }
}
