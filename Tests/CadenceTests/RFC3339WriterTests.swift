//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// ``RFC3339Writer`` against ``formatRFC3339(_:timeZone:)``, which it must match byte for byte,
/// and against Foundation's calendar fields for the same instants, whatever order the instants
/// come in (its caches of the offset, the day and the last text must never answer for another).
@Suite("RFC 3339 writer")
struct RFC3339WriterTests {
    /// Zones with daylight saving time, half-hour and 45-minute offsets, a half-hour daylight
    /// saving shift (Lord Howe), a negative half-hour offset, a date-line jump (Apia) and none.
    static let zones = ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "Asia/Kathmandu", "America/St_Johns",
                        "Australia/Lord_Howe", "Pacific/Chatham", "Pacific/Apia", "UTC", "Europe/London", "America/Sao_Paulo"]

    static func written(_ timestamps: [Timestamp], writer: inout RFC3339Writer) -> [String] {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: RFC3339Writer.maximumCount) { scratch in
            timestamps.map { timestamp in
                let count = writer.write(timestamp, to: scratch.baseAddress!)
                return String(decoding: UnsafeBufferPointer(rebasing: scratch[..<count]), as: UTF8.self)
            }
        }
    }

    /// The text from Foundation's calendar fields and offset, for whole-minute offsets (the
    /// fraction from the timestamp: a `Date` far from 2001 cannot hold every microsecond).
    static func foundationText(_ timestamp: Timestamp, calendar: Calendar) -> String {
        let date = Date(timestamp: TimestampArithmetic.floorDivide(timestamp, 1_000_000) * 1_000_000)
        let fields = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        var text = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", fields.year!, fields.month!, fields.day!,
                          fields.hour!, fields.minute!, fields.second!)
        let microsecond = TimestampArithmetic.floorModulo(timestamp, 1_000_000)
        if microsecond != 0 {
            text += microsecond % 1_000 == 0 ? String(format: ".%03d", microsecond / 1_000) : String(format: ".%06d", microsecond)
        }
        let offset = calendar.timeZone.secondsFromGMT(for: date) / 60
        guard offset != 0 else { return text + "Z" }
        return text + String(format: "%@%02d:%02d", offset < 0 ? "-" : "+", abs(offset) / 60, abs(offset) % 60)
    }

    /// A random fraction: none, whole milliseconds or microseconds.
    static func fraction(_ random: inout TimeTestSupport.SplitMix64) -> Timestamp {
        switch Int.random(in: 0..<3, using: &random) {
        case 0: 0
        case 1: Timestamp.random(in: 1...999, using: &random) * 1_000
        default: Timestamp.random(in: 1...999_999, using: &random)
        }
    }

    @Test("random instants in random order match the formatter and Foundation", arguments: zones)
    func randomInstants(zone: String) throws {
        let calendar = try TimeTestSupport.calendar(zone)
        var random = TimeTestSupport.SplitMix64(seed: 0xDA7E ^ UInt64(zone.utf8.count))
        // 1900 to 2100, each instant also repeated now and then, as interval edges are.
        var timestamps: [Timestamp] = []
        for _ in 0..<20_000 {
            let seconds = Int64.random(in: -2_208_988_800...4_102_444_800, using: &random)
            let timestamp = seconds * 1_000_000 + Self.fraction(&random)
            timestamps.append(timestamp)
            if Bool.random(using: &random) { timestamps.append(timestamp) }
        }
        var writer = RFC3339Writer(timeZone: calendar.timeZone)
        for (timestamp, text) in zip(timestamps, Self.written(timestamps, writer: &writer)) {
            #expect(text == formatRFC3339(timestamp, timeZone: calendar.timeZone), "\(timestamp)")
            // Local mean times before 1950 have offsets with seconds, which the text rounds to the minute.
            if calendar.timeZone.secondsFromGMT(for: Date(timestamp: timestamp)) % 60 == 0 {
                #expect(text == Self.foundationText(timestamp, calendar: calendar), "\(timestamp)")
            }
        }
    }

    @Test("interval edges across transitions, each written as an end and again as a start", arguments: zones)
    func intervalEdges(zone: String) throws {
        let timeZone = try timeZone(named: zone)
        var random = TimeTestSupport.SplitMix64(seed: 0xED6E ^ UInt64(zone.utf8.count))
        var writer = RFC3339Writer(timeZone: timeZone)
        for step: Int64 in [60, 300, 900, 1_800, 3_600, 86_400] {
            // Steps from a random start in 2023–2025 across a year's transitions, ends repeated as starts.
            var edge = Int64.random(in: 1_672_531_200...1_735_689_600, using: &random) * 1_000_000 + Self.fraction(&random)
            var edges: [Timestamp] = []
            for _ in 0..<min(40_000, 2 * 400 * 86_400 / step) {
                edges.append(edge)
                edge += step * 1_000_000
                edges.append(edge)
            }
            for (timestamp, text) in zip(edges, Self.written(edges, writer: &writer)) {
                #expect(text == formatRFC3339(timestamp, timeZone: timeZone), "\(timestamp)")
            }
        }
    }

    @Test("years beyond 0000…9999, extremes and rounded offsets, mixed with ordinary instants", arguments: zones)
    func extremes(zone: String) throws {
        let timeZone = try timeZone(named: zone)
        let ordinary: Timestamp = 1_710_054_000_000_000
        let unusual: [Timestamp] = [
            .min, .max, .min + 1, .max - 1, -62_167_219_200_000_000, -62_167_219_200_000_001, 253_402_300_799_999_999,
            253_402_300_800_000_000, -1, 0, 1, -999, -1_000, -3_786_825_600_000_000, -5_000_000_000_000_000,
        ]
        let timestamps = unusual.flatMap { [ordinary, $0, $0, ordinary + 1_000, $0 &+ 1] }
        var writer = RFC3339Writer(timeZone: timeZone)
        for (timestamp, text) in zip(timestamps, Self.written(timestamps, writer: &writer)) {
            #expect(text == formatRFC3339(timestamp, timeZone: timeZone), "\(timestamp)")
            #expect(text.utf8.count <= RFC3339Writer.maximumCount)
        }
    }
}
