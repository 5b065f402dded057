//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// The identifier of a quantity type (HealthKit's `HKQuantityTypeIdentifier`), such as
/// ``stepCount``; its raw value is the full identifier, `HKQuantityTypeIdentifierStepCount`.
public struct HKQuantityTypeIdentifier: RawRepresentable, Hashable, Sendable {
    /// The full identifier.
    public let rawValue: String

    /// Wraps a full identifier.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps a full identifier.
    public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// The identifier of a category type (HealthKit's `HKCategoryTypeIdentifier`), such as
/// ``sleepAnalysis``; its raw value is the full identifier.
public struct HKCategoryTypeIdentifier: RawRepresentable, Hashable, Sendable {
    /// The full identifier.
    public let rawValue: String

    /// Wraps a full identifier.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps a full identifier.
    public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// The identifier of a correlation type (HealthKit's `HKCorrelationTypeIdentifier`).
public struct HKCorrelationTypeIdentifier: RawRepresentable, Hashable, Sendable {
    /// The full identifier.
    public let rawValue: String

    /// Wraps a full identifier.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps a full identifier.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// `HKCorrelationTypeIdentifierBloodPressure`: a systolic and a diastolic reading.
    public static let bloodPressure = HKCorrelationTypeIdentifier(rawValue: "HKCorrelationTypeIdentifierBloodPressure")
    /// `HKCorrelationTypeIdentifierFood`: the nutrients of one food.
    public static let food = HKCorrelationTypeIdentifier(rawValue: "HKCorrelationTypeIdentifierFood")
}

/// The identifier of a document type (HealthKit's `HKDocumentTypeIdentifier`): only ``CDA``.
public struct HKDocumentTypeIdentifier: RawRepresentable, Hashable, Sendable {
    /// The full identifier.
    public let rawValue: String

    /// Wraps a full identifier.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `HKDocumentTypeIdentifierCDA`: HL7 CDA R2 documents.
    public static let CDA = HKDocumentTypeIdentifier(rawValue: "HKDocumentTypeIdentifierCDA")
}

/// The identifier of a clinical record type (HealthKit's `HKClinicalTypeIdentifier`), such as
/// ``labResultRecord``; its raw value is the full identifier.
public struct HKClinicalTypeIdentifier: RawRepresentable, Hashable, Sendable {
    /// The full identifier.
    public let rawValue: String

    /// Wraps a full identifier.
    public init(rawValue: String) { self.rawValue = rawValue }

    private init(_ type: ClinicalType) { rawValue = type.identifier }

    /// Allergies and intolerances (FHIR `AllergyIntolerance`).
    public static let allergyRecord = Self(.allergyRecord)
    /// Conditions (FHIR `Condition`).
    public static let conditionRecord = Self(.conditionRecord)
    /// Immunizations (FHIR `Immunization`).
    public static let immunizationRecord = Self(.immunizationRecord)
    /// Laboratory results (FHIR `Observation` of the laboratory category).
    public static let labResultRecord = Self(.labResultRecord)
    /// Medications (FHIR `MedicationStatement`, `MedicationOrder`, `MedicationRequest`, `MedicationDispense`).
    public static let medicationRecord = Self(.medicationRecord)
    /// Procedures (FHIR `Procedure`).
    public static let procedureRecord = Self(.procedureRecord)
    /// Vital signs (FHIR `Observation` of the vital-signs category).
    public static let vitalSignRecord = Self(.vitalSignRecord)
    /// Insurance coverage (FHIR `Coverage`).
    public static let coverageRecord = Self(.coverageRecord)
}
