//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// FHIR clinical records and the strict JSON reader under them, and importing documents and
/// records from files, folders and export archives.
@Suite("Clinical records")
struct ClinicalRecordTests {
    static func fixture(_ name: String) -> URL { DocumentTests.fixture("fhir/" + name) }

    static let expected: [(file: String, type: ClinicalType, name: String, resource: String, date: String)] = [
        ("procedure-example.json", .procedureRecord, "Appendectomy", "Procedure", "2013-04-05T00:00:00Z"),
        ("condition-example.json", .conditionRecord, "Burnt Ear", "Condition", "2012-05-24T00:00:00Z"),
        ("observation-example.json", .vitalSignRecord, "Body Weight", "Observation", "2016-03-28T00:00:00Z"),
        ("immunization-example.json", .immunizationRecord, "Fluvax (Influenza)", "Immunization", "2013-01-10T00:00:00Z"),
    ]

    static func fixtureRecords() throws -> [ClinicalRecord] {
        try expected.map { try ClinicalRecord(json: Data(contentsOf: fixture($0.file)), source: Source(name: "FHIR"), path: $0.file) }
    }

    @Test("the FHIR specification's examples: clinical type, display name, resource type, identifier and date")
    func readsSpecificationExamples() throws {
        for (record, entry) in zip(try Self.fixtureRecords(), Self.expected) {
            #expect(record.clinicalType == entry.type, "\(entry.file)")
            #expect(record.displayName == entry.name)
            #expect(record.resourceType == entry.resource)
            #expect(record.identifier == "example")
            #expect(record.startDate == DocumentTests.date(entry.date))
            #expect(record.resourceData == (try Data(contentsOf: Self.fixture(entry.file))))
        }
    }

    @Test("records are stored per clinical type, queried by type, date and resource type, and saved once")
    func storeAndQuery() throws {
        let store = HealthStore.inMemory()
        let records = try Self.fixtureRecords()
        #expect(try store.save(records).saved == 4)
        #expect(try store.save(try Self.fixtureRecords()).duplicates == 4)
        let vital = try store.execute(SampleQuery(clinicalType: .vitalSignRecord))
        #expect(vital.map(\.displayName) == ["Body Weight"])
        #expect(vital.first?.resourceData == nil)
        let withJSON = try store.execute(SampleQuery(clinicalType: .vitalSignRecord, includingResourceData: true))
        #expect(withJSON == [records[2]])
        #expect(try store.execute(SampleQuery(clinicalType: .conditionRecord, predicate: .fhirResourceType("Condition"))).count == 1)
        #expect(try store.execute(SampleQuery(clinicalType: .conditionRecord, predicate: .fhirResourceType("Observation"))).isEmpty)
        let after2013 = SamplePredicate.samples(start: DocumentTests.date("2013-02-01T00:00:00Z"), end: nil)
        #expect(try store.execute(SampleQuery(clinicalType: .procedureRecord, predicate: after2013)).count == 1)
        #expect(try store.execute(SampleQuery(clinicalType: .immunizationRecord, predicate: after2013)).isEmpty)
    }

    @Test("anchored queries see records saved and deleted")
    func anchored() throws {
        let store = HealthStore.inMemory()
        let start = try store.execute(AnchoredObjectQuery(clinicalType: .procedureRecord)).anchor
        let records = try Self.fixtureRecords()
        try store.save(records)
        let added = try store.execute(AnchoredObjectQuery(clinicalType: .procedureRecord, anchor: start, includingResourceData: true))
        #expect(added.samples == [records[0]])
        #expect(try store.deleteClinicalRecords(of: .procedureRecord) == 1)
        let deleted = try store.execute(AnchoredObjectQuery(clinicalType: .procedureRecord, anchor: added.anchor))
        #expect(deleted.samples.isEmpty && deleted.deletedObjects.map(\.uuid) == [records[0].uuid])
    }

    @Test("resources that are not clinical records, or have no date, are refused naming the file", arguments: [
        ("{\"resourceType\": \"Patient\", \"id\": \"p\"}", "not a clinical record type"),
        ("{\"id\": \"p\"}", "no resourceType"),
        ("[1, 2]", "no resourceType"),
        ("{\"resourceType\": \"Condition\"}", "has no date"),
        ("{\"resourceType\": \"Condition\", \"onsetDateTime\": \"2012-13-01\"}", "not a FHIR date"),
        ("{\"resourceType\": \"Condition\", \"onsetDateTime\": \"2012-05-24T10:00\"}", "not a FHIR date"),
    ])
    func refusesResources(json: String, reason: String) {
        let error = expectCadenceError(.malformedInput) {
            _ = try ClinicalRecord(json: Data(json.utf8), source: Source(name: "s"), path: "r.json")
        }
        #expect(error?.path == "r.json")
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
    }

