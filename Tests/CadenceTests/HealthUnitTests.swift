//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import Cadence

/// Whether two values agree to within a relative (or, near zero, absolute) tolerance.
private func isClose(_ actual: Double, _ expected: Double, tolerance: Double = 1e-12) -> Bool {
    abs(actual - expected) <= tolerance * max(1, abs(expected))
}

@Suite("HealthUnit")
struct HealthUnitTests {
    /// How many of `to` make one `from`, for every atom and prefixed atom of the grammar.
    @Test(
        "Every atom and prefixed atom parses to the right size",
        arguments: [
            // SI atoms, bare, against a prefixed form.
            ("g", "mg", 1000.0), ("m", "cm", 100), ("L", "mL", 1000), ("s", "ms", 1000),
            ("J", "kJ", 0.001), ("K", "mK", 1000), ("Pa", "kPa", 0.001), ("S", "mS", 1000),
            ("Hz", "kHz", 0.001), ("V", "mV", 1000), ("W", "kW", 0.001), ("mol", "mmol", 1000),
            // Every prefix, on the gram.
            ("dag", "g", 10), ("hg", "g", 100), ("kg", "g", 1000), ("Mg", "g", 1e6), ("Gg", "g", 1e9),
            ("Tg", "g", 1e12), ("dg", "g", 0.1), ("cg", "g", 0.01), ("mg", "g", 1e-3),
            ("mcg", "g", 1e-6), ("ng", "g", 1e-9), ("pg", "g", 1e-12), ("fg", "g", 1e-15),
            // The micro sign (U+00B5) and the Greek mu (U+03BC) both mean mc.
            ("µg", "mcg", 1), ("μL", "L", 1e-6),
            // Prefixes on the other SI atoms; dL is deci-liter, fL femto-liter, dam deca-meter.
            ("dL", "L", 0.1), ("fL", "L", 1e-15), ("km", "m", 1000), ("dam", "m", 10), ("mm", "m", 1e-3),
            ("ns", "s", 1e-9), ("hPa", "Pa", 100), ("MJ", "J", 1e6), ("GW", "W", 1e9), ("THz", "Hz", 1e12),
            ("mcmol", "mol", 1e-6), ("nmol", "mol", 1e-9), ("pmol", "mol", 1e-12),
            // Non-SI atoms with HealthKit's constants.
            ("oz", "g", 28.3495), ("lb", "g", 453.592), ("st", "lb", 14), ("in", "m", 0.0254),
            ("ft", "m", 0.3048), ("yd", "m", 0.9144), ("mi", "m", 1609.34), ("min", "s", 60),
            ("hr", "s", 3600), ("d", "s", 86400), ("cal", "J", 4.184), ("kcal", "J", 4184),
            ("Cal", "kcal", 1), ("mmHg", "Pa", 133.3224), ("cmAq", "Pa", 98.0665),
            ("atm", "Pa", 101325), ("inHg", "Pa", 3386.39),
            // Dimensionless and pseudo-dimensional atoms.
            ("count", "%", 1), ("%", "count", 1), ("dBASPL", "dBASPL", 1), ("IU", "IU", 1),
            ("appleEffortScore", "appleEffortScore", 1),
            // Units of the newer HealthKit types: microsiemens, METs, flow rate.
            ("mcS", "S", 1e-6), ("kcal/(kg*hr)", "kcal/hr·kg", 1), ("L/min", "mL/s", 1000.0 / 60),
            // Derived SI units against their definitions.
            ("J", "kg·m^2/s^2", 1), ("W", "J/s", 1), ("Pa", "kg/m·s^2", 1), ("Hz", "count/s", 1),
            ("L", "dm^3", 1), ("mL", "cm^3", 1), ("S·V", "W/V", 1), ("kcal/hr", "W", 4184.0 / 3600),
        ] as [(String, String, Double)])
    func atomSizes(from: String, to: String, factor: Double) throws {
        let converted = try HealthUnit(from).convert(1, to: HealthUnit(to))
        #expect(isClose(converted, factor), "1 \(from) = \(converted) \(to), expected \(factor)")
    }

