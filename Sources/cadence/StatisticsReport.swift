//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// The rows of a `stats` result, ready to print in any format.
struct StatisticsReport {
    /// One interval's values, or one source's values within an interval.
    struct Row {
        var start: Date?
        var end: Date?
        /// `nil` for the values of all sources merged.
        var source: String?
        var values: [StatisticColumn: Double]
        var mostRecentInterval: DateInterval?
        /// Per-source rows (only on merged rows, only with separateBySource).
        var sources: [Row]
    }

    /// The full identifier of the type reported on, and its short name for headings.
    let typeIdentifier: String
    let typeName: String
    let unit: HealthUnit
    let selection: StatisticsSelection
    let timeZone: TimeZone
    let timeZoneName: String
    private(set) var rows: [Row] = []

    init(typeIdentifier: String, typeName: String, unit: HealthUnit, selection: StatisticsSelection, timeZone: TimeZone,
         timeZoneName: String) {
        self.typeIdentifier = typeIdentifier
        self.typeName = typeName
        self.unit = unit
        self.selection = selection
        self.timeZone = timeZone
        self.timeZoneName = timeZoneName
    }

    /// Adds one statistics value (and its sources) as a row.
    mutating func append(_ statistics: Statistics, start: Date?, end: Date?) throws {
        var row = try makeRow(statistics, source: nil, start: start, end: end)
        if selection.separateBySource {
            var seen = Set<String>()
            for source in statistics.sources ?? [] where seen.insert(source.name).inserted {
                row.sources.append(try makeRow(statistics, source: source, start: start, end: end))
            }
        }
        rows.append(row)
    }

    private func makeRow(_ statistics: Statistics, source: Source?, start: Date?, end: Date?) throws -> Row {
        var values: [StatisticColumn: Double] = [:]
        for column in selection.columns {
            let value = try column.value(of: statistics, source: source, unit: unit)
            if let value, !value.isFinite {
                // Printed, it would read as a number or as "no data"; neither is true.
                throw CadenceError(.invalidQuery, "the \(column) of \(typeIdentifier)\(source.map { " from \($0.name)" } ?? "") "
                                   + "from \(date(start) ?? "the first sample") to \(date(end) ?? "the last") is beyond the largest number "
                                   + "a value can hold (\(value))")
            }
            values[column] = value
        }
        let mostRecentInterval = selection.columns.contains(.mostRecent)
            ? statistics.mostRecentQuantityDateInterval(for: source) : nil
        return Row(start: start, end: end, source: source?.name, values: values,
                   mostRecentInterval: values[.mostRecent] == nil ? nil : mostRecentInterval, sources: [])
    }

    private func date(_ date: Date?) -> String? {
        date.map { formatRFC3339($0.timestamp, timeZone: timeZone) }
    }

    // MARK: JSON

    /// `{"type", "unit", "timeZone", "statistics": [...]}` with one key per requested statistic.
    func json() -> JSONValue {
        .object([
            ("type", .string(typeIdentifier)),
            ("unit", .string(unit.unitString)),
            ("timeZone", .string(timeZoneName)),
            ("statistics", .array(rows.map { row in
                var members = [(key: String, value: JSONValue)]()
                members.append(("startDate", .string(date(row.start))))
                members.append(("endDate", .string(date(row.end))))
                members += valueMembers(row)
                if selection.separateBySource {
                    members.append(("sources", .object(row.sources.map { ($0.source ?? "", .object(valueMembers($0))) })))
                }
                return .object(members)
            })),
        ])
    }

    private func valueMembers(_ row: Row) -> [(key: String, value: JSONValue)] {
        var members = [(key: String, value: JSONValue)]()
        for column in selection.columns {
            members.append((column.rawValue, .number(row.values[column])))
            if column == .mostRecent {
                members.append(("mostRecentStartDate", .string(date(row.mostRecentInterval?.start))))
                members.append(("mostRecentEndDate", .string(date(row.mostRecentInterval?.end))))
            }
        }
        return members
    }

