//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Appends `value.description` to a byte buffer as UTF-8, byte for byte, without making a string
/// for the values output mostly holds: finite, not whole, from 0.0001 up to 2^52 in magnitude.
///
/// Those print in plain notation with the fewest fraction digits that read back as `value`
/// (`71.16666666666667`, `0.1`). With `value = m / 2^s` exactly, the nearest decimal with `k`
/// fraction digits is `round(m · 10^k / 2^s)`, and it reads back as `value` when it is less than
/// half a unit in the last place away: `2 · |d · 2^s − m · 10^k| < 10^k`. Both sides are exact in
/// 128-bit integers for these values, so the first `k` that passes gives the shortest digits, and
/// the nearest of them, as `description` chooses. Where the proof needs more care (a rounding
/// tie, a distance of exactly half a unit, a power of two, whose lower neighbour is closer than
/// its upper one) and for every other value, the text comes from `description`.
///
///     var bytes: [UInt8] = []
///     appendShortestDecimal(71.16666666666667, to: &bytes)   // "71.16666666666667"
///
/// - Complexity: O(1): about four trials of a 128-bit product, no allocation beyond the
///   buffer's growth on the fast path.
package func appendShortestDecimal(_ value: Double, to bytes: inout [UInt8]) {
    appendWritten(to: &bytes) { writeShortestDecimal(value, to: $0) }
}

/// Writes `value.description` as ``appendShortestDecimal(_:to:)`` appends it, at `buffer`, which
/// must have room for ``numberTextMaximumCount`` bytes.
///
/// - Returns: The number of bytes written.
/// - Complexity: O(1), with no allocation on the fast path.
package func writeShortestDecimal(_ value: Double, to buffer: UnsafeMutablePointer<UInt8>) -> Int {
    guard let (digits, fractionDigits) = shortestFixedDecimal(value) else { return writeDescription(value, to: buffer) }
    // Every fraction digit, then at least one integer digit (`0.25`).
    let integerDigits = max(decimalDigitCount(digits) - fractionDigits, 1)
    let sign = value < 0 ? 1 : 0
    let count = sign + integerDigits + 1 + fractionDigits
    var rest = writeDigitsBackwards(digits, count: fractionDigits, endingAt: buffer + count)
    buffer[sign + integerDigits] = UInt8(ascii: ".")
    rest = writeDigitsBackwards(rest, count: integerDigits, endingAt: buffer + sign + integerDigits)
    if sign == 1 { buffer[0] = UInt8(ascii: "-") }
    return count
}

/// The most bytes a finite `Double`'s text takes here: `description` never exceeds 24
/// (`-2.2250738585072014e-308`), and the plain form of the fast path never exceeds 25
/// (a sign, `0.`, and 22 fraction digits).
package var numberTextMaximumCount: Int { 32 }

/// Writes `value.description`, cut at ``numberTextMaximumCount`` bytes (which no `Double`'s text reaches).
private func writeDescription(_ value: Double, to buffer: UnsafeMutablePointer<UInt8>) -> Int {
    var text = value.description
    return text.withUTF8 { utf8 in
        let count = min(utf8.count, numberTextMaximumCount)
        if let base = utf8.baseAddress { buffer.update(from: base, count: count) }
        return count
    }
}

/// Appends the bytes `write` puts at a scratch buffer of ``numberTextMaximumCount`` bytes.
private func appendWritten(to bytes: inout [UInt8], _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: numberTextMaximumCount) { scratch in
        guard let base = scratch.baseAddress else { return }
        bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: write(base)))
    }
}

/// The number of decimal digits of `value` (1 for 0).
@inline(__always)
private func decimalDigitCount(_ value: UInt64) -> Int {
    var count = 1
    var rest = value
    while rest >= 10_000 {
        rest /= 10_000
        count &+= 4
    }
    if rest >= 100 {
        rest /= 100
        count &+= 2
    }
    return rest >= 10 ? count &+ 1 : count
}

