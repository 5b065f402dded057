//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Where an Arrow stream of samples keeps each attribute: the import CSV's column names, found in
/// the schema. Dates are Arrow timestamps or RFC 3339 text; values numbers or text; text columns
/// plain or dictionary-encoded.
struct ArrowSampleColumns: RecordAttributeColumns {
    var type: Int, sourceName: Int, unit: Int, startDate: Int, endDate: Int, value: Int
    var uuid: Int?, sourceVersion: Int?, device: Int?, creationDate: Int?
    /// Metadata keys (`metadata:KEY` columns) and their columns.
    var metadata: [(String, Int)]

    /// Finds the columns in a schema.
    ///
    /// - Throws: ``CadenceError/Code/malformedInput`` naming `path` when a required column is
    ///   missing or a column's type cannot hold its attribute.
    init(_ schema: ArrowSchema, path: String) throws {
        func column(_ name: String, required: Bool, accepts: (ArrowType) -> Bool) throws -> Int? {
            guard let index = schema.index(of: name) else {
                guard !required else {
                    throw CadenceError(.malformedInput, "the Arrow schema lacks the required column '\(name)'", path: path)
                }
                return nil
            }
            let type = schema.fields[index].type
            guard accepts(type) else {
                throw CadenceError(.malformedInput, "the Arrow column '\(name)' is \(type.name), which cannot hold it", path: path)
            }
            return index
        }
        let text: (ArrowType) -> Bool = { if case .utf8 = $0 { true } else { false } }
        let date: (ArrowType) -> Bool = { if case .timestamp = $0 { true } else { text($0) } }
        let number: (ArrowType) -> Bool = {
            switch $0 {
            case .int, .float, .utf8: true
            default: false
            }
        }
        type = try column("type", required: true, accepts: text) ?? 0
        sourceName = try column("sourceName", required: true, accepts: text) ?? 0
        unit = try column("unit", required: true, accepts: text) ?? 0
        startDate = try column("startDate", required: true, accepts: date) ?? 0
        endDate = try column("endDate", required: true, accepts: date) ?? 0
        value = try column("value", required: true, accepts: number) ?? 0
        uuid = try column("uuid", required: false, accepts: text)
        sourceVersion = try column("sourceVersion", required: false, accepts: text)
        device = try column("device", required: false, accepts: text)
        creationDate = try column("creationDate", required: false, accepts: date)
        metadata = try schema.fields.enumerated().compactMap { index, field in
            guard field.name.hasPrefix("metadata:") else { return nil }
            guard text(field.type) else {
                throw CadenceError(.malformedInput, "the Arrow column '\(field.name)' is \(field.type.name), not text", path: path)
            }
            return (String(field.name.dropFirst("metadata:".count)), index)
        }
    }
}

/// An Arrow row read in place by the collector's common-record path: text compared as bytes,
/// dates taken as the instants they are (or parsed from their text).
private struct ArrowImportRow: RecordFields {
    let fields: [ArrowColumn]
    let row: Int
    let columns: ArrowSampleColumns
    let line: Int

    var hasExtras: Bool {
        if let uuid = columns.uuid, !isEmpty(uuid) { return true }
        return columns.metadata.contains { !isEmpty($0.1) }
    }

    private func isEmpty(_ column: Int) -> Bool { fields[column].withUTF8(row) { $0?.isEmpty ?? true } }

    func attribute(_ attribute: RecordAttribute, equals text: String?) -> Bool {
        let column = columns.column(of: attribute)
        guard let column else { return text == nil }
        return fields[column].withUTF8(row) { bytes in
            // An empty field reads as missing, as on the general path.
            guard let bytes, !bytes.isEmpty else { return text == nil }
            guard var text else { return false }
            // Lengths first, then one memcmp: the generic elementsEqual walks byte by byte.
            return text.withUTF8 { expected in
                guard expected.count == bytes.count, let left = expected.baseAddress, let right = bytes.baseAddress else {
                    return expected.count == bytes.count
                }
                return memcmp(left, right, bytes.count) == 0
            }
        }
    }

    func timestamps() -> (start: Timestamp, end: Timestamp, creation: Timestamp?)? {
        guard let start = date(columns.startDate), let end = date(columns.endDate) else { return nil }
        guard let column = columns.creationDate, !fields[column].isNull(row) else { return (start, end, nil) }
        guard let creation = date(column) else { return nil }
        return (start, end, creation)
    }

    func withValueBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        fields[columns.value].withUTF8(row, body)
    }

    /// The instant in a date column, or nil when it is null or does not parse.
    private func date(_ column: Int) -> Timestamp? {
        if case .timestamp = fields[column].field.type { return fields[column].timestamp(row) }
        return fields[column].withUTF8(row) { bytes in bytes.flatMap { try? SampleCollector.parseDate($0) } }
    }
}

extension SampleCollector {
    /// Adds row `row` of `batch`, numbered `line` in the stream: the common row by the collector's
    /// fast path, any other by the general one; a row that cannot be stored is counted or rejected
    /// with its number.
    mutating func add(row: Int, of batch: ArrowRecordBatch, columns: ArrowSampleColumns, line: Int) {
        let fields = batch.columns
        let fast = ArrowImportRow(fields: fields, row: row, columns: columns, line: line)
        if let value = fields[columns.value].double(row) {
            if addIfRepeating(fast, value: value) { return }
        } else if addIfRepeating(fast) {
            return
        }
        func text(_ index: Int?) -> String? {
            guard let index, let text = fields[index].string(row), !text.isEmpty else { return nil }
            return text
        }
        /// A date column: an instant, or text to parse.
        func date(_ index: Int?) -> (text: String, parsed: Timestamp?)? {
            guard let index, !fields[index].isNull(row) else { return nil }
            if case .timestamp = fields[index].field.type {
                // Beyond the supported range: text that names the reason when the row is rejected.
                return fields[index].timestamp(row).map { ("", $0) } ?? ("a timestamp beyond years 1-9999", nil)
            }
            return text(index).map { ($0, nil) }
        }
        var valueText: String?
        if case .utf8 = fields[columns.value].field.type { valueText = text(columns.value) } else {
            valueText = fields[columns.value].double(row).map { "\($0)" }
        }
        var metadata: [String: String] = [:]
        for (key, index) in columns.metadata { if let value = text(index) { metadata[key] = value } }
        var uuid: UUID?
        if let uuidText = text(columns.uuid) {
            guard let parsed = UUID(uuidString: uuidText) else {
                return summary.reject(line: line, "'\(uuidText.prefix(64))' is not a UUID")
            }
            uuid = parsed
        }
        let start = date(columns.startDate), end = date(columns.endDate), creation = date(columns.creationDate)
        add(line: line, type: text(columns.type) ?? "", sourceName: text(columns.sourceName) ?? "",
            unit: text(columns.unit), start: start?.text ?? "", end: end?.text ?? "", value: valueText, uuid: uuid,
            sourceVersion: text(columns.sourceVersion), device: text(columns.device), creation: creation?.text,
            metadata: metadata, parsed: (start?.parsed, end?.parsed, creation?.parsed))
    }
}