    /// The normalized unit string for each input, and that it parses back to an equal unit.
    @Test(
        "Unit strings normalize and round-trip",
        arguments: [
            ("count/min", "count/min"),                  // already normal
            ("mL/kg·min", "mL/kg·min"),                  // the VO₂ max spelling Cadence uses
            ("mL/min·kg", "mL/kg·min"),                  // HealthKit's spelling; factors sort
            ("mL/(kg*min)", "mL/kg·min"),                // parentheses and * flatten to ·
            ("mL/kg.min", "mL/kg·min"),                  // . is multiplication too
            ("mL/(kg/min)", "mL·min/kg"),                // a denominator's denominator moves up
            ("(m/s)^2", "m^2/s^2"),                      // a power applies to a whole group
            ("m·m", "m^2"),                              // repeated atoms merge
            ("m^3/m", "m^2"),                            // and cancel
            ("m^-1", "m^-1"),                            // a lone negative power stays written so
            ("s^-1/m", "m^-1·s^-1"),                     // no numerator: negative powers
            ("m^+2", "m^2"),                             // an explicit plus sign
            ("µg", "mcg"),                               // micro is spelled mc
            ("  kg ", "kg"),                             // surrounding white space is ignored
            ("mol<180.1558>", "mol<180.1558>"),          // molar mass kept
            ("mmol<180.15580>/L", "mmol<180.1558>/L"),   // trailing zero dropped
            ("mol<18>", "mol<18>"),                      // integral molar mass written without .0
            ("degC", "degC"),                            // affine unit alone
            ("(degC)", "degC"),                          // parentheses around it are harmless
            ("%", "%"),                                  // percent
            ("dBASPL", "dBASPL"),                        // sound pressure level
        ])
    func normalization(input: String, expected: String) throws {
        let unit = try HealthUnit(input)
        #expect(unit.unitString == expected)
        #expect(unit.description == expected)
        let reparsed = try HealthUnit(unit.unitString)
        #expect(reparsed == unit)
        #expect(reparsed.unitString == expected)
        #expect(try unit.convert(1, to: reparsed) == 1)
    }

    /// HealthKit's constants and the conversions the rest of Cadence relies on.
    @Test(
        "Constants and conversions",
        arguments: [
            (1, "mi", "m", 1609.34, 1e-12),                          // mile
            (1, "lb", "kg", 0.453592, 1e-12),                        // pound
            (1, "st", "kg", 6.350288, 1e-12),                        // stone = 14 lb
            (1, "oz", "g", 28.3495, 1e-12),                          // ounce
            (1, "kcal", "J", 4184, 1e-12),                           // kilocalorie
            (1, "Cal", "kcal", 1, 1e-12),                            // food calorie
            (1, "cal", "J", 4.184, 1e-12),                           // calorie
            (98.6, "degF", "degC", 37, 1e-9),                        // body temperature
            (37, "degC", "degF", 98.6, 1e-9),                        // and back
            (0, "degC", "K", 273.15, 1e-12),                         // freezing point in kelvin
            (273.15, "K", "degC", 0, 1e-12),                         // and back
            (-40, "degF", "degC", -40, 1e-9),                        // the scales cross at -40
            (32, "degF", "K", 273.15, 1e-12),                        // Fahrenheit to kelvin
            (1, "mmHg", "Pa", 133.3224, 1e-12),                      // blood pressure
            (1, "mmHg", "kPa", 0.1333224, 1e-12),                    // in kilopascals
            (1, "atm", "mmHg", 101325 / 133.3224, 1e-12),            // atmosphere
            (100, "mg/dL", "mmol<180.1558>/L", 100 / 18.01558, 1e-12), // blood glucose
            (5.5, "mmol<180.1558>/L", "mg/dL", 5.5 * 18.01558, 1e-12), // and back
            (1, "mol<180.1558>", "g", 180.1558, 1e-12),              // a mole weighs its molar mass
            (1, "mcg", "mg", 0.001, 1e-12),                          // microgram
            (60, "count/min", "Hz", 1, 1e-12),                       // heart rate
            (1, "Hz", "count/min", 60, 1e-12),                       // and back
            (1, "mL/kg·min", "mL/(kg*min)", 1, 0),                   // VO₂ max spellings agree
            (1, "mL/min·kg", "L/kg·hr", 0.06, 1e-12),                // VO₂ max in other units
            (0.161, "%", "count", 0.161, 0),                         // percent stores a fraction
            (1, "m/s", "km/hr", 3.6, 1e-12),                         // speed
            (1, "min", "ms", 60_000, 1e-12),                         // minute in milliseconds
            (1, "d", "hr", 24, 1e-12),                               // day
            (1, "dL", "mL", 100, 1e-12),                             // deciliter
            (1, "ft", "in", 12, 1e-12),                              // foot
            (1, "yd", "ft", 3, 1e-12),                               // yard
            (1, "kcal/hr·kg", "W/kg", 4184.0 / 3600, 1e-12),         // metabolic rate
            (70, "dBASPL", "dBASPL", 70, 0),                         // sound level to itself
        ] as [(Double, String, String, Double, Double)])
    func conversions(
        value: Double, from: String, to: String, expected: Double, tolerance: Double
    ) throws {
        let converted = try HealthUnit(from).convert(value, to: HealthUnit(to))
        #expect(isClose(converted, expected, tolerance: tolerance), "\(value) \(from) = \(converted) \(to)")
    }

