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
/// - Complexity: O(1): at most 22 trials of two 128-bit products, no allocation beyond the
///   buffer's growth on the fast path.
package func appendShortestDecimal(_ value: Double, to bytes: inout [UInt8]) {
    guard let (digits, fractionDigits) = shortestFixedDecimal(value) else {
        return bytes.append(contentsOf: value.description.utf8)
    }
    // At most 22 fraction digits, a point, 16 integer digits and a sign.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { buffer in
        var position = buffer.count
        var rest = digits
        func prepend(_ byte: UInt8) {
            position -= 1
            buffer[position] = byte
        }
        for _ in 0..<fractionDigits {
            prepend(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10))
            rest /= 10
        }
        prepend(UInt8(ascii: "."))
        repeat {
            prepend(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10))
            rest /= 10
        } while rest > 0
        if value < 0 { prepend(UInt8(ascii: "-")) }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[position...]))
    }
}

/// The shortest decimal `digits / 10^fractionDigits` that reads back as `|value|`, when `value`
/// prints in plain notation with a fraction and the exact test above settles it; else `nil`.
private func shortestFixedDecimal(_ value: Double) -> (digits: UInt64, fractionDigits: Int)? {
    let magnitude = value.magnitude
    // Whole numbers, tiny and huge values, and powers of two (significand bits all zero).
    guard magnitude >= 0.0001, magnitude < 0x1p52, magnitude.rounded(.towardZero) != magnitude,
          magnitude.significandBitPattern != 0 else { return nil }
    let significand = UInt128(magnitude.significandBitPattern | (1 << 52))
    // magnitude = significand / 2^shift, with 1 ≤ shift ≤ 66 in this range.
    let shift = 52 - Int(magnitude.exponent)
    let one: UInt128 = 1
    let unit = one << shift
    let half = one << (shift - 1)
    var power: UInt128 = 1
    for fractionDigits in 1...22 {
        power *= 10
        // Below 2^53 · 10^22 < 2^127: no overflow.
        let scaled = significand * power
        var digits = scaled >> shift
        let remainder = scaled & (unit - 1)
        let distance: UInt128
        if remainder > half {
            digits += 1
            distance = unit - remainder
        } else if remainder < half {
            distance = remainder
        } else {
            return nil
        }
        let twice = distance << 1
        if twice < power { return digits < 100_000_000_000_000_000 ? (UInt64(digits), fractionDigits) : nil }
        if twice == power { return nil }
    }
    return nil
}

/// Appends a finite number as Cadence's CSV and JSON output write it: a whole number below 10^15
/// without a fraction (`72`, and `0` for negative zero), any other as `description` spells it
/// (``appendShortestDecimal(_:to:)``).
///
/// - Complexity: O(1), with no allocation beyond the buffer's growth for the values output mostly holds.
package func appendOutputNumber(_ value: Double, to bytes: inout [UInt8]) {
    guard value == value.rounded(), value.magnitude < 1e15 else { return appendShortestDecimal(value, to: &bytes) }
    if value < 0 && value != 0 { bytes.append(UInt8(ascii: "-")) }
    var rest = UInt64(value.magnitude)
    // Fifteen digits at most, written from the end.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { buffer in
        var position = buffer.count
        repeat {
            position -= 1
            buffer[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        } while rest > 0
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[position...]))
    }
}