    @Test("FHIR dates: years, months, days, times with a zone; a period gives start and end")
    func fhirDates() throws {
        #expect(try FHIRDate.parse("2012", field: "f", path: nil) == DocumentTests.date("2012-01-01T00:00:00Z"))
        #expect(try FHIRDate.parse("2012-05", field: "f", path: nil) == DocumentTests.date("2012-05-01T00:00:00Z"))
        #expect(try FHIRDate.parse("2014-10-09T14:58:00+11:00", field: "f", path: nil) == DocumentTests.date("2014-10-09T03:58:00Z"))
        #expect(try FHIRDate.parse("2014-10-09T14:58:00.25Z", field: "f", path: nil)
                == DocumentTests.date("2014-10-09T14:58:00Z").addingTimeInterval(0.25))
        let record = try ClinicalRecord(json: Data("""
            {"resourceType": "Coverage", "id": "c", "type": {"text": "Plan"},
             "period": {"start": "2020-01-01", "end": "2020-12-31"}, "meta": {"versionId": "3"}}
            """.utf8), source: Source(name: "s"))
        #expect(record.clinicalType == .coverageRecord && record.displayName == "Plan" && record.version == "3")
        #expect(record.startDate == DocumentTests.date("2020-01-01T00:00:00Z"))
        #expect(record.endDate == DocumentTests.date("2020-12-31T00:00:00Z"))
    }

    // MARK: JSON

    @Test("the strict JSON reader reads what RFC 8259 allows", arguments: [
        ("null", JSONReader.Value.null),
        (" [true, false, -0, 1.5e-3, \"\"] ", .array([.bool(true), .bool(false), .number("-0"), .number("1.5e-3"), .string("")])),
        ("{\"a\": {\"b\": []}}", .object([("a", .object([("b", .array([]))]))])),
        ("\"\\u00e9\\ud83d\\ude00\\n\\\"\\/\"", .string("é😀\n\"/")),
        ("\"zoë\"", .string("zoë")),
    ])
    func readsJSON(text: String, value: JSONReader.Value) throws {
        #expect(try JSONReader.read(Array(text.utf8)) == value)
    }

    @Test("invalid JSON is refused with the reason and line, never a crash", arguments: [
        ("", "ends"), ("{", "ends"), ("[1,]", "unexpected"), ("{\"a\":1,}", "key must be a string"), ("01", "leading zero"),
        ("1.", "'.' without digits"), ("-", "without digits"), ("1e", "exponent"), ("[1] 2", "more after"),
        ("\"\\ud800\"", "unpaired surrogate"), ("\"\\udc00\"", "unpaired surrogate"), ("\"a\nb\"", "control character"),
        ("\"\\x\"", "unknown escape"), ("\"\\u12\"", "four hex digits"), ("{\"a\":1,\"a\":2}", "appears twice"),
        ("nul", "unexpected word"), ("'a'", "unexpected character"), ("{\"a\" 1}", "':'"), ("// c\n1", "unexpected character"),
    ])
    func refusesInvalidJSON(text: String, reason: String) {
        let error = expectCadenceError(.malformedInput) { _ = try JSONReader.read(Array(text.utf8), path: "x.json") }
        #expect(error?.path == "x.json")
        #expect(error?.message.contains(reason) == true, "\(text): \(error?.message ?? "")")
    }

    @Test("hostile JSON: invalid UTF-8, deep nesting and oversize are refused before they cost anything")
    func hostileJSON() throws {
        expectCadenceError(.malformedInput) { _ = try JSONReader.read([0x22, 0xC3, 0x28, 0x22]) }
        let deep = Array(String(repeating: "[", count: 100_000).utf8)
        let error = expectCadenceError(.hostileInput) { _ = try JSONReader.read(deep, path: "deep.json") }
        #expect(error?.message.contains("deeper than 64") == true)
        expectCadenceError(.hostileInput) { _ = try JSONReader.read(Array(repeating: 0x20, count: 100), limits: .init(maxBytes: 16)) }
        #expect(try JSONReader.read(Array((String(repeating: "[", count: 64) + String(repeating: "]", count: 64)).utf8)) != .null)
    }

    // MARK: Import

    @Test("importing a folder: CDA and FHIR files are stored, invalid JSON is reported, a re-import adds nothing")
    func importsFolder() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let records = directory.appendingPathComponent("clinical-records")
        try FileManager.default.createDirectory(at: records, withIntermediateDirectories: true)
        for entry in Self.expected {
            try FileManager.default.copyItem(at: Self.fixture(entry.file), to: records.appendingPathComponent(entry.file))
        }
        try Data("{\"resourceType\": \"Condition\",".utf8).write(to: records.appendingPathComponent("broken.json"))
        try FileManager.default.copyItem(at: DocumentTests.fixture("cda/Sample.xml"),
                                         to: directory.appendingPathComponent("export_cda.xml"))
        let importer = HealthDataImporter(store: .inMemory(), parallelism: 1)
        let summary = try importer.importFile(atPath: directory.path)
        #expect(summary.documents == 1 && summary.clinicalRecords == 4)
        #expect(summary.imported == 5)
        #expect(summary.importedByKind[.document] == 1 && summary.importedByKind[.clinicalRecord] == 4)
        #expect(summary.rejected == 1)
        #expect(summary.rejections.first?.reason.contains("broken.json is not valid JSON") == true)
        #expect(try importer.store.execute(DocumentQuery()).map(\.title) == ["Get Well Clinic: Health Summary"])
        let again = try importer.importFile(atPath: directory.path)
        #expect(again.imported == 0 && again.duplicates == 5)
        let empty = directory.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let error = expectCadenceError(.notFound) { _ = try importer.importFile(atPath: empty.path) }
        #expect(error?.path == empty.path)
    }

    @Test("export.zip: export_cda.xml and clinical-records/*.json are imported beside export.xml")
    func importsArchive() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let zip = directory.appendingPathComponent("export.zip")
        let export = ImportFixtures.export("")
        var items = [ZipFixtures.Item(path: "apple_health_export/export.xml", data: Data(export.utf8)),
                     ZipFixtures.Item(path: "apple_health_export/export_cda.xml",
                                      data: try Data(contentsOf: DocumentTests.fixture("cda/ConsolNoteActivity.xml")))]
        for entry in Self.expected {
            items.append(ZipFixtures.Item(path: "apple_health_export/clinical-records/\(entry.file)",
                                          data: try Data(contentsOf: Self.fixture(entry.file))))
        }
        try ZipFixtures.write(items, to: zip)
        let importer = HealthDataImporter(store: .inMemory(), parallelism: 1)
        let summary = try importer.importFile(atPath: zip.path)
        #expect(summary.documents == 1 && summary.clinicalRecords == 4 && summary.imported == 5)
        #expect(try importer.store.execute(DocumentQuery()).map(\.patientName) == ["Alice Jones Newman"])
        #expect(try importer.store.execute(SampleQuery(clinicalType: .immunizationRecord)).map(\.displayName) == ["Fluvax (Influenza)"])
        #expect(try importer.importFile(atPath: zip.path).imported == 0)
    }

    @Test("an XML file is read as a CDA document when its root element is ClinicalDocument, whatever comes before")
    func sniffsRootElement() {
        let cases: [(String, String?)] = [
            ("<?xml version=\"1.0\"?><!-- <HealthData> --><ClinicalDocument xmlns=\"urn:hl7-org:v3\">", "ClinicalDocument"),
            ("<!DOCTYPE HealthData [<!ELEMENT ClinicalDocument (x)>]>\n<HealthData locale=\"en\">", "HealthData"),
            ("<!DOCTYPE html><cda:ClinicalDocument>", "cda:ClinicalDocument"),
            ("<?xml version=\"1.0\"?> <!-- only a comment -->", nil),
        ]
        for (head, root) in cases { #expect(DocumentFiles.rootElement(of: Array(head.utf8)) == root, "\(head)") }
    }

    @Test("a standalone CDA file imports as one document; a refused one fails the import naming the file")
    func importsStandaloneDocument() throws {
        let importer = HealthDataImporter(store: .inMemory(), parallelism: 1)
        let path = DocumentTests.fixture("cda/ConsolNoteActivity.xml").path
        let summary = try importer.importFile(atPath: path)
        #expect(summary.documents == 1 && summary.imported == 1 && !summary.failed)
        let refused = try importer.importFile(atPath: DocumentTests.fixture("refused/SDTCExtensionsTest_without_namespace.xml").path)
        #expect(refused.failed && refused.rejected == 1)
        #expect(refused.rejections.first?.reason.contains("SDTCExtensionsTest_without_namespace.xml is refused") == true)
    }
}
