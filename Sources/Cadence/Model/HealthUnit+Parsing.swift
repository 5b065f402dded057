//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// One atom of the unit grammar: what it measures, its size in SI base units and its zero.
struct UnitAtom: Sendable {
    /// The dimension the atom measures.
    var dimension: UnitDimension
    /// The size of one of it in SI base units (kg, m, s, K, mol, A).
    var scale: UnitScale
    /// The value, in SI base units, of the atom's zero; nonzero only for `degC` and `degF`.
    var offset: Double = 0
    /// Whether the atom must be the whole unit (affine and logarithmic units).
    var standsAlone = false

    /// Creates an atom of size `factor × 10^powerOfTen` SI base units.
    init(
        _ dimension: UnitDimension, factor: Double = 1, powerOfTen: Int = 0, offset: Double = 0,
        standsAlone: Bool = false
    ) {
        self.dimension = dimension
        self.scale = UnitScale(factor: factor, powerOfTen: powerOfTen)
        self.offset = offset
        self.standsAlone = standsAlone
    }

    /// The atoms that take SI prefixes, by symbol.
    static let prefixable: [String: UnitAtom] = [
        "g": UnitAtom(mass, powerOfTen: -3),
        "m": UnitAtom(length),
        "L": UnitAtom(UnitDimension(length: 3), powerOfTen: -3),
        "s": UnitAtom(time),
        "J": UnitAtom(energy),
        "K": UnitAtom(temperature),
        "Pa": UnitAtom(pressure),
        "S": UnitAtom(UnitDimension(mass: -1, length: -2, time: 3, current: 2)),
        "Hz": UnitAtom(UnitDimension(time: -1)),
        "V": UnitAtom(UnitDimension(mass: 1, length: 2, time: -3, current: -1)),
        "W": UnitAtom(UnitDimension(mass: 1, length: 2, time: -3)),
        "mol": UnitAtom(UnitDimension(amount: 1)),
    ]

    /// The atoms that take no prefix, by symbol, with HealthKit's constants.
    static let unprefixable: [String: UnitAtom] = [
        "oz": UnitAtom(mass, factor: 283_495, powerOfTen: -7),
        "lb": UnitAtom(mass, factor: 453_592, powerOfTen: -6),
        "st": UnitAtom(mass, factor: 14 * 453_592, powerOfTen: -6),
        "in": UnitAtom(length, factor: 254, powerOfTen: -4),
        "ft": UnitAtom(length, factor: 3048, powerOfTen: -4),
        "yd": UnitAtom(length, factor: 9144, powerOfTen: -4),
        "mi": UnitAtom(length, factor: 160_934, powerOfTen: -2),
        "min": UnitAtom(time, factor: 60),
        "hr": UnitAtom(time, factor: 3600),
        "d": UnitAtom(time, factor: 86_400),
        "cal": UnitAtom(energy, factor: 4184, powerOfTen: -3),
        "kcal": UnitAtom(energy, factor: 4184),
        "Cal": UnitAtom(energy, factor: 4184),
        "degC": UnitAtom(temperature, offset: 273.15, standsAlone: true),
        "degF": UnitAtom(temperature, factor: 5.0 / 9.0, offset: 273.15 - 160.0 / 9.0, standsAlone: true),
        "mmHg": UnitAtom(pressure, factor: 1_333_224, powerOfTen: -4),
        "cmAq": UnitAtom(pressure, factor: 980_665, powerOfTen: -4),
        "atm": UnitAtom(pressure, factor: 101_325),
        "inHg": UnitAtom(pressure, factor: 338_639, powerOfTen: -2),
        "count": UnitAtom(UnitDimension()),
        "%": UnitAtom(UnitDimension()),
        "dBASPL": UnitAtom(UnitDimension(soundPressureLevel: 1), standsAlone: true),
        "IU": UnitAtom(UnitDimension(internationalUnits: 1)),
        // Apple's 1–10 workout effort rating, a scale of its own: convertible only to itself.
        "appleEffortScore": UnitAtom(UnitDimension(effortScore: 1)),
    ]

    /// The SI prefixes and their decimal exponents, longest symbol first.
    static let prefixes: [(symbol: String, powerOfTen: Int)] = [
        ("da", 1), ("mc", -6), ("h", 2), ("k", 3), ("M", 6), ("G", 9), ("T", 12),
        ("d", -1), ("c", -2), ("m", -3), ("n", -9), ("p", -12), ("f", -15),
    ]

    /// The dimension of mass.
    static let mass = UnitDimension(mass: 1)
    /// The dimension of length.
    private static let length = UnitDimension(length: 1)
    /// The dimension of time.
    private static let time = UnitDimension(time: 1)
    /// The dimension of temperature.
    private static let temperature = UnitDimension(temperature: 1)
    /// The dimension of energy, kg·m²/s².
    private static let energy = UnitDimension(mass: 1, length: 2, time: -2)
    /// The dimension of pressure, kg/(m·s²).
    private static let pressure = UnitDimension(mass: 1, length: -1, time: -2)
}

