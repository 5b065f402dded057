//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Testing

@testable import cadence

/// Table numbers are written as bytes into the output buffer: they must read exactly as the
/// string formatting they replaced, which is kept here as the naive reference.
@Suite("readable numbers")
struct ReadableNumberTests {
    /// The reference: fixed digits for the value's size as a string, trailing fraction zeros dropped.
    static func reference(_ value: Double) -> String {
        guard value.isFinite else { return "-" }
        let magnitude = abs(value)
        let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 0.1 || magnitude == 0 ? 2 : 4
        var text = NumberText.fixed(value, decimals: decimals)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    @Test("bytes match the string formatting for random values of every size and sign")
    func randomValues() {
        var generator = SeededRandom(seed: 16)
        var values: [Double] = [0, -0.0, 0.1, 0.09999, 0.05, -0.00004, 9.995, 99.95, 100, -100.5, 1e15, 9e15, 1.5e20,
                                -2.5e300, .infinity, -.infinity, .nan, 12.35, 0.000049, 0.00005]
        for _ in 0..<20_000 {
            let exponent = Double(generator.next() % 40) - 20
            let mantissa = Double(generator.next() % 1_000_000) / 100_000
            values.append((generator.next() & 1 == 0 ? 1 : -1) * mantissa * Double.pow10(exponent))
        }
        for value in values {
            var text = OutputText()
            NumberText.appendReadable(value, to: &text)
            #expect(text.string == Self.reference(value), "\(value)")
        }
    }
}

private extension Double {
    /// 10 to a whole power.
    static func pow10(_ exponent: Double) -> Double {
        var result = 1.0
        for _ in 0..<Int(abs(exponent)) { result *= 10 }
        return exponent < 0 ? 1 / result : result
    }
}
