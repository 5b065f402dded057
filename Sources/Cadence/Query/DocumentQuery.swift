//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Lists CDA documents (HealthKit's `HKDocumentQuery`, <doc:HowCadenceComputes#Documents-and-clinical-records>).
///
///     let notes = try store.execute(DocumentQuery(predicate: .documentPatientName("Henry L Levin"), limit: 10,
///                                                 sortDescriptors: [.startDate(ascending: false)]))
///     let withXML = try store.execute(DocumentQuery(predicate: .uuids([id]), includeDocumentData: true))
///
/// The predicate selects by dates, source, UUID and the header fields (``SamplePredicate/documentTitle(_:)``
/// and its siblings, exact equality). Without ``includeDocumentData`` the results carry their
/// fields but not their bytes, and no document body is read from disk; with it, only the bodies of
/// the documents returned (after the limit) are read.
public struct DocumentQuery: Sendable {
    /// Which documents to list.
    public var predicate: SamplePredicate
    /// The most documents to return; 0 is no limit.
    public var limit: Int
    /// The order, most significant first (ascending start when empty).
    public var sortDescriptors: [SampleSortDescriptor]
    /// Whether each document comes with its bytes (``CDADocumentSample/documentData``).
    public var includeDocumentData: Bool

    /// Creates a query for CDA documents.
    public init(predicate: SamplePredicate = .all, limit: Int = 0, sortDescriptors: [SampleSortDescriptor] = [],
                includeDocumentData: Bool = false) {
        self.predicate = predicate
        self.limit = max(0, limit)
        self.sortDescriptors = sortDescriptors
        self.includeDocumentData = includeDocumentData
    }

    /// The document type listed (the only one: ``CDADocumentSample/typeIdentifier``).
    public var documentType: String { CDADocumentSample.typeIdentifier }
}

extension HealthStore {
    /// Runs a document query on the current snapshot.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming the chunk file when a body asked for is damaged.
    /// - Complexity: a sample query's, plus the payload blocks that hold the returned documents'
    ///   bodies when ``DocumentQuery/includeDocumentData``.
    public func execute(_ query: DocumentQuery) throws -> [CDADocumentSample] {
        try execute(SampleQuery(reading: .documents(includingData: query.includeDocumentData), predicate: query.predicate,
                                limit: query.limit, sortDescriptors: query.sortDescriptors))
    }
}

extension SamplePredicate {
    /// Documents whose title is exactly `title`.
    public static func documentTitle(_ title: String) -> SamplePredicate {
        .metadata(key: KindAttributes.documentTitle, in: [title])
    }

    /// Documents whose patient name is exactly `name` (given names, then family, space-separated).
    public static func documentPatientName(_ name: String) -> SamplePredicate {
        .metadata(key: KindAttributes.documentPatientName, in: [name])
    }

    /// Documents whose author name is exactly `name`.
    public static func documentAuthorName(_ name: String) -> SamplePredicate {
        .metadata(key: KindAttributes.documentAuthorName, in: [name])
    }

    /// Documents whose custodian name is exactly `name`.
    public static func documentCustodianName(_ name: String) -> SamplePredicate {
        .metadata(key: KindAttributes.documentCustodianName, in: [name])
    }

    /// Clinical records of the FHIR resource type `resourceType` (`Observation`, `Condition`, …).
    public static func fhirResourceType(_ resourceType: String) -> SamplePredicate {
        .metadata(key: KindAttributes.clinicalResourceType, in: [resourceType])
    }
}

extension SampleQuery where Sample == CDADocumentSample {
    /// Creates a sample query on the document type (``DocumentQuery`` says the same more plainly).
    public init(documentsMatching predicate: SamplePredicate = .all, limit: Int = 0,
                sortDescriptors: [SampleSortDescriptor] = [], includingDocumentData: Bool = false) {
        self.init(reading: .documents(includingData: includingDocumentData), predicate: predicate, limit: limit,
                  sortDescriptors: sortDescriptors)
    }
}

extension SampleQuery where Sample == ClinicalRecord {
    /// Creates a query for clinical records of one type, by dates, source, UUID and
    /// ``SamplePredicate/fhirResourceType(_:)``; each comes with its FHIR JSON only when
    /// `includingResourceData` (read for the records returned, after the limit).
    public init(clinicalType: ClinicalType, predicate: SamplePredicate = .all, limit: Int = 0,
                sortDescriptors: [SampleSortDescriptor] = [], includingResourceData: Bool = false) {
        self.init(reading: .clinicalRecords(clinicalType, includingData: includingResourceData), predicate: predicate,
                  limit: limit, sortDescriptors: sortDescriptors)
    }
}