/// A recursive-descent parser for HealthKit's unit grammar.
///
///     unit    := product ( "/" product )?
///     product := factor ( ( "." | "*" | "·" ) factor )*
///     factor  := ( atom | "(" unit ")" ) ( "^" integer )?
///     atom    := prefix? symbol ( "<" molar-mass ">" )?
struct UnitParser {
    /// One atom of the parsed string, raised to a power.
    private struct Factor {
        /// The atom as written in normalized form, such as `mg` or `mmol<180.1558>`.
        var symbol: String
        /// The atom with its prefix (and molar mass) applied.
        var atom: UnitAtom
        /// The power the atom is raised to; negative in a denominator.
        var exponent: Int
    }

    /// The longest unit string accepted, in Unicode scalars.
    private static let maximumLength = 256
    /// The largest power any atom may end up raised to.
    private static let maximumExponent = 99

    /// The string as the caller passed it, for error messages.
    private let source: String
    /// The trimmed string being parsed.
    private let scalars: [Unicode.Scalar]
    /// The index of the next scalar to read.
    private var position = 0
    /// The atoms read so far, in order.
    private var factors: [Factor] = []

    /// Creates a parser over the given string.
    private init(source: String, scalars: [Unicode.Scalar]) {
        self.source = source
        self.scalars = scalars
    }

    /// Parses and resolves a unit string.
    ///
    /// - Throws: ``CadenceError`` with code ``CadenceError/Code/unknownUnit`` naming the string
    ///   and what is wrong with it.
    static func parse(_ string: String) throws -> HealthUnit {
        let trimmed = string.trimmingCharacters(in: .whitespacesAndNewlines)
        var parser = UnitParser(source: string, scalars: Array(trimmed.unicodeScalars))
        guard !trimmed.isEmpty else { throw parser.failure("the unit string is empty") }
        guard parser.scalars.count <= maximumLength else {
            throw parser.failure("it is longer than \(maximumLength) characters")
        }
        try parser.parseUnit()
        if let next = parser.next {
            throw parser.failure(next == ")" ? "it has an unmatched ')'" : parser.unexpected(next))
        }
        return try parser.resolve()
    }

    /// The next scalar, if any.
    private var next: Unicode.Scalar? {
        position < scalars.count ? scalars[position] : nil
    }

    /// An unknown-unit error naming the source string and the reason.
    private func failure(_ reason: String) -> CadenceError {
        CadenceError(.unknownUnit, "invalid unit \"\(source)\": \(reason)")
    }

    /// The reason for meeting an unexpected scalar at the current position.
    private func unexpected(_ scalar: Unicode.Scalar) -> String {
        "unexpected '\(scalar)' at position \(position + 1)"
    }

    /// Parses `product ("/" product)?`, turning the denominator's exponents negative.
    private mutating func parseUnit() throws {
        try parseProduct()
        guard next == "/" else { return }
        position += 1
        let denominatorStart = factors.count
        try parseProduct()
        for index in denominatorStart..<factors.count { factors[index].exponent.negate() }
        if next == "/" {
            throw failure(
                "only one '/' is allowed; everything after it is the denominator (write m/s^2, not m/s/s)")
        }
    }

    /// Parses factors joined by `.`, `*` or `·`.
    private mutating func parseProduct() throws {
        try parseFactor()
        while let scalar = next, scalar == "." || scalar == "*" || scalar == "·" {
            position += 1
            try parseFactor()
        }
    }

    /// Parses an atom or a parenthesized unit, with an optional `^` power.
    private mutating func parseFactor() throws {
        let start = factors.count
        if next == "(" {
            position += 1
            try parseUnit()
            guard next == ")" else {
                throw failure(next.map { unexpected($0) } ?? "it is missing a ')'")
            }
            position += 1
        } else {
            try parseAtom()
        }
        guard next == "^" else { return }
        position += 1
        let power = try parseExponent()
        for index in start..<factors.count {
            let exponent = factors[index].exponent * power
            guard abs(exponent) <= UnitParser.maximumExponent else {
                throw failure("the power of \(factors[index].symbol) exceeds \(UnitParser.maximumExponent)")
            }
            factors[index].exponent = exponent
        }
    }

    /// Parses the signed, nonzero integer after a `^`.
    private mutating func parseExponent() throws -> Int {
        var sign = 1
        if next == "-" || next == "+" {
            sign = next == "-" ? -1 : 1
            position += 1
        }
        var magnitude = 0
        var digits = 0
        while let scalar = next, ("0"..."9").contains(scalar) {
            magnitude = magnitude * 10 + Int(scalar.value - 48)
            digits += 1
            position += 1
            guard magnitude <= UnitParser.maximumExponent else {
                throw failure("the power exceeds \(UnitParser.maximumExponent)")
            }
        }
        guard digits > 0 else { throw failure("'^' must be followed by an integer power") }
        guard magnitude != 0 else { throw failure("a power must not be zero") }
        return sign * magnitude
    }

