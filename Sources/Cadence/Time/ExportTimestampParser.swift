//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Parses export timestamps (`2017-01-22 18:57:52 +0200`, or iOS 8's `20170122185752+0200`) as
/// ``parseExport(_:)`` does, but remembers the day of the last one: an export's dates come in
/// runs of the same day (a record's start, end and creation, then the next record's), so most of
/// them need only their time of day and offset read.
///
/// Every result equals that of ``parseExport(_:)``; anything the short path does not accept
/// goes through it.
package struct ExportTimestampParser {
    /// The bytes that name the day in the last date read in full (`yyyy-MM-dd`, or `yyyyMMdd` and
    /// a zero tail in the compact form), as two words.
    private var dayHead: UInt64 = 0
    private var dayTail: UInt16 = 0
    /// The length of that date (25, or 19 in the compact form).
    private var dayLength = 0
    /// The day number of that date, or nil before the first.
    private var dayNumber: Int64?

    /// Creates a parser that remembers no day yet.
    package init() {}

    /// The timestamp of an export date, or nil when ``parseExport(_:)`` rejects it.
    ///
    /// - Complexity: O(1), with no allocation unless the text is invalid.
    package mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        let isCompact = bytes.count == 19
        guard bytes.count == 25 || isCompact, let base = bytes.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        let head = raw.loadUnaligned(as: UInt64.self)
        let tail = isCompact ? 0 : raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self)
        if let day = dayNumber, head == dayHead, tail == dayTail, bytes.count == dayLength {
            let timestamp = isCompact ? Self.timeOfDay(bytes, day: day, compact: true)
                : Self.timeOfDay(bytes, day: day, compact: false)
            if let timestamp { return timestamp }
        }
        guard let timestamp = try? parseExport(bytes) else { return nil }
        // Valid, so the date's digits are where they belong.
        func digits(_ start: Int, _ count: Int) -> Int64 {
            (start..<start + count).reduce(0) { $0 * 10 + Int64(bytes[$1] &- UInt8(ascii: "0")) }
        }
        let monthStart = isCompact ? 4 : 5
        dayHead = head
        dayTail = tail
        dayLength = bytes.count
        dayNumber = ProlepticGregorian.dayNumber(
            year: digits(0, 4), month: digits(monthStart, 2), day: digits(monthStart + (isCompact ? 2 : 3), 2))
        return timestamp
    }

    /// Reads the time of day and offset after a known day, checking them as ``parseExport(_:)``
    /// does; nil for anything it does not accept.
    @inline(__always)
    private static func timeOfDay(_ bytes: UnsafeBufferPointer<UInt8>, day: Int64, compact: Bool) -> Timestamp? {
        @inline(__always) func pair(_ index: Int) -> Int64? {
            let tens = bytes[index] &- UInt8(ascii: "0"), ones = bytes[index + 1] &- UInt8(ascii: "0")
            return tens < 10 && ones < 10 ? Int64(tens) * 10 + Int64(ones) : nil
        }
        // ` HH:mm:ss ±HHMM` from byte 10, or `HHmmss±HHMM` from byte 8: each field two digits,
        // after a one-byte separator in the longer form.
        let step = compact ? 2 : 3
        let hourAt = compact ? 8 : 11, minuteAt = hourAt + step, secondAt = minuteAt + step, signAt = secondAt + step
        if !compact {
            guard bytes[10] == UInt8(ascii: " "), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
                  bytes[19] == UInt8(ascii: " ") else { return nil }
        }
        let sign = bytes[signAt]
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
              let hour = pair(hourAt), hour <= 23, let minute = pair(minuteAt), minute <= 59,
              let second = pair(secondAt), second <= 60,
              let offsetHours = pair(signAt + 1), offsetHours <= 23, let offsetMinutes = pair(signAt + 3), offsetMinutes <= 59
        else { return nil }
        let offset = (offsetHours * 3_600 + offsetMinutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
        let seconds = day * 86_400 + hour * 3_600 + minute * 60 + second - offset
        let timestamp = seconds * TimestampArithmetic.microsecondsPerSecond
        return supportedTimestampRange.contains(timestamp) ? timestamp : nil
    }
}
