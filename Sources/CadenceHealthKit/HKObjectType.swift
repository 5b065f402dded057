//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// A kind of data in the store (HealthKit's `HKObjectType`): the root of ``HKSampleType`` and
/// its quantity, category and correlation types.
///
///     guard let steps = HKObjectType.quantityType(forIdentifier: .stepCount) else { return }
///
/// Two type objects with the same identifier are equal, so they work as set members and keys.
public class HKObjectType: NSObject, @unchecked Sendable {
    // Immutable after init: safe to share across threads.

    /// The full identifier, such as `HKQuantityTypeIdentifierStepCount`.
    public let identifier: String

    init(identifier: String) {
        self.identifier = identifier
    }

    /// The known quantity type with this identifier, or `nil` for one Cadence does not know.
    public class func quantityType(forIdentifier identifier: HKQuantityTypeIdentifier) -> HKQuantityType? {
        QuantityType.known(identifier.rawValue).map(HKQuantityType.init(cadence:))
    }

    /// The known category type with this identifier, or `nil` for one Cadence does not know.
    public class func categoryType(forIdentifier identifier: HKCategoryTypeIdentifier) -> HKCategoryType? {
        CategoryType.known(identifier.rawValue).map(HKCategoryType.init(cadence:))
    }

    /// The correlation type with this identifier: blood pressure or food, else `nil`.
    public class func correlationType(forIdentifier identifier: HKCorrelationTypeIdentifier) -> HKCorrelationType? {
        let known: [CorrelationType] = [.bloodPressure, .food]
        return known.first { $0.identifier == identifier.rawValue }.map(HKCorrelationType.init(cadence:))
    }

    /// The document type with this identifier: CDA, else `nil`.
    public class func documentType(forIdentifier identifier: HKDocumentTypeIdentifier) -> HKDocumentType? {
        identifier == .CDA ? HKDocumentType() : nil
    }

    /// The clinical record type with this identifier, or `nil` for one Cadence does not know.
    public class func clinicalType(forIdentifier identifier: HKClinicalTypeIdentifier) -> HKClinicalType? {
        ClinicalType(identifier: identifier.rawValue).map(HKClinicalType.init(cadence:))
    }

    /// Whether `object` is a type with the same identifier and kind.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? HKObjectType else { return false }
        return type(of: other) == type(of: self) && other.identifier == identifier
    }

    /// A hash of the identifier.
    public override var hash: Int { identifier.hashValue }

    /// The identifier.
    public override var description: String { identifier }
}

/// A type of samples (HealthKit's `HKSampleType`): what sample, anchored and observer queries
/// ask for.
public class HKSampleType: HKObjectType, @unchecked Sendable {
    /// The Cadence type the samples are stored as.
    let series: SeriesType

    init(series: SeriesType) {
        self.series = series
        switch series {
        case .quantity(let type): super.init(identifier: type.identifier)
        case .category(let type): super.init(identifier: type.identifier)
        case .correlation(let type): super.init(identifier: type.identifier)
        case .document: super.init(identifier: CDADocumentSample.typeIdentifier)
        case .clinical(let type): super.init(identifier: type.identifier)
        }
    }
}

/// A type of quantity samples (HealthKit's `HKQuantityType`), such as steps or heart rate.
public final class HKQuantityType: HKSampleType, @unchecked Sendable {
    /// The Cadence type it stands for.
    let cadence: QuantityType

    init(cadence: QuantityType) {
        self.cadence = cadence
        super.init(series: .quantity(cadence))
    }

    /// The type with this identifier; an identifier Cadence does not know stands for a discrete
    /// type counted in `count` (``HKObjectType/quantityType(forIdentifier:)`` answers `nil` instead).
    public convenience init(_ identifier: HKQuantityTypeIdentifier) {
        self.init(cadence: QuantityType.known(identifier.rawValue) ?? .unknown(identifier.rawValue, unit: .count))
    }

    /// How samples of the type combine: summed or averaged.
    public var aggregationStyle: HKQuantityAggregationStyle { HKQuantityAggregationStyle(cadence.aggregationStyle) }

    /// Whether quantities in `unit` can be stored as this type.
    public func `is`(compatibleWith unit: HKUnit) -> Bool {
        unit.cadence.map { $0.isCompatible(with: cadence.canonicalUnit) } ?? false
    }

}

/// A type of category samples (HealthKit's `HKCategoryType`), such as sleep analysis.
public final class HKCategoryType: HKSampleType, @unchecked Sendable {
    /// The Cadence type it stands for.
    let cadence: CategoryType

    init(cadence: CategoryType) {
        self.cadence = cadence
        super.init(series: .category(cadence))
    }

    /// The type with this identifier.
    public convenience init(_ identifier: HKCategoryTypeIdentifier) {
        self.init(cadence: CategoryType(identifier: identifier.rawValue))
    }

}

/// A type of correlations (HealthKit's `HKCorrelationType`): blood pressure or food.
public final class HKCorrelationType: HKSampleType, @unchecked Sendable {
    /// The Cadence type it stands for.
    let cadence: CorrelationType

    init(cadence: CorrelationType) {
        self.cadence = cadence
        super.init(series: .correlation(cadence))
    }

    /// The type with this identifier.
    public convenience init(_ identifier: HKCorrelationTypeIdentifier) {
        self.init(cadence: CorrelationType(identifier: identifier.rawValue))
    }

}

/// The Cadence type a sample type reads: the switch every query makes to pick the Cadence query
/// of the right kind.
enum SeriesType: Sendable {
    case quantity(QuantityType)
    case category(CategoryType)
    case correlation(CorrelationType)
    /// CDA documents, the one document type.
    case document
    case clinical(ClinicalType)
}

/// How a quantity type's samples combine (HealthKit's `HKQuantityAggregationStyle`).
public enum HKQuantityAggregationStyle: Int, Sendable {
    /// Summed over time: steps, distance, energy.
    case cumulative = 0
    /// Averaged, each sample counting once: body mass, blood pressure.
    case discreteArithmetic = 1
    /// Averaged, each sample weighing by the time it covers: heart rate.
    case discreteTemporallyWeighted = 2
    /// Averaged as sound energy: audio exposure in dBASPL.
    case discreteEquivalentContinuousLevel = 3

    init(_ style: AggregationStyle) {
        switch style {
        case .cumulative: self = .cumulative
        case .discreteArithmetic: self = .discreteArithmetic
        case .discreteTemporallyWeighted: self = .discreteTemporallyWeighted
        case .discreteEquivalentContinuousLevel: self = .discreteEquivalentContinuousLevel
        }
    }
}
