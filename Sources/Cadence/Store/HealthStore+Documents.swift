//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

extension KindAttributes {
    /// A CDA document's title, patient, author and custodian names (``CDADocumentSample``).
    package static let documentTitle = prefix + "document.title"
    package static let documentPatientName = prefix + "document.patientName"
    package static let documentAuthorName = prefix + "document.authorName"
    package static let documentCustodianName = prefix + "document.custodianName"
    /// A clinical record's display name, FHIR resource type, identifier and version (``ClinicalRecord``).
    package static let clinicalDisplayName = prefix + "clinical.displayName"
    package static let clinicalResourceType = prefix + "clinical.resourceType"
    package static let clinicalIdentifier = prefix + "clinical.identifier"
    package static let clinicalVersion = prefix + "clinical.version"
}

extension HealthStore {
    /// Saves CDA documents in one transaction; a document whose UUID is already stored is skipped
    /// and counted as a duplicate, so saving the same document again adds nothing
    /// (<doc:HowCadenceComputes#Documents-and-clinical-records>). Documents are stored like every
    /// other kind: one series (``CDADocumentSample/typeIdentifier``) under the same log, change
    /// sequence and deletion rules, with their header fields among the row's reserved attributes
    /// and their bytes as its payload (compressed, read only when asked for).
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` for a document without its bytes; what
    ///   ``save(_:)-([QuantitySample])`` throws.
    @discardableResult
    public func save(_ documents: [CDADocumentSample]) throws -> SaveSummary {
        try save(QuantitySampleBatch.grouping(documents, series: { _ in .series(CDADocumentSample.typeIdentifier) }) {
            try $0.append($1)
        })
    }

    /// Deletes every document that `predicate` selects, recording a deleted object for each.
    ///
    /// - Returns: The number of documents deleted.
    @discardableResult
    public func deleteDocuments(matching predicate: SamplePredicate = .all) throws -> Int {
        try deleteSamples(ofSeries: .series(CDADocumentSample.typeIdentifier), matching: predicate)
    }

    /// Saves clinical records in one transaction, one series per clinical type, as documents are
    /// saved (their FHIR JSON as the row's payload); a record already stored is a duplicate.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` for a record without its JSON; what
    ///   ``save(_:)-([QuantitySample])`` throws.
    @discardableResult
    public func save(_ records: [ClinicalRecord]) throws -> SaveSummary {
        try save(QuantitySampleBatch.grouping(records, series: { .series($0.clinicalType.identifier) }) { try $0.append($1) })
    }

    /// Deletes every clinical record of `type` that `predicate` selects, recording a deleted object for each.
    ///
    /// - Returns: The number of records deleted.
    @discardableResult
    public func deleteClinicalRecords(of type: ClinicalType, matching predicate: SamplePredicate = .all) throws -> Int {
        try deleteSamples(ofSeries: .series(type.identifier), matching: predicate)
    }
}

extension QuantitySampleBatch {
    /// Appends a document to a batch of the document series: 0 in the value column, its header
    /// fields among the reserved attributes, its bytes as the row's payload.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` if the batch is of another series or the
    ///   document has no bytes.
    package mutating func append(_ document: CDADocumentSample) throws {
        guard quantityType.identifier == CDADocumentSample.typeIdentifier else {
            throw CadenceError(.invalidArgument, "a CDA document cannot join a \(quantityType) batch")
        }
        guard let data = document.documentData, !data.isEmpty else {
            throw CadenceError(.invalidArgument, "the CDA document \(document.uuid) has no bytes to save")
        }
        var metadata = document.metadata
        metadata[KindAttributes.documentTitle] = document.title
        metadata[KindAttributes.documentPatientName] = document.patientName
        metadata[KindAttributes.documentAuthorName] = document.authorName
        metadata[KindAttributes.documentCustodianName] = document.custodianName
        try appendCarrying(data, start: document.startDate, end: document.endDate, uuid: document.uuid,
                           provenance: Provenance(source: document.source, sourceVersion: document.sourceVersion,
                                                  device: document.device),
                           creationDate: document.creationDate, metadata: metadata)
    }

    /// Appends a clinical record to a batch of its type's series, as a document is appended.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` if the batch is of another series or the
    ///   record has no JSON.
    package mutating func append(_ record: ClinicalRecord) throws {
        guard quantityType.identifier == record.clinicalType.identifier else {
            throw CadenceError(.invalidArgument, "a \(record.clinicalType.identifier) record cannot join a \(quantityType) batch")
        }
        guard let data = record.resourceData, !data.isEmpty else {
            throw CadenceError(.invalidArgument, "the clinical record \(record.uuid) has no JSON to save")
        }
        var metadata = record.metadata
        metadata[KindAttributes.clinicalDisplayName] = record.displayName
        metadata[KindAttributes.clinicalResourceType] = record.resourceType
        metadata[KindAttributes.clinicalIdentifier] = record.identifier
        metadata[KindAttributes.clinicalVersion] = record.version
        try appendCarrying(data, start: record.startDate, end: record.endDate, uuid: record.uuid,
                           provenance: Provenance(source: record.source), creationDate: nil, metadata: metadata)
    }

    /// Appends a row whose value is 0 and whose payload is `data`: how documents and clinical
    /// records are stored.
    private mutating func appendCarrying(_ data: Data, start: Date, end: Date, uuid: UUID, provenance: Provenance,
                                         creationDate: Date?, metadata: [String: String]) throws {
        try append(start: start, end: end, value: 0, provenanceIndex: addProvenance(provenance), uuid: uuid,
                   creationDate: creationDate, metadata: metadata)
        setLastRowPayload([UInt8](data))
    }
}
