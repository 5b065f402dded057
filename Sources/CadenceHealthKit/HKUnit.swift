//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// A unit of measure (HealthKit's `HKUnit`), in HealthKit's unit grammar.
///
///     let bpm = HKUnit.count().unitDivided(by: .minute())
///     let kilometers = HKUnit.meterUnit(with: .kilo)
///     let glucose = HKUnit(from: "mg/dL")
///
/// The grammar and its constants are Cadence's (see How Cadence computes, Units). Where HealthKit
/// raises an exception for a string outside the grammar, the unit is kept as written and every
/// conversion involving it gives `nan`, so malformed input never stops the process.
public final class HKUnit: NSObject, Sendable {
    /// The unit as written in the grammar, such as `count/min`.
    public let unitString: String
    /// The parsed unit, or `nil` when ``unitString`` is outside the grammar.
    let cadence: HealthUnit?

    /// Parses a unit string, such as `"kcal"`, `"mL/kg·min"` or `"mmHg"`.
    public init(from string: String) {
        unitString = string
        cadence = try? HealthUnit(string)
    }

    init(cadence: HealthUnit) {
        unitString = cadence.unitString
        self.cadence = cadence
    }

    /// Whether `object` is a unit that converts to this one with no scale or offset.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKUnit else { return false }
        if let mine = cadence, let theirs = other.cadence { return mine == theirs }
        return unitString == other.unitString
    }

    /// A hash consistent with ``isEqual(_:)``.
    public override var hash: Int { cadence?.hashValue ?? unitString.hashValue }

    /// The unit string.
    public override var description: String { unitString }

    // MARK: Combining

    /// This unit times `unit`, such as `kg·m`.
    public func unitMultiplied(by unit: HKUnit) -> HKUnit {
        HKUnit(from: "\(grouped(unitString)).\(grouped(unit.unitString))")
    }

    /// This unit over `unit`, such as `count/min`.
    public func unitDivided(by unit: HKUnit) -> HKUnit {
        HKUnit(from: "\(grouped(unitString))/\(grouped(unit.unitString))")
    }

    /// This unit to an integer power, such as `m^2`.
    public func unitRaised(toPower power: Int) -> HKUnit {
        HKUnit(from: "\(grouped(unitString))^\(power)")
    }

    /// One over this unit.
    public func reciprocal() -> HKUnit { unitRaised(toPower: -1) }

    /// A compound unit in parentheses, so that the grammar's one `/` per group and its powers
    /// apply to the whole of it.
    private func grouped(_ string: String) -> String {
        string.contains(where: { "/.*·^".contains($0) }) ? "(\(string))" : string
    }

    // MARK: Constants

    /// A prefixed SI unit.
    private static func prefixed(_ prefix: HKMetricPrefix, _ symbol: String) -> HKUnit {
        HKUnit(from: prefix.symbol + symbol)
    }

    /// Counts, such as steps.
    public static func count() -> HKUnit { HKUnit(from: "count") }
    /// Percent; values are fractions (0.97 is 97 %).
    public static func percent() -> HKUnit { HKUnit(from: "%") }
    /// Grams with a metric prefix.
    public static func gramUnit(with prefix: HKMetricPrefix) -> HKUnit { prefixed(prefix, "g") }
    /// Grams.
    public static func gram() -> HKUnit { gramUnit(with: .none) }
    /// Ounces (28.3495 g).
    public static func ounce() -> HKUnit { HKUnit(from: "oz") }
    /// Pounds (453.592 g).
    public static func pound() -> HKUnit { HKUnit(from: "lb") }
    /// Stones (14 lb).
    public static func stone() -> HKUnit { HKUnit(from: "st") }
    /// Meters with a metric prefix.
    public static func meterUnit(with prefix: HKMetricPrefix) -> HKUnit { prefixed(prefix, "m") }
    /// Meters.
    public static func meter() -> HKUnit { meterUnit(with: .none) }
    /// Inches.
    public static func inch() -> HKUnit { HKUnit(from: "in") }
    /// Feet.
    public static func foot() -> HKUnit { HKUnit(from: "ft") }
    /// Yards.
    public static func yard() -> HKUnit { HKUnit(from: "yd") }
    /// Miles (1609.34 m).
    public static func mile() -> HKUnit { HKUnit(from: "mi") }
    /// Liters with a metric prefix.
    public static func literUnit(with prefix: HKMetricPrefix) -> HKUnit { prefixed(prefix, "L") }
    /// Liters.
    public static func liter() -> HKUnit { literUnit(with: .none) }
    /// Seconds with a metric prefix.
    public static func secondUnit(with prefix: HKMetricPrefix) -> HKUnit { prefixed(prefix, "s") }
    /// Seconds.
    public static func second() -> HKUnit { secondUnit(with: .none) }
    /// Minutes.
    public static func minute() -> HKUnit { HKUnit(from: "min") }
    /// Hours.
    public static func hour() -> HKUnit { HKUnit(from: "hr") }
    /// Days.
    public static func day() -> HKUnit { HKUnit(from: "d") }
    /// Joules with a metric prefix.
    public static func jouleUnit(with prefix: HKMetricPrefix) -> HKUnit { prefixed(prefix, "J") }
    /// Joules.
    public static func joule() -> HKUnit { jouleUnit(with: .none) }
    /// Kilocalories (4184 J).
    public static func kilocalorie() -> HKUnit { HKUnit(from: "kcal") }
    /// Large (food) calories, the same as kilocalories.
    public static func largeCalorie() -> HKUnit { HKUnit(from: "Cal") }
    /// Small calories (4.184 J).
    public static func smallCalorie() -> HKUnit { HKUnit(from: "cal") }
    /// Degrees Celsius.
    public static func degreeCelsius() -> HKUnit { HKUnit(from: "degC") }
    /// Degrees Fahrenheit.
    public static func degreeFahrenheit() -> HKUnit { HKUnit(from: "degF") }
    /// Kelvins.
    public static func kelvin() -> HKUnit { HKUnit(from: "K") }
    /// Millimeters of mercury, for blood pressure.
    public static func millimeterOfMercury() -> HKUnit { HKUnit(from: "mmHg") }
    /// Decibels of A-weighted sound pressure level, for audio exposure.
    public static func decibelAWeightedSoundPressureLevel() -> HKUnit { HKUnit(from: "dBASPL") }
    /// International units, for insulin.
    public static func internationalUnit() -> HKUnit { HKUnit(from: "IU") }
    /// Siemens with a metric prefix.
    public static func siemenUnit(with prefix: HKMetricPrefix) -> HKUnit { prefixed(prefix, "S") }
    /// Siemens, for electrodermal activity.
    public static func siemen() -> HKUnit { siemenUnit(with: .none) }
    /// Watts with a metric prefix.
    public static func wattUnit(with prefix: HKMetricPrefix) -> HKUnit { prefixed(prefix, "W") }
    /// Watts, for cycling and running power.
    public static func watt() -> HKUnit { wattUnit(with: .none) }
}

