//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// The input `cadence batch --input` and `cadence stats --input` are measured on: many users'
/// realistic samples in one Arrow stream, the import CSV's columns plus a user column, rows
/// grouped by user (`cadence-bench --write-batch-input FILE`).
///
/// User *n* (from 1) is `cadence generate --profile realistic --days D --seed n`; the type and
/// source columns are dictionary-encoded, dates are microsecond timestamps, values float64 in the
/// type's canonical unit, in record batches of 65,536 rows.
enum UserSamplesArrowInput {
    /// Writes `users` users of `days` days each to `path`.
    ///
    /// - Returns: How many samples were written.
    static func write(users: Int, days: Int, to path: String) throws -> Int {
        var rows = Rows()
        for user in 1...max(1, users) {
            let data = SyntheticHealthData(profile: .realistic, seed: UInt64(user),
                                           startTimestamp: SyntheticHealthData.defaultStartTimestamp, size: .days(days))
            try data.generate { batch in rows.append(batch, user: "user\(user)") }
        }
        let typeField = ArrowField(name: "type", type: .utf8(large: false),
                                   dictionary: .init(id: 0, indexType: .int(bitWidth: 32, signed: true)))
        let sourceField = ArrowField(name: "sourceName", type: .utf8(large: false),
                                     dictionary: .init(id: 1, indexType: .int(bitWidth: 32, signed: true)))
        let timestamp = ArrowType.timestamp(.microsecond, zone: "UTC")
        let schema = ArrowSchema(fields: [
            ArrowField(name: "user", type: .utf8(large: false)), typeField, sourceField,
            ArrowField(name: "unit", type: .utf8(large: false)), ArrowField(name: "startDate", type: timestamp),
            ArrowField(name: "endDate", type: timestamp), ArrowField(name: "value", type: .float(bitWidth: 64)),
            ArrowField(name: "sourceVersion", type: .utf8(large: false)), ArrowField(name: "device", type: .utf8(large: false)),
            ArrowField(name: "creationDate", type: timestamp),
        ])
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        guard let file = FileHandle(forWritingAtPath: path) else { throw BenchmarkOptionsError("cannot write \(path)") }
        defer { try? file.close() }
        var writer = try ArrowStreamWriter(schema: schema, format: .stream) { file.write(Data($0)) }
        try writer.writeDictionary(id: 0, ArrowColumn(name: "type", strings: rows.types.entries))
        try writer.writeDictionary(id: 1, ArrowColumn(name: "sourceName", strings: rows.sources.entries))
        let batchRows = 65_536
        for first in stride(from: 0, to: rows.count, by: batchRows) {
            let range = first..<min(rows.count, first + batchRows)
            func text(_ name: String, _ values: [String?]) -> ArrowColumn { ArrowColumn(name: name, strings: Array(values[range])) }
            func dates(_ name: String, _ values: [Int64?]) -> ArrowColumn {
                ArrowColumn(name: name, timestamps: Array(values[range]), zone: "UTC")
            }
            func encoded(_ field: ArrowField, _ indices: [Int], _ entries: [String?]) -> ArrowColumn {
                ArrowColumn(field: field, count: range.count, validity: nil,
                            values: .dictionary(indices: Array(indices[range]), dictionary: ArrowColumn(name: field.name, strings: entries)))
            }
            let columns = [
                text("user", rows.users), encoded(typeField, rows.types.indices, rows.types.entries),
                encoded(sourceField, rows.sources.indices, rows.sources.entries), text("unit", rows.units),
                dates("startDate", rows.starts), dates("endDate", rows.ends),
                ArrowColumn(name: "value", doubles: Array(rows.values[range])), text("sourceVersion", rows.versions),
                text("device", rows.devices), dates("creationDate", rows.creations),
            ]
            try writer.write(ArrowRecordBatch(schema: schema, count: range.count, columns: columns))
        }
        try writer.finish()
        return rows.count
    }

    /// Dictionary-encoded text: each distinct string once, and each row's index into them.
    private struct Encoded {
        var entries: [String?] = []
        var indices: [Int] = []
        private var positions: [String: Int] = [:]

        mutating func append(_ text: String) {
            if let index = positions[text] { return indices.append(index) }
            positions[text] = entries.count
            indices.append(entries.count)
            entries.append(text)
        }
    }

    /// The rows, column by column.
    private struct Rows {
        var users: [String?] = [], units: [String?] = [], versions: [String?] = [], devices: [String?] = []
        var types = Encoded(), sources = Encoded()
        var starts: [Int64?] = [], ends: [Int64?] = [], creations: [Int64?] = []
        var values: [Double?] = []
        var count: Int { users.count }

        mutating func append(_ batch: QuantitySampleBatch, user: String) {
            let columns = batch.columns
            for row in 0..<batch.count {
                let provenance = batch.provenances[Int(columns.provenance[row])]
                users.append(user)
                types.append(batch.quantityType.identifier)
                sources.append(provenance.source.name)
                units.append(batch.quantityType.canonicalUnit.unitString)
                starts.append(columns.start[row])
                ends.append(columns.end[row])
                values.append(columns.value[row])
                versions.append(provenance.sourceVersion)
                devices.append(provenance.device?.descriptionString)
                creations.append(columns.creation(at: row))
            }
        }
    }
}