    /// Pairs of units that measure different dimensions.
    @Test(
        "Incompatible conversions throw incompatibleUnits",
        arguments: [
            ("km", "kg"),              // length vs mass
            ("degC", "m"),             // temperature vs length
            ("K", "K^2"),              // different powers
            ("count", "m"),            // dimensionless vs length
            ("count/min", "count"),    // frequency vs dimensionless
            ("%", "Hz"),               // dimensionless vs frequency
            ("dBASPL", "count"),       // sound pressure level is its own dimension
            ("IU", "g"),               // so is the international unit
            ("appleEffortScore", "count"), // and Apple's effort score
            ("appleEffortScore", "IU"),    // which is not the international unit either
            ("mol", "g"),              // a mole without molar mass is an amount, not a mass
            ("mg/dL", "mmol/L"),       // so glucose needs the molar mass
            ("J", "W"),                // energy vs power
            ("L", "m^2"),              // volume vs area
        ])
    func incompatible(from: String, to: String) throws {
        let source = try HealthUnit(from)
        let target = try HealthUnit(to)
        #expect(!source.isCompatible(with: target))
        let error = #expect(throws: CadenceError.self) { try source.convert(1, to: target) }
        #expect(error?.code == .incompatibleUnits)
        #expect(error?.message.hasPrefix("cannot convert \(source) to \(target)") == true)
        #expect(throws: CadenceError.self) { try source.conversion(to: target) }
    }

    /// Pairs of units that measure the same dimension.
    @Test(
        "Compatible units",
        arguments: [
            ("km", "mi"), ("degC", "degF"), ("degF", "K"), ("count", "%"), ("count/min", "Hz"),
            ("mg/dL", "mmol<180.1558>/L"), ("mol<18>", "kg"), ("Cal", "kJ"), ("mL/kg·min", "L/kg·s"),
            ("mmHg", "cmAq"), ("dBASPL", "dBASPL"), ("IU", "IU"), ("mm/m", "count"),
        ])
    func compatible(first: String, second: String) throws {
        let unit = try HealthUnit(first)
        let other = try HealthUnit(second)
        #expect(unit.isCompatible(with: other))
        #expect(other.isCompatible(with: unit))
        let there = try unit.convert(3.25, to: other)
        #expect(isClose(try other.convert(there, to: unit), 3.25))
    }

