//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation
import Testing

@Suite("Timestamp parsing")
struct TimestampParsingTests {
    typealias Support = TimeTestSupport

    @Test("parses RFC 3339", arguments: [
        // A negative offset.
        ("2024-03-10T00:00:00-05:00", Timestamp(1_710_046_800_000_000)),
        // The same instant in UTC.
        ("2024-03-10T05:00:00Z", 1_710_046_800_000_000),
        // Lowercase t and z.
        ("2024-03-10t05:00:00z", 1_710_046_800_000_000),
        // A space instead of T.
        ("2024-03-10 05:00:00Z", 1_710_046_800_000_000),
        // -00:00 (unknown local offset) reads as UTC.
        ("2024-03-10T05:00:00-00:00", 1_710_046_800_000_000),
        // Microseconds with a positive offset.
        ("2024-03-10T00:00:00.123456+01:00", 1_710_025_200_123_456),
        // One fractional digit.
        ("2024-03-10T00:00:00.5+01:00", 1_710_025_200_500_000),
        // Digits beyond microseconds are truncated, not rounded.
        ("2024-03-10T00:00:00.123456789+01:00", 1_710_025_200_123_456),
        // The largest offset.
        ("2024-03-10T00:00:00+23:59", 1_709_942_460_000_000),
        // A 45-minute offset on a leap day.
        ("2000-02-29T12:00:00+05:45", 951_804_900_000_000),
        // The epoch.
        ("1970-01-01T00:00:00Z", 0),
        // One microsecond before it.
        ("1969-12-31T23:59:59.999999Z", -1),
        // A leap second reads as the first instant of the next minute.
        ("2016-12-31T23:59:60Z", 1_483_228_800_000_000),
        // The first supported instant.
        ("0001-01-01T00:00:00Z", -62_135_596_800_000_000),
        // The last supported instant.
        ("9999-12-31T23:59:59.999999Z", 253_402_300_799_999_999),
    ])
    func rfc3339(text: String, expected: Timestamp) throws {
        #expect(try parseRFC3339(text) == expected)
    }

    @Test("parses the Apple Health export format", arguments: [
        // The example from an export.xml.
        ("2017-01-22 18:57:52 +0200", Timestamp(1_485_104_272_000_000)),
        // UTC written as +0000.
        ("2017-01-22 16:57:52 +0000", 1_485_104_272_000_000),
        // A negative half-hour offset.
        ("1999-12-31 23:59:59 -1130", 946_726_199_000_000),
        // A leap second.
        ("2016-12-31 23:59:60 +0000", 1_483_228_800_000_000),
    ])
    func export(text: String, expected: Timestamp) throws {
        #expect(try parseExport(text) == expected)
    }

    @Test("rejects malformed RFC 3339 with the text and the reason", arguments: [
        // No offset at all.
        ("2024-03-10T00:00:00", "missing the UTC offset"),
        // No offset after a fraction.
        ("2024-03-10T00:00:00.25", "missing the UTC offset"),
        // Month 13.
        ("2024-13-01T00:00:00Z", "month 13 is out of range"),
        // Month 0.
        ("2024-00-01T00:00:00Z", "month 0 is out of range"),
        // Day 32.
        ("2024-01-32T00:00:00Z", "day 32 is out of range"),
        // Day 0.
        ("2024-01-00T00:00:00Z", "day 0 is out of range"),
        // February 30.
        ("2024-02-30T00:00:00Z", "day 30 is out of range 01…29"),
        // February 29 in a common year.
        ("2023-02-29T00:00:00Z", "day 29 is out of range 01…28"),
        // 1900 is not a leap year.
        ("1900-02-29T00:00:00Z", "day 29 is out of range 01…28"),
        // April 31.
        ("2024-04-31T00:00:00Z", "day 31 is out of range 01…30"),
        // Hour 25.
        ("2024-01-01T25:00:00Z", "hour 25 is out of range"),
        // Hour 24 (ISO 8601 end of day) is not RFC 3339.
        ("2024-01-01T24:00:00Z", "hour 24 is out of range"),
        // Minute 60.
        ("2024-01-01T00:60:00Z", "minute 60 is out of range"),
        // Second 61.
        ("2024-01-01T00:00:61Z", "second 61 is out of range 00…60"),
        // Year 0000.
        ("0000-01-01T00:00:00Z", "year 0000 is out of range"),
        // A five-digit year.
        ("10000-01-01T00:00:00Z", "expected '-' after the year"),
        // Year 0001 at a positive offset is still year 0000 in UTC.
        ("0001-01-01T00:00:00+00:01", "outside years 0001 through 9999"),
        // A decimal point without digits.
        ("2024-01-01T00:00:00.Z", "expected digits after the decimal point"),
        // An offset without a colon.
        ("2024-01-01T00:00:00+0100", "expected ':' after the offset hour"),
        // An offset with hours only.
        ("2024-01-01T00:00:00+01", "the text ends after the offset hour"),
        // Offset hour 24.
        ("2024-01-01T00:00:00+24:00", "offset hour 24 is out of range"),
        // Offset minute 60.
        ("2024-01-01T00:00:00+01:60", "offset minute 60 is out of range"),
        // Trailing text.
        ("2024-01-01T00:00:00Zjunk", "unexpected text after the UTC offset"),
        // Trailing text after a numeric offset.
        ("2024-01-01T00:00:00+01:00 ", "unexpected text after the UTC offset"),
        // A wrong separator between date and time.
        ("2024-01-01X00:00:00Z", "expected 'T' or a space"),
        // A month without zero padding.
        ("2024-1-01T00:00:00Z", "the month must be 2 digits"),
        // Leading whitespace.
        (" 2024-01-01T00:00:00Z", "the year must be 4 digits"),
        // Empty text.
        ("", "the text ends before the year"),
        // A date alone.
        ("2024-01-01", "missing the time of day"),
        // Minutes without seconds.
        ("2024-01-01T00:00Z", "expected ':' after the minute"),
        // Non-ASCII digits.
        ("２０２４-01-01T00:00:00Z", "the year must be 4 digits"),
        // An unknown offset letter.
        ("2024-01-01T00:00:00A", "expected the UTC offset"),
    ])
    func rfc3339Rejections(text: String, reason: String) {
        let error = #expect(throws: CadenceError.self) { try parseRFC3339(text) }
        #expect(error?.code == .malformedInput)
        #expect(error?.message.contains("\"\(text)\"") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
    }

