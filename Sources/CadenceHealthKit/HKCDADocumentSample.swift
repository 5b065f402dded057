//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// The type of documents (HealthKit's `HKDocumentType`): only CDA documents.
///
///     guard let cda = HKObjectType.documentType(forIdentifier: .CDA) else { return }
public final class HKDocumentType: HKSampleType, @unchecked Sendable {
    init() {
        super.init(series: .document)
    }
}

/// A document (HealthKit's `HKDocumentSample`): the base of ``HKCDADocumentSample``.
public class HKDocumentSample: HKSample, @unchecked Sendable {
    /// The document's type.
    public var documentType: HKDocumentType { HKDocumentType() }
}

/// An HL7 CDA R2 clinical document (HealthKit's `HKCDADocumentSample`), run over Cadence's
/// `CDADocumentSample`: what its header says in ``document``, its XML there too when the query
/// asked for it.
public final class HKCDADocumentSample: HKDocumentSample, @unchecked Sendable {
    // Immutable after init: safe to share across threads.

    /// The document's fields, and its bytes when the query included them.
    public let document: HKCDADocument?

    /// A document this process records, from its XML; its source is ``HKSource/default()``. Its
    /// dates are the document's `effectiveTime`, or `startDate` and `endDate` when it has none.
    ///
    /// - Throws: `CadenceError` when the document cannot be read: its root is not `ClinicalDocument`
    ///   in `urn:hl7-org:v3`, it has no title or no date, or it is hostile XML (a DTD, an entity).
    public init(data documentData: Data, start startDate: Date, end endDate: Date, metadata: [String: Any]?) throws {
        let read = try CDADocumentSample(data: documentData, startDate: startDate, endDate: endDate,
                                         source: HKSource.default().cadence)
        document = HKCDADocument(read)
        super.init(type: HKDocumentType(), start: read.startDate, end: read.endDate, device: nil, metadata: metadata)
    }

    /// A stored document.
    init(_ sample: CDADocumentSample) {
        document = HKCDADocument(sample)
        super.init(type: HKDocumentType(), start: sample.startDate, end: sample.endDate, uuid: sample.uuid,
                   provenance: Provenance(source: sample.source, sourceVersion: sample.sourceVersion, device: sample.device),
                   metadata: sample.metadata, creationDate: sample.creationDate)
    }

    override var cadenceObject: StorableSample {
        get throws {
            guard let data = document?.documentData else {
                throw CadenceError(.invalidArgument, "a CDA document read without its data cannot be saved")
            }
            return .document(try CDADocumentSample(data: data, startDate: startDate, endDate: endDate, uuid: uuid,
                                                   source: cadenceProvenance.source,
                                                   sourceVersion: cadenceProvenance.sourceVersion,
                                                   device: cadenceProvenance.device, creationDate: creationDate,
                                                   metadata: storedMetadata))
        }
    }
}

/// What a CDA document's header says, and its XML (HealthKit's `HKCDADocument`).
public final class HKCDADocument: NSObject, Sendable {
    /// The XML; `nil` when the query did not include document data.
    public let documentData: Data?
    /// `/ClinicalDocument/title`.
    public let title: String
    /// The patient's name: given names, then the family name.
    public let patientName: String
    /// The first author's name.
    public let authorName: String
    /// The custodian organisation's name.
    public let custodianName: String

    init(_ sample: CDADocumentSample) {
        documentData = sample.documentData
        title = sample.title
        patientName = sample.patientName
        authorName = sample.authorName
        custodianName = sample.custodianName
    }
}
