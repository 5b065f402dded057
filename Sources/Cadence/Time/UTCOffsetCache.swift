//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// A time zone's UTC offset at instants asked for mostly in order, with one Foundation call per
/// offset change passed rather than one per instant.
///
/// The offset found for an instant holds until the zone's next transition after it
/// (`TimeZone.nextDaylightSavingTimeTransition(after:)`, which reports every offset change, daylight
/// saving or not); an instant in that span is answered without asking the zone again.
///
///     var offsets = UTCOffsetCache(timeZone: berlin)
///     for edge in edges { text.appendRFC3339(edge, secondsFromGMT: offsets.secondsFromGMT(at: edge)) }
package struct UTCOffsetCache {
    package let timeZone: TimeZone
    /// The instants `[validFrom, validUntil)` share ``seconds``.
    private var validFrom = Timestamp.max
    private var validUntil = Timestamp.min
    private var seconds = 0

    package init(timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    /// The zone's offset east of UTC at `timestamp`, in seconds (`TimeZone.secondsFromGMT(for:)`).
    ///
    /// - Complexity: O(1) within the span of the last answer, else two time zone calls.
    @inline(__always)
    package mutating func secondsFromGMT(at timestamp: Timestamp) -> Int {
        if timestamp >= validFrom && timestamp < validUntil { return seconds }
        return lookUp(timestamp)
    }

    /// The zone's offset at `timestamp` when it holds from `margin` before to `margin` after it,
    /// else `nil`.
    ///
    /// - Complexity: O(1) within the span of the last answer, else two time zone calls.
    package mutating func constantOffset(around timestamp: Timestamp, margin: Int64) -> Int? {
        let from = timestamp - margin
        if !(from >= validFrom && from < validUntil) { _ = lookUp(from) }
        return timestamp + margin < validUntil ? seconds : nil
    }

    private mutating func lookUp(_ timestamp: Timestamp) -> Int {
        let date = Date(timestamp: timestamp)
        seconds = timeZone.secondsFromGMT(for: date)
        validFrom = timestamp
        validUntil = timeZone.nextDaylightSavingTimeTransition(after: date)?.timestamp ?? Timestamp.max
        return seconds
    }
}
