//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// A unit of measure, written in HealthKit's unit-string grammar.
///
/// A unit is parsed once from a string such as `"count/min"`, `"mg/dL"` or
/// `"mmol<180.1558>/L"` and then knows its dimension and its scale to SI base units, so
/// it can tell whether another unit measures the same thing and convert values between them:
///
///     let glucose = try HealthUnit("mmol<180.1558>/L")
///     let value = try glucose.convert(5.5, to: .milligramsPerDeciliter)   // 99.09
///
/// Two units are equal when their normalized ``unitString``s are equal: `"mL/(kg*min)"`,
/// `"mL/kg·min"` and `"mL/min·kg"` are the same unit, while `"Cal"` and `"kcal"` are different
/// (but compatible, with a factor of 1). A unit encodes and decodes as its ``unitString``.
public struct HealthUnit: Hashable, Sendable, CustomStringConvertible, Codable {
    /// The normalized unit string, such as `"count/min"` or `"mL/kg·min"`.
    ///
    /// Normalization writes every multiplication as `·`, removes parentheses, sorts the factors
    /// of the numerator and of the denominator, merges repeated factors into powers and spells
    /// the micro prefix `mc`. Parsing a ``unitString`` again gives an equal unit.
    public let unitString: String
    /// The exponents of the base dimensions this unit measures.
    let dimension: UnitDimension
    /// The size of one unit in SI base units, as `scale.factor × 10^scale.powerOfTen`.
    let scale: UnitScale
    /// The value, in SI base units, of this unit's zero (273.15 for `degC`); 0 for non-affine units.
    let offset: Double

    /// Creates a unit from its parts, without checking them.
    init(unitString: String, dimension: UnitDimension, scale: UnitScale, offset: Double) {
        self.unitString = unitString
        self.dimension = dimension
        self.scale = scale
        self.offset = offset
    }

    /// Parses a unit string written in HealthKit's unit grammar.
    ///
    /// The grammar has atoms (`g m L s J K Pa S Hz V W mol<M>`, which take the prefixes
    /// `da h k M G T d c m mc n p f`, and `oz lb st in ft yd mi min hr d cal kcal Cal degC degF
    /// mmHg cmAq atm inHg count % dBASPL IU appleEffortScore`, which do not), multiplication
    /// written `.`, `*` or `·`, at most one `/` per group (everything after it is the
    /// denominator), integer powers such as `^2` or `^-1`, and parentheses. `degC`, `degF` and
    /// `dBASPL` must stand alone.
    ///
    /// - Parameter string: The unit string, such as `"mL/kg·min"`. Surrounding white space is ignored.
    /// - Throws: ``CadenceError`` with code ``CadenceError/Code/unknownUnit`` when the string does
    ///   not follow the grammar; the message names the string and what is wrong with it.
    public init(_ string: String) throws {
        if let cached = HealthUnit.cache.unit(for: string) {
            self = cached
            return
        }
        self = try UnitParser.parse(string)
        HealthUnit.cache.insert(self, for: string)
    }

    /// Creates one of the constants below from a string known to parse.
    private init(known string: String) {
        self = (try? HealthUnit(string))
            ?? HealthUnit(unitString: string, dimension: UnitDimension(), scale: UnitScale(), offset: 0)
    }

    /// The unit string; the same as ``unitString``.
    public var description: String { unitString }

    /// Whether values in this unit can be converted to `other`, because both measure the same dimension.
    ///
    /// `count`, `%` and any ratio of like quantities are dimensionless and compatible with each
    /// other; `count/min` is compatible with `Hz`; `mmol<180.1558>/L` is compatible with `mg/dL`.
    ///
    /// - Parameter other: The unit to compare with.
    public func isCompatible(with other: HealthUnit) -> Bool {
        dimension == other.dimension
    }

    /// Resolves the conversion from this unit to `other` once, for converting many values.
    ///
    /// Importers convert millions of values between the same two units; resolving the pair once
    /// and calling ``UnitConversion/apply(_:)`` costs one multiply-add per value.
    ///
    /// - Parameter other: The unit to convert to.
    /// - Returns: The scale and offset that turn a value in this unit into a value in `other`.
    /// - Throws: ``CadenceError`` with code ``CadenceError/Code/incompatibleUnits`` when the two
    ///   units measure different dimensions.
    public func conversion(to other: HealthUnit) throws -> UnitConversion {
        guard dimension == other.dimension else {
            throw CadenceError(
                .incompatibleUnits,
                "cannot convert \(unitString) to \(other.unitString): \(unitString) measures "
                    + "\(dimension), \(other.unitString) measures \(other.dimension)")
        }
        if unitString == other.unitString { return .identity }
        // base = value × s₁ + o₁ and result = (base − o₂) / s₂.
        let ratio = UnitScale(
            factor: scale.factor / other.scale.factor,
            powerOfTen: scale.powerOfTen - other.scale.powerOfTen)
        let offsetInOther = offset == other.offset ? 0 : (offset - other.offset) / other.scale.value
        return UnitConversion(scale: ratio.value, offset: offsetInOther)
    }

