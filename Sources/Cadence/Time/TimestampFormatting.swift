//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Formats a timestamp as RFC 3339 in a time zone's local time.
///
///     formatRFC3339(1710054000000000, timeZone: newYork)   // "2024-03-10T03:00:00-04:00"
///
/// The offset is the zone's offset at that instant (`timeZone.secondsFromGMT(for:)`), written
/// `Z` when it is zero. Fractional seconds appear only when nonzero: three digits when the
/// microseconds are whole milliseconds, six otherwise. Offsets with seconds, such as a zone's local
/// mean time before 1883, are rounded to the minute, and the local time printed matches the
/// rounded offset, so ``parseRFC3339(_:)`` gives back the same timestamp.
///
/// Timestamps whose local year falls outside 0000…9999 are written with more digits or a minus
/// sign; that text is not valid RFC 3339.
///
/// - Parameters:
///   - timestamp: The instant.
///   - timeZone: The zone whose local time and offset to show.
/// - Returns: Text such as `2024-03-10T03:00:00-04:00` or `2024-03-10T08:00:00.123Z`.
/// - Complexity: O(1); one time zone lookup and one string allocation.
public func formatRFC3339(_ timestamp: Timestamp, timeZone: TimeZone) -> String {
    formatRFC3339(timestamp, secondsFromGMT: timeZone.secondsFromGMT(for: Date(timestamp: timestamp)))
}

/// Formats a timestamp as RFC 3339 at a fixed UTC offset.
///
/// - Parameters:
///   - timestamp: The instant.
///   - secondsFromGMT: The offset east of UTC; rounded to the minute and limited to ±23:59.
/// - Returns: Text as ``formatRFC3339(_:timeZone:)`` produces.
package func formatRFC3339(_ timestamp: Timestamp, secondsFromGMT: Int) -> String {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: TimestampText.capacity) { buffer in
        var text = TimestampText(buffer: buffer)
        text.appendRFC3339(LocalTime(timestamp, secondsFromGMT: secondsFromGMT))
        return text.string
    }
}

/// Appends a timestamp as RFC 3339 at a fixed UTC offset to a byte buffer, as UTF-8 text
/// (for output written in bulk: no string is made).
///
/// - Parameters:
///   - timestamp: The instant.
///   - secondsFromGMT: The offset east of UTC; rounded to the minute and limited to ±23:59.
///   - bytes: The buffer to append to.
/// - Complexity: O(1); no allocation beyond the buffer's growth.
package func appendRFC3339(_ timestamp: Timestamp, secondsFromGMT: Int, to bytes: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: TimestampText.capacity) { buffer in
        var text = TimestampText(buffer: buffer)
        text.appendRFC3339(LocalTime(timestamp, secondsFromGMT: secondsFromGMT))
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<text.count]))
    }
}

/// Formats a timestamp in the Apple Health export format `yyyy-MM-dd HH:mm:ss ±HHMM`.
///
///     formatExport(1485104272000000, timeZone: helsinki)   // "2017-01-22 18:57:52 +0200"
///
/// The format has no fractional seconds: they are dropped (the time is truncated to the second).
/// Offsets are taken and rounded as in ``formatRFC3339(_:timeZone:)``; a zero offset is `+0000`.
///
/// - Parameters:
///   - timestamp: The instant.
///   - timeZone: The zone whose local time and offset to show.
/// - Returns: Text such as `2017-01-22 18:57:52 +0200`.
/// - Complexity: O(1); one time zone lookup and one string allocation.
public func formatExport(_ timestamp: Timestamp, timeZone: TimeZone) -> String {
    formatExport(timestamp, secondsFromGMT: timeZone.secondsFromGMT(for: Date(timestamp: timestamp)))
}