    /// Strings that do not follow the grammar, each with a phrase its message must contain.
    @Test(
        "Malformed unit strings throw unknownUnit",
        arguments: [
            ("", "empty"),                               // nothing at all
            ("   ", "empty"),                            // only white space
            ("kgg", "\"kgg\" is not a known unit"),      // no such atom
            ("foo", "\"foo\" is not a known unit"),      // no such atom
            ("m/s/s", "only one '/'"),                   // a second slash
            ("m/(s/s)/s", "only one '/'"),               // a second slash after a group
            ("m^", "integer power"),                     // a power without digits
            ("m^x", "integer power"),                    // a power that is not a number
            ("m^0", "must not be zero"),                 // a zero power
            ("m^1000", "exceeds"),                       // an absurd power
            ("(m^50)^3", "exceeds"),                     // a power that grows too large through a group
            ("(m", "missing a ')'"),                     // an unclosed parenthesis
            ("m)", "unmatched ')'"),                     // an unopened parenthesis
            ("(m s)", "unexpected ' '"),                 // white space inside a group
            ("m s", "unexpected ' '"),                   // white space between atoms
            ("/s", "expected a unit symbol"),            // an empty numerator
            ("m/", "ends where a unit symbol"),          // an empty denominator
            ("m..s", "expected a unit symbol"),          // two operators in a row
            ("m^2^2", "unexpected '^'"),                 // a power of a power
            ("degC/min", "degC must stand alone"),       // an affine unit in a compound
            ("degF^2", "degF must stand alone"),         // an affine unit raised to a power
            ("kg·degF", "degF must stand alone"),        // an affine unit in a product
            ("dBASPL/s", "dBASPL must stand alone"),     // a logarithmic unit in a compound
            ("mol<>", "not a positive molar mass"),      // an empty molar mass
            ("mol<abc>", "not a positive molar mass"),   // a molar mass that is not a number
            ("mol<-5>", "not a positive molar mass"),    // a negative molar mass
            ("mol<inf>", "not a positive molar mass"),   // an infinite molar mass
            ("mol<18", "missing its '>'"),               // an unclosed molar mass
            ("g<18>", "may follow only mol"),            // a molar mass on something else
            ("µ", "\"µ\" is not a known unit"),          // a prefix alone
            ("kmin", "\"kmin\" is not a known unit"),    // a prefix on a non-SI atom
            ("m/m", "cancel out"),                       // nothing left
            ("mi^99", "too large"),                      // a magnitude beyond Double
            (String(repeating: "m·", count: 200) + "m", "longer than"),  // a hostile length
            (String(repeating: "(", count: 100) + "m", "missing a ')'"), // deep nesting
        ])
    func malformed(string: String, phrase: String) throws {
        let error = #expect(throws: CadenceError.self) { try HealthUnit(string) }
        #expect(error?.code == .unknownUnit)
        #expect(error?.message.contains("\"\(string)\"") == true, "message names the string")
        #expect(error?.message.contains(phrase) == true, "\(error?.message ?? "no error")")
    }

    /// The conveniences the rest of Cadence uses, with the strings they stand for.
    @Test(
        "Static units match their strings",
        arguments: [
            (HealthUnit.count, "count"), (.countPerMinute, "count/min"), (.meter, "m"),
            (.kilometer, "km"), (.mile, "mi"), (.kilocalorie, "kcal"), (.second, "s"),
            (.millisecond, "ms"), (.minute, "min"), (.hour, "hr"), (.liter, "L"),
            (.milliliter, "mL"), (.gram, "g"), (.kilogram, "kg"), (.pound, "lb"), (.percent, "%"),
            (.milligramsPerDeciliter, "mg/dL"), (.millimeterOfMercury, "mmHg"),
            (.degreeCelsius, "degC"), (.degreeFahrenheit, "degF"), (.kelvin, "K"),
            (.vo2Max, "mL/kg·min"), (.meterPerSecond, "m/s"), (.decibelASPL, "dBASPL"),
            (.internationalUnit, "IU"), (.appleEffortScore, "appleEffortScore"),
        ])
    func staticUnits(unit: HealthUnit, string: String) throws {
        let parsed = try HealthUnit(string)
        #expect(unit.unitString == string)
        #expect(unit == parsed)
        #expect(unit.dimension == parsed.dimension)
        #expect(unit.scale == parsed.scale)
        #expect(unit.offset == parsed.offset)
    }

