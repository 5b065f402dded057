//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// The output's number text against `Double.description`, which it must match byte for byte.
@Suite("Shortest decimal text")
struct ShortestDecimalTests {
    static func text(_ value: Double) -> String {
        var bytes: [UInt8] = []
        appendShortestDecimal(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func outputText(_ value: Double) -> String {
        var bytes: [UInt8] = []
        appendOutputNumber(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Values at the edges of the fast path and of `description`'s notations.
    static let edges: [Double] = [
        0, -0.0, 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 0.5, 1.5, 2.5, 71.16666666666667, 599.9999, 875719989282.3323,
        0.0001, 0.0001.nextUp, 0.0001.nextDown, 9.999e-5, 1e-5, 0x1p52 - 0.5, 0x1p52, 0x1p52.nextDown, 0x1p53,
        4503599627370495.5, 1e15, 1e15 + 0.5, 1e16, 1e300, -1e300, 1e-300, -1e-300, 1e22, 1e23,
        .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, .leastNormalMagnitude.nextDown,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity, .nan,
        0x1p-1, 0x1p-13, 0x1p-14, 0x1p40 + 0x1p-12, 12345.678, 0.000123456789012345678,
    ]

    @Test("Edge values are written as description writes them")
    func edgeValues() {
        for value in Self.edges + Self.edges.map({ -$0 }) {
            #expect(Self.text(value) == value.description, "\(value.description)")
        }
    }

    /// How many random values of each kind ``randomValues()`` checks: 200,000 by default, more
    /// through `CADENCE_SHORTEST_DECIMAL_COUNT` for a long run.
    static let randomCount = ProcessInfo.processInfo.environment["CADENCE_SHORTEST_DECIMAL_COUNT"].flatMap(Int.init) ?? 200_000

    @Test("Random bit patterns, random magnitudes, ratios and integers match description")
    func randomValues() {
        var random = TimeTestSupport.SplitMix64(seed: 0x5EED_0D0B)
        var powers: [Double] = [1]
        for _ in 0..<20 { powers.append(powers[powers.count - 1] * 10) }
        var mismatches = 0
        for _ in 0..<Self.randomCount {
            // Every bit pattern: subnormals, huge values, NaNs and infinities included.
            let any = Double(bitPattern: random.next())
            // Magnitudes from 10^-6 to 10^17, across the notations' bounds.
            let exponent = Int.random(in: -6...17, using: &random)
            let scaled = Double.random(in: 1..<10, using: &random)
                * (exponent < 0 ? 1 / powers[-exponent] : powers[exponent])
            // Averages of whole numbers and values with few decimals, as statistics produce them.
            let ratio = Double(Int.random(in: -1_000_000...1_000_000, using: &random)) / Double(Int.random(in: 1...997, using: &random))
            let short = Double(Int.random(in: -99_999...99_999, using: &random)) / powers[Int.random(in: 0...6, using: &random)]
            // Subnormals: the least significands, whose intervals hold the fewest digits.
            let subnormal = Double(bitPattern: random.next() & ((1 << 52) - 1))
            for value in [any, scaled, -scaled, ratio, short, subnormal] where Self.text(value) != value.description {
                mismatches += 1
                if mismatches <= 20 { Issue.record("\(value.description): \(Self.text(value))") }
            }
        }
        #expect(mismatches == 0)
    }

    /// Powers of two (whose neighbour below is nearer than the one above), the least subnormals,
    /// whole numbers around 2^53 and the neighbours of every power of ten.
    static var edgeFamilies: [Double] {
        var values: [Double] = []
        for exponent in -1_074...1_023 { values.append(Double(sign: .plus, exponent: exponent, significand: 1)) }
        for significand: UInt64 in 1...3_000 { values.append(Double(bitPattern: significand)) }
        for significand: UInt64 in (1 << 52) - 1_000...(1 << 52) + 1_000 { values.append(Double(bitPattern: significand)) }
        for offset in -2_000...2_000 {
            values.append(0x1p53 + Double(offset) * 2)
            values.append(0x1p52 + Double(offset) / 2)
            values.append(1e15 + Double(offset) / 8)
        }
        for exponent in -323...308 {
            let power = Double("1e\(exponent)") ?? 0
            values += [power, power.nextUp, power.nextDown, power.nextUp.nextUp, power.nextDown.nextDown]
        }
        return values.filter(\.isFinite)
    }

    @Test("Powers of two, subnormals, whole numbers near 2^53 and neighbours of powers of ten match description")
    func edgeFamilyValues() {
        var mismatches = 0
        for value in Self.edgeFamilies + Self.edgeFamilies.map({ -$0 }) where Self.text(value) != value.description {
            mismatches += 1
            if mismatches <= 20 { Issue.record("\(value.description): \(Self.text(value))") }
        }
        #expect(mismatches == 0)
    }

    @Test("The logarithm approximations are exact over the exponents a Double needs")
    func logarithms() {
        // Within 10^-9 of a whole number the floating-point logarithm could round across it;
        // none of these exponents comes that close (but 0, whose logarithm is exact).
        func exactFloor(_ logarithm: Double) -> Int? {
            let floor = logarithm.rounded(.down)
            let nearest = logarithm.rounded()
            return logarithm == nearest || abs(logarithm - nearest) > 1e-9 ? Int(floor) : nil
        }
        for q in -1_100...1_100 {
            #expect(exactFloor(Double(q) * log10(2.0)) == floorLog10OfPowerOfTwo(q), "2^\(q)")
            #expect(exactFloor(Double(q) * log10(2.0) + log10(0.75)) == floorLog10OfThreeQuartersPowerOfTwo(q), "3/4 · 2^\(q)")
        }
        for e in -330...330 {
            #expect(exactFloor(Double(e) * log2(10.0)) == floorLog2OfPowerOfTen(e), "10^\(e)")
        }
    }

    @Test("Eight digits at once: every lane split matches the zero-padded decimal")
    func eightDigitWords() {
        var random = TimeTestSupport.SplitMix64(seed: 8)
        let edges: [UInt64] = [0, 1, 9, 10, 99, 100, 999, 1_000, 9_999, 10_000, 99_999_999, 12_345_678, 10_000_001]
        for value in edges + (0..<100_000).map({ _ in random.next() % 100_000_000 }) {
            var word = eightDigits(value)
            let text = withUnsafeBytes(of: &word) { String(decoding: $0, as: UTF8.self) }
            let plain = String(value)
            #expect(text == String(repeating: "0", count: 8 - plain.count) + plain)
        }
    }

    @Test("Each power of ten in the table is the leading 126 bits of 10^e, rounded up")
    func powerTable() {
        let count = decimalPowers.count / 2
        #expect(decimalPowers.count == 2 * 617)
        for index in 0..<count {
            let e = decimalPowersMinimumExponent + index
            let g = BigNatural(high: decimalPowers[2 * index], low: decimalPowers[2 * index + 1])
            let r = floorLog2OfPowerOfTen(e)
            // g − 1 ≤ 10^e · 2^(125 − r) < g, each side made whole: numerator / denominator.
            var numerator = BigNatural.power(10, Swift.max(e, 0))
            var denominator = BigNatural.power(10, Swift.max(-e, 0))
            if 125 - r >= 0 { numerator = numerator.shifted(125 - r) } else { denominator = denominator.shifted(r - 125) }
            let below = g.minusOne.times(denominator)
            let above = g.times(denominator)
            #expect(below <= numerator && numerator < above, "10^\(e)")
            #expect(g < BigNatural.power(2, 126) && BigNatural.power(2, 125) < g, "10^\(e)")
        }
    }

    @Test("Output numbers: whole ones below 10^15 as integers, the rest as description")
    func outputNumbers() {
        var random = TimeTestSupport.SplitMix64(seed: 42)
        var values = Self.edges.filter(\.isFinite)
        for _ in 0..<50_000 {
            values.append(Double(Int64.random(in: -999_999_999_999_999...999_999_999_999_999, using: &random)))
            values.append(Double(Int.random(in: -100...100, using: &random)))
            values.append(Double.random(in: -1e6...1e6, using: &random))
        }
        for value in values {
            let expected = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : value.description
            #expect(Self.outputText(value) == expected, "\(value.description)")
        }
    }

    @Test("Direct writes: the rule for output numbers, within the bound, for every kind of finite value")
    func directWrites() {
        var random = TimeTestSupport.SplitMix64(seed: 0xB0B)
        var values = Self.edges.filter(\.isFinite) + [1e308, -1e308, 0x1p-1074, 0x1p-1022, 0x1p-1022.nextDown, 1e15.nextDown]
        for _ in 0..<100_000 {
            values.append(Double(bitPattern: random.next()))
            values.append(Double(Int64.random(in: -999_999_999_999_999...999_999_999_999_999, using: &random)))
            values.append(Double(Int.random(in: 1...500_000, using: &random)) / Double(Int.random(in: 1...480, using: &random)))
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: numberTextMaximumCount) { scratch in
            for value in values where value.isFinite {
                let count = writeOutputNumber(value, to: scratch.baseAddress!)
                let text = String(decoding: UnsafeBufferPointer(rebasing: scratch[..<count]), as: UTF8.self)
                let expected = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : value.description
                #expect(text == expected, "\(value.description)")
                #expect(value.description.utf8.count <= 24, "\(value.description)")
            }
        }
    }
}

/// A natural number of any size, as little-endian 32-bit limbs: the exact reference the table and
/// the logarithm approximations are checked against.
struct BigNatural: Comparable {
    var limbs: [UInt32]

    init(limbs: [UInt32]) {
        var trimmed = limbs
        while trimmed.count > 1 && trimmed.last == 0 { trimmed.removeLast() }
        self.limbs = trimmed.isEmpty ? [0] : trimmed
    }

    init(high: UInt64, low: UInt64) {
        self.init(limbs: [UInt32(truncatingIfNeeded: low), UInt32(truncatingIfNeeded: low >> 32),
                          UInt32(truncatingIfNeeded: high), UInt32(truncatingIfNeeded: high >> 32)])
    }

    static func power(_ base: UInt32, _ exponent: Int) -> BigNatural {
        if base == 2 { return BigNatural(limbs: [1]).shifted(exponent) }
        var result = BigNatural(limbs: [1])
        for _ in 0..<exponent { result = result.times(base) }
        return result
    }

    func times(_ factor: UInt32) -> BigNatural {
        var carry: UInt64 = 0
        var result: [UInt32] = []
        for limb in limbs {
            let product = UInt64(limb) * UInt64(factor) + carry
            result.append(UInt32(truncatingIfNeeded: product))
            carry = product >> 32
        }
        result.append(UInt32(carry))
        return BigNatural(limbs: result)
    }

    func times(_ other: BigNatural) -> BigNatural {
        var result = [UInt32](repeating: 0, count: limbs.count + other.limbs.count + 1)
        for (i, a) in limbs.enumerated() {
            var carry: UInt64 = 0
            for (j, b) in other.limbs.enumerated() {
                let sum = UInt64(a) * UInt64(b) + UInt64(result[i + j]) + carry
                result[i + j] = UInt32(truncatingIfNeeded: sum)
                carry = sum >> 32
            }
            var position = i + other.limbs.count
            while carry > 0 {
                let sum = UInt64(result[position]) + carry
                result[position] = UInt32(truncatingIfNeeded: sum)
                carry = sum >> 32
                position += 1
            }
        }
        return BigNatural(limbs: result)
    }

    /// Times 2^bits.
    func shifted(_ bits: Int) -> BigNatural {
        var result = [UInt32](repeating: 0, count: bits / 32) + limbs + [0]
        let rest = bits % 32
        guard rest > 0 else { return BigNatural(limbs: result) }
        var carry: UInt32 = 0
        for index in (bits / 32)..<result.count {
            let limb = result[index]
            result[index] = limb << UInt32(rest) | carry
            carry = limb >> UInt32(32 - rest)
        }
        return BigNatural(limbs: result)
    }

    /// One less (of a number above zero).
    var minusOne: BigNatural {
        var result = limbs
        var index = 0
        while result[index] == 0 {
            result[index] = UInt32.max
            index += 1
        }
        result[index] -= 1
        return BigNatural(limbs: result)
    }

    static func < (left: BigNatural, right: BigNatural) -> Bool {
        if left.limbs.count != right.limbs.count { return left.limbs.count < right.limbs.count }
        for index in stride(from: left.limbs.count - 1, through: 0, by: -1) where left.limbs[index] != right.limbs[index] {
            return left.limbs[index] < right.limbs[index]
        }
        return false
    }
}
