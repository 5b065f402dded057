//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// The kinds of clinical record (HealthKit's `HKClinicalTypeIdentifier…`), each stored as a series.
public enum ClinicalType: String, Sendable, Hashable, CaseIterable, Codable {
    case allergyRecord, conditionRecord, immunizationRecord, labResultRecord, medicationRecord
    case procedureRecord, vitalSignRecord, coverageRecord

    /// The prefix of clinical type identifiers.
    public static let identifierPrefix = "HKClinicalTypeIdentifier"

    /// The full identifier (`HKClinicalTypeIdentifierLabResultRecord`).
    public var identifier: String { TypeIdentifier.full(rawValue, prefix: Self.identifierPrefix) }

    /// The type a full or short identifier names, if any.
    public init?(identifier: String) {
        self.init(rawValue: TypeIdentifier.short(identifier, prefix: Self.identifierPrefix))
    }

    /// The clinical type of a FHIR resource, from its `resourceType` (and, for an `Observation`,
    /// its category: `vital-signs` is a vital sign, anything else a lab result); `nil` for a
    /// resource type HealthKit does not keep as a clinical record.
    public init?(resource: JSONReader.Value) {
        switch resource["resourceType"]?.string {
        case "AllergyIntolerance": self = .allergyRecord
        case "Condition": self = .conditionRecord
        case "Immunization": self = .immunizationRecord
        case "MedicationStatement", "MedicationOrder", "MedicationRequest", "MedicationDispense": self = .medicationRecord
        case "Procedure": self = .procedureRecord
        case "Coverage": self = .coverageRecord
        case "Observation":
            let categories = (resource["category"]?.array ?? resource["category"].map { [$0] } ?? [])
            let codes = categories.flatMap { ($0["coding"]?.array ?? []).compactMap { $0["code"]?.string } }
            self = codes.contains("vital-signs") ? .vitalSignRecord : .labResultRecord
        default: return nil
        }
    }
}

/// One FHIR resource from a health record (HealthKit's `HKClinicalRecord` with its `HKFHIRResource`),
/// <doc:HowCadenceComputes#Documents-and-clinical-records>.
///
/// Made from a resource's JSON (``init(json:source:fallbackDate:path:)``), which is kept byte for
/// byte and read back only when a query asks (`includingResourceData`).
public struct ClinicalRecord: Hashable, Sendable {
    /// The sample's identifier, derived from the resource's bytes and source unless given.
    public var uuid: UUID
    /// The kind of record.
    public var clinicalType: ClinicalType
    /// A name for people: the resource's code text or first coding's display, else its type.
    public var displayName: String
    /// The FHIR `resourceType` (`Observation`, `Condition`, …).
    public var resourceType: String
    /// The FHIR resource `id`; empty when it has none.
    public var identifier: String
    /// The resource's version (`meta.versionId`), if it says.
    public var version: String?
    /// When the record starts: the resource's clinical date (see ``ClinicalRecord/dateFields``).
    public var startDate: Date
    /// When it ends: a period's end, else the start.
    public var endDate: Date
    /// Who provided it.
    public var source: Source
    /// String metadata.
    public var metadata: [String: String]
    /// The resource's JSON bytes; `nil` in a listing that did not ask for them.
    public var resourceData: Data?

    /// The date fields looked at, in order; the first present gives the record's dates. A
    /// `…Period` gives the start and end.
    public static let dateFields = ["effectiveDateTime", "effectivePeriod", "onsetDateTime", "onsetPeriod",
                                    "performedDateTime", "performedPeriod", "occurrenceDateTime", "date",
                                    "authoredOn", "dateWritten", "dateAsserted", "assertedDate", "recordedDate", "dateRecorded",
                                    "onset", "attestedDate",
                                    "issued", "whenHandedOver", "period", "meta.lastUpdated"]

    /// Reads a FHIR resource.
    ///
    /// - Parameters:
    ///   - json: The resource's JSON.
    ///   - fallbackDate: The date of a resource without any of ``dateFields``.
    ///   - path: The file to name in errors.
    /// - Throws: ``CadenceError`` naming `path`: what ``JSONReader`` throws for JSON that is not
    ///   valid; ``CadenceError/Code/malformedInput`` when it is not an object with a `resourceType`,
    ///   names a resource type that is not a clinical record, or has no date that can be read.
    public init(json: Data, uuid: UUID? = nil, source: Source, fallbackDate: Date? = nil,
                metadata: [String: String] = [:], path: String? = nil) throws {
        let bytes = [UInt8](json)
        let resource = try JSONReader.read(bytes, path: path)
        guard let resourceType = resource["resourceType"]?.string else {
            throw CadenceError(.malformedInput, "is not a FHIR resource: it has no resourceType", path: path)
        }
        guard let clinicalType = ClinicalType(resource: resource) else {
            throw CadenceError(.malformedInput, "holds a FHIR \(resourceType), which is not a clinical record type", path: path)
        }
        guard let (start, end) = try Self.dates(of: resource, path: path) ?? fallbackDate.map({ ($0, $0) }) else {
            throw CadenceError(.malformedInput, "the FHIR \(resourceType) has no date (\(Self.dateFields.joined(separator: ", ")))",
                               path: path)
        }
        self.clinicalType = clinicalType
        self.resourceType = resourceType
        self.displayName = Self.displayName(of: resource) ?? resourceType
        self.identifier = resource["id"]?.string ?? ""
        self.version = resource["meta"]?["versionId"]?.string
        self.startDate = start
        self.endDate = max(start, end)
        self.source = source
        self.metadata = metadata
        self.resourceData = json
        self.uuid = uuid ?? ContentIdentity.uuid(type: clinicalType.identifier, bytes: bytes, start: start,
                                                 end: max(start, end), source: source.name)
    }