    @Test("VO₂ max accepts both HealthKit's and Cadence's spellings")
    func vo2MaxSpellings() throws {
        #expect(try HealthUnit("mL/min·kg") == .vo2Max)
        #expect(try HealthUnit("mL/(kg*min)") == .vo2Max)
        #expect(try HealthUnit("mL/min·kg").convert(42.5, to: .vo2Max) == 42.5)
    }

    @Test("A resolved conversion applies one multiply-add")
    func resolvedConversion() throws {
        let toCelsius = try HealthUnit.degreeFahrenheit.conversion(to: .degreeCelsius)
        #expect(isClose(toCelsius.scale, 5.0 / 9.0))
        #expect(isClose(toCelsius.offset, -160.0 / 9.0))
        #expect(isClose(toCelsius.apply(212), 100, tolerance: 1e-9))
        let toMeters = try HealthUnit.mile.conversion(to: .meter)
        #expect(toMeters.offset == 0)
        #expect(toMeters.apply(2) == 2 * 1609.34)
        #expect(try HealthUnit.gram.conversion(to: .gram) == .identity)
        #expect(UnitConversion.identity.apply(-0.5) == -0.5)
        #expect(UnitConversion(scale: 2, offset: 1).apply(3) == 7)
    }

    @Test("Units encode and decode as their unit strings")
    func codable() throws {
        let units: [HealthUnit] = [.vo2Max, .percent, try HealthUnit("mmol<180.1558>/L")]
        let data = try JSONEncoder().encode(units)
        #expect(String(decoding: data, as: UTF8.self) == #"["mL\/kg·min","%","mmol<180.1558>\/L"]"#)
        #expect(try JSONDecoder().decode([HealthUnit].self, from: data) == units)
        let bad = Data(#"["kgg"]"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([HealthUnit].self, from: bad) }
    }

    @Test("Equal units hash alike; Cal and kcal are different units")
    func hashing() throws {
        let units: Set<HealthUnit> = [
            try HealthUnit("mL/kg·min"), try HealthUnit("mL/min·kg"), try HealthUnit("mL/(kg*min)"),
            .kilocalorie, try HealthUnit("Cal"),
        ]
        #expect(units.count == 3)
        #expect(try HealthUnit("Cal") != .kilocalorie)
        #expect(try HealthUnit("µg") == HealthUnit("mcg"))
    }

    @Test("Parsing is safe from many tasks at once")
    func concurrentParsing() async throws {
        let strings = ["count/min", "mg/dL", "mL/min·kg", "degF", "kcal", "mmol<180.1558>/L", "m/s"]
        let results = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<400 {
                group.addTask { try HealthUnit(strings[index % strings.count]).unitString }
            }
            var collected: [String] = []
            for try await result in group { collected.append(result) }
            return collected
        }
        #expect(results.count == 400)
        let expected: Set = ["count/min", "mg/dL", "mL/kg·min", "degF", "kcal", "mmol<180.1558>/L", "m/s"]
        #expect(Set(results) == expected)
    }

    @Test("a quantity converts within its dimension without throwing, and gives nil across dimensions")
    func nonThrowingConversion() throws {
        let distance = Quantity(value: 5, unit: .kilometer)
        #expect(distance.value(in: .meter) == 5_000)
        #expect(distance.value(in: .kilocalorie) == nil)
        #expect(distance.is(compatibleWith: .mile) && !distance.is(compatibleWith: .second))
        #expect(throws: CadenceError.self) { try distance.doubleValue(for: .kilocalorie) }
    }
}
