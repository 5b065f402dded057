//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// A type of clinical records (HealthKit's `HKClinicalType`), such as lab results.
///
///     guard let labs = HKObjectType.clinicalType(forIdentifier: .labResultRecord) else { return }
///     let query = HKSampleQuery(sampleType: labs, predicate: nil, limit: HKObjectQueryNoLimit,
///                               sortDescriptors: nil) { query, records, error in … }
public final class HKClinicalType: HKSampleType, @unchecked Sendable {
    /// The Cadence type it stands for.
    let cadence: ClinicalType

    init(cadence: ClinicalType) {
        self.cadence = cadence
        super.init(series: .clinical(cadence))
    }
}

/// One FHIR resource from a health record (HealthKit's `HKClinicalRecord`), run over Cadence's
/// `ClinicalRecord`. Records are read from imported exports; this process does not make them.
public final class HKClinicalRecord: HKSample, @unchecked Sendable {
    // Immutable after init: safe to share across threads.

    /// The record's type.
    public let clinicalType: HKClinicalType
    /// A name for the record, from the resource's coded concept (or its resource type).
    public let displayName: String
    /// The FHIR resource.
    public let fhirResource: HKFHIRResource?

    /// A stored record.
    init(_ record: ClinicalRecord) {
        clinicalType = HKClinicalType(cadence: record.clinicalType)
        displayName = record.displayName
        fhirResource = HKFHIRResource(record)
        super.init(type: clinicalType, start: record.startDate, end: record.endDate, uuid: record.uuid,
                   provenance: Provenance(source: record.source), metadata: record.metadata, creationDate: nil)
    }
}

/// A FHIR resource's identity and JSON (HealthKit's `HKFHIRResource`).
public final class HKFHIRResource: NSObject, Sendable {
    /// The resource's `id`.
    public let identifier: String
    /// The resource's `resourceType`.
    public let resourceType: HKFHIRResourceType
    /// The resource's JSON, byte for byte as imported.
    public let data: Data

    init(_ record: ClinicalRecord) {
        identifier = record.identifier
        resourceType = HKFHIRResourceType(rawValue: record.resourceType)
        data = record.resourceData ?? Data()
    }
}

/// A FHIR resource type (HealthKit's `HKFHIRResourceType`), such as ``observation``.
public struct HKFHIRResourceType: RawRepresentable, Hashable, Sendable {
    /// The resource type as FHIR writes it: `Observation`.
    public let rawValue: String

    /// Wraps a FHIR resource type.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `AllergyIntolerance`.
    public static let allergyIntolerance = Self(rawValue: "AllergyIntolerance")
    /// `Condition`.
    public static let condition = Self(rawValue: "Condition")
    /// `Coverage`.
    public static let coverage = Self(rawValue: "Coverage")
    /// `Immunization`.
    public static let immunization = Self(rawValue: "Immunization")
    /// `MedicationDispense`.
    public static let medicationDispense = Self(rawValue: "MedicationDispense")
    /// `MedicationOrder`.
    public static let medicationOrder = Self(rawValue: "MedicationOrder")
    /// `MedicationRequest`.
    public static let medicationRequest = Self(rawValue: "MedicationRequest")
    /// `MedicationStatement`.
    public static let medicationStatement = Self(rawValue: "MedicationStatement")
    /// `Observation`.
    public static let observation = Self(rawValue: "Observation")
    /// `Procedure`.
    public static let procedure = Self(rawValue: "Procedure")
}