    @Test("rejects malformed export timestamps with the text and the reason", arguments: [
        // No offset.
        ("2017-01-22 18:57:52", "missing the UTC offset"),
        // A T separator is not the export format.
        ("2017-01-22T18:57:52 +0200", "expected a space between the date and the time"),
        // A colon in the offset.
        ("2017-01-22 18:57:52 +02:00", "the offset minute must be 2 digits"),
        // No sign.
        ("2017-01-22 18:57:52 0200", "expected the UTC offset (±HHMM)"),
        // Z is not the export format.
        ("2017-01-22 18:57:52 Z", "expected the UTC offset (±HHMM)"),
        // Trailing space.
        ("2017-01-22 18:57:52 +0200 ", "unexpected text after the UTC offset"),
        // February 29 in a common year.
        ("2017-02-29 18:57:52 +0200", "day 29 is out of range"),
        // Fractional seconds are not part of the format.
        ("2017-01-22 18:57:52.5 +0200", "expected ' ' after the seconds"),
        // Offset hour 25.
        ("2017-01-22 18:57:52 +2500", "offset hour 25 is out of range"),
        // Truncated offset.
        ("2017-01-22 18:57:52 +02", "the text ends before the offset minute"),
    ])
    func exportRejections(text: String, reason: String) {
        let error = #expect(throws: CadenceError.self) { try parseExport(text) }
        #expect(error?.code == .malformedInput)
        #expect(error?.message.contains("\"\(text)\"") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
    }

    @Test("quotes at most 64 characters of overlong input")
    func longInputQuoted() {
        let text = "2024-01-01T00:00:00Z" + String(repeating: "x", count: 10_000)
        let error = #expect(throws: CadenceError.self) { try parseRFC3339(text) }
        #expect((error?.message.count ?? .max) < 200)
    }

    @Test("parses substrings, UTF-8 views of lines and raw bytes")
    func inputForms() throws {
        let line = "<Record startDate=\"2017-01-22 18:57:52 +0200\"/>"
        let start = try #require(line.firstIndex(of: "2"))
        let end = try #require(line.index(start, offsetBy: 25, limitedBy: line.endIndex))
        #expect(try parseExport(line[start..<end]) == 1_485_104_272_000_000)
        let bytes = Array("2024-03-10T05:00:00Z".utf8)
        #expect(try bytes.withUnsafeBufferPointer { try parseRFC3339($0) } == 1_710_046_800_000_000)
        let exportBytes = Array("2017-01-22 18:57:52 +0200".utf8)
        #expect(try exportBytes.withUnsafeBufferPointer { try parseExport($0) } == 1_485_104_272_000_000)
    }

    @Test("parse(format(t)) == t in many zones", arguments: [
        // Seeds for 2 000 random instants each.
        UInt64(1), 2, 3,
    ])
    func roundTrip(seed: UInt64) throws {
        let zones = try ["UTC", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "America/St_Johns", "Pacific/Kiritimati"]
            .map { try timeZone(named: $0) }
        var random = Support.SplitMix64(seed: seed)
        // 0002-01-01 through 9998-12-31, so that every zone's local year has four digits.
        let range: ClosedRange<Timestamp> = -62_104_060_800_000_000 ... 253_370_764_799_999_999
        for _ in 0..<2_000 {
            let zone = try #require(zones.randomElement(using: &random))
            var timestamp = Timestamp.random(in: range, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: timestamp -= timestamp % 1_000_000
            case 1: timestamp -= timestamp % 1_000
            default: break
            }
            let text = formatRFC3339(timestamp, timeZone: zone)
            #expect(try parseRFC3339(text) == timestamp, "\(text)")
            let whole = TimestampArithmetic.floorDivide(timestamp, 1_000_000) * 1_000_000
            let export = formatExport(timestamp, timeZone: zone)
            #expect(try parseExport(export) == whole, "\(export)")
        }
    }

    @Test("agrees with Foundation's ISO8601DateFormatter")
    func agreesWithFoundation() throws {
        let formatter = ISO8601DateFormatter()
        var random = Support.SplitMix64(seed: 2024)
        for _ in 0..<2_000 {
            // 1900 ... 2100, whole seconds.
            let timestamp = Timestamp.random(in: -2_208_988_800 ... 4_102_444_799, using: &random) * 1_000_000
            let offsetMinutes = Int.random(in: -(14 * 60)...(14 * 60), using: &random)
            guard let zone = TimeZone(secondsFromGMT: offsetMinutes * 60) else {
                Issue.record("no zone at offset \(offsetMinutes) minutes")
                continue
            }
            formatter.timeZone = zone
            let text = formatter.string(from: Date(timestamp: timestamp))
            #expect(try parseRFC3339(text) == timestamp, "\(text)")
        }
    }
}
