//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Where an import CSV file keeps each attribute of a sample, read from its header.
struct CSVImportColumns: RecordAttributeColumns {
    var type: Int, sourceName: Int, unit: Int, startDate: Int, endDate: Int, value: Int
    var uuid: Int?, sourceVersion: Int?, device: Int?, creationDate: Int?
    /// A series entry's owning sample: its UUID, and its dates when they are not the entries' span.
    var sample: Int?, sampleStartDate: Int?, sampleEndDate: Int?
    /// Metadata keys (`metadata:KEY` columns) and their columns.
    var metadata: [(String, Int)]

    /// Finds the columns in a header.
    ///
    /// - Throws: ``CadenceError/Code/malformedInput`` naming `path` when there is no header, it
    ///   names a column twice, it lacks a required column, or two metadata keys differ only in
    ///   Unicode normalisation (a sample's metadata, a `[String: String]`, cannot hold both).
    init(_ columns: CSVColumns?, path: String) throws {
        guard let columns else {
            throw CadenceError(.malformedInput, "the CSV file is empty: it has no header row", path: path, line: 1)
        }
        if let repeated = columns.repeatedName {
            throw CadenceError(.malformedInput, "the CSV header names the column '\(repeated)' twice", path: path, line: 1)
        }
        func required(_ name: String) throws -> Int {
            guard let index = columns.index(of: name) else {
                throw CadenceError(.malformedInput, "the CSV header lacks the required column '\(name)'", path: path, line: 1)
            }
            return index
        }
        type = try required("type")
        sourceName = try required("sourceName")
        unit = try required("unit")
        startDate = try required("startDate")
        endDate = try required("endDate")
        value = try required("value")
        uuid = columns.index(of: "uuid")
        sourceVersion = columns.index(of: "sourceVersion")
        device = columns.index(of: "device")
        creationDate = columns.index(of: "creationDate")
        sample = columns.index(of: "sample")
        sampleStartDate = columns.index(of: "sampleStartDate")
        sampleEndDate = columns.index(of: "sampleEndDate")
        metadata = columns.names.enumerated().compactMap { index, name in
            name.hasExactPrefix("metadata:")
                ? (String(decoding: name.utf8.dropFirst("metadata:".utf8.count), as: UTF8.self), index) : nil
        }
        var keys: [String: String] = [:]
        for (key, _) in metadata {
            if let other = keys.updateValue(key, forKey: key), !other.isIdentical(to: key) {
                throw CadenceError(.malformedInput,
                                   "the metadata keys '\(other)' and '\(key)' differ only in Unicode normalisation; "
                                       + "Cadence keeps keys apart byte for byte and a sample's metadata cannot hold both",
                                   path: path, line: 1)
            }
        }
    }
}

/// A CSV row read in place by the collector's common-record path: attributes compared as bytes,
/// dates parsed from the field bytes.
private struct CSVImportRow: RecordFields {
    /// The reader's row, borrowed as buffers: copying the row itself would retain and release
    /// each of its arrays for every row.
    let fields: CSVFields.View
    let columns: CSVImportColumns

    var line: Int { fields.line }

    var hasExtras: Bool {
        if let uuid = columns.uuid, !fields.isEmpty(uuid) { return true }
        return columns.metadata.contains { !fields.isEmpty($0.1) }
    }

    func attribute(_ attribute: RecordAttribute, equals text: String?) -> Bool {
        let column = columns.column(of: attribute)
        // An empty field reads as missing, as on the general path.
        guard let column, !fields.isEmpty(column), let bytes = fields.field(column) else { return text == nil }
        guard var text else { return false }
        return text.withUTF8 { expected in
            guard expected.count == bytes.count else { return false }
            guard let expectedBase = expected.baseAddress, let base = bytes.baseAddress else { return bytes.isEmpty }
            return memcmp(expectedBase, base, bytes.count) == 0
        }
    }

    func timestamps() -> (start: Timestamp, end: Timestamp, creation: Timestamp?)? {
        // Files often repeat the start as the end (an instant) and as the creation date: a date
        // whose text is the start's is not parsed again.
        guard let start = date(columns.startDate),
              let end = fields.field(columns.endDate, equals: columns.startDate) ? start : date(columns.endDate)
        else { return nil }
        guard let column = columns.creationDate, !fields.isEmpty(column) else { return (start, end, nil) }
        guard let creation = fields.field(column, equals: columns.startDate) ? start : date(column) else { return nil }
        return (start, end, creation)
    }

    func withValueBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        body(fields.field(columns.value))
    }

    /// The date in a column, or nil when the field is missing or is not a date.
    private func date(_ column: Int) -> Timestamp? {
        fields.field(column).flatMap { try? SampleCollector.parseDate($0) }
    }
}

extension SampleCollector {
    /// Adds a row as the reader holds it: the common row by the collector's fast path, any other
    /// as a ``CSVRow``.
    mutating func add(_ row: inout CSVFields, columns: CSVImportColumns) {
        if !row.withView({ addIfRepeating(CSVImportRow(fields: $0, columns: columns)) }) { add(row.row(), columns: columns) }
    }

    /// Adds a row; a row that cannot be stored is counted or rejected with its line.
    mutating func add(_ row: CSVRow, columns: CSVImportColumns) {
        /// The field, or nil when it is missing or empty.
        func field(_ index: Int?) -> String? {
            guard let index, let text = row[index], !text.isEmpty else { return nil }
            return text
        }
        var metadata: [String: String] = [:]
        for (key, index) in columns.metadata { if let value = field(index) { metadata[key] = value } }
        var uuid: UUID?
        if let text = field(columns.uuid) {
            guard let parsed = UUID(uuidString: text) else {
                return summary.reject(line: row.line, "'\(text.prefix(64))' is not a UUID")
            }
            uuid = parsed
        }
        add(line: row.line, type: field(columns.type) ?? "", sourceName: field(columns.sourceName) ?? "",
            unit: field(columns.unit), start: field(columns.startDate) ?? "", end: field(columns.endDate) ?? "",
            value: field(columns.value), uuid: uuid, sourceVersion: field(columns.sourceVersion),
            device: field(columns.device), creation: field(columns.creationDate), metadata: metadata)
    }
}