    /// Parses a symbol (with an optional prefix and molar mass) and appends it as a factor.
    private mutating func parseAtom() throws {
        var word = ""
        if next == "%" {
            word = "%"
            position += 1
        }
        while word != "%", let scalar = next, UnitParser.isLetter(scalar) {
            word.unicodeScalars.append(scalar)
            position += 1
        }
        guard !word.isEmpty else {
            throw failure(next.map { "expected a unit symbol but found '\($0)' at position \(position + 1)" }
                ?? "it ends where a unit symbol is expected")
        }
        var molarMass: Double?
        if next == "<" {
            position += 1
            var text = ""
            while let scalar = next, scalar != ">" {
                text.unicodeScalars.append(scalar)
                position += 1
            }
            guard next == ">" else { throw failure("the molar mass after \(word) is missing its '>'") }
            position += 1
            guard let value = Double(text), value.isFinite, value > 0 else {
                throw failure("\"\(text)\" is not a positive molar mass in g/mol")
            }
            molarMass = value
        }
        factors.append(try UnitParser.lookUp(word, molarMass: molarMass, parser: self))
    }

    /// Whether a scalar can be part of a unit symbol: an ASCII letter or the micro sign.
    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "µ" || scalar == "μ"
    }

    /// Resolves a written symbol: a non-SI atom first, then a prefix and an SI atom, then a bare SI atom.
    private static func lookUp(_ word: String, molarMass: Double?, parser: UnitParser) throws -> Factor {
        var name = word
        if let first = name.unicodeScalars.first, first == "µ" || first == "μ" {
            name = "mc" + String(name.unicodeScalars.dropFirst())
        }
        var prefixPower = 0
        var atomSymbol = name
        var found = UnitAtom.unprefixable[name]
        if found == nil {
            for prefix in UnitAtom.prefixes where name.hasPrefix(prefix.symbol) {
                let rest = String(name.dropFirst(prefix.symbol.count))
                if let atom = UnitAtom.prefixable[rest] {
                    (found, prefixPower, atomSymbol) = (atom, prefix.powerOfTen, rest)
                    break
                }
            }
        }
        guard var atom = found ?? UnitAtom.prefixable[name] else {
            throw parser.failure("\"\(word)\" is not a known unit symbol")
        }
        var symbol = name
        if let molarMass {
            guard atomSymbol == "mol" else {
                throw parser.failure("a molar mass in <…> may follow only mol, not \(word)")
            }
            // A mole of a substance with molar mass M weighs M grams, so it converts to mass.
            atom = UnitAtom(UnitAtom.mass, factor: molarMass, powerOfTen: -3)
            let integral = molarMass == molarMass.rounded() && molarMass < 1e15
            symbol += "<" + (integral ? String(Int64(molarMass)) : String(molarMass)) + ">"
        }
        atom.scale.powerOfTen += prefixPower
        return Factor(symbol: symbol, atom: atom, exponent: 1)
    }

    /// Checks the parsed factors, merges repeated atoms and builds the unit with its normalized string.
    private func resolve() throws -> HealthUnit {
        if let alone = factors.first(where: { $0.atom.standsAlone }),
            factors.count != 1 || alone.exponent != 1
        {
            throw failure(
                "\(alone.symbol) must stand alone; it cannot be combined with other units or raised to a power")
        }
        var merged: [Factor] = []
        for factor in factors.sorted(by: { $0.symbol < $1.symbol }) {
            if let last = merged.last, last.symbol == factor.symbol {
                merged[merged.count - 1].exponent += factor.exponent
            } else {
                merged.append(factor)
            }
        }
        merged.removeAll { $0.exponent == 0 }
        guard !merged.isEmpty else {
            throw failure("its units cancel out; write count for a dimensionless number")
        }
        var dimension = UnitDimension()
        var scale = UnitScale()
        for factor in merged {
            guard abs(factor.exponent) <= UnitParser.maximumExponent else {
                throw failure("the power of \(factor.symbol) exceeds \(UnitParser.maximumExponent)")
            }
            dimension.exponents &+= factor.atom.dimension.exponents &* Int16(factor.exponent)
            scale.factor *= Foundation.pow(factor.atom.scale.factor, Double(factor.exponent))
            scale.powerOfTen += factor.atom.scale.powerOfTen * factor.exponent
        }
        guard scale.factor.isNormal, scale.factor > 0, abs(scale.powerOfTen) <= 300 else {
            throw failure("its magnitude is too large or too small to represent")
        }
        let numerator = merged.filter { $0.exponent > 0 }
        let denominator = merged.filter { $0.exponent < 0 }
        func written(_ factors: [Factor], negated: Bool) -> String {
            factors.map { factor in
                let exponent = negated ? -factor.exponent : factor.exponent
                return exponent == 1 ? factor.symbol : "\(factor.symbol)^\(exponent)"
            }.joined(separator: "·")
        }
        let unitString: String
        if numerator.isEmpty {
            unitString = written(denominator, negated: false)
        } else if denominator.isEmpty {
            unitString = written(numerator, negated: false)
        } else {
            unitString = written(numerator, negated: false) + "/" + written(denominator, negated: true)
        }
        let offset = merged.count == 1 ? merged[0].atom.offset : 0
        return HealthUnit(unitString: unitString, dimension: dimension, scale: scale, offset: offset)
    }
}
