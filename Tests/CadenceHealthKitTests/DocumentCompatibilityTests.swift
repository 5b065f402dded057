//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import CadenceHealthKit
import Foundation
import Testing

/// HealthKit's document query, CDA document samples and clinical records, written as HealthKit
/// code writes them, over the published C-CDA and FHIR examples of `Tests/Fixtures/documents`.
@Suite("HKDocumentQuery and HKClinicalRecord")
struct DocumentCompatibilityTests {
    static func fixture(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/documents/\(path)"))
    }

    static let documentFiles = ["cda/ConsolNoteActivity.xml", "cda/Sample.xml", "cda/SDTCExtensionsTest.xml"]

    /// The fixture documents, each saved from `copies` sources (distinct samples of the same XML).
    static func store(copies: Int = 1) throws -> (HealthStore, [CDADocumentSample]) {
        let store = HealthStore.inMemory()
        var documents: [CDADocumentSample] = []
        for copy in 0..<copies {
            for file in documentFiles {
                documents.append(try CDADocumentSample(data: fixture(file), source: Source(name: "Portal \(copy)")))
            }
        }
        try store.save(documents)
        return (store, documents)
    }

    /// One call of a document query's handler.
    struct Call: Sendable {
        var documents: [HKCDADocumentSample]
        var done: Bool
        var error: String?
    }

