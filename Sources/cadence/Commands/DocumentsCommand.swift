//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Cadence
import Foundation

/// `cadence documents`: the stored CDA documents (or clinical records), oldest first.
struct DocumentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "documents",
        abstract: "List the stored clinical documents (CDA) or clinical records (FHIR).",
        discussion: """
            Documents are listed with their title, patient, author, custodian and dates; the \
            name options select exact matches, as HealthKit's document predicates do. Document \
            bodies are stored apart and are not read unless --xml asks for them (then each \
            document's XML follows its row, or JSON gains "xml"). --clinical lists the clinical \
            records of one type (allergyRecord, conditionRecord, immunizationRecord, \
            labResultRecord, medicationRecord, procedureRecord, vitalSignRecord, coverageRecord), \
            --resource-type selects by FHIR resourceType, and --xml then prints their JSON.
            """)

    @OptionGroup var storeOptions: StoreOptions

    @OptionGroup var filter: SampleFilterOptions

    @Option(help: ArgumentHelp("Only documents with this exact title.", valueName: "title"))
    var title: String?

    @Option(help: ArgumentHelp("Only documents with this exact patient name (given names, then family).", valueName: "name"))
    var patient: String?

    @Option(help: ArgumentHelp("Only documents with this exact author name.", valueName: "name"))
    var author: String?

    @Option(help: ArgumentHelp("Only documents with this exact custodian name.", valueName: "name"))
    var custodian: String?

    @Option(help: ArgumentHelp("List the clinical records of this type instead of documents.", valueName: "type"))
    var clinical: String?

    @Option(help: ArgumentHelp("With --clinical, only records of this FHIR resource type.", valueName: "resourceType"))
    var resourceType: String?

    @Option(help: ArgumentHelp("The most to list; 0 lists all.", valueName: "count"))
    var limit = 0

    @Option(help: ArgumentHelp("The output format: table, csv or json.", valueName: "format"))
    var format: OutputFormat = .table

    @Flag(help: "Print each document's XML (a clinical record's JSON) too.")
    var xml = false

    func validate() throws {
        try format.require([.table, .csv, .json], in: "documents")
        if clinical == nil && resourceType != nil {
            throw ValidationError("--resource-type applies to clinical records: add --clinical TYPE.")
        }
        if clinical != nil && [title, patient, author, custodian].contains(where: { $0 != nil }) {
            throw ValidationError("--title, --patient, --author and --custodian apply to documents, not clinical records.")
        }
    }

    func run() throws {
        let clinicalType = try clinical.map { name in
            guard let type = ClinicalType(identifier: name) else {
                throw CadenceError(.unknownType, "Unknown clinical record type \(name): use one of "
                                   + ClinicalType.allCases.map(\.rawValue).joined(separator: ", ") + ".")
            }
            return type
        }
        let store = try storeOptions.openForReading()
        let resolved = try filter.resolve()
        var output = StandardOutput()
        defer { output.flush() }
        if let type = clinicalType {
            let predicate = resourceType.map { resolved.predicate && .fhirResourceType($0) } ?? resolved.predicate
            let records = try store.execute(SampleQuery(clinicalType: type, predicate: predicate, limit: limit,
                                                        includingResourceData: xml))
            return DocumentOutput.write(records, format: format, timeZone: resolved.timeZone, into: &output)
        }
        var predicate = resolved.predicate
        if let title { predicate = predicate && .documentTitle(title) }
        if let patient { predicate = predicate && .documentPatientName(patient) }
        if let author { predicate = predicate && .documentAuthorName(author) }
        if let custodian { predicate = predicate && .documentCustodianName(custodian) }
        let documents = try store.execute(DocumentQuery(predicate: predicate, limit: limit, includeDocumentData: xml))
        DocumentOutput.write(documents, format: format, timeZone: resolved.timeZone, into: &output)
    }
}

/// Documents and clinical records as JSON, CSV or a table.
enum DocumentOutput {
    private static func text(_ data: Data?) -> String? { data.map { String(decoding: $0, as: UTF8.self) } }

    /// Writes documents in `format`; their XML when read.
    static func write(_ documents: [CDADocumentSample], format: OutputFormat, timeZone: TimeZone,
                      into output: inout StandardOutput) {
        let rows = documents.map { document in
            [document.title, document.patientName, document.authorName, document.custodianName,
             formatRFC3339(document.startDate.timestamp, timeZone: timeZone),
             formatRFC3339(document.endDate.timestamp, timeZone: timeZone), document.source.name, document.uuid.uuidString]
        }
        write(rows, bodies: documents.map { text($0.documentData) }, key: "documents", bodyKey: "xml",
              columns: ["title", "patientName", "authorName", "custodianName", "startDate", "endDate", "sourceName", "uuid"],
              headings: ["Title", "Patient", "Author", "Custodian", "Start", "End", "Source", "UUID"],
              format: format, into: &output)
    }

    /// Writes clinical records in `format`; their JSON when read.
    static func write(_ records: [ClinicalRecord], format: OutputFormat, timeZone: TimeZone,
                      into output: inout StandardOutput) {
        let rows = records.map { record in
            [record.clinicalType.rawValue, record.displayName, record.resourceType, record.identifier, record.version ?? "",
             formatRFC3339(record.startDate.timestamp, timeZone: timeZone),
             formatRFC3339(record.endDate.timestamp, timeZone: timeZone), record.source.name, record.uuid.uuidString]
        }
        write(rows, bodies: records.map { text($0.resourceData) }, key: "clinicalRecords", bodyKey: "json",
              columns: ["clinicalType", "displayName", "resourceType", "identifier", "version", "startDate", "endDate",
                        "sourceName", "uuid"],
              headings: ["Type", "Name", "Resource", "Identifier", "Version", "Start", "End", "Source", "UUID"],
              format: format, into: &output)
    }

    private static func write(_ rows: [[String]], bodies: [String?], key: String, bodyKey: String, columns: [String],
                              headings: [String], format: OutputFormat, into output: inout StandardOutput) {
        switch format {
        case .json:
            let objects = zip(rows, bodies).map { row, body in
                JSONValue.object(zip(columns, row).map { ($0, JSONValue.string($1)) } + (body.map { [(bodyKey, .string($0))] } ?? []))
            }
            output.writeLine(JSONValue.object([(key, .array(objects))]).serialized())
        case .csv:
            output.write(CSVOutput.line(columns + (bodies.contains { $0 != nil } ? [bodyKey] : [])))
            for (row, body) in zip(rows, bodies) { output.write(CSVOutput.line(row + (body.map { [$0] } ?? []))) }
        case .table, .arrow:
            if bodies.contains(where: { $0 != nil }) {
                for (row, body) in zip(rows, bodies) {
                    var table = TableRenderer(columns: headings.map { .init($0) })
                    table.append(row)
                    output.write(table.render())
                    output.writeLine(body ?? "")
                }
                return
            }
            var table = TableRenderer(columns: headings.map { .init($0) })
            for row in rows { table.append(row) }
            output.write(table.render())
        }
    }
}