    // MARK: CSV

    /// A header and one line per interval (and per source), with RFC 3339 dates and full-precision numbers.
    func csv() -> String { csvHeader() + csvRows() }

    /// The CSV header line, after `leadingColumns` (such as `user` in `cadence batch`).
    func csvHeader(leadingColumns: [String] = []) -> String {
        var header = leadingColumns + ["startDate", "endDate"]
        if selection.separateBySource { header.append("source") }
        for column in selection.columns {
            header.append(column.rawValue)
            if column == .mostRecent { header += ["mostRecentStartDate", "mostRecentEndDate"] }
        }
        return CSVOutput.line(header)
    }

    /// One CSV line per interval (and per source), each starting with `leadingFields`.
    func csvRows(leadingFields: [String] = []) -> String {
        var output = ""
        for row in rows {
            for line in [row] + row.sources {
                var fields = leadingFields + [date(line.start) ?? "", date(line.end) ?? ""]
                if selection.separateBySource { fields.append(line.source ?? "") }
                for column in selection.columns {
                    fields.append(line.values[column].map(JSONValue.numberText) ?? "")
                    if column == .mostRecent {
                        fields += [date(line.mostRecentInterval?.start) ?? "", date(line.mostRecentInterval?.end) ?? ""]
                    }
                }
                output += CSVOutput.line(fields)
            }
        }
        return output
    }

    // MARK: JSON lines

    /// One compact JSON object per line for each interval (and each source within it, whose
    /// `source` is its name; `null` on the merged line): a tidy table, keyed like ``csvHeader(leadingColumns:)``.
    func jsonLines(leadingMembers: [(key: String, value: JSONValue)] = []) -> String {
        var output = ""
        for row in rows {
            for line in [row] + row.sources {
                var members = leadingMembers
                members.append(("startDate", .string(date(line.start))))
                members.append(("endDate", .string(date(line.end))))
                if selection.separateBySource { members.append(("source", .string(line.source))) }
                members += valueMembers(line)
                output += JSONValue.object(members).serialized(compact: true) + "\n"
            }
        }
        return output
    }

    // MARK: Table

    /// Aligned columns with local dates and the unit in each value header.
    func table() -> String {
        let dates = rows.flatMap { [$0.start, $0.end] }.compactMap { $0 }
        let showsTime = dates.contains { !LocalDateText.isMidnight($0, timeZone: timeZone) }
        var columns = [TableRenderer.Column("Start"), TableRenderer.Column("End")]
        if selection.separateBySource { columns.append(TableRenderer.Column("Source")) }
        for column in selection.columns {
            let unitText = column == .duration ? " (h:mm:ss)" : column == .count ? "" : " (\(unit.unitString))"
            columns.append(TableRenderer.Column(column.title + unitText, alignment: .right))
        }
        var table = TableRenderer(columns: columns)
        for row in rows {
            for line in [row] + row.sources {
                let isSourceLine = line.source != nil
                var cells = [
                    isSourceLine ? "" : line.start.map { LocalDateText.format($0, timeZone: timeZone, showsTime: showsTime) } ?? "",
                    isSourceLine ? "" : line.end.map { LocalDateText.format($0, timeZone: timeZone, showsTime: showsTime) } ?? "",
                ]
                if selection.separateBySource { cells.append(line.source ?? "all sources") }
                for column in selection.columns {
                    let text = column == .duration
                        ? line.values[column].map { NumberText.clock($0, alwaysShowsHours: true) }
                        : line.values[column].map(NumberText.readable)
                    cells.append(text ?? "-")
                }
                table.append(cells)
            }
        }
        // Durations print as clock times and counts as numbers: only other statistics need the unit.
        let unitPhrase = selection.columns.allSatisfy { $0 == .duration || $0 == .count } ? "" : " in \(unit.unitString)"
        var heading = "\(typeName)\(unitPhrase), times in \(timeZoneName)\n"
        if rows.isEmpty { heading += "(no intervals)\n" }
        return heading + table.render()
    }
}
