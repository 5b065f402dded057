//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A kind of quantity sample: its HealthKit identifier, aggregation style and canonical unit.
///
///     let steps = try QuantityType("stepCount")   // or "HKQuantityTypeIdentifierStepCount"
///     steps.aggregationStyle                      // .cumulative
///     steps.canonicalUnit                         // count
///
/// Known types come from a table (``QuantityType/known``). An identifier Cadence does not know is
/// still a valid type: it keeps the unit its data arrived in and the `discreteArithmetic` style
/// (<doc:HowCadenceComputes#Types-and-units>), so imported data is never dropped.
public struct QuantityType: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The full HealthKit identifier, such as `HKQuantityTypeIdentifierStepCount`.
    public let identifier: String
    /// How samples of this type combine into statistics.
    public let aggregationStyle: AggregationStyle
    /// The unit samples of this type are stored in.
    public let canonicalUnit: HealthUnit

    /// The prefix every HealthKit quantity type identifier starts with.
    public static let identifierPrefix = "HKQuantityTypeIdentifier"

    /// Creates a type from its table entry or, for an unknown identifier, with the given unit.
    package init(identifier: String, aggregationStyle: AggregationStyle, canonicalUnit: HealthUnit) {
        self.identifier = identifier
        self.aggregationStyle = aggregationStyle
        self.canonicalUnit = canonicalUnit
    }

    /// Looks up a known type by its identifier, long (`HKQuantityTypeIdentifierStepCount`) or
    /// short: HealthKit's Swift name (`stepCount`, `uvExposure`, `vo2Max`) in any letter case.
    ///
    /// - Throws: ``CadenceError/Code/unknownType`` when the identifier is not in the table.
    public init(_ identifier: String) throws {
        guard let type = QuantityType.known(identifier) else {
            throw CadenceError(.unknownType, "unknown quantity type '\(identifier)'")
        }
        self = type
    }

    /// The known type for an identifier, or `nil`.
    ///
    /// A long identifier must match exactly, so an import keeps a misspelled one as an unknown
    /// type rather than merging it into another; a short name matches in any letter case.
    ///
    /// - Complexity: O(n) in the identifier's length.
    public static func known(_ identifier: String) -> QuantityType? {
        if identifier.hasExactPrefix(identifierPrefix) { return table.exactly(identifier) }
        // The usual spelling (`stepCount`) is found without building the case-folded index, which
        // a command-line query would otherwise build at start-up for one lookup.
        if let type = table.exactly(TypeIdentifier.full(identifier, prefix: identifierPrefix)) { return type }
        return tableByLowercasedShortIdentifier.exactly(identifier.lowercased())
    }

    /// A type for data arriving with an identifier Cadence does not know: stored in the unit it
    /// came with, aggregated as `discreteArithmetic` (<doc:HowCadenceComputes#Types-and-units>).
    public static func unknown(_ identifier: String, unit: HealthUnit) -> QuantityType {
        QuantityType(identifier: fullIdentifier(identifier), aggregationStyle: .discreteArithmetic, canonicalUnit: unit)
    }

    /// The long form of an identifier: `stepCount` → `HKQuantityTypeIdentifierStepCount`,
    /// `uvExposure` → `HKQuantityTypeIdentifierUVExposure`.
    ///
    /// A known type's short name, in any letter case, gives its identifier; any other name gets
    /// the prefix and an uppercase first letter.
    public static func fullIdentifier(_ identifier: String) -> String {
        if identifier.hasPrefix(identifierPrefix) { return identifier }
        return known(identifier)?.identifier ?? TypeIdentifier.full(identifier, prefix: identifierPrefix)
    }

    /// The short form of the identifier, HealthKit's Swift name: `HKQuantityTypeIdentifierStepCount`
    /// → `stepCount`, `HKQuantityTypeIdentifierUVExposure` → `uvExposure`.
    public var shortIdentifier: String {
        guard identifier.hasPrefix(Self.identifierPrefix) else { return identifier }
        let suffix = String(identifier.dropFirst(Self.identifierPrefix.count))
        return Self.irregularShortIdentifiers[suffix] ?? TypeIdentifier.short(identifier, prefix: Self.identifierPrefix)
    }

    /// The values a sample of this type may have, in the canonical unit **[Cadence rule]**:
    /// counts, sums, rates, masses and lengths are never negative; percentages are fractions in
    /// 0…1; temperatures are above absolute zero; sound levels and unknown types take any finite value.
    public var validValues: ClosedRange<Double> {
        guard isKnown else { return -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude }
        switch canonicalUnit.unitString {
        case "%": return 0...1
        case "degC": return -273.15...Double.greatestFiniteMagnitude
        case "dBASPL": return -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude
        default: return 0...Double.greatestFiniteMagnitude
        }
    }

    /// Checks a value in the canonical unit against ``validValues``.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` naming the value, the type and the range.
    public func validate(value: Double) throws {
        guard validValues.contains(value) else {
            let range = validValues
            let bounds = range.upperBound == .greatestFiniteMagnitude ? "at least \(range.lowerBound)" : "in \(range.lowerBound)…\(range.upperBound)"
            throw CadenceError(.invalidArgument,
                               "the value \(value) \(canonicalUnit) is out of range for \(shortIdentifier) (it must be \(bounds))")
        }
    }

    /// Whether the type appears in Cadence's table of known types.
    public var isKnown: Bool { QuantityType.table.exactly(identifier) != nil }

    public var description: String { identifier }
}