extension AnchoredObjectQuery where Sample == CDADocumentSample {
    /// Creates an anchored query for CDA documents (their bytes only when `includingDocumentData`).
    public init(documentsMatching predicate: SamplePredicate = .all, anchor: QueryAnchor? = nil, limit: Int = 0,
                includingDocumentData: Bool = false) {
        self.init(reading: .documents(includingData: includingDocumentData), predicate: predicate, anchor: anchor,
                  limit: limit)
    }
}

extension AnchoredObjectQuery where Sample == ClinicalRecord {
    /// Creates an anchored query for clinical records of one type (their JSON only when `includingResourceData`).
    public init(clinicalType: ClinicalType, predicate: SamplePredicate = .all, anchor: QueryAnchor? = nil, limit: Int = 0,
                includingResourceData: Bool = false) {
        self.init(reading: .clinicalRecords(clinicalType, includingData: includingResourceData), predicate: predicate,
                  anchor: anchor, limit: limit)
    }
}

extension SampleReading {
    /// Samples of the series `identifier` that carry their bytes as a row payload (documents and
    /// clinical records): `make` builds a sample from a row's parts, and only when `includingData`
    /// are the bodies of the listed samples read, each from the payload of the row the listing
    /// found it in (only the payload blocks that hold them are decompressed), then given to `attach`.
    fileprivate static func carryingPayloads(
        _ identifier: String, includingData: Bool,
        make: @escaping @Sendable (StoredSample.RowParts) -> Sample,
        attach: @escaping @Sendable (inout Sample, Data?) -> Void
    ) -> SampleReading {
        let prepare: @Sendable (StoreSnapshot, TypeSnapshot) -> RowReader = { snapshot, stored in
            let identity = SampleIdentity(type: stored.type.identifier, provenances: snapshot.provenances)
            var provenances = RestoredProvenances(snapshot.provenances)
            return { columns, row in
                StoredSample.RowParts(columns, row, provenances: &provenances, identity: identity).map(make)
            }
        }
        let withData: Completion = { samples, rows, _ in
            try zip(samples, rows).map { sample, stored in
                var completed = sample
                attach(&completed, try stored.columns.payload(at: stored.row).map { Data($0) })
                return completed
            }
        }
        return SampleReading(identifier: identifier, validate: { try $0.validate(for: .series(identifier)) },
                             prepare: prepare, complete: includingData ? withData : nil)
    }
}

extension SampleReading where Sample == CDADocumentSample {
    /// CDA documents, their bodies read for the listed ones only when `includingData`.
    package static func documents(includingData: Bool) -> SampleReading {
        carryingPayloads(CDADocumentSample.typeIdentifier, includingData: includingData, make: { parts in
            let fields = parts.attributes
            return CDADocumentSample(
                uuid: parts.uuid, title: fields[KindAttributes.documentTitle] ?? "",
                patientName: fields[KindAttributes.documentPatientName] ?? "",
                authorName: fields[KindAttributes.documentAuthorName] ?? "",
                custodianName: fields[KindAttributes.documentCustodianName] ?? "", startDate: parts.start,
                endDate: parts.end, provenance: parts.provenance, creationDate: parts.creation,
                metadata: parts.metadata, documentData: nil)
        }, attach: { $0.documentData = $1 })
    }
}

extension SampleReading where Sample == ClinicalRecord {
    /// Clinical records of `type`, their JSON read for the listed ones only when `includingData`.
    package static func clinicalRecords(_ type: ClinicalType, includingData: Bool) -> SampleReading {
        carryingPayloads(type.identifier, includingData: includingData, make: { parts in
            let fields = parts.attributes
            let resourceType = fields[KindAttributes.clinicalResourceType] ?? ""
            return ClinicalRecord(
                uuid: parts.uuid, clinicalType: type, displayName: fields[KindAttributes.clinicalDisplayName] ?? resourceType,
                resourceType: resourceType, identifier: fields[KindAttributes.clinicalIdentifier] ?? "",
                version: fields[KindAttributes.clinicalVersion], startDate: parts.start, endDate: parts.end,
                source: parts.provenance.source, metadata: parts.metadata, resourceData: nil)
        }, attach: { $0.resourceData = $1 })
    }
}
