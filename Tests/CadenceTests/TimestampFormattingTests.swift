//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation
import Testing

@Suite("Timestamp formatting")
struct TimestampFormattingTests {
    @Test("formats RFC 3339 in the zone's offset at that instant", arguments: [
        // New York summer time, the first morning of it.
        (Timestamp(1_710_054_000_000_000), "America/New_York", "2024-03-10T03:00:00-04:00"),
        // New York standard time, an hour earlier.
        (1_710_053_999_000_000, "America/New_York", "2024-03-10T01:59:59-05:00"),
        // UTC is written Z.
        (1_710_046_800_000_000, "UTC", "2024-03-10T05:00:00Z"),
        // So is a zone at offset zero.
        (1_704_067_200_000_000, "Europe/London", "2024-01-01T00:00:00Z"),
        // Whole milliseconds get three digits.
        (1_710_046_800_123_000, "UTC", "2024-03-10T05:00:00.123Z"),
        // Other microseconds get six.
        (1_710_046_800_123_456, "UTC", "2024-03-10T05:00:00.123456Z"),
        // Leading zeros in the fraction are kept.
        (1_710_046_800_000_100, "UTC", "2024-03-10T05:00:00.000100Z"),
        // A half-hour offset.
        (1_710_046_800_000_000, "Asia/Kolkata", "2024-03-10T10:30:00+05:30"),
        // A 45-minute offset.
        (1_710_046_800_000_000, "Asia/Kathmandu", "2024-03-10T10:45:00+05:45"),
        // A negative half-hour offset.
        (1_710_046_800_000_000, "America/St_Johns", "2024-03-10T01:30:00-03:30"),
        // One microsecond before the epoch.
        (-1, "UTC", "1969-12-31T23:59:59.999999Z"),
        // New York's local mean time, -4:56:02, rounds to -04:56.
        (-3_786_825_600_000_000, "America/New_York", "1849-12-31T19:04:00-04:56"),
    ])
    func rfc3339(timestamp: Timestamp, zone: String, expected: String) throws {
        let text = formatRFC3339(timestamp, timeZone: try timeZone(named: zone))
        #expect(text == expected)
        #expect(try parseRFC3339(text) == timestamp)
    }

    @Test("formats the Apple Health export format", arguments: [
        // The export.xml example, in Helsinki winter time.
        (Timestamp(1_485_104_272_000_000), "Europe/Helsinki", "2017-01-22 18:57:52 +0200"),
        // UTC is +0000.
        (1_485_104_272_000_000, "UTC", "2017-01-22 16:57:52 +0000"),
        // Fractions are truncated.
        (1_485_104_272_999_999, "UTC", "2017-01-22 16:57:52 +0000"),
        // Truncated towards the past before the epoch too.
        (-1, "UTC", "1969-12-31 23:59:59 +0000"),
        // A negative half-hour offset.
        (1_710_046_800_000_000, "America/St_Johns", "2024-03-10 01:30:00 -0330"),
    ])
    func export(timestamp: Timestamp, zone: String, expected: String) throws {
        #expect(formatExport(timestamp, timeZone: try timeZone(named: zone)) == expected)
    }

    @Test("never traps on extreme timestamps or offsets")
    func extremes() throws {
        let utc = try timeZone(named: "UTC")
        #expect(formatRFC3339(Int64.max, timeZone: utc).hasPrefix("294247-01-10T04:00:54.775807"))
        #expect(formatRFC3339(Int64.min, timeZone: utc).hasPrefix("-290308-12-21T19:59:05.224192"))
        #expect(formatExport(Int64.min, timeZone: utc).hasPrefix("-290308-12-21 19:59:05"))
        #expect(formatRFC3339(0, secondsFromGMT: Int.max) == "1970-01-01T23:59:00+23:59")
        #expect(formatRFC3339(0, secondsFromGMT: Int.min) == "1969-12-31T00:01:00-23:59")
        #expect(formatExport(0, secondsFromGMT: 5_430) == "1970-01-01 01:31:00 +0131")
    }
}
