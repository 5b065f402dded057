//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The kinds of sample a store keeps (HealthKit's `HKSample` subclasses, <doc:HowCadenceComputes#Categories-workouts-and-correlations>).
///
/// Every kind is stored the same way: one series per type in sorted, compressed columnar chunks
/// with summaries, under the same log, change sequence and deletion rules. The kind is read from
/// the type identifier's prefix.
public enum SampleKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// ``QuantitySample``: `HKQuantityTypeIdentifier…`.
    case quantity
    /// ``CategorySample``: `HKCategoryTypeIdentifier…`.
    case category
    /// ``Correlation``: `HKCorrelationTypeIdentifier…`.
    case correlation
    /// ``Workout``: `HKWorkoutTypeIdentifier`, one series.
    case workout
    /// ``ActivitySummary``: `HKActivitySummaryTypeIdentifier`, one series (one row a day).
    case activitySummary
    /// ``CDADocumentSample``: `HKDocumentTypeIdentifierCDA`, one series; bodies in the row payloads.
    case document
    /// ``ClinicalRecord``: `HKClinicalTypeIdentifier…`, one series per clinical type; FHIR JSON in the row payloads.
    case clinicalRecord

    /// The prefix every identifier of the kind starts with.
    public var identifierPrefix: String {
        switch self {
        case .quantity: return QuantityType.identifierPrefix
        case .category: return CategoryType.identifierPrefix
        case .correlation: return CorrelationType.identifierPrefix
        case .workout: return Workout.typeIdentifier
        case .activitySummary: return ActivitySummary.typeIdentifier
        case .document: return CDADocumentSample.identifierPrefix
        case .clinicalRecord: return ClinicalType.identifierPrefix
        }
    }

    /// The kind of a full type identifier; identifiers without a known prefix are quantities
    /// (unknown quantity types are stored under the identifier they arrived with).
    public init(identifier: String) {
        self = Self.allCases.first { $0 != .quantity && identifier.hasExactPrefix($0.identifierPrefix) } ?? .quantity
    }
}

/// The long and short forms of HealthKit type identifiers, the same for every kind.
enum TypeIdentifier {
    /// `name` with `prefix` and an uppercase first letter (`sleepAnalysis` →
    /// `HKCategoryTypeIdentifierSleepAnalysis`), or `name` itself when it has the prefix already.
    static func full(_ name: String, prefix: String) -> String {
        if name.hasExactPrefix(prefix) { return name }
        guard let first = name.first else { return name }
        return prefix + first.uppercased() + name.dropFirst()
    }

    /// The identifier without `prefix`, with a lowercase first letter (HealthKit's Swift name),
    /// or the identifier itself when it lacks the prefix.
    static func short(_ identifier: String, prefix: String) -> String {
        guard identifier.hasExactPrefix(prefix) else { return identifier }
        let suffix = String(decoding: identifier.utf8.dropFirst(prefix.utf8.count), as: UTF8.self)
        guard let first = suffix.first else { return identifier }
        return first.lowercased() + suffix.dropFirst()
    }
}

extension QuantityType {
    /// The kind of sample this storage series holds. Storage describes every series with a
    /// ``QuantityType`` (identifier, unit, aggregation style); series of the other kinds carry
    /// their own prefix, a `count` unit and the `discreteArithmetic` style.
    package var kind: SampleKind { SampleKind(identifier: identifier) }

    /// The storage series of a type of another kind, whose samples keep their value (a category's
    /// raw integer) in the value column.
    package static func series(_ identifier: String) -> QuantityType {
        QuantityType(identifier: identifier, aggregationStyle: .discreteArithmetic, canonicalUnit: .count)
    }
}
