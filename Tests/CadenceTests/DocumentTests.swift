//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// CDA documents: the header read from documents written by others, hostile documents refused,
/// storage (bodies in the payload section, identity, deletes, damage) and document queries
/// against a naive filter.
@Suite("CDA documents")
struct DocumentTests {
    static func fixture(_ path: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/documents/\(path)")
    }

    static func date(_ text: String) -> Date {
        guard let date = ISO8601DateFormatter().date(from: text) else { preconditionFailure(text) }
        return date
    }

    /// The fixtures and what their headers say, as written in the files: the first has CRLF line
    /// ends, two authors and a time zone offset; the last names neither its patient nor its author.
    static let expected: [(file: String, title: String, patient: String, author: String, custodian: String, start: String)] = [
        ("cda/ConsolNoteActivity.xml", "Continuity of Care Document (C-CDA R2.1)", "Alice Jones Newman", "Albert Davis",
         "Neighborhood Physicians Practice", "2021-09-20T20:45:40Z"),
        ("cda/Sample.xml", "Get Well Clinic: Health Summary", "Isabella Isa Jones", "Henry Seven", "Get Well Clinic",
         "2012-08-06T00:00:00Z"),
        ("cda/SDTCExtensionsTest.xml", "Get Well Clinic: Health Summary", "", "", "Get Well Clinic",
         "2012-08-06T00:00:00Z"),
    ]

    static func fixtureDocuments() throws -> [CDADocumentSample] {
        try expected.map { entry in
            try CDADocumentSample(data: Data(contentsOf: fixture(entry.file)), source: Source(name: "C-CDA examples"),
                                  path: entry.file)
        }
    }

    @Test("C-CDA documents written by others: title, patient, author, custodian and effectiveTime as in the files")
    func readsPublishedExamples() throws {
        for (document, entry) in zip(try Self.fixtureDocuments(), Self.expected) {
            #expect(document.title == entry.title)
            #expect(document.patientName == entry.patient)
            #expect(document.authorName == entry.author)
            #expect(document.custodianName == entry.custodian)
            #expect(document.startDate == Self.date(entry.start), "\(entry.file)")
            #expect(document.endDate == document.startDate)
        }
    }

    @Test("a root without the urn:hl7-org:v3 namespace (a fixture with its namespace removed) is refused, naming the file")
    func refusesRootWithoutNamespace() throws {
        let path = "refused/SDTCExtensionsTest_without_namespace.xml"
        let error = expectCadenceError(.malformedInput) {
            _ = try CDADocumentSample(data: Data(contentsOf: Self.fixture(path)), source: Source(name: "s"), path: path)
        }
        #expect(error?.path == path)
        #expect(error?.message.contains("not <ClinicalDocument> in urn:hl7-org:v3") == true)
    }

    static func document(title: String? = "Note", patient: String = "<given>Ann</given><family>Lee</family>",
                         time: String? = "20240102030405+0100", body: String = "", prolog: String = "") -> Data {
        Data("""
            \(prolog)<ClinicalDocument xmlns="urn:hl7-org:v3">\(title.map { "<title>\($0)</title>" } ?? "")\
            \(time.map { "<effectiveTime value=\"\($0)\"/>" } ?? "")\
            <recordTarget><patientRole><patient><name>\(patient)</name></patient></patientRole></recordTarget>\
            \(body)</ClinicalDocument>
            """.utf8)
    }

    @Test("hostile and malformed documents are refused with the file and the reason", arguments: [
        (document(prolog: "<!DOCTYPE ClinicalDocument [<!ENTITY x \"y\">]>"), CadenceError.Code.hostileInput, "DTD"),
        (document(title: "&x;"), .malformedInput, "cannot be read"),
        (document(title: nil), .malformedInput, "no title"),
        (document(title: "  "), .malformedInput, "no title"),
        (document(body: String(repeating: "<a>", count: 300) + String(repeating: "</a>", count: 300)), .hostileInput, "deeper"),
        (document(body: "<a></b>"), .malformedInput, "does not match"),
        (Data(document().dropLast(5)), .malformedInput, "truncated"),
        (Data("<ClinicalDocument xmlns=\"urn:other\"><title>t</title></ClinicalDocument>".utf8), .malformedInput, "urn:other"),
        (Data("<Document xmlns=\"urn:hl7-org:v3\"><title>t</title></Document>".utf8), .malformedInput, "root"),
        (document(time: "2024-01-02"), .malformedInput, "effectiveTime"),
        (document(time: nil), .malformedInput, "no effectiveTime"),
        (Data(), .malformedInput, "no XML element"),
    ])
    func refusesHostileDocuments(bytes: Data, code: CadenceError.Code, reason: String) {
        let error = expectCadenceError(code) { _ = try CDADocumentSample(data: bytes, source: Source(name: "s"), path: "d.xml") }
        #expect(error?.path == "d.xml")
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
    }

