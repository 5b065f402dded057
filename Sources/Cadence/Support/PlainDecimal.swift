//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A plain decimal such as `72`, `-0.5` or `1013.25` (an optional `-`, digits, and optionally
/// a `.` and more digits) as a `Double` — exactly the `Double` that `Double(String)` gives —
/// or nil for anything else, including decimals this fast path cannot round exactly.
///
/// The digits are gathered into an integer of at most 2^53 and divided once by a power of ten
/// of at most 10^22: both are exact doubles, so the one division rounds correctly, as `strtod`
/// does. Health values have a handful of digits, so nearly all of them take this path; the
/// rest go through `Double(String)`.
///
/// - Complexity: O(*n*) in the number of bytes, with no allocation.
func parsePlainDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    let count = bytes.count
    var index = 0
    let isNegative = count > 0 && bytes[0] == UInt8(ascii: "-")
    if isNegative { index = 1 }
    var mantissa: UInt64 = 0
    var integerDigits = 0
    var fractionDigits = 0
    var sawPoint = false
    while index < count {
        let byte = bytes[index]
        index += 1
        if byte == UInt8(ascii: ".") && !sawPoint {
            sawPoint = true
            continue
        }
        let digit = byte &- UInt8(ascii: "0")
        guard digit < 10 else { return nil }
        // Nineteen digits always fit in 64 bits; the 2^53 bound is checked once at the end.
        guard integerDigits + fractionDigits < 19 else { return nil }
        mantissa = mantissa &* 10 &+ UInt64(digit)
        if sawPoint { fractionDigits += 1 } else { integerDigits += 1 }
    }
    guard integerDigits > 0, !sawPoint || fractionDigits > 0, mantissa <= 1 << 53,
          fractionDigits < powersOfTen.count else { return nil }
    let magnitude = Double(mantissa) / powersOfTen[fractionDigits]
    return isNegative ? -magnitude : magnitude
}

/// 10^0 through 10^22, every one an exact `Double`.
private let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
    1e20, 1e21, 1e22,
]
