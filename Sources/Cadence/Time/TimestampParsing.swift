//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Parses an RFC 3339 timestamp with an explicit UTC offset.
///
///     try parseRFC3339("2024-03-10T00:00:00-05:00")          // 1710046800000000
///     try parseRFC3339("2024-03-10 05:00:00.123456Z")
///
/// The accepted form is `yyyy-MM-ddTHH:mm:ss[.fraction](Z|±HH:MM)`. The `T` may also be a
/// lowercase `t` or a space and the `Z` a lowercase `z`. The fraction may have any number of digits;
/// digits beyond microseconds are truncated. `-00:00` is read as UTC.
///
/// Every field is checked: the year must be 0001…9999, the day must exist in its month (no
/// February 30), hours run 00…23, minutes 00…59 and offsets to ±23:59. Seconds run 00…60: RFC 3339
/// permits a leap second `60`, and since timestamps do not count leap seconds (POSIX time) it is
/// read as the first instant of the following minute — so such a value does not round-trip through
/// ``formatRFC3339(_:timeZone:)``. The resulting instant must also lie in ``supportedTimestampRange``.
///
/// - Parameter text: The text, with nothing before or after the timestamp.
/// - Returns: The instant in microseconds since 1970-01-01T00:00:00Z.
/// - Throws: ``CadenceError`` with code `.malformedInput` naming the text and the reason, for
///   example a missing offset or a month 13.
/// - Complexity: O(*n*) in the length of the text. Allocates only when throwing, or to copy text
///   that is not stored contiguously as UTF-8.
public func parseRFC3339<Text: StringProtocol>(_ text: Text) throws -> Timestamp {
    try withUTF8Bytes(of: text, parseRFC3339)
}

/// Calls `parse` with the text's UTF-8 bytes, copying them only when the text is not stored
/// contiguously as UTF-8 (a bridged or sliced string).
private func withUTF8Bytes<Text: StringProtocol>(
    of text: Text, _ parse: (UnsafeBufferPointer<UInt8>) throws -> Timestamp
) throws -> Timestamp {
    if let timestamp = try text.utf8.withContiguousStorageIfAvailable(parse) {
        return timestamp
    }
    var copy = String(text)
    return try copy.withUTF8(parse)
}

/// Parses an RFC 3339 timestamp from UTF-8 bytes, as ``parseRFC3339(_:)`` does.
///
/// - Parameter bytes: The timestamp's UTF-8 bytes, with nothing before or after it.
/// - Returns: The instant in microseconds since 1970-01-01T00:00:00Z.
/// - Throws: ``CadenceError`` with code `.malformedInput` naming the text and the reason.
/// - Complexity: O(*n*); allocates only when throwing.
package func parseRFC3339(_ bytes: UnsafeBufferPointer<UInt8>) throws -> Timestamp {
    let scanner = TimestampScanner(bytes: bytes)
    let fields = try scanner.dateAndTime(allowsLetterT: true)
    var position = 19
    var fraction: Int64 = 0
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
        position += 1
        let fractionStart = position
        var scale: Int64 = 100_000
        while position < bytes.count, case let digit = bytes[position] &- UInt8(ascii: "0"), digit < 10 {
            fraction += Int64(digit) * scale
            scale /= 10
            position += 1
        }
        guard position > fractionStart else {
            throw scanner.failure("expected digits after the decimal point")
        }
    }
    guard position < bytes.count else {
        throw scanner.failure("missing the UTC offset (Z or ±HH:MM)")
    }
    let offsetSeconds: Int64
    switch bytes[position] {
    case UInt8(ascii: "Z"), UInt8(ascii: "z"):
        offsetSeconds = 0
        position += 1
    case UInt8(ascii: "+"), UInt8(ascii: "-"):
        let hours = try scanner.number(at: position + 1, digits: 2, field: "offset hour")
        try scanner.expect(UInt8(ascii: ":"), at: position + 3, after: "offset hour")
        let minutes = try scanner.number(at: position + 4, digits: 2, field: "offset minute")
        offsetSeconds = try scanner.offset(sign: bytes[position], hours: hours, minutes: minutes)
        position += 6
    default:
        throw scanner.failure("expected the UTC offset (Z or ±HH:MM) at character \(position + 1)")
    }
    guard position == bytes.count else {
        throw scanner.failure("unexpected text after the UTC offset")
    }
    return try scanner.timestamp(fields, fraction: fraction, offsetSeconds: offsetSeconds)
}

