//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Appends `value.description` to a byte buffer as UTF-8, byte for byte, without making a string.
///
/// The digits are the shortest that read back as `value` and, of those, the nearest to it (ties
/// to an even last digit), as `description` chooses them; they come from Raffaello Giulietti's
/// Schubfach method (``shortestDecimal(_:)``). The layout is `description`'s: plain notation with
/// at least one fraction digit (`71.16666666666667`, `123.0`, `0.0001`) from 10^-4 up to 2^53 in
/// magnitude, scientific notation outside it (`1e-05`, `1.5e+16`), `-0.0` for negative zero,
/// and `inf`, `-inf` and `nan` for the values that are not finite.
///
///     var bytes: [UInt8] = []
///     appendShortestDecimal(71.16666666666667, to: &bytes)   // "71.16666666666667"
///
/// - Complexity: O(1): three 128-bit products and the digits' writing, no allocation beyond the
///   buffer's growth for finite values.
package func appendShortestDecimal(_ value: Double, to bytes: inout [UInt8]) {
    appendWritten(to: &bytes) { writeShortestDecimal(value, to: $0) }
}

/// Writes `value.description` as ``appendShortestDecimal(_:to:)`` appends it, at `buffer`, which
/// must have room for ``numberTextMaximumCount`` bytes.
///
/// - Returns: The number of bytes written.
/// - Complexity: O(1), with no allocation for finite values.
package func writeShortestDecimal(_ value: Double, to buffer: UnsafeMutablePointer<UInt8>) -> Int {
    guard value.isFinite else { return writeDescription(value, to: buffer) }
    let sign = value.sign == .minus ? 1 : 0
    if sign == 1 { buffer[0] = UInt8(ascii: "-") }
    let start = buffer + sign
    guard value != 0 else {
        start[0] = UInt8(ascii: "0")
        start[1] = UInt8(ascii: ".")
        start[2] = UInt8(ascii: "0")
        return sign &+ 3
    }
    var (digits, exponent) = shortestDecimal(value.magnitude)
    // The digits end in a nonzero digit: the layout below counts on it.
    while digits % 10 == 0 {
        digits /= 10
        exponent &+= 1
    }
    let digitCount = decimalDigitCount(digits)
    // The number of digits in front of the decimal point (negative: zeros after it first).
    let point = digitCount &+ exponent
    // All digits at once, right-aligned in 24 bytes, then copied into place in words.
    var text: (UInt64, UInt64, UInt64, UInt64) = (
        eightDigits(digits / 10_000_000_000_000_000 % 100_000_000), eightDigits(digits / 100_000_000 % 100_000_000),
        eightDigits(digits % 100_000_000), 0)
    return withUnsafeBytes(of: &text) { text in
        let first = text.baseAddress.unsafelyUnwrapped + (24 &- digitCount)
        if point < -3 || value.magnitude > 0x1p53 {
            return sign &+ writeScientific(first, digitCount: digitCount, exponent: point &- 1, to: start)
        }
        return sign &+ writePlain(first, digitCount: digitCount, point: point, to: start)
    }
}

/// The eight ASCII digits of `value`, below 10^8, zero-padded, the first in the lowest byte (the
/// first in memory once stored little-endian): the digits split in lanes of one word, four,
/// then two, then one, each split a multiplication, without a loop.
@inline(__always)
func eightDigits(_ value: UInt64) -> UInt64 {
    // Two lanes of 32 bits: the first four digits, the last four.
    var lanes = value / 10_000 | (value % 10_000) << 32
    // x / 100 = x · 10,486 / 2^20 for x below 10^4; four lanes of 16 bits.
    let hundreds = (lanes &* 10_486) >> 20 & 0x0000_007F_0000_007F
    lanes = hundreds | (lanes &- hundreds &* 100) << 16
    // x / 10 = x · 103 / 2^10 for x below 100; eight lanes of 8 bits.
    let tens = (lanes &* 103) >> 10 & 0x000F_000F_000F_000F
    lanes = tens | (lanes &- tens &* 10) << 8
    return (lanes | 0x3030_3030_3030_3030).littleEndian
}

