//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

/// Documents and clinical records through the command line: `cadence import` of C-CDA documents
/// written by others and the FHIR specification's resources, and `cadence documents` with its name
/// predicates, formats and `--xml`.
@Suite("Documents on the command line")
struct DocumentsCommandTests {
    static func fixture(_ path: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/documents/\(path)").path
    }

    static let documents = ["cda/ConsolNoteActivity.xml", "cda/Sample.xml"]

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
        #expect(rows.map { $0["title"] as? String } == ["Get Well Clinic: Health Summary",
                                                         "Continuity of Care Document (C-CDA R2.1)"])
        #expect(rows.allSatisfy { $0["xml"] == nil })
        let alice = try CadenceBinary.succeed(["documents", "--store", store, "--patient", "Alice Jones Newman", "--xml",
                                               "--format", "json"]).jsonObject()
        let selected = try #require(alice["documents"] as? [[String: Any]])
        #expect(selected.map { $0["custodianName"] as? String } == ["Neighborhood Physicians Practice"])
        let xml = try String(contentsOfFile: Self.fixture(Self.documents[0]), encoding: .utf8)
        #expect(selected.first?["xml"] as? String == xml)
        let csv = try CadenceBinary.succeed(["documents", "--store", store, "--custodian", "Get Well Clinic", "--format", "csv"])
        #expect(csv.standardOutput.hasPrefix("title,patientName,authorName,custodianName,startDate,endDate,sourceName,uuid\n"))
        #expect(csv.standardOutput.contains("\nGet Well Clinic: Health Summary,Isabella Isa Jones,Henry Seven,Get Well Clinic,"))
        let none = try CadenceBinary.succeed(["documents", "--store", store, "--author", "Nobody", "--format", "json"]).jsonObject()
        #expect((none["documents"] as? [Any])?.isEmpty == true)
        let table = try CadenceBinary.succeed(["documents", "--store", store, "--from", "2020-01-01"])
        #expect(table.standardOutput.contains("Alice Jones Newman") && !table.standardOutput.contains("Isabella Isa Jones"))

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
        let result = try CadenceBinary.run(["import", Self.fixture("refused/SDTCExtensionsTest_without_namespace.xml"), broken,
                                            "--store", directory.path("store")])
        #expect(result.status != 0)
        let output = result.standardOutput + result.standardError
        #expect(output.contains("SDTCExtensionsTest_without_namespace.xml is refused: its root is <ClinicalDocument> in no namespace"))
        #expect(output.contains("broken.json is not valid JSON"))
        let unknown = try CadenceBinary.run(["documents", "--store", directory.path("store"), "--clinical", "x"])
        #expect(unknown.status != 0 && unknown.standardError.contains("Unknown clinical record type x"))
    }
}