/// Parses a timestamp in the Apple Health export format `yyyy-MM-dd HH:mm:ss ±HHMM`, or the
/// compact `yyyyMMddHHmmss±HHMM` of the exports iOS 8 wrote.
///
///     try parseExport("2017-01-22 18:57:52 +0200")            // 1485104272000000
///     try parseExport("20170122185752+0200")                  // the same instant
///
/// This is the format of the `startDate`, `endDate` and `creationDate` attributes of
/// `export.xml`. The text must be exactly 25 characters (19 in the compact form, told apart by a
/// digit after the year); fields are checked as in ``parseRFC3339(_:)``, including the
/// leap-second rule and the year range 0001…9999.
///
/// - Parameter text: The text, with nothing before or after the timestamp.
/// - Returns: The instant in microseconds since 1970-01-01T00:00:00Z.
/// - Throws: ``CadenceError`` with code `.malformedInput` naming the text and the reason.
/// - Complexity: O(1). Allocates only when throwing, or to copy text that is not stored
///   contiguously as UTF-8.
public func parseExport<Text: StringProtocol>(_ text: Text) throws -> Timestamp {
    try withUTF8Bytes(of: text, parseExport)
}

/// Parses an Apple Health export timestamp from UTF-8 bytes, as ``parseExport(_:)`` does.
///
/// - Parameter bytes: The timestamp's UTF-8 bytes, with nothing before or after it.
/// - Returns: The instant in microseconds since 1970-01-01T00:00:00Z.
/// - Throws: ``CadenceError`` with code `.malformedInput` naming the text and the reason.
/// - Complexity: O(1); allocates only when throwing.
package func parseExport(_ bytes: UnsafeBufferPointer<UInt8>) throws -> Timestamp {
    let scanner = TimestampScanner(bytes: bytes, expectedForms: "yyyy-MM-dd HH:mm:ss ±HHMM or yyyyMMddHHmmss±HHMM")
    // iOS 8 wrote its dates without separators: a digit stands where the other form has its first '-'.
    let isCompact = bytes.count > 4 && bytes[4] &- UInt8(ascii: "0") < 10
    let fields = try isCompact ? scanner.compactDateAndTime() : scanner.dateAndTime(allowsLetterT: false)
    // The offset follows the seconds, after a space in the longer form.
    let signPosition = isCompact ? 14 : 20
    guard bytes.count > (isCompact ? 14 : 19) else {
        throw scanner.failure("missing the UTC offset (±HHMM)")
    }
    if !isCompact { try scanner.expect(UInt8(ascii: " "), at: 19, after: "seconds") }
    let sign = bytes.count > signPosition ? bytes[signPosition] : 0
    guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else {
        throw scanner.failure("expected the UTC offset (±HHMM) at character \(signPosition + 1)")
    }
    let hours = try scanner.number(at: signPosition + 1, digits: 2, field: "offset hour")
    let minutes = try scanner.number(at: signPosition + 3, digits: 2, field: "offset minute")
    guard bytes.count == signPosition + 5 else {
        throw scanner.failure("unexpected text after the UTC offset")
    }
    let offsetSeconds = try scanner.offset(sign: sign, hours: hours, minutes: minutes)
    return try scanner.timestamp(fields, fraction: 0, offsetSeconds: offsetSeconds)
}

/// Reads the fixed-position fields shared by RFC 3339 and the Apple Health export format.
private struct TimestampScanner {
    struct Fields {
        var year: Int64
        var month: Int64
        var day: Int64
        var hour: Int64
        var minute: Int64
        var second: Int64
    }

    let bytes: UnsafeBufferPointer<UInt8>
    /// The forms accepted, named in error messages when there is more than one.
    var expectedForms: StaticString?

    init(bytes: UnsafeBufferPointer<UInt8>, expectedForms: StaticString? = nil) {
        self.bytes = bytes
        self.expectedForms = expectedForms
    }

    /// The longest excerpt of the input quoted in an error message.
    private static let maximumQuotedLength = 64

    /// An error naming the input and the reason it was rejected.
    @inline(never)
    func failure(_ reason: String) -> CadenceError {
        var quoted = String(decoding: bytes.prefix(Self.maximumQuotedLength), as: UTF8.self)
        if bytes.count > Self.maximumQuotedLength { quoted += "…" }
        let forms = expectedForms.map { " (expected \($0))" } ?? ""
        return CadenceError(.malformedInput, "Malformed timestamp \"\(quoted)\": \(reason)\(forms).")
    }

    /// A run of exactly `digits` ASCII digits starting at `offset`.
    @inline(__always)
    func number(at offset: Int, digits: Int, field: StaticString) throws -> Int64 {
        guard offset + digits <= bytes.count else {
            throw failure("the text ends before the \(field)")
        }
        var value: Int64 = 0
        for index in offset..<(offset + digits) {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else {
                throw failure("the \(field) must be \(digits) digits")
            }
            value = value * 10 + Int64(digit)
        }
        return value
    }