    /// Converts a value from this unit to `other`.
    ///
    /// Affine temperature units convert with their offsets: 98.6 `degF` is 37 `degC`, and
    /// 0 `degC` is 273.15 `K`. To convert many values between the same units, resolve a
    /// ``conversion(to:)`` once instead.
    ///
    /// - Parameters:
    ///   - value: The value in this unit.
    ///   - other: The unit to convert to.
    /// - Returns: The same quantity expressed in `other`.
    /// - Throws: ``CadenceError`` with code ``CadenceError/Code/incompatibleUnits`` when the two
    ///   units measure different dimensions, such as `km` and `kg`.
    public func convert(_ value: Double, to other: HealthUnit) throws -> Double {
        try conversion(to: other).apply(value)
    }

    /// Compares two units by their normalized unit strings.
    public static func == (left: HealthUnit, right: HealthUnit) -> Bool {
        left.unitString == right.unitString
    }

    /// Hashes the normalized unit string.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(unitString)
    }

    /// Decodes a unit from its unit string.
    ///
    /// - Parameter decoder: The decoder to read a single string from.
    /// - Throws: `DecodingError.dataCorrupted` (with the ``CadenceError`` as underlying error)
    ///   when the string is not a valid unit.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        do {
            self = try HealthUnit(string)
        } catch {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: "\(error)", underlyingError: error))
        }
    }

    /// Encodes the unit as its ``unitString``.
    ///
    /// - Parameter encoder: The encoder to write a single string to.
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(unitString)
    }

    /// Parsed units by the exact string they were parsed from.
    private static let cache = UnitCache()
}

extension HealthUnit {
    /// A dimensionless count, `count`.
    public static let count = HealthUnit(known: "count")
    /// Counts per minute, `count/min`, as in heart rate.
    public static let countPerMinute = HealthUnit(known: "count/min")
    /// The meter, `m`.
    public static let meter = HealthUnit(known: "m")
    /// The kilometer, `km`.
    public static let kilometer = HealthUnit(known: "km")
    /// The mile, `mi` (1609.34 m).
    public static let mile = HealthUnit(known: "mi")
    /// The kilocalorie, `kcal` (4184 J).
    public static let kilocalorie = HealthUnit(known: "kcal")
    /// The second, `s`.
    public static let second = HealthUnit(known: "s")
    /// The millisecond, `ms`.
    public static let millisecond = HealthUnit(known: "ms")
    /// The minute, `min` (60 s).
    public static let minute = HealthUnit(known: "min")
    /// The hour, `hr` (3600 s).
    public static let hour = HealthUnit(known: "hr")
    /// The liter, `L`.
    public static let liter = HealthUnit(known: "L")
    /// The milliliter, `mL`.
    public static let milliliter = HealthUnit(known: "mL")
    /// The gram, `g`.
    public static let gram = HealthUnit(known: "g")
    /// The kilogram, `kg`.
    public static let kilogram = HealthUnit(known: "kg")
    /// The pound, `lb` (453.592 g).
    public static let pound = HealthUnit(known: "lb")
    /// The percent, `%`; HealthKit stores a fraction under it, so 0.161 means 16.1 %.
    public static let percent = HealthUnit(known: "%")
    /// Milligrams per deciliter, `mg/dL`, as in blood glucose.
    public static let milligramsPerDeciliter = HealthUnit(known: "mg/dL")
    /// The millimeter of mercury, `mmHg` (133.3224 Pa), as in blood pressure.
    public static let millimeterOfMercury = HealthUnit(known: "mmHg")
    /// The degree Celsius, `degC`, an affine unit.
    public static let degreeCelsius = HealthUnit(known: "degC")
    /// The degree Fahrenheit, `degF`, an affine unit.
    public static let degreeFahrenheit = HealthUnit(known: "degF")
    /// The kelvin, `K`.
    public static let kelvin = HealthUnit(known: "K")
    /// Milliliters of oxygen per kilogram per minute, `mL/kg·min`, the unit of VO₂ max.
    ///
    /// HealthKit writes it `mL/min·kg`; both spellings parse to this unit.
    public static let vo2Max = HealthUnit(known: "mL/kg·min")
    /// Meters per second, `m/s`.
    public static let meterPerSecond = HealthUnit(known: "m/s")
    /// The A-weighted decibel of sound pressure level, `dBASPL`, convertible only to itself.
    public static let decibelASPL = HealthUnit(known: "dBASPL")
    /// The international unit, `IU`, convertible only to itself.
    public static let internationalUnit = HealthUnit(known: "IU")
    /// Apple's workout effort score, `appleEffortScore` (1 to 10), convertible only to itself.
    public static let appleEffortScore = HealthUnit(known: "appleEffortScore")
}