    @Test("an oversized document is refused before it is read")
    func refusesOversized() {
        let error = expectCadenceError(.hostileInput) {
            _ = try CDADocumentSample(data: Self.document(body: String(repeating: " ", count: 5_000)), source: Source(name: "s"),
                                      path: "big.xml", limits: .init(maxBytes: 4_096))
        }
        #expect(error?.path == "big.xml")
    }

    @Test("names: prefixes and suffixes are left out, CDATA and character references decoded, a plain name kept")
    func names() throws {
        let document = try CDADocumentSample(data: Self.document(
            patient: "<prefix>Dr.</prefix><given>Zoë</given><given><![CDATA[A&B]]></given><family>O&#8217;Neil</family><suffix>MD</suffix>"),
            source: Source(name: "s"))
        #expect(document.patientName == "Zoë A&B O’Neil")
        let plain = try CDADocumentSample(data: Self.document(patient: "  Ann\n  Lee "), source: Source(name: "s"))
        #expect(plain.patientName == "Ann Lee")
        #expect(plain.authorName == "" && plain.custodianName == "")
    }

    @Test("HL7 times: every prefix, fractions and offsets; a fallback date for a document without one")
    func hl7Times() throws {
        #expect(try HL7Time.parse("2005") == Self.date("2005-01-01T00:00:00Z"))
        #expect(try HL7Time.parse("200503") == Self.date("2005-03-01T00:00:00Z"))
        #expect(try HL7Time.parse("20050329") == Self.date("2005-03-29T00:00:00Z"))
        #expect(try HL7Time.parse("2005032917") == Self.date("2005-03-29T17:00:00Z"))
        #expect(try HL7Time.parse("200503291715-0500") == Self.date("2005-03-29T22:15:00Z"))
        #expect(try HL7Time.parse("20050329171504.5+0130") == Self.date("2005-03-29T15:45:04Z").addingTimeInterval(0.5))
        for bad in ["", "05", "2005-03", "20051301", "20050230", "2005032917150", "20050329+05", "20050329x"] {
            expectCadenceError(.malformedInput) { _ = try HL7Time.parse(bad) }
        }
        let fallback = Self.date("2020-01-01T00:00:00Z")
        let document = try CDADocumentSample(data: Self.document(time: nil), startDate: fallback,
                                             endDate: fallback.addingTimeInterval(60), source: Source(name: "s"))
        #expect(document.startDate == fallback && document.endDate == fallback.addingTimeInterval(60))
    }

    // MARK: Storage