/// Writes the last `count` decimal digits of `value` into the `count` bytes before `end`, two
/// at a time, and returns what is left of `value` in front of them.
@inline(__always)
private func writeDigitsBackwards(_ value: UInt64, count: Int, endingAt end: UnsafeMutablePointer<UInt8>) -> UInt64 {
    var rest = value
    var position = end
    var remaining = count
    while remaining >= 2 {
        let pair = rest % 100
        rest /= 100
        position -= 2
        position[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair / 10)
        position[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair % 10)
        remaining &-= 2
    }
    if remaining == 1 {
        position[-1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
        rest /= 10
    }
    return rest
}

/// The shortest decimal `digits / 10^fractionDigits` that reads back as `|value|`, when `value`
/// prints in plain notation with a fraction and the exact test above settles it; else `nil`.
///
/// A decimal with `k` fraction digits that reads back exists for every `k` from the shortest on,
/// and for `k` with `10^k ≥ 2^shift` always: the shortest is found by bisection, in about four trials.
private func shortestFixedDecimal(_ value: Double) -> (digits: UInt64, fractionDigits: Int)? {
    let magnitude = value.magnitude
    // Whole numbers, tiny and huge values, and powers of two (significand bits all zero).
    // Below 2^52 the conversion to an integer is exact truncation, without a library call.
    guard magnitude >= 0.0001, magnitude < 0x1p52, Double(Int64(magnitude)) != magnitude,
          magnitude.significandBitPattern != 0 else { return nil }
    let significand = UInt128(magnitude.significandBitPattern | (1 << 52))
    // magnitude = significand / 2^shift, with 1 ≤ shift ≤ 66 in this range (normal numbers,
    // whose exponent is the biased exponent less 1023).
    let shift = 52 &- (Int(magnitude.exponentBitPattern) &- 1_023)
    let unit = UInt128(1) &<< shift
    let half = unit &>> 1

    /// The nearest decimal with `fractionDigits` digits, if it reads back as the value; `nil`
    /// digits when it does not; `nil` when a tie leaves the answer to `description`.
    func nearest(_ fractionDigits: Int) -> (digits: UInt128?, settled: Bool) {
        let power = powerOfTen(fractionDigits)
        // Below 2^53 · 10^22 < 2^127: no overflow.
        let scaled = significand &* power
        let remainder = scaled & (unit &- 1)
        if remainder == half {
            // Halfway between two decimals: both read back, or neither (when 2^shift > 10^k).
            return (nil, unit > power)
        }
        let roundsUp = remainder > half
        let twice = (roundsUp ? unit &- remainder : remainder) &<< 1
        guard twice != power else { return (nil, false) }
        return (twice < power ? (scaled &>> shift) &+ (roundsUp ? 1 : 0) : nil, true)
    }

    // k = 0 never reads back (the value is not whole); the upper bound, with 10^k ≥ 2^shift, always does.
    var failing = 0
    var passing = min(22, (shift * 78_913) >> 18 + 1)
    var found = nearest(passing)
    guard found.settled, var digits = found.digits else { return nil }
    // Most fractions, such as averages, need every digit: try one fewer before bisecting.
    var middle = passing - 1
    while passing - failing > 1 {
        found = nearest(middle)
        guard found.settled else { return nil }
        if let candidate = found.digits {
            passing = middle
            digits = candidate
        } else {
            failing = middle
        }
        middle = (passing + failing) / 2
    }
    return digits < 100_000_000_000_000_000 ? (UInt64(digits), passing) : nil
}

/// 10^exponent, for 0 ≤ exponent ≤ 22.
private func powerOfTen(_ exponent: Int) -> UInt128 {
    exponent <= 19 ? UInt128(powersOfTen[exponent]) : UInt128(powersOfTen[19]) &* UInt128(powersOfTen[exponent - 19])
}

/// 10^0 through 10^19 (written out, so the table is static data rather than made on first use).
private let powersOfTen: [UInt64] = [
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
    100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
    10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
]

/// Appends a finite number as Cadence's CSV and JSON output write it: a whole number below 10^15
/// without a fraction (`72`, and `0` for negative zero), any other as `description` spells it
/// (``appendShortestDecimal(_:to:)``).
///
/// - Complexity: O(1), with no allocation beyond the buffer's growth for the values output mostly holds.
package func appendOutputNumber(_ value: Double, to bytes: inout [UInt8]) {
    appendWritten(to: &bytes) { writeOutputNumber(value, to: $0) }
}

/// Writes a number as ``appendOutputNumber(_:to:)`` appends it, at `buffer`, which must have room
/// for ``numberTextMaximumCount`` bytes: for output of many rows, formatted straight into memory.
///
/// - Returns: The number of bytes written.
/// - Complexity: O(1), with no allocation for the values output mostly holds.
package func writeOutputNumber(_ value: Double, to buffer: UnsafeMutablePointer<UInt8>) -> Int {
    // Whole below 10^15: the conversion to an integer truncates exactly, without a library call.
    guard value.magnitude < 1e15, Double(Int64(value)) == value else { return writeShortestDecimal(value, to: buffer) }
    let whole = UInt64(value.magnitude)
    // Negative zero has no sign: `value < 0` is false for it.
    let sign = value < 0 ? 1 : 0
    let count = sign &+ decimalDigitCount(whole)
    _ = writeDigitsBackwards(whole, count: count &- sign, endingAt: buffer + count)
    if sign == 1 { buffer[0] = UInt8(ascii: "-") }
    return count
}
