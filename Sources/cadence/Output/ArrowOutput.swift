//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// `--format arrow`: results as an Arrow IPC stream on standard output, for pyarrow, Polars,
/// Spark and DuckDB to read without parsing text.
enum ArrowOutput {
    /// A stream writer whose bytes go to standard output as they are made.
    static func standardOutputWriter(schema: ArrowSchema) throws -> ArrowStreamWriter {
        try ArrowStreamWriter(schema: schema, format: .stream) { StandardStreams.writeOutput($0) }
    }

    /// Samples in the import CSV's columns (`cadence import` reads them back): dates as UTC
    /// microsecond timestamps, a quantity's value as float64 in its canonical unit and a category's
    /// as its value name, one `metadata:KEY` column per key any sample has.
    static func samples(_ samples: [SampleOutput.Printed]) -> ArrowRecordBatch {
        let columns = sampleColumns(samples, deleted: [], isQuantity: samples.allSatisfy { $0.unit != nil })
        return ArrowRecordBatch(schema: ArrowSchema(fields: columns.map(\.field)), count: samples.count, columns: columns)
    }

    /// A page of `cadence changes`: a `change` column (`added` or `deleted`), then the columns of
    /// ``samples(_:)``, the added samples' rows before the deleted objects' (which hold only their
    /// type, UUID and metadata). The page's anchor and whether more follow are the schema's
    /// metadata `anchor` and `hasMore`, so an empty page still says where to go on from.
    static func changes(added: [SampleOutput.Printed], deleted: [DeletedObject], type: String, isQuantity: Bool,
                        anchor: QueryAnchor, hasMore: Bool) -> ArrowRecordBatch {
        let kinds = Array(repeating: "added" as String?, count: added.count) + Array(repeating: "deleted", count: deleted.count)
        let columns = [ArrowColumn(name: "change", strings: kinds)]
            + sampleColumns(added, deleted: deleted.map { ($0, type) }, isQuantity: isQuantity)
        let schema = ArrowSchema(fields: columns.map(\.field), metadata: ["anchor": anchor.token, "hasMore": hasMore ? "true" : "false"])
        return ArrowRecordBatch(schema: schema, count: kinds.count, columns: columns)
    }

    /// The columns of ``samples(_:)`` for `samples`, then for `deleted` objects (of the given type)
    /// with every other column null.
    private static func sampleColumns(_ samples: [SampleOutput.Printed], deleted: [(object: DeletedObject, type: String)],
                                      isQuantity: Bool) -> [ArrowColumn] {
        let keys = Set(samples.flatMap(\.metadata.keys) + deleted.flatMap(\.object.metadata.keys)).sorted()
        let absent = [String?](repeating: nil, count: deleted.count)
        func strings(_ name: String, _ text: (SampleOutput.Printed) -> String?) -> ArrowColumn {
            ArrowColumn(name: name, strings: samples.map(text) + absent)
        }
        func timestamps(_ name: String, _ date: (SampleOutput.Printed) -> Date?) -> ArrowColumn {
            ArrowColumn(name: name, timestamps: samples.map { date($0)?.timestamp } + absent.map { _ in nil }, zone: "UTC")
        }
        var columns = [
            ArrowColumn(name: "type", strings: samples.map(\.typeIdentifier) + deleted.map(\.type)),
            strings("sourceName", \.source.name),
            strings("unit", \.unit),
            timestamps("startDate", \.startDate),
            timestamps("endDate", \.endDate),
            isQuantity ? ArrowColumn(name: "value", doubles: samples.map { if case .number(let value) = $0.value { value } else { nil } }
                                        + absent.map { _ in nil })
                       : strings("value", \.valueText),
            ArrowColumn(name: "uuid", strings: samples.map(\.uuid.uuidString) + deleted.map(\.object.uuid.uuidString)),
            strings("sourceVersion", \.sourceVersion),
            strings("device") { $0.device?.descriptionString },
            timestamps("creationDate", \.creationDate),
        ]
        columns += keys.map { key in
            ArrowColumn(name: "metadata:" + key, strings: samples.map { $0.metadata[key] } + deleted.map { $0.object.metadata[key] })
        }
        return columns
    }
}

