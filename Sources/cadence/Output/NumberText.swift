//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Formatting of numbers for people (tables, plot labels).
enum NumberText {
    /// A value rounded to a precision that suits its size: no decimals from 100 up, one from 10,
    /// two below, four below 0.1; trailing zeros dropped.
    static func readable(_ value: Double) -> String {
        var text = OutputText()
        appendReadable(value, to: &text)
        return text.string
    }

    /// Appends a value as ``readable(_:)`` writes it, without making a string.
    static func appendReadable(_ value: Double, to text: inout OutputText) {
        guard value.isFinite else { return text.append("-") }
        let magnitude = abs(value)
        var decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 0.1 || magnitude == 0 ? 2 : 4
        var divisor: Int64 = 1
        for _ in 0..<decimals { divisor *= 10 }
        let scaled = (magnitude * Double(divisor)).rounded()
        guard scaled < 9e15 else {
            // Beyond whole digits: the description, as ``fixed(_:decimals:)`` gives it, trimmed alike.
            var description = "\(value)"
            if description.contains(".") {
                while description.hasSuffix("0") { description.removeLast() }
                if description.hasSuffix(".") { description.removeLast() }
            }
            return text.append(description)
        }
        var digits = Int64(scaled)
        if value < 0 && digits != 0 { text.append(byte: UInt8(ascii: "-")) }
        // Trailing zeros of the fraction are dropped.
        while decimals > 0 && digits % 10 == 0 {
            digits /= 10
            divisor /= 10
            decimals -= 1
        }
        text.appendInteger(digits / divisor)
        guard decimals > 0 else { return }
        text.append(byte: UInt8(ascii: "."))
        var fraction = digits % divisor
        var place = divisor / 10
        while place > 0 {
            text.append(byte: UInt8(ascii: "0") + UInt8(fraction / place))
            fraction %= place
            place /= 10
        }
    }

    /// A value with exactly `decimals` digits after the point, rounded half away from zero.
    static func fixed(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else { return "\(value)" }
        let integer = Int64(scaled)
        let divisor = Int64(scale)
        var text = String(integer / divisor)
        if decimals > 0 {
            let fraction = String(integer % divisor)
            text += "." + String(repeating: "0", count: decimals - fraction.count) + fraction
        }
        return (value < 0 && integer != 0 ? "-" : "") + text
    }

    /// `1234567` → `1,234,567`.
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return (number < 0 ? "-" : "") + result
    }

    /// Seconds as `m:ss`, or `h:mm:ss` from an hour on (always with `alwaysShowsHours`).
    static func clock(_ seconds: Double, alwaysShowsHours: Bool = false) -> String {
        guard seconds.isFinite, abs(seconds) < 1e12 else { return "-" }
        let total = Int(seconds.rounded())
        let hours = total / 3600
        let minutes = (total % 3600) / 60
        let rest = total % 60
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 || alwaysShowsHours ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
    }
}
