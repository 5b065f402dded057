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
        let text = formatRFC3339(date.timestamp, timeZone: timeZone)
        let day = String(text.prefix(10))
        guard showsTime else { return day }
        let characters = Array(text)
        guard characters.count >= 19 else { return text }
        let minutes = String(characters[11..<16])
        let seconds = String(characters[17..<19])
        return day + " " + minutes + (seconds == "00" ? "" : ":" + seconds)
    }

    /// Whether `date` falls on a local midnight in `timeZone`.
    static func isMidnight(_ date: Date, timeZone: TimeZone) -> Bool {
        let text = formatRFC3339(date.timestamp, timeZone: timeZone)
        return Array(text)[10...].starts(with: Array("T00:00:00")) && !text.dropFirst(19).hasPrefix(".")
    }
}
