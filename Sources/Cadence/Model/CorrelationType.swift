//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A kind of correlation (HealthKit's `HKCorrelationType`): blood pressure (a systolic and a
/// diastolic reading) or food (the nutrients of one entry).
///
///     let pressure = try CorrelationType("bloodPressure")   // or "HKCorrelationTypeIdentifierBloodPressure"
public struct CorrelationType: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The full HealthKit identifier, such as `HKCorrelationTypeIdentifierBloodPressure`.
    public let identifier: String

    /// The prefix every HealthKit correlation type identifier starts with.
    public static let identifierPrefix = "HKCorrelationTypeIdentifier"

    /// The types HealthKit defines, by identifier suffix.
    static let knownSuffixes = ["BloodPressure", "Food"]

    /// Blood pressure: a systolic and a diastolic quantity sample.
    public static let bloodPressure = CorrelationType(identifier: identifierPrefix + "BloodPressure")
    /// Food: the nutrient quantity samples of one entry.
    public static let food = CorrelationType(identifier: identifierPrefix + "Food")

    /// A type by its full identifier (or short name), known or not: an unknown one is kept verbatim.
    public init(identifier: String) {
        self.identifier = Self.fullIdentifier(identifier)
    }

    /// Looks up a known type by its identifier, long or short (`bloodPressure`, any letter case).
    ///
    /// - Throws: ``CadenceError/Code/unknownType`` when the identifier is not a known correlation type.
    public init(_ identifier: String) throws {
        let full = Self.fullIdentifier(identifier)
        guard Self.knownSuffixes.contains(where: { (Self.identifierPrefix + $0).isIdentical(to: full) }) else {
            throw CadenceError(.unknownType, "unknown correlation type '\(identifier)'")
        }
        self.identifier = full
    }

    /// The long form of an identifier: `bloodPressure` → `HKCorrelationTypeIdentifierBloodPressure`.
    public static func fullIdentifier(_ identifier: String) -> String {
        if let known = knownSuffixes.first(where: { $0.lowercased().isIdentical(to: identifier.lowercased()) }) {
            return identifierPrefix + known
        }
        return TypeIdentifier.full(identifier, prefix: identifierPrefix)
    }

    /// HealthKit's Swift name: `HKCorrelationTypeIdentifierBloodPressure` → `bloodPressure`.
    public var shortIdentifier: String { TypeIdentifier.short(identifier, prefix: Self.identifierPrefix) }

    public var description: String { identifier }
}
