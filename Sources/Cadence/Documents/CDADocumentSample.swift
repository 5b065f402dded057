//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// One HL7 CDA R2 clinical document (HealthKit's `HKCDADocumentSample`): the document's bytes and
/// what its header says (<doc:HowCadenceComputes#Documents-and-clinical-records>).
///
///     let document = try CDADocumentSample(data: bytes, source: Source(name: "Clinic portal"))
///     try store.save([document])
///     let notes = try store.execute(DocumentQuery(predicate: .documentAuthorName("Henry Seven")))
///
/// The header fields are read once, when the sample is made (``CDADocumentReader``), and stored as
/// columns beside the body; a listing reads the fields and never the body unless asked
/// (``DocumentQuery/includeDocumentData``).
public struct CDADocumentSample: Hashable, Sendable {
    /// The prefix of document type identifiers.
    public static let identifierPrefix = "HKDocumentTypeIdentifier"
    /// The type of every CDA document (HealthKit's `HKDocumentTypeIdentifierCDA`): one series.
    public static let typeIdentifier = "HKDocumentTypeIdentifierCDA"

    /// The sample's identifier: unless given, derived from the document's bytes, dates and source,
    /// so that saving the same document twice stores it once (<doc:HowCadenceComputes#Identity>).
    public var uuid: UUID
    /// `/ClinicalDocument/title`.
    public var title: String
    /// The patient's name: given names, then the family name, space-separated; empty when the
    /// document names none.
    public var patientName: String
    /// The first author's name, as the patient's; empty when none is named.
    public var authorName: String
    /// The custodian organisation's name; empty when none is named.
    public var custodianName: String
    /// When the document starts: its `effectiveTime`, else the fallback given at creation.
    public var startDate: Date
    /// When it ends (the start, unless a fallback end was given for a document without `effectiveTime`).
    public var endDate: Date
    /// Who provided it.
    public var source: Source
    /// The provider's version, if known.
    public var sourceVersion: String?
    /// The device, if known.
    public var device: Device?
    /// When the sample was created, if known.
    public var creationDate: Date?
    /// String metadata (`HKMetadataKey…` → value).
    public var metadata: [String: String]
    /// The document's XML bytes; `nil` in a listing that did not ask for them.
    public var documentData: Data?

    /// Reads a CDA document's header and keeps its bytes.
    ///
    /// - Parameters:
    ///   - data: The XML document.
    ///   - startDate: The start when the document has no `effectiveTime`.
    ///   - endDate: The end in that case (the start when `nil`).
    ///   - uuid: The identifier; derived from the content when `nil`.
    ///   - path: The file to name in errors.
    /// - Throws: ``CadenceError`` naming `path` and the reason: ``CadenceError/Code/malformedInput``
    ///   when the root is not `ClinicalDocument` in `urn:hl7-org:v3`, there is no title, no date can
    ///   be found, or the XML is not well-formed; ``CadenceError/Code/hostileInput`` for a DTD or an
    ///   entity, runaway nesting or an oversized document; ``CadenceError/Code/invalidArgument`` when
    ///   the fallback end is before the start.
    public init(data: Data, startDate: Date? = nil, endDate: Date? = nil, uuid: UUID? = nil, source: Source,
                sourceVersion: String? = nil, device: Device? = nil, creationDate: Date? = nil,
                metadata: [String: String] = [:], path: String? = nil, limits: CDADocumentReader.Limits = .init()) throws {
        let header = try CDADocumentReader.read([UInt8](data), path: path, limits: limits)
        guard let start = header.effectiveTime ?? startDate else {
            throw CadenceError(.malformedInput, "has no effectiveTime and no fallback date was given", path: path)
        }
        let end = header.effectiveTime ?? endDate ?? start
        try SampleDates.check(start: start, end: end, path: path)
        self.title = header.title
        self.patientName = header.patientName
        self.authorName = header.authorName
        self.custodianName = header.custodianName
        self.startDate = start
        self.endDate = end
        self.source = source
        self.sourceVersion = sourceVersion
        self.device = device
        self.creationDate = creationDate
        self.metadata = metadata
        self.documentData = data
        self.uuid = uuid ?? ContentIdentity.uuid(type: Self.typeIdentifier, bytes: [UInt8](data), start: start, end: end,
                                                 source: source.name)
    }

    /// A stored document, as a listing reads it.
    package init(uuid: UUID, title: String, patientName: String, authorName: String, custodianName: String,
                 startDate: Date, endDate: Date, provenance: Provenance, creationDate: Date?,
                 metadata: [String: String], documentData: Data?) {
        self.uuid = uuid
        self.title = title
        self.patientName = patientName
        self.authorName = authorName
        self.custodianName = custodianName
        self.startDate = startDate
        self.endDate = endDate
        self.source = provenance.source
        self.sourceVersion = provenance.sourceVersion
        self.device = provenance.device
        self.creationDate = creationDate
        self.metadata = metadata
        self.documentData = documentData
    }
}

/// The identifier of a sample made from a file's bytes: the same bytes, dates and source give the
/// same UUID, so importing a file again adds nothing (<doc:HowCadenceComputes#Identity>).
enum ContentIdentity {
    /// A version-8 UUID hashed from the type, the bytes, the dates and the source name.
    ///
    /// - Complexity: O(*n*) in the bytes.
    static func uuid(type: String, bytes: [UInt8], start: Date, end: Date, source: String) -> UUID {
        var hash = StableHash()
        hash.combine(type)
        hash.combine(source)
        hash.combine(UInt64(bitPattern: start.timestamp))
        hash.combine(UInt64(bitPattern: end.timestamp))
        hash.combine(UInt64(bytes.count))
        var index = 0
        while index < bytes.count {
            var word: UInt64 = 0
            for offset in 0..<min(8, bytes.count - index) { word |= UInt64(bytes[index + offset]) << (8 * UInt64(offset)) }
            hash.combine(word)
            index += 8
        }
        let (high, low) = hash.finalize()
        return UUID(high: high, low: low, version: 8)
    }
}