/// Formats a timestamp in the Apple Health export format at a fixed UTC offset.
///
/// - Parameters:
///   - timestamp: The instant.
///   - secondsFromGMT: The offset east of UTC; rounded to the minute and limited to ±23:59.
/// - Returns: Text as ``formatExport(_:timeZone:)`` produces.
package func formatExport(_ timestamp: Timestamp, secondsFromGMT: Int) -> String {
    let local = LocalTime(timestamp, secondsFromGMT: secondsFromGMT)
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: TimestampText.capacity) { buffer in
        var text = TimestampText(buffer: buffer)
        text.appendDateAndTime(local, separator: UInt8(ascii: " "))
        text.append(UInt8(ascii: " "))
        text.append(local.offsetMinutes < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        text.appendDigits(abs(local.offsetMinutes) / 60, width: 2)
        text.appendDigits(abs(local.offsetMinutes) % 60, width: 2)
        return text.string
    }
}

/// The civil fields of an instant at a whole-minute UTC offset.
private struct LocalTime {
    var year: Int64
    var month: Int64
    var day: Int64
    var secondOfDay: Int64
    var microsecond: Int64
    var offsetMinutes: Int64

    init(_ timestamp: Timestamp, secondsFromGMT: Int) {
        offsetMinutes = Self.offsetMinutes(secondsFromGMT: secondsFromGMT)
        let seconds = TimestampArithmetic.floorDivide(timestamp, TimestampArithmetic.microsecondsPerSecond)
        microsecond = TimestampArithmetic.floorModulo(timestamp, TimestampArithmetic.microsecondsPerSecond)
        let localSeconds = seconds + offsetMinutes * 60
        let dayNumber = TimestampArithmetic.floorDivide(localSeconds, 86_400)
        secondOfDay = TimestampArithmetic.floorModulo(localSeconds, 86_400)
        (year, month, day) = ProlepticGregorian.civilDate(dayNumber: dayNumber)
    }

    /// An offset rounded to the nearest minute (halves away from zero), then limited to what
    /// ±HH:MM can show.
    static func offsetMinutes(secondsFromGMT: Int) -> Int64 {
        let limit: Int64 = 23 * 60 + 59
        let magnitude = Int64(Swift.min(secondsFromGMT.magnitude, 86_400))
        let minutes = Swift.min((magnitude + 30) / 60, limit)
        return secondsFromGMT < 0 ? -minutes : minutes
    }
}

/// Writes ASCII into a small fixed buffer; the buffer is always large enough for a timestamp.
private struct TimestampText {
    /// Bytes enough for any timestamp's text.
    static var capacity: Int { 48 }
    let buffer: UnsafeMutableBufferPointer<UInt8>
    var count = 0

    init(buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    mutating func append(_ byte: UInt8) {
        guard count < buffer.count else { return }
        buffer[count] = byte
        count += 1
    }

    /// Appends a non-negative value in decimal, zero-padded to at least `width` digits.
    mutating func appendDigits(_ value: Int64, width: Int) {
        if width == 2 && value < 100 && count + 2 <= buffer.count {
            // Most fields: two digits, without the general loop's divisions.
            buffer[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10)
            buffer[count &+ 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
            count &+= 2
            return
        }
        if width == 4 && value >= 0 && value < 10_000 && count + 4 <= buffer.count {
            // Years: four digits, as two pairs.
            let high = value / 100
            let low = value % 100
            buffer[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: high / 10)
            buffer[count &+ 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: high % 10)
            buffer[count &+ 2] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: low / 10)
            buffer[count &+ 3] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: low % 10)
            count &+= 4
            return
        }
        var digitCount = 1
        var rest = value / 10
        while rest > 0 {
            digitCount += 1
            rest /= 10
        }
        let total = Swift.max(width, digitCount)
        guard count + total <= buffer.count else { return }
        var remaining = value
        for index in stride(from: count + total - 1, through: count, by: -1) {
            buffer[index] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
        }
        count += total
    }

    /// Appends `yyyy-MM-dd?HH:mm:ss`.
    mutating func appendDateAndTime(_ local: LocalTime, separator: UInt8) {
        if local.year < 0 { append(UInt8(ascii: "-")) }
        appendDigits(abs(local.year), width: 4)
        append(UInt8(ascii: "-"))
        appendDigits(local.month, width: 2)
        append(UInt8(ascii: "-"))
        appendDigits(local.day, width: 2)
        append(separator)
        appendDigits(local.secondOfDay / 3_600, width: 2)
        append(UInt8(ascii: ":"))
        appendDigits(local.secondOfDay / 60 % 60, width: 2)
        append(UInt8(ascii: ":"))
        appendDigits(local.secondOfDay % 60, width: 2)
    }

