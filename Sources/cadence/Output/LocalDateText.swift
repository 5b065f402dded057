//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// Local dates for people: `2024-03-10` or `2024-03-10 14:30`, in a given zone.
enum LocalDateText {
    /// The date, with the time of day when `showsTime` is set (and seconds when they are not zero).
    static func format(_ date: Date, timeZone: TimeZone, showsTime: Bool) -> String {
        var writer = Writer(timeZone: timeZone)
        var text = OutputText()
        writer.append(date, showsTime: showsTime, to: &text)
        return text.string
    }

    /// Whether `date` falls on a local midnight in `timeZone`.
    static func isMidnight(_ date: Date, timeZone: TimeZone) -> Bool {
        var writer = Writer(timeZone: timeZone)
        return writer.isMidnight(date)
    }

    /// Writes many local dates of one zone as bytes: the zone's offsets are cached and no string
    /// is made per date.
    struct Writer {
        private var offsets: UTCOffsetCache
        /// The RFC 3339 text of the last date, reused.
        private var rfc3339: [UInt8] = []

        init(timeZone: TimeZone) {
            offsets = UTCOffsetCache(timeZone: timeZone)
        }

        /// Appends the date as ``LocalDateText/format(_:timeZone:showsTime:)`` writes it.
        mutating func append(_ date: Date, showsTime: Bool, to text: inout OutputText) {
            readRFC3339(date)
            guard showsTime else { return text.append(contentsOf: rfc3339.prefix(10)) }
            guard rfc3339.count >= 19 else { return text.append(contentsOf: rfc3339) }
            text.append(contentsOf: rfc3339[0..<10])
            text.append(byte: UInt8(ascii: " "))
            text.append(contentsOf: rfc3339[11..<16])
            if rfc3339[17] != UInt8(ascii: "0") || rfc3339[18] != UInt8(ascii: "0") { text.append(contentsOf: rfc3339[16..<19]) }
        }

        /// Whether `date` falls on a local midnight.
        mutating func isMidnight(_ date: Date) -> Bool {
            readRFC3339(date)
            return rfc3339.dropFirst(10).starts(with: "T00:00:00".utf8) && !rfc3339.dropFirst(19).starts(with: ".".utf8)
        }

        private mutating func readRFC3339(_ date: Date) {
            let timestamp = date.timestamp
            rfc3339.removeAll(keepingCapacity: true)
            appendRFC3339(timestamp, secondsFromGMT: offsets.secondsFromGMT(at: timestamp), to: &rfc3339)
        }
    }
}