/// A resolved conversion between two units: `result = value × scale + offset`.
///
/// Obtain one from ``HealthUnit/conversion(to:)`` and reuse it for every value converted
/// between the same pair of units.
public struct UnitConversion: Hashable, Sendable {
    /// The factor a value is multiplied by.
    public let scale: Double
    /// The amount added after scaling; nonzero only between affine units such as `degC` and `degF`.
    public let offset: Double

    /// The conversion that leaves values unchanged.
    public static let identity = UnitConversion(scale: 1, offset: 0)

    /// Creates a conversion from its scale and offset.
    ///
    /// - Parameters:
    ///   - scale: The factor a value is multiplied by.
    ///   - offset: The amount added after scaling.
    public init(scale: Double, offset: Double) {
        self.scale = scale
        self.offset = offset
    }

    /// Converts one value.
    ///
    /// - Parameter value: The value in the source unit.
    /// - Returns: `value × scale + offset`, the value in the target unit.
    @inlinable
    public func apply(_ value: Double) -> Double {
        value * scale + offset
    }
}

/// The exponents of a unit over the base dimensions (and the pseudo-dimensions Cadence keeps apart).
struct UnitDimension: Hashable, Sendable, CustomStringConvertible {
    /// Exponents in the order of ``names``; the lanes past them stay zero.
    ///
    /// 16-bit lanes are ample, because the parser caps each power at 99 and a unit string at 256
    /// characters, and keep sixteen lanes in the 32 bytes eight 32-bit ones took.
    var exponents = SIMD16<Int16>()

    /// The base dimensions' names, in the order of ``exponents``.
    static let names = [
        "mass", "length", "time", "temperature", "amount", "current", "sound pressure level",
        "international units", "effort score",
    ]

    /// Creates a dimension from exponents of the SI base dimensions and the pseudo-dimensions.
    init(
        mass: Int16 = 0, length: Int16 = 0, time: Int16 = 0, temperature: Int16 = 0,
        amount: Int16 = 0, current: Int16 = 0, soundPressureLevel: Int16 = 0,
        internationalUnits: Int16 = 0, effortScore: Int16 = 0
    ) {
        exponents = SIMD16(
            mass, length, time, temperature, amount, current, soundPressureLevel, internationalUnits,
            effortScore, 0, 0, 0, 0, 0, 0, 0)
    }

    /// The dimension written as a product of base dimensions, such as `mass·length^-3`.
    var description: String {
        let terms = UnitDimension.names.indices.compactMap { index -> String? in
            let exponent = exponents[index]
            if exponent == 0 { return nil }
            return exponent == 1 ? UnitDimension.names[index] : "\(UnitDimension.names[index])^\(exponent)"
        }
        return terms.isEmpty ? "a dimensionless quantity" : terms.joined(separator: "·")
    }
}

/// A positive magnitude kept as `factor × 10^powerOfTen`, so that decimal prefixes stay exact.
struct UnitScale: Hashable, Sendable {
    /// The non-decimal part of the magnitude, such as 1609.34 for the mile.
    var factor: Double = 1
    /// The decimal exponent, such as -3 for the gram (in kilograms).
    var powerOfTen = 0

    /// The magnitude as one number.
    var value: Double {
        let magnitude = Foundation.pow(10, Double(powerOfTen.magnitude))
        return powerOfTen >= 0 ? factor * magnitude : factor / magnitude
    }
}

/// A small, lock-protected cache of parsed units, cleared when it grows too large.
private final class UnitCache: @unchecked Sendable {
    /// Guards ``units``.
    private let lock = NSLock()
    /// Parsed units by the string they were parsed from.
    private var units: [String: HealthUnit] = [:]
    /// The most strings kept; well above the number of distinct units any import uses.
    private let capacity = 1024

    /// The unit parsed earlier from exactly this string, if any.
    func unit(for string: String) -> HealthUnit? {
        lock.withLock { units[string] }
    }

    /// Remembers the unit parsed from a string.
    func insert(_ unit: HealthUnit, for string: String) {
        lock.withLock {
            if units.count >= capacity { units.removeAll(keepingCapacity: true) }
            units[string] = unit
        }
    }
}