    final class Calls: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [Call] = []
        func add(_ call: Call) { lock.withLock { items.append(call) } }
        var all: [Call] { lock.withLock { items } }
    }

    /// Runs `query` on `store` and returns every call of its handler, up to the one with `done`.
    static func run(_ store: HealthStore, predicate: NSPredicate?, limit: Int = HKObjectQueryNoLimit,
                    sortDescriptors: [NSSortDescriptor]? = nil, includeDocumentData: Bool = false) async throws -> [Call] {
        let type = try #require(HKObjectType.documentType(forIdentifier: .CDA))
        let calls = Calls()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let query = HKDocumentQuery(documentType: type, predicate: predicate, limit: limit, sortDescriptors: sortDescriptors,
                                        includeDocumentData: includeDocumentData) { _, documents, done, error in
                calls.add(Call(documents: (documents ?? []).compactMap { $0 as? HKCDADocumentSample }, done: done,
                               error: error.map { "\($0)" }))
                if done { continuation.resume() }
            }
            HKHealthStore(store: store).execute(query)
        }
        return calls.all
    }

    @Test("Each document predicate selects what a naive filter of the headers selects; fields without data unless asked")
    func predicatesAgainstNaiveFilter() async throws {
        let (store, documents) = try Self.store()
        let fields: [(KeyPath<CDADocumentSample, String>, KeyPath<HKCDADocument, String>, (String) -> NSPredicate)] = [
            (\.title, \.title, HKQuery.predicateForCDADocuments(withTitle:)),
            (\.patientName, \.patientName, HKQuery.predicateForCDADocuments(withPatientName:)),
            (\.authorName, \.authorName, HKQuery.predicateForCDADocuments(withAuthorName:)),
            (\.custodianName, \.custodianName, HKQuery.predicateForCDADocuments(withCustodianName:)),
        ]
        for (field, mirrored, predicate) in fields {
            for value in Set(documents.map { $0[keyPath: field] } + ["Nobody"]) {
                let calls = try await Self.run(store, predicate: predicate(value))
                #expect(calls.allSatisfy { $0.error == nil })
                #expect(calls.map(\.done).last == true && calls.dropLast().allSatisfy { !$0.done })
                let found = calls.flatMap(\.documents)
                #expect(Set(found.map(\.uuid)) == Set(documents.filter { $0[keyPath: field] == value }.map(\.uuid)), "\(value)")
                for sample in found {
                    let document = try #require(sample.document)
                    #expect(document.documentData == nil)
                    #expect(document[keyPath: mirrored] == value)
                }
            }
        }
    }

    @Test("Results come in batches of at most 100, the last with done; with data, the XML byte for byte; sorted and limited")
    func batchesDataSortAndLimit() async throws {
        let (store, documents) = try Self.store(copies: 70)
        let calls = try await Self.run(store, predicate: nil, includeDocumentData: true)
        #expect(calls.map(\.documents.count) == [100, 100, 10])
        #expect(calls.map(\.done) == [false, false, true])
        let found = calls.flatMap(\.documents)
        #expect(Set(found.map(\.uuid)) == Set(documents.map(\.uuid)))
        for sample in found {
            let stored = try #require(documents.first { $0.uuid == sample.uuid })
            #expect(sample.document?.documentData == stored.documentData)
            #expect(sample.startDate == stored.startDate && sample.sourceRevision.source.name == stored.source.name)
        }
        let newest = try await Self.run(store, predicate: nil, limit: 3,
                                        sortDescriptors: [NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)])
        let latest = try #require(documents.map(\.startDate).max())
        #expect(newest.flatMap(\.documents).map(\.startDate) == [latest, latest, latest])
        #expect(newest.map(\.done) == [true])
    }

    @Test("An empty result is one call with done; a predicate the factories did not make is an error")
    func emptyAndErrors() async throws {
        let (store, _) = try Self.store()
        let empty = try await Self.run(store, predicate: HKQuery.predicateForCDADocuments(withTitle: "none"))
        #expect(empty.count == 1 && empty[0].documents.isEmpty && empty[0].done && empty[0].error == nil)
        let refused = try await Self.run(store, predicate: NSPredicate(value: true))
        #expect(refused.count == 1 && refused[0].done && refused[0].error != nil)
    }

    @Test("A CDA document sample made from XML is saved, read back by a sample query, and refused when it is not CDA")
    func saveAndReadBack() async throws {
        let store = HealthStore.inMemory()
        let healthStore = HKHealthStore(store: store)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let sample = try HKCDADocumentSample(data: Self.fixture("cda/Sample.xml"), start: start, end: start, metadata: nil)
        #expect(sample.document?.authorName == "Henry Seven")
        try await healthStore.save(sample)
        let type = try #require(HKObjectType.documentType(forIdentifier: .CDA))
        let read: [HKSample] = try await withCheckedThrowingContinuation { continuation in
            healthStore.execute(HKSampleQuery(sampleType: type, predicate: nil, limit: HKObjectQueryNoLimit,
                                              sortDescriptors: nil) { _, samples, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: samples ?? []) }
            })
        }
        let back = try #require(read.first as? HKCDADocumentSample)
        #expect(read.count == 1 && back.uuid == sample.uuid)
        #expect(back.document?.title == "Get Well Clinic: Health Summary")
        #expect(back.document?.documentData == (try Self.fixture("cda/Sample.xml")))
        #expect(throws: CadenceError.self) {
            try HKCDADocumentSample(data: Self.fixture("refused/SDTCExtensionsTest_without_namespace.xml"),
                                    start: start, end: start, metadata: nil)
        }
    }

    @Test("Clinical records: a sample query by clinical type and FHIR resource type, with the resource's JSON")
    func clinicalRecords() async throws {
        let store = HealthStore.inMemory()
        let files = ["condition-example.json", "immunization-example.json", "observation-example.json", "procedure-example.json"]
        let records = try files.map { try ClinicalRecord(json: Self.fixture("fhir/" + $0), source: Source(name: "FHIR")) }
        try store.save(records)
        let healthStore = HKHealthStore(store: store)
        func query(_ identifier: HKClinicalTypeIdentifier, _ predicate: NSPredicate?) async throws -> [HKClinicalRecord] {
            let type = try #require(HKObjectType.clinicalType(forIdentifier: identifier))
            let samples: [HKSample] = try await withCheckedThrowingContinuation { continuation in
                healthStore.execute(HKSampleQuery(sampleType: type, predicate: predicate, limit: HKObjectQueryNoLimit,
                                                  sortDescriptors: nil) { _, samples, error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: samples ?? []) }
                })
            }
            return samples.compactMap { $0 as? HKClinicalRecord }
        }
        let vital = try await query(.vitalSignRecord, nil)
        #expect(vital.map(\.displayName) == ["Body Weight"])
        #expect(vital.first?.fhirResource?.resourceType == .observation)
        #expect(vital.first?.fhirResource?.identifier == "example")
        #expect(vital.first?.fhirResource?.data == (try Self.fixture("fhir/observation-example.json")))
        #expect(vital.first?.clinicalType == HKObjectType.clinicalType(forIdentifier: .vitalSignRecord))
        let conditions = HKQuery.predicateForClinicalRecords(withFHIRResourceType: .condition)
        #expect(try await query(.conditionRecord, conditions).map(\.displayName) == ["Burnt Ear"])
        #expect(try await query(.procedureRecord, conditions).isEmpty)
    }
}
