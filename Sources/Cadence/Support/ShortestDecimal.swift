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
        var remaining = fractionDigits
        while remaining >= 2 {
            let pair = Int(truncatingIfNeeded: rest % 100) &* 2
            rest /= 100
            prepend(digitPairs[pair + 1])
            prepend(digitPairs[pair])
            remaining -= 2
        }
        if remaining == 1 {
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
///
/// A decimal with `k` fraction digits that reads back exists for every `k` from the shortest on,
/// and for `k` with `10^k ≥ 2^shift` always: the shortest is found by bisection, in about four trials.
private func shortestFixedDecimal(_ value: Double) -> (digits: UInt64, fractionDigits: Int)? {
    let magnitude = value.magnitude
    // Whole numbers, tiny and huge values, and powers of two (significand bits all zero).
    guard magnitude >= 0.0001, magnitude < 0x1p52, magnitude.rounded(.towardZero) != magnitude,
          magnitude.significandBitPattern != 0 else { return nil }
    let significand = UInt128(magnitude.significandBitPattern | (1 << 52))
    // magnitude = significand / 2^shift, with 1 ≤ shift ≤ 66 in this range.
    let shift = 52 - Int(magnitude.exponent)
    let unit = UInt128(1) << shift
    let half = unit >> 1

    /// The nearest decimal with `fractionDigits` digits, if it reads back as the value; `nil`
    /// digits when it does not; `nil` when a tie leaves the answer to `description`.
    func nearest(_ fractionDigits: Int) -> (digits: UInt128?, settled: Bool) {
        let power = powerOfTen(fractionDigits)
        // Below 2^53 · 10^22 < 2^127: no overflow.
        let scaled = significand * power
        let remainder = scaled & (unit - 1)
        if remainder == half {
            // Halfway between two decimals: both read back, or neither (when 2^shift > 10^k).
            return (nil, unit > power)
        }
        let roundsUp = remainder > half
        let twice = (roundsUp ? unit - remainder : remainder) << 1
        guard twice != power else { return (nil, false) }
        return (twice < power ? (scaled >> shift) + (roundsUp ? 1 : 0) : nil, true)
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
    exponent <= 19 ? UInt128(powersOfTen[exponent]) : UInt128(powersOfTen[19]) * UInt128(powersOfTen[exponent - 19])
}

/// 10^0 through 10^19.
private let powersOfTen: [UInt64] = (0...19).map { exponent in (0..<exponent).reduce(1) { power, _ in power * 10 } }

/// "00", "01", … "99": two digits per division when writing.
private let digitPairs: [UInt8] = (0..<100).flatMap { [UInt8(ascii: "0") + UInt8($0 / 10), UInt8(ascii: "0") + UInt8($0 % 10)] }

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