    @Test("saved documents list without their bytes, read them on request, and saving them again adds nothing")
    func saveAndList() throws {
        let store = HealthStore.inMemory()
        let documents = try Self.fixtureDocuments()
        #expect(try store.save(documents).saved == documents.count)
        let again = try store.save(try Self.fixtureDocuments())
        #expect(again.saved == 0 && again.duplicates == documents.count)
        let listed = try store.execute(DocumentQuery())
        #expect(listed.count == documents.count)
        #expect(listed.allSatisfy { $0.documentData == nil })
        // By start date; two documents of the same date keep the order they were saved in.
        let sorted = documents.enumerated().sorted { ($0.element.startDate, $0.offset) < ($1.element.startDate, $1.offset) }
            .map(\.element)
        #expect(listed.map(\.uuid) == sorted.map(\.uuid))
        let full = try store.execute(DocumentQuery(includeDocumentData: true))
        #expect(full == sorted)
        let alice = try store.execute(DocumentQuery(predicate: .documentPatientName("Alice Jones Newman")))
        #expect(alice.map(\.title) == ["Continuity of Care Document (C-CDA R2.1)"])
        #expect(try store.execute(DocumentQuery(predicate: .documentAuthorName("Henry Seven"))).count == 1)
        #expect(try store.execute(DocumentQuery(predicate: .documentCustodianName("Get Well Clinic"))).count == 2)
        #expect(try store.execute(DocumentQuery(predicate: .documentTitle("Continuity of Care Document (C-CDA R2.1)"),
                                                includeDocumentData: true)).first?.documentData == sorted.last?.documentData)
        #expect(try store.deleteDocuments(matching: .documentTitle("Get Well Clinic: Health Summary")) == 2)
        #expect(try store.execute(DocumentQuery()).map(\.patientName) == ["Alice Jones Newman"])
        // A deleted document is not stored again by a later save.
        #expect(try store.save(try Self.fixtureDocuments()).keptDeleted == 2)
    }

    @Test("documents read back the same after a log replay, and from chunks after a flush")
    func reopen() throws {
        let memory = MemoryFileSystem()
        var options = HealthStore.Options()
        options.flushThreshold = .max
        var store: HealthStore? = try HealthStore.open(at: "/s", options: options, fileSystem: memory)
        try store?.save(try Self.fixtureDocuments())
        let expected = try store?.execute(DocumentQuery(includeDocumentData: true))
        // Dropped without a flush: reopening replays the log, bodies and all.
        store = nil
        let replayed = try HealthStore.open(at: "/s", options: options, fileSystem: memory)
        #expect(try replayed.execute(DocumentQuery(includeDocumentData: true)) == expected)
        try replayed.flush()
        #expect(try memory.contentsOfDirectory("/s").contains { $0.hasPrefix("chunk-") })
        #expect(try replayed.execute(DocumentQuery(includeDocumentData: true)) == expected)
        #expect(replayed.verify().isEmpty)
    }

    @Test("a flipped byte in a document body: listings without data still read, bodies, verify and repair name the file")
    func damagedBody() throws {
        let memory = MemoryFileSystem()
        let store = try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: memory)
        try store.save(try Self.fixtureDocuments())
        try store.close()
        let name = try #require(try memory.contentsOfDirectory("/s").first { $0.hasPrefix("chunk-") })
        let path = "/s/" + name
        var bytes = try memory.readFile(path)
        // The last byte of the file is in the last payload block: a document body.
        bytes[bytes.count - 1] ^= 0x40
        memory.overwrite(path, with: bytes)

        let reader = try HealthStore.open(at: "/s", options: .readOnly, fileSystem: memory)
        let listed = try reader.execute(DocumentQuery(predicate: .documentCustodianName("Get Well Clinic")))
        #expect(listed.count == 2)
        let error = expectCadenceError(.corruptFile) { _ = try reader.execute(DocumentQuery(includeDocumentData: true)) }
        #expect(error?.path == path)
        #expect(reader.verify().map(\.path) == [path])
        try reader.close()
        let report = try HealthStore.repair(at: "/s", fileSystem: memory)
        #expect(report.damage.map(\.path) == [path])
        #expect(try HealthStore.open(at: "/s", options: .readOnly, fileSystem: memory).verify().isEmpty)
    }

    @Test("anchored queries see documents saved and deleted")
    func anchored() throws {
        let store = HealthStore.inMemory()
        let first = try store.execute(AnchoredObjectQuery(documentsMatching: .all))
        #expect(first.samples.isEmpty)
        let documents = try Self.fixtureDocuments()
        try store.save(documents)
        let added = try store.execute(AnchoredObjectQuery(documentsMatching: .all, anchor: first.anchor, includingDocumentData: true))
        #expect(Set(added.samples) == Set(documents))
        try store.deleteDocuments(matching: .uuids([documents[0].uuid]))
        let deleted = try store.execute(AnchoredObjectQuery(documentsMatching: .all, anchor: added.anchor))
        #expect(deleted.samples.isEmpty)
        #expect(deleted.deletedObjects.map(\.uuid) == [documents[0].uuid])
    }

    @Test("observers and long-running anchored queries hear of document and clinical record changes only")
    func observers() async throws {
        let store = HealthStore.inMemory()
        var documents = store.observeDocuments().makeAsyncIterator()
        var records = store.observe([ClinicalType.procedureRecord]).makeAsyncIterator()
        var alice = store.anchoredUpdates(AnchoredObjectQuery(documentsMatching: .documentPatientName("Alice Jones Newman")))
            .makeAsyncIterator()
        #expect(try await documents.next()?.typeIdentifiers == [CDADocumentSample.typeIdentifier])
        #expect(try await records.next()?.typeIdentifiers == [ClinicalType.procedureRecord.identifier])
        #expect(try await alice.next()?.samples.isEmpty == true)
        let fixtures = try Self.fixtureDocuments()
        try store.save([fixtures[1]])  // Isabella Isa Jones's
        #expect(try await documents.next()?.typeIdentifiers == [CDADocumentSample.typeIdentifier])
        try store.save(try ClinicalRecordTests.fixtureRecords())
        #expect(try await records.next()?.typeIdentifiers == [ClinicalType.procedureRecord.identifier])
        try store.save([fixtures[0]])
        #expect(try await documents.next()?.typeIdentifiers == [CDADocumentSample.typeIdentifier])
        // The first save changed nothing the query selects: its next update is Alice's document.
        #expect(try await alice.next()?.samples.map(\.uuid) == [fixtures[0].uuid])
    }

    // MARK: Predicates against a naive filter

    static let names = ["Ann Lee", "Bo Chen", "Zoë O’Neil", ""]
    static let titles = ["Progress Note", "Discharge Summary", "Lab"]

    static func randomDocument(_ random: inout TestRandom, index: Int) throws -> CDADocumentSample {
        func pick(_ values: [String]) -> String { values[Int.random(in: 0..<values.count, using: &random)] }
        let (patient, author, custodian, title) = (pick(names), pick(names), pick(names), pick(titles))
        let start = Date(timeIntervalSince1970: 1_600_000_000 + Double(Int.random(in: 0..<1_000, using: &random)) * 3_600)
        func person(_ name: String) -> String {
            name.split(separator: " ").enumerated().map { $0.offset == 0 ? "<given>\($0.element)</given>" : "<family>\($0.element)</family>" }
                .joined()
        }
        let body = """
            <author><assignedAuthor><assignedPerson><name>\(person(author))</name></assignedPerson></assignedAuthor></author>\
            <custodian><assignedCustodian><representedCustodianOrganization><name>\(custodian)</name>\
            </representedCustodianOrganization></assignedCustodian></custodian><component><p>\(index)</p></component>
            """
        return try CDADocumentSample(data: document(title: title, patient: person(patient), time: nil, body: body),
                                     startDate: start, endDate: start.addingTimeInterval(600),
                                     source: Source(name: pick(["A", "B"])))
    }

    @Test("document predicates select what a naive filter selects, in order, cut to the limit")
    func predicatesAgainstNaiveFilter() throws {
        var random = TestRandom(seed: 17)
        let store = HealthStore.inMemory()
        let documents = try (0..<120).map { try Self.randomDocument(&random, index: $0) }
        try store.save(Array(documents[..<60]))
        try store.save(Array(documents[60...]))
        for round in 0..<60 {
            func pick(_ values: [String]) -> String { values[Int.random(in: 0..<values.count, using: &random)] }
            var predicate = SamplePredicate.all
            var filters: [(CDADocumentSample) -> Bool] = []
            if Bool.random(using: &random) {
                let name = pick(Self.names)
                predicate = predicate && .documentPatientName(name)
                filters.append { $0.patientName == name }
            }
            if Bool.random(using: &random) {
                let name = pick(Self.names)
                predicate = predicate && .documentAuthorName(name)
                filters.append { $0.authorName == name }
            }
            if Int.random(in: 0..<3, using: &random) == 0 {
                let name = pick(Self.names)
                predicate = predicate && !SamplePredicate.documentCustodianName(name)
                filters.append { $0.custodianName != name }
            }
            if Bool.random(using: &random) {
                let title = pick(Self.titles)
                predicate = predicate && .documentTitle(title)
                filters.append { $0.title == title }
            }
            if Bool.random(using: &random) {
                let from = Date(timeIntervalSince1970: 1_600_000_000 + Double(Int.random(in: 0..<1_000, using: &random)) * 3_600)
                let to = from.addingTimeInterval(Double(Int.random(in: 1..<400, using: &random)) * 3_600)
                predicate = predicate && .samples(start: from, end: to, options: .strictStartDate)
                filters.append { $0.startDate >= from && $0.endDate > from && $0.startDate < to }
            }
            if Bool.random(using: &random) {
                let source = pick(["A", "B"])
                predicate = predicate && .sources(named: [source])
                filters.append { $0.source.name == source }
            }
            let limit = Int.random(in: 0..<3, using: &random) == 0 ? Int.random(in: 1..<10, using: &random) : 0
            let ascending = Bool.random(using: &random)
            let expected = documents.filter { document in filters.allSatisfy { $0(document) } }
                .enumerated().sorted { left, right in
                    left.element.endDate != right.element.endDate
                        ? (ascending ? left.element.endDate < right.element.endDate : left.element.endDate > right.element.endDate)
                        : left.offset < right.offset
                }.map(\.element)
            let listed = try store.execute(DocumentQuery(predicate: predicate, limit: limit,
                                                         sortDescriptors: [.endDate(ascending: ascending)]))
            let cut = limit > 0 ? Array(expected.prefix(limit)) : expected
            #expect(listed.map(\.uuid) == cut.map(\.uuid), "round \(round): \(predicate)")
        }
    }
}
