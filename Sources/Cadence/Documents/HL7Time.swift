//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// HL7 version 3 point-in-time values (`TS`): `YYYYMMDDHHMMSS.UUUU±ZZZZ`, any prefix of the digits
/// from the year on (`2005`, `20050329`, `200503291715`), an optional fraction after the seconds and
/// an optional offset from UTC; a value without an offset is read as UTC.
public enum HL7Time {
    /// The instant a `TS` value names (its earliest, when it is only a prefix: `2005` is 1 January).
    ///
    /// - Throws: ``CadenceError/Code/malformedInput`` naming the value and what is wrong with it.
    public static func parse(_ text: String) throws -> Date {
        let bytes = Array(text.utf8)
        var index = 0
        func fail(_ reason: String) -> CadenceError {
            CadenceError(.malformedInput, "the HL7 time \"\(text)\" \(reason)")
        }
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<count {
                let byte = bytes[index + offset]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += count
            return value
        }
        guard let year = digits(4) else { throw fail("does not start with a four-digit year") }
        var fields = [1, 1, 0, 0, 0]
        let ranges = [1...12, 1...31, 0...23, 0...59, 0...60]
        for position in fields.indices {
            guard index < bytes.count, bytes[index] != UInt8(ascii: "+"), bytes[index] != UInt8(ascii: "-"),
                  bytes[index] != UInt8(ascii: ".") else { break }
            guard let value = digits(2), ranges[position].contains(value) else {
                throw fail("has a field that is not two digits in range")
            }
            fields[position] = value
        }
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                fraction += Double(bytes[index] - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { throw fail("has a '.' without digits") }
        }
        var offsetSeconds = 0
        if index < bytes.count {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : bytes[index] == UInt8(ascii: "+") ? 1 : 0
            guard sign != 0 else { throw fail("has an unexpected character after its digits") }
            index += 1
            guard let hours = digits(2), let minutes = digits(2), hours <= 14, minutes <= 59 else {
                throw fail("has an offset that is not ±HHMM")
            }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        }
        guard index == bytes.count else { throw fail("has trailing characters") }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let components = DateComponents(year: year, month: fields[0], day: fields[1], hour: fields[2], minute: fields[3],
                                        second: fields[4])
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == fields[1] else {
            throw fail("names a day its month does not have")
        }
        return date.addingTimeInterval(fraction - Double(offsetSeconds))
    }
}