/// The tidy statistics table as Arrow columns: `user` (when given), `startDate`, `endDate`,
/// `source` (with separateBySource), then one float64 column per statistic (`mostRecent`
/// followed by its sample's dates); dates are microsecond timestamps in the query's time zone.
struct ArrowStatisticsTable {
    let hasUser: Bool
    let schema: ArrowSchema
    private let selection: StatisticsSelection
    private let zone: String
    private var users: [String?] = []
    private var starts: [Timestamp?] = [], ends: [Timestamp?] = []
    private var sources: [String?] = []
    private var values: [[Double?]]
    private var mostRecentStarts: [Timestamp?] = [], mostRecentEnds: [Timestamp?] = []

    /// An empty table with the columns of `report`'s rows.
    init(like report: StatisticsReport, hasUser: Bool) {
        self.hasUser = hasUser
        selection = report.selection
        zone = report.timeZone.identifier
        values = Array(repeating: [], count: report.selection.columns.count)
        var fields: [ArrowField] = hasUser ? [ArrowField(name: "user", type: .utf8(large: false))] : []
        let timestamp = ArrowType.timestamp(.microsecond, zone: zone)
        fields += [ArrowField(name: "startDate", type: timestamp), ArrowField(name: "endDate", type: timestamp)]
        if selection.separateBySource { fields.append(ArrowField(name: "source", type: .utf8(large: false))) }
        for column in selection.columns {
            fields.append(ArrowField(name: column.rawValue, type: .float(bitWidth: 64)))
            if column == .mostRecent {
                fields += [ArrowField(name: "mostRecentStartDate", type: timestamp),
                           ArrowField(name: "mostRecentEndDate", type: timestamp)]
            }
        }
        schema = ArrowSchema(fields: fields)
    }

    var count: Int { starts.count }

    /// Adds `report`'s rows (and each interval's per-source rows after it).
    mutating func append(_ report: StatisticsReport, user: String?) {
        for line in report.rows {
            users.append(user)
            starts.append(line.start)
            ends.append(line.end)
            sources.append(report.source(of: line))
            for index in values.indices { values[index].append(report.value(of: line, column: index)) }
            mostRecentStarts.append(line.mostRecentStart)
            mostRecentEnds.append(line.mostRecentEnd)
        }
    }

    /// The rows added since the last call, as one record batch.
    mutating func takeBatch() -> ArrowRecordBatch {
        var columns: [ArrowColumn] = hasUser ? [ArrowColumn(name: "user", strings: users)] : []
        columns += [ArrowColumn(name: "startDate", timestamps: starts, zone: zone),
                    ArrowColumn(name: "endDate", timestamps: ends, zone: zone)]
        if selection.separateBySource { columns.append(ArrowColumn(name: "source", strings: sources)) }
        for (index, column) in selection.columns.enumerated() {
            columns.append(ArrowColumn(name: column.rawValue, doubles: values[index]))
            if column == .mostRecent {
                columns += [ArrowColumn(name: "mostRecentStartDate", timestamps: mostRecentStarts, zone: zone),
                            ArrowColumn(name: "mostRecentEndDate", timestamps: mostRecentEnds, zone: zone)]
            }
        }
        let batch = ArrowRecordBatch(schema: schema, count: count, columns: columns)
        self = ArrowStatisticsTable(schema: schema, hasUser: hasUser, selection: selection, zone: zone)
        return batch
    }

    private init(schema: ArrowSchema, hasUser: Bool, selection: StatisticsSelection, zone: String) {
        self.schema = schema
        self.hasUser = hasUser
        self.selection = selection
        self.zone = zone
        values = Array(repeating: [], count: selection.columns.count)
    }
}
