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

    @Test("Random bit patterns, random magnitudes, ratios and integers match description")
    func randomValues() {
        var random = TimeTestSupport.SplitMix64(seed: 0x5EED_0D0B)
        var powers: [Double] = [1]
        for _ in 0..<20 { powers.append(powers[powers.count - 1] * 10) }
        for _ in 0..<200_000 {
            // Every bit pattern: subnormals, huge values, NaNs and infinities included.
            let any = Double(bitPattern: random.next())
            // Magnitudes from 10^-6 to 10^17, across the fast path's bounds.
            let exponent = Int.random(in: -6...17, using: &random)
            let scaled = Double.random(in: 1..<10, using: &random)
                * (exponent < 0 ? 1 / powers[-exponent] : powers[exponent])
            // Averages of whole numbers and values with few decimals, as statistics produce them.
            let ratio = Double(Int.random(in: -1_000_000...1_000_000, using: &random)) / Double(Int.random(in: 1...997, using: &random))
            let short = Double(Int.random(in: -99_999...99_999, using: &random)) / powers[Int.random(in: 0...6, using: &random)]
            for value in [any, scaled, -scaled, ratio, short] {
                #expect(Self.text(value) == value.description, "\(value.description)")
            }
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