    /// A stored record, as a listing reads it.
    package init(uuid: UUID, clinicalType: ClinicalType, displayName: String, resourceType: String, identifier: String,
                 version: String?, startDate: Date, endDate: Date, source: Source, metadata: [String: String],
                 resourceData: Data?) {
        self.uuid = uuid
        self.clinicalType = clinicalType
        self.displayName = displayName
        self.resourceType = resourceType
        self.identifier = identifier
        self.version = version
        self.startDate = startDate
        self.endDate = endDate
        self.source = source
        self.metadata = metadata
        self.resourceData = resourceData
    }

    /// The concept fields a display name is taken from, in order.
    private static let conceptFields = ["code", "vaccineCode", "medicationCodeableConcept", "substance", "type"]

    private static func displayName(of resource: JSONReader.Value) -> String? {
        for field in conceptFields {
            guard let concept = resource[field] else { continue }
            let concepts = concept.array ?? [concept]
            for concept in concepts {
                if let text = concept["text"]?.string, !text.isEmpty { return text }
                for coding in concept["coding"]?.array ?? [] {
                    if let display = coding["display"]?.string, !display.isEmpty { return display }
                }
            }
        }
        return nil
    }

    /// The first date field present: its instant, or a period's start and end.
    private static func dates(of resource: JSONReader.Value, path: String?) throws -> (Date, Date)? {
        for field in dateFields {
            let value = field.split(separator: ".").reduce(Optional(resource)) { $0?[String($1)] }
            guard let value else { continue }
            if let text = value.string { let date = try FHIRDate.parse(text, field: field, path: path); return (date, date) }
            if let start = value["start"]?.string {
                let from = try FHIRDate.parse(start, field: field + ".start", path: path)
                let to = try value["end"]?.string.map { try FHIRDate.parse($0, field: field + ".end", path: path) }
                return (from, to ?? from)
            }
        }
        return nil
    }
}

/// FHIR `date`, `dateTime` and `instant` values: `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, or a full date
/// and time with seconds (optionally a fraction) and `Z` or an offset; a partial date is its first
/// instant in UTC.
enum FHIRDate {
    static func parse(_ text: String, field: String, path: String?) throws -> Date {
        let parts = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        let date = Array(parts[0].utf8)
        let dashes = date.indices.filter { date[$0] == UInt8(ascii: "-") }
        guard [4, 7, 10].contains(date.count), dashes == Array([4, 7].prefix((date.count - 4) / 3)),
              parts.count == 1 || date.count == 10 else {
            throw CadenceError(.malformedInput, "its \(field) \"\(text)\" is not a FHIR date", path: path)
        }
        var hl7 = String(decoding: date.filter { $0 != UInt8(ascii: "-") }, as: UTF8.self)
        if parts.count > 1 {
            var time = String(parts[1])
            var zone = ""
            if time.hasSuffix("Z") {
                time.removeLast()
                zone = "+0000"
            } else if let sign = time.lastIndex(where: { $0 == "+" || $0 == "-" }) {
                zone = time[sign...].replacingOccurrences(of: ":", with: "")
                time = String(time[..<sign])
            }
            // A time has seconds and a zone (hh:mm:ss[.fff] then Z or ±hh:mm).
            let clock = Array(time.utf8)
            guard !zone.isEmpty, clock.count >= 8, clock[2] == UInt8(ascii: ":"), clock[5] == UInt8(ascii: ":") else {
                throw CadenceError(.malformedInput, "its \(field) \"\(text)\" is not a FHIR date", path: path)
            }
            hl7 += time.replacingOccurrences(of: ":", with: "") + zone
        }
        do {
            return try HL7Time.parse(hl7)
        } catch {
            throw CadenceError(.malformedInput, "its \(field) \"\(text)\" is not a FHIR date", path: path)
        }
    }
}