    /// Appends `yyyy-MM-ddTHH:mm:ss`, the fraction when nonzero, and `Z` or `±HH:MM`.
    mutating func appendRFC3339(_ local: LocalTime) {
        appendDateAndTime(local, separator: UInt8(ascii: "T"))
        if local.microsecond != 0 {
            append(UInt8(ascii: "."))
            if local.microsecond % 1_000 == 0 {
                appendDigits(local.microsecond / 1_000, width: 3)
            } else {
                appendDigits(local.microsecond, width: 6)
            }
        }
        if local.offsetMinutes == 0 {
            append(UInt8(ascii: "Z"))
        } else {
            append(local.offsetMinutes < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            appendDigits(abs(local.offsetMinutes) / 60, width: 2)
            append(UInt8(ascii: ":"))
            appendDigits(abs(local.offsetMinutes) % 60, width: 2)
        }
    }

    var string: String {
        String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
    }
}

/// Writes the RFC 3339 text of many instants in one time zone straight into memory, each as
/// ``formatRFC3339(_:timeZone:)`` spells it: for output of many rows, without a string or a
/// calendar call per instant.
///
/// The zone's offset is looked up once per span between its transitions (``UTCOffsetCache``), the
/// date's ten characters are worked out once per local day, and an instant written again right
/// after itself (an interval's end, then the next interval's start) is copied from the last
/// text. What remains per instant is integer arithmetic on the time of day.
///
///     var writer = RFC3339Writer(timeZone: berlin)
///     let count = writer.write(edge, to: scratch)   // scratch holds RFC3339Writer.maximumCount bytes
package struct RFC3339Writer {
    /// The most bytes one instant's text takes, and the least room ``write(_:to:)`` needs.
    package static var maximumCount: Int { TimestampText.capacity }
    /// Texts up to this long are kept for the next call: all with a four-digit year.
    private static var keptCount: Int { 32 }

    private var offsets: UTCOffsetCache
    /// The offset ``offsetMinutes`` and ``suffix`` stand for, in seconds.
    private var offsetSeconds = Int.min
    private var offsetMinutes: Int64 = 0
    /// `Z` or `±HH:MM` as bytes in memory order, and its length.
    private var suffix: UInt64 = 0
    private var suffixCount = 0
    /// The local day number whose `yyyy-MM-dd` ``date`` holds, in memory order.
    private var dayNumber = Int64.min
    private var date: (UInt64, UInt16) = (0, 0)
    /// The last instant written and its text, when that text was at most ``keptCount`` bytes.
    private var lastTimestamp = Timestamp.min
    private var lastCount = 0
    private var lastText: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// A writer for local times in `timeZone`.
    package init(timeZone: TimeZone) {
        offsets = UTCOffsetCache(timeZone: timeZone)
    }

    /// The zone the instants are written in.
    package var timeZone: TimeZone { offsets.timeZone }

    /// Writes `timestamp` as RFC 3339 text at `buffer`, which must have room for ``maximumCount`` bytes.
    ///
    /// - Returns: The number of bytes written.
    /// - Complexity: O(1); a time zone lookup only at the zone's transitions.
    package mutating func write(_ timestamp: Timestamp, to buffer: UnsafeMutablePointer<UInt8>) -> Int {
        let raw = UnsafeMutableRawPointer(buffer)
        if timestamp == lastTimestamp && lastCount > 0 {
            raw.storeBytes(of: lastText.0, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: lastText.1, toByteOffset: 8, as: UInt64.self)
            raw.storeBytes(of: lastText.2, toByteOffset: 16, as: UInt64.self)
            raw.storeBytes(of: lastText.3, toByteOffset: 24, as: UInt64.self)
            return lastCount
        }
        let secondsFromGMT = offsets.secondsFromGMT(at: timestamp)
        if secondsFromGMT != offsetSeconds { setOffset(secondsFromGMT) }
        let seconds = TimestampArithmetic.floorDivide(timestamp, TimestampArithmetic.microsecondsPerSecond)
        let microsecond = timestamp &- seconds &* TimestampArithmetic.microsecondsPerSecond
        // Within ±2^63 µs, seconds are below 2^44: adding a day's offset cannot overflow.
        let localSeconds = seconds &+ offsetMinutes &* 60
        let day = TimestampArithmetic.floorDivide(localSeconds, 86_400)
        if day != dayNumber && !setDay(day) {
            lastCount = 0
            var text = TimestampText(buffer: UnsafeMutableBufferPointer(start: buffer, count: Self.maximumCount))
            text.appendRFC3339(LocalTime(timestamp, secondsFromGMT: secondsFromGMT))
            return text.count
        }
        // Zeros first, so that the kept text never holds bytes this call did not write.
        for offset in stride(from: 0, to: Self.keptCount, by: 8) { raw.storeBytes(of: 0, toByteOffset: offset, as: UInt64.self) }
        raw.storeBytes(of: date.0, toByteOffset: 0, as: UInt64.self)
        raw.storeBytes(of: date.1, toByteOffset: 8, as: UInt16.self)
        let secondOfDay = localSeconds &- day &* 86_400
        buffer[10] = UInt8(ascii: "T")
        writeTwoDigits(secondOfDay / 3_600, to: buffer + 11)
        buffer[13] = UInt8(ascii: ":")
        writeTwoDigits(secondOfDay / 60 % 60, to: buffer + 14)
        buffer[16] = UInt8(ascii: ":")
        writeTwoDigits(secondOfDay % 60, to: buffer + 17)
        var count = 19
        if microsecond != 0 {
            buffer[19] = UInt8(ascii: ".")
            let milliseconds = microsecond / 1_000
            if milliseconds &* 1_000 == microsecond {
                writeDigits(milliseconds, count: 3, to: buffer + 20)
                count = 23
            } else {
                writeDigits(microsecond, count: 6, to: buffer + 20)
                count = 26
            }
        }
        raw.storeBytes(of: suffix, toByteOffset: count, as: UInt64.self)
        count &+= suffixCount
        lastTimestamp = timestamp
        lastCount = count
        lastText = (raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                    raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self), raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
        return count
    }

    private mutating func setOffset(_ secondsFromGMT: Int) {
        offsetSeconds = secondsFromGMT
        offsetMinutes = LocalTime.offsetMinutes(secondsFromGMT: secondsFromGMT)
        withUnsafeMutableBytes(of: &suffix) { bytes in
            guard offsetMinutes != 0 else {
                bytes[0] = UInt8(ascii: "Z")
                suffixCount = 1
                return
            }
            let magnitude = abs(offsetMinutes)
            bytes[0] = offsetMinutes < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
            bytes[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude / 600)
            bytes[2] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude / 60 % 10)
            bytes[3] = UInt8(ascii: ":")
            bytes[4] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 60 / 10)
            bytes[5] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            suffixCount = 6
        }
    }

    /// Makes ``date`` the text of local day `day`; `false` when its year needs other than four digits.
    private mutating func setDay(_ day: Int64) -> Bool {
        let (year, month, dayOfMonth) = ProlepticGregorian.civilDate(dayNumber: day)
        guard year >= 0 && year <= 9_999 else { return false }
        dayNumber = day
        withUnsafeMutableBytes(of: &date) { bytes in
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            writeDigits(year, count: 4, to: base)
            base[4] = UInt8(ascii: "-")
            writeTwoDigits(month, to: base + 5)
            base[7] = UInt8(ascii: "-")
            writeTwoDigits(dayOfMonth, to: base + 8)
        }
        return true
    }
}

/// Writes `value`, 0...99, as two digits.
@inline(__always)
private func writeTwoDigits(_ value: Int64, to buffer: UnsafeMutablePointer<UInt8>) {
    buffer[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10)
    buffer[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
}

/// Writes a non-negative `value` below 10^count as exactly `count` digits.
@inline(__always)
private func writeDigits(_ value: Int64, count: Int, to buffer: UnsafeMutablePointer<UInt8>) {
    var rest = value
    var index = count
    while index > 0 {
        index &-= 1
        buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
        rest /= 10
    }
}
