//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

/// Documents and clinical records through the command line: `cadence import` of HL7's CDA
/// examples and the FHIR specification's resources, and `cadence documents` with its name
/// predicates, formats and `--xml`.
@Suite("Documents on the command line")
struct DocumentsCommandTests {
    static func fixture(_ path: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/documents/\(path)").path
    }

    static let documents = ["cda/Unstructured_Document_reference.xml", "cda/Diagnostic_Imaging_Report.xml"]

    @Test("import counts documents and clinical records; documents lists, selects by name and prints the XML")
    func importAndList() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = directory.path("store")
        let imported = try CadenceBinary.succeed(["import"] + Self.documents.map(Self.fixture) + [Self.fixture("fhir"),
                                                  "--store", store, "--format", "json"]).jsonObject()
        let totals = try #require(imported["totals"] as? [String: Any])
        #expect(totals["imported"] as? Int == 6)
        let files = try #require(imported["files"] as? [[String: Any]])
        #expect(files.compactMap { $0["documents"] as? Int }.reduce(0, +) == 2)
        #expect(files.compactMap { $0["clinicalRecords"] as? Int }.reduce(0, +) == 4)

        let listed = try CadenceBinary.succeed(["documents", "--store", store, "--format", "json"]).jsonObject()
        let rows = try #require(listed["documents"] as? [[String: Any]])
        #expect(rows.map { $0["title"] as? String } == ["Chest X-Ray, PA and LAT View",
                                                         "Community Health and Hospitals: Discharge Summary (UD)"])
        #expect(rows.allSatisfy { $0["xml"] == nil })
        let henry = try CadenceBinary.succeed(["documents", "--store", store, "--patient", "Henry L Levin", "--xml",
                                               "--format", "json"]).jsonObject()
        let selected = try #require(henry["documents"] as? [[String: Any]])
        #expect(selected.map { $0["custodianName"] as? String } == ["Community Health and Hospitals"])
        let xml = try String(contentsOfFile: Self.fixture(Self.documents[0]), encoding: .utf8)
        #expect(selected.first?["xml"] as? String == xml)
        let csv = try CadenceBinary.succeed(["documents", "--store", store, "--custodian", "Good Health Clinic", "--format", "csv"])
        #expect(csv.standardOutput.hasPrefix("title,patientName,authorName,custodianName,startDate,endDate,sourceName,uuid\n"))
        #expect(csv.standardOutput.contains("\"Chest X-Ray, PA and LAT View\",Adam Everyman,Henry Seven,Good Health Clinic,"))
        let none = try CadenceBinary.succeed(["documents", "--store", store, "--author", "Nobody", "--format", "json"]).jsonObject()
        #expect((none["documents"] as? [Any])?.isEmpty == true)
        let table = try CadenceBinary.succeed(["documents", "--store", store, "--from", "2010-01-01"])
        #expect(table.standardOutput.contains("Henry L Levin") && !table.standardOutput.contains("Adam Everyman"))

        let vital = try CadenceBinary.succeed(["documents", "--store", store, "--clinical", "vitalSignRecord", "--xml",
                                               "--format", "json"]).jsonObject()
        let records = try #require(vital["clinicalRecords"] as? [[String: Any]])
        #expect(records.map { $0["displayName"] as? String } == ["Body Weight"])
        #expect((records.first?["json"] as? String)?.contains("\"resourceType\": \"Observation\"") == true)
        let conditions = try CadenceBinary.succeed(["documents", "--store", store, "--clinical", "conditionRecord",
                                                    "--resource-type", "Observation", "--format", "json"]).jsonObject()
        #expect((conditions["clinicalRecords"] as? [Any])?.isEmpty == true)

        let again = try CadenceBinary.succeed(["import"] + Self.documents.map(Self.fixture) + ["--store", store, "--format", "json"])
            .jsonObject()
        #expect((again["totals"] as? [String: Any])?["imported"] as? Int == 0)
    }

    @Test("a refused CDA file or invalid FHIR JSON fails the import, naming the file and the reason")
    func refusedFiles() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let broken = directory.path("broken.json")
        try Data("{\"resourceType\": ".utf8).write(to: URL(fileURLWithPath: broken))
        let result = try CadenceBinary.run(["import", Self.fixture("refused/US_Realm_Header_Example.xml"), broken,
                                            "--store", directory.path("store")])
        #expect(result.status != 0)
        let output = result.standardOutput + result.standardError
        #expect(output.contains("US_Realm_Header_Example.xml is refused: its root is <ClinicalDocument> in no namespace"))
        #expect(output.contains("broken.json is not valid JSON"))
        let unknown = try CadenceBinary.run(["documents", "--store", directory.path("store"), "--clinical", "x"])
        #expect(unknown.status != 0 && unknown.standardError.contains("Unknown clinical record type x"))
    }
}