/// Copies `count` bytes, at most 24, from `source` to `destination` eight at a time: up to 7
/// bytes past `count` are written too (and read: the source has room), which the buffer's
/// ``numberTextMaximumCount`` bytes leave room for, and later bytes overwrite.
@inline(__always)
private func copyDigits(_ source: UnsafeRawPointer, to destination: UnsafeMutablePointer<UInt8>, count: Int) {
    // Not a loop, which the compiler would turn into a call of memcpy.
    let target = UnsafeMutableRawPointer(destination)
    target.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
    guard count > 8 else { return }
    target.storeBytes(of: source.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
    guard count > 16 else { return }
    target.storeBytes(of: source.loadUnaligned(fromByteOffset: 16, as: UInt64.self), toByteOffset: 16, as: UInt64.self)
}

/// The most bytes a `Double`'s text takes here: no `description` exceeds 24
/// (`-2.2250738585072014e-308`).
package var numberTextMaximumCount: Int { 32 }

/// Writes the `digitCount` ASCII digits at `digits` with the decimal point after the first `point`
/// of them (`0.00ddd` when `point` is not positive, `ddd00.0` when it passes the digits), as
/// `description`'s plain notation.
@inline(__always)
private func writePlain(_ digits: UnsafeRawPointer, digitCount: Int, point: Int, to start: UnsafeMutablePointer<UInt8>) -> Int {
    if point <= 0 {
        // 0.000ddd
        start[0] = UInt8(ascii: "0")
        start[1] = UInt8(ascii: ".")
        for index in 0..<(-point) { start[2 &+ index] = UInt8(ascii: "0") }
        copyDigits(digits, to: start + (2 &- point), count: digitCount)
        return 2 &- point &+ digitCount
    }
    if point >= digitCount {
        // ddd000.0
        copyDigits(digits, to: start, count: digitCount)
        for index in digitCount..<point { start[index] = UInt8(ascii: "0") }
        start[point] = UInt8(ascii: ".")
        start[point &+ 1] = UInt8(ascii: "0")
        return point &+ 2
    }
    // ddd.ddd
    copyDigits(digits, to: start, count: point)
    start[point] = UInt8(ascii: ".")
    copyDigits(digits + point, to: start + (point &+ 1), count: digitCount &- point)
    return digitCount &+ 1
}

/// Writes the `digitCount` ASCII digits at `digits` as `d.ddde±XX`, `description`'s scientific
/// notation: no point after a single digit (`1e-05`), and an exponent of at least two digits.
@inline(__always)
private func writeScientific(_ digits: UnsafeRawPointer, digitCount: Int, exponent: Int, to start: UnsafeMutablePointer<UInt8>) -> Int {
    start[0] = digits.load(as: UInt8.self)
    var count = 1
    if digitCount > 1 {
        start[1] = UInt8(ascii: ".")
        copyDigits(digits + 1, to: start + 2, count: digitCount &- 1)
        count = digitCount &+ 1
    }
    start[count] = UInt8(ascii: "e")
    start[count &+ 1] = exponent < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
    count &+= 2
    let magnitude = UInt64(exponent.magnitude)
    let exponentDigits = magnitude >= 100 ? 3 : 2
    count &+= exponentDigits
    _ = writeDigitsBackwards(magnitude, count: exponentDigits, endingAt: start + count)
    return count
}

/// Writes `value.description` (for the values that are not finite: `inf`, `-inf`, `nan`), cut at
/// ``numberTextMaximumCount`` bytes.
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
    // ⌊log10⌋ from the bit length (bits · 1,233 / 2^12 ≈ bits · log10 2) is the count or one
    // less; one comparison tells. `| 1` gives 0 the count of 1, and changes no other count.
    let odd = value | 1
    let estimate = ((64 &- odd.leadingZeroBitCount) &* 1_233) >> 12
    return odd >= powersOfTen[estimate] ? estimate &+ 1 : estimate
}

/// 10^0 through 10^19.
private let powersOfTen: [UInt64] = [
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
    100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
    10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
]

/// `00`, `01`, … `99`: two digits per table look-up rather than two divisions.
private let digitPairs: StaticString = """
    00010203040506070809101112131415161718192021222324252627282930313233343536373839\
    40414243444546474849505152535455565758596061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899
    """

/// Writes the last `count` decimal digits of `value` into the `count` bytes before `end`, two
/// at a time, and returns what is left of `value` in front of them.
@inline(__always)
private func writeDigitsBackwards(_ value: UInt64, count: Int, endingAt end: UnsafeMutablePointer<UInt8>) -> UInt64 {
    var rest = value
    var position = UnsafeMutableRawPointer(end)
    var remaining = count
    let pairs = UnsafeRawPointer(digitPairs.utf8Start)
    while remaining >= 2 {
        let pair = Int(truncatingIfNeeded: rest % 100)
        rest /= 100
        position -= 2
        position.storeBytes(of: pairs.loadUnaligned(fromByteOffset: pair &* 2, as: UInt16.self), as: UInt16.self)
        remaining &-= 2
    }
    if remaining == 1 {
        position.storeBytes(of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10), toByteOffset: -1, as: UInt8.self)
        rest /= 10
    }
    return rest
}