    /// Checks for a separator byte at `offset`.
    @inline(__always)
    func expect(_ byte: UInt8, at offset: Int, after field: StaticString) throws {
        guard offset < bytes.count else {
            throw failure("the text ends after the \(field)")
        }
        guard bytes[offset] == byte else {
            throw failure("expected '\(Character(Unicode.Scalar(byte)))' after the \(field)")
        }
    }

    /// Reads and validates `yyyy-MM-dd?HH:mm:ss` from the first 19 bytes.
    ///
    /// The separator is a space, or also `T` or `t` when `allowsLetterT` is true.
    func dateAndTime(allowsLetterT: Bool) throws -> Fields {
        let year = try number(at: 0, digits: 4, field: "year")
        try expect(UInt8(ascii: "-"), at: 4, after: "year")
        let month = try number(at: 5, digits: 2, field: "month")
        try expect(UInt8(ascii: "-"), at: 7, after: "month")
        let day = try number(at: 8, digits: 2, field: "day")
        guard bytes.count > 10 else { throw failure("missing the time of day") }
        let separator = bytes[10]
        let isLetterT = separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t")
        guard separator == UInt8(ascii: " ") || (allowsLetterT && isLetterT) else {
            throw failure(
                allowsLetterT ? "expected 'T' or a space between the date and the time"
                    : "expected a space between the date and the time")
        }
        let hour = try number(at: 11, digits: 2, field: "hour")
        try expect(UInt8(ascii: ":"), at: 13, after: "hour")
        let minute = try number(at: 14, digits: 2, field: "minute")
        try expect(UInt8(ascii: ":"), at: 16, after: "minute")
        let second = try number(at: 17, digits: 2, field: "second")
        return try validated(Fields(year: year, month: month, day: day, hour: hour, minute: minute, second: second))
    }

    /// Reads and validates the compact `yyyyMMddHHmmss` of iOS 8's exports from the first 14 bytes.
    func compactDateAndTime() throws -> Fields {
        try validated(Fields(
            year: number(at: 0, digits: 4, field: "year"), month: number(at: 4, digits: 2, field: "month"),
            day: number(at: 6, digits: 2, field: "day"), hour: number(at: 8, digits: 2, field: "hour"),
            minute: number(at: 10, digits: 2, field: "minute"), second: number(at: 12, digits: 2, field: "second")))
    }

    /// The fields, once each is checked to lie in its range.
    private func validated(_ fields: Fields) throws -> Fields {
        let (year, month, day) = (fields.year, fields.month, fields.day)
        let (hour, minute, second) = (fields.hour, fields.minute, fields.second)
        guard year >= 1 else { throw failure("year 0000 is out of range 0001…9999") }
        guard (1...12).contains(month) else { throw failure("month \(month) is out of range 01…12") }
        let monthLength = ProlepticGregorian.daysInMonth(month, year: year)
        guard day >= 1, day <= monthLength else {
            throw failure("day \(day) is out of range 01…\(monthLength) for month \(month) of \(year)")
        }
        guard hour <= 23 else { throw failure("hour \(hour) is out of range 00…23") }
        guard minute <= 59 else { throw failure("minute \(minute) is out of range 00…59") }
        guard second <= 60 else { throw failure("second \(second) is out of range 00…60") }
        return fields
    }

    /// Validates a UTC offset and returns it in seconds east of UTC.
    func offset(sign: UInt8, hours: Int64, minutes: Int64) throws -> Int64 {
        guard hours <= 23 else { throw failure("offset hour \(hours) is out of range 00…23") }
        guard minutes <= 59 else { throw failure("offset minute \(minutes) is out of range 00…59") }
        let magnitude = hours * 3_600 + minutes * 60
        return sign == UInt8(ascii: "-") ? -magnitude : magnitude
    }

    /// Combines validated fields into a timestamp in the supported range.
    func timestamp(_ fields: Fields, fraction: Int64, offsetSeconds: Int64) throws -> Timestamp {
        let dayNumber = ProlepticGregorian.dayNumber(year: fields.year, month: fields.month, day: fields.day)
        let seconds = dayNumber * 86_400 + fields.hour * 3_600 + fields.minute * 60 + fields.second - offsetSeconds
        let timestamp = seconds * TimestampArithmetic.microsecondsPerSecond + fraction
        guard supportedTimestampRange.contains(timestamp) else {
            throw failure("the instant lies outside years 0001 through 9999 in UTC")
        }
        return timestamp
    }
}