/// A metric prefix for the SI units of ``HKUnit`` (HealthKit's `HKMetricPrefix`).
public enum HKMetricPrefix: Int, Sendable {
    /// No prefix.
    case none = 0
    /// 10⁻¹⁵.
    case femto = 13
    /// 10⁻¹².
    case pico = 1
    /// 10⁻⁹.
    case nano = 2
    /// 10⁻⁶.
    case micro = 3
    /// 10⁻³.
    case milli = 4
    /// 10⁻².
    case centi = 5
    /// 10⁻¹.
    case deci = 6
    /// 10¹.
    case deca = 7
    /// 10².
    case hecto = 8
    /// 10³.
    case kilo = 9
    /// 10⁶.
    case mega = 10
    /// 10⁹.
    case giga = 11
    /// 10¹².
    case tera = 12

    /// The prefix as the unit grammar writes it.
    var symbol: String {
        switch self {
        case .none: ""
        case .femto: "f"
        case .pico: "p"
        case .nano: "n"
        case .micro: "mc"
        case .milli: "m"
        case .centi: "c"
        case .deci: "d"
        case .deca: "da"
        case .hecto: "h"
        case .kilo: "k"
        case .mega: "M"
        case .giga: "G"
        case .tera: "T"
        }
    }
}

/// An amount in a unit (HealthKit's `HKQuantity`).
///
///     let walk = HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 5)
///     walk.doubleValue(for: .mile())   // 3.107
public final class HKQuantity: NSObject, Sendable {
    /// The number, in ``unit``.
    let value: Double
    /// The unit the quantity was made with.
    let unit: HKUnit

    /// A quantity of `value` in `unit`.
    public init(unit: HKUnit, doubleValue value: Double) {
        self.unit = unit
        self.value = value
    }

    /// A quantity from the Cadence module.
    convenience init(_ quantity: Quantity) {
        self.init(unit: HKUnit(cadence: quantity.unit), doubleValue: quantity.value)
    }

    /// The value in `unit`; `nan` when the units measure different things or either is outside
    /// the grammar (where HealthKit raises an exception).
    public func doubleValue(for unit: HKUnit) -> Double {
        guard let from = self.unit.cadence, let to = unit.cadence else { return .nan }
        return (try? from.convert(value, to: to)) ?? .nan
    }

    /// Whether the quantity converts to `unit`.
    public func `is`(compatibleWith unit: HKUnit) -> Bool {
        guard let from = self.unit.cadence, let to = unit.cadence else { return false }
        return from.isCompatible(with: to)
    }

    /// The quantity in the Cadence module, or `nil` when its unit is outside the grammar.
    var cadence: Quantity? { unit.cadence.map { Quantity(value: value, unit: $0) } }

    /// Whether `object` is a quantity of the same amount (after conversion).
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKQuantity else { return false }
        return other.doubleValue(for: unit) == value
    }

    /// A constant: equal quantities may be written in different units, so only a constant hash
    /// agrees with ``isEqual(_:)``.
    public override var hash: Int { 0 }

    /// The value and unit, such as `72 count/min`.
    public override var description: String { "\(value) \(unit.unitString)" }
}