/// The shortest decimal `digits · 10^exponent` inside the rounding interval of a positive finite
/// `magnitude` (the reals that round to it) and, of those, the nearest to it, ties to an even
/// last digit; `digits` may end in zeros.
///
/// Schubfach (Raffaello Giulietti, "The Schubfach way to render doubles", 2020): with
/// `magnitude = c · 2^q`, the exponent `k = ⌊log10 2^q⌋` makes the interval's width between 1
/// and 10 units of 10^k. So at most one multiple of 10 units lies in it, which is then the
/// shortest decimal; else the shortest have as many digits as `⌊magnitude / 10^k⌋`, and the
/// nearest of them is that or the next. The interval's ends and the value, times four and
/// divided by 10^k, come from one 126-bit power of ten (``decimalPowers``), rounded to odd:
/// the comparisons on these approximations are those on the exact values, as the paper proves.
///
/// - Complexity: O(1): three 64 × 128-bit products.
@inline(__always)
private func shortestDecimal(_ magnitude: Double) -> (digits: UInt64, exponent: Int) {
    let fraction = magnitude.significandBitPattern
    let biasedExponent = Int(truncatingIfNeeded: magnitude.exponentBitPattern)
    let c = biasedExponent == 0 ? fraction : fraction | 1 << 52
    let q = biasedExponent == 0 ? -1_074 : biasedExponent &- 1_075
    // Whole numbers below 2^52 are their own digits: their neighbours are less than 1 away.
    if q < 0 && q > -53 {
        let whole = c >> UInt64(-q)
        if whole << UInt64(-q) == c { return (whole, 0) }
    }
    // An odd significand's interval is open: its ends round to the neighbours, not to it.
    let open: UInt64 = c & 1
    let value = c << 2
    let upper = value &+ 2
    // At a power of two (but the least normal), the neighbour below is half as far as the one above.
    let regular = fraction != 0 || biasedExponent <= 1
    let lower = regular ? value &- 2 : value &- 1
    let k = regular ? floorLog10OfPowerOfTwo(q) : floorLog10OfThreeQuartersPowerOfTwo(q)
    let shift = UInt64(truncatingIfNeeded: q &+ floorLog2OfPowerOfTen(-k) &+ 3)
    let index = 2 &* (-k &- decimalPowersMinimumExponent)
    let high = decimalPowers[index]
    let low = decimalPowers[index &+ 1]
    let scaled = roundedToOdd(high, low, times: value << shift)
    let scaledLower = roundedToOdd(high, low, times: lower << shift)
    let scaledUpper = roundedToOdd(high, low, times: upper << shift)

    let s = scaled >> 2
    // A multiple of ten units inside: one digit fewer.
    let tensBelow = s / 10 &* 10
    let tensAbove = tensBelow &+ 10
    let tensBelowInside = scaledLower &+ open <= tensBelow << 2
    let tensAboveInside = (tensAbove << 2) &+ open <= scaledUpper
    if tensBelowInside != tensAboveInside { return (tensBelowInside ? tensBelow : tensAbove, k) }
    // Else the nearer of s and s + 1 units that is inside.
    let t = s &+ 1
    let sInside = scaledLower &+ open <= s << 2
    let tInside = (t << 2) &+ open <= scaledUpper
    if sInside != tInside { return (sInside ? s : t, k) }
    let distance = Int64(bitPattern: scaled &- ((s &+ t) << 1))
    return (distance < 0 || distance == 0 && s & 1 == 0 ? s : t, k)
}

/// ⌊(high · 2^64 + low) · factor / 2^128⌋, its lowest bit set when bits below were dropped
/// (rounded to odd, so that comparisons with exact multiples of 4 keep their outcome).
@inline(__always)
private func roundedToOdd(_ high: UInt64, _ low: UInt64, times factor: UInt64) -> UInt64 {
    let lowProduct = low.multipliedFullWidth(by: factor).high
    let highProduct = high.multipliedFullWidth(by: factor)
    let (middle, carry) = highProduct.low.addingReportingOverflow(lowProduct)
    return (highProduct.high &+ (carry ? 1 : 0)) | (middle != 0 ? 1 : 0)
}

/// ⌊log10 2^q⌋ for |q| ≤ 1,100 (checked in the tests against exact powers).
@inline(__always)
func floorLog10OfPowerOfTwo(_ q: Int) -> Int {
    (q &* 661_971_961_083) >> 41
}

/// ⌊log10 (3/4 · 2^q)⌋ for |q| ≤ 1,100.
@inline(__always)
func floorLog10OfThreeQuartersPowerOfTwo(_ q: Int) -> Int {
    (q &* 661_971_961_083 &- 274_743_187_321) >> 41
}

/// ⌊log2 10^e⌋ for |e| ≤ 330.
@inline(__always)
func floorLog2OfPowerOfTen(_ e: Int) -> Int {
    (e &* 1_741_647) >> 19
}

/// Appends a finite number as Cadence's CSV and JSON output write it: a whole number below 10^15
/// without a fraction (`72`, and `0` for negative zero), any other as `description` spells it
/// (``appendShortestDecimal(_:to:)``).
///
/// - Complexity: O(1), with no allocation beyond the buffer's growth.
package func appendOutputNumber(_ value: Double, to bytes: inout [UInt8]) {
    appendWritten(to: &bytes) { writeOutputNumber(value, to: $0) }
}

/// Writes a number as ``appendOutputNumber(_:to:)`` appends it, at `buffer`, which must have room
/// for ``numberTextMaximumCount`` bytes: for output of many rows, formatted straight into memory.
///
/// - Returns: The number of bytes written.
/// - Complexity: O(1), with no allocation for finite values.
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
