//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// The rows of a `stats` result, ready to print in any format.
struct StatisticsReport: Sendable {
    /// One interval's values, or one source's values within an interval: plain numbers, so that
    /// rows are copied and freed without reference counting.
    struct Row {
        var start: Timestamp?
        var end: Timestamp?
        /// Where the row's source name is in the report's ``StatisticsReport/sourceNames``, or
        /// `nil` for the values of all sources merged.
        var sourceIndex: Int?
        /// Where the row's values start in the report's ``StatisticsReport/values``: one per
        /// column of the selection, in its order.
        var valueOffset: Int
        /// The most recent sample's start and end, with a most recent value.
        var mostRecentStart: Timestamp?
        var mostRecentEnd: Timestamp?
        /// On a merged row: how many per-source rows follow it (only with separateBySource).
        var sourceRowCount = 0
    }

    /// The full identifier of the type reported on, and its short name for headings.
    let typeIdentifier: String
    let typeName: String
    let unit: HealthUnit
    let selection: StatisticsSelection
    let timeZone: TimeZone
    let timeZoneName: String
    /// From the type's canonical unit, which statistics are in, to ``unit``.
    private let conversion: UnitConversion
    /// Every interval's row, each followed by its per-source rows (see ``Row/sourceRowCount``).
    private(set) var rows: [Row] = []
    /// The names of the sources of per-source rows, each once, byte for byte (sources whose names
    /// differ only in Unicode normalisation are told apart).
    private(set) var sourceNames: [String] = []
    private var sourceIndices: [ExactString: Int] = [:]
    /// Every row's values, a row's after the one before (see ``Row/valueOffset``), in one array
    /// rather than one per row: NaN stands for no data, as no value printed is a NaN (see
    /// ``value(of:column:)``).
    private(set) var values: [Double] = []

    /// - Throws: ``CadenceError/Code/incompatibleUnits`` when `unit` cannot express the type.
    init(typeIdentifier: String, typeName: String, canonicalUnit: HealthUnit, unit: HealthUnit,
         selection: StatisticsSelection, timeZone: TimeZone,
         timeZoneName: String) throws {
        self.typeIdentifier = typeIdentifier
        self.typeName = typeName
        self.unit = unit
        self.conversion = try canonicalUnit.conversion(to: unit)
        self.selection = selection
        self.timeZone = timeZone
        self.timeZoneName = timeZoneName
    }

    /// Adds one statistics value (and its sources) as a row.
    mutating func append(_ statistics: Statistics, start: Timestamp?, end: Timestamp?) throws {
        guard let merged = statistics.values() else { return }
        let first = rows.count
        try appendRow(merged, source: nil, start: start, end: end)
        if selection.separateBySource {
            // Byte for byte: sources whose names differ only in Unicode normalisation get a row each.
            var seen = Set<ExactString>()
            for source in statistics.sources ?? [] where seen.insert(ExactString(source.name)).inserted {
                guard let values = statistics.values(for: source) else { continue }
                try appendRow(values, source: sourceIndex(of: source.name), start: start, end: end)
                rows[first].sourceRowCount += 1
            }
        }
    }

    /// Adds an interval of `collection` as a row, straight from its numbers; its sources' rows,
    /// with separateBySource, from its ``Statistics``.
    mutating func append(_ interval: StatisticsCollection.Interval, of collection: StatisticsCollection) throws {
        if selection.separateBySource {
            try append(collection.statistics(of: interval), start: interval.start, end: interval.end)
        } else {
            try appendRow(interval.values, source: nil, start: interval.start, end: interval.end)
        }
    }

    /// The name of `row`'s source, or `nil` for the values of all sources merged.
    func source(of row: Row) -> String? {
        row.sourceIndex.map { sourceNames[$0] }
    }

    /// The value of the `column`th statistic of the selection in `row` (`nil`: no data).
    func value(of row: Row, column: Int) -> Double? {
        let value = values[row.valueOffset + column]
        return value.isNaN ? nil : value
    }

    /// The index of `name` in ``sourceNames``, added if new.
    private mutating func sourceIndex(of name: String) -> Int {
        if let index = sourceIndices[ExactString(name)] { return index }
        sourceNames.append(name)
        sourceIndices[ExactString(name)] = sourceNames.count - 1
        return sourceNames.count - 1
    }

    private mutating func appendRow(_ statistics: StatisticsValues, source: Int?, start: Timestamp?, end: Timestamp?) throws {
        let valueOffset = values.count
        var mostRecent: (start: Timestamp, end: Timestamp)?
        for column in selection.columns {
            let value = column.value(of: statistics, conversion: conversion)
            if let value, !value.isFinite {
                // Printed, it would read as a number or as "no data"; neither is true.
                throw CadenceError(.invalidQuery, "the \(column) of \(typeIdentifier)\(source.map { " from \(sourceNames[$0])" } ?? "") "
                                   + "from \(date(start) ?? "the first sample") to \(date(end) ?? "the last") is beyond the largest number "
                                   + "a value can hold (\(value))")
            }
            values.append(value ?? .nan)
            if column == .mostRecent, value != nil { mostRecent = statistics.mostRecentTimestamps }
        }
        rows.append(Row(start: start, end: end, sourceIndex: source, valueOffset: valueOffset,
                        mostRecentStart: mostRecent?.start, mostRecentEnd: mostRecent?.end))
    }

    private func date(_ timestamp: Timestamp?) -> String? {
        timestamp.map { formatRFC3339($0, timeZone: timeZone) }
    }

    // MARK: JSON

    /// `{"type", "unit", "timeZone", "statistics": [...]}` with one key per requested statistic,
    /// indented, without a final newline.
    func writeJSON(to text: inout OutputText) {
        var dates = RFC3339Writer(timeZone: timeZone)
        var document = JSONContainerWriter(indentation: 0, into: &text)
        for (key, value) in [("type", typeIdentifier), ("unit", unit.unitString), ("timeZone", timeZoneName)] {
            document.beginMember(key, into: &text)
            text.appendJSONString(value)
        }
        document.beginMember("statistics", into: &text)
        var list = JSONContainerWriter(array: true, indentation: document.innerIndentation, into: &text)
        var next = 0
        while next < rows.count {
            let row = rows[next]
            let sourceRows = rows[(next + 1)..<(next + 1 + row.sourceRowCount)]
            next += 1 + row.sourceRowCount
            list.beginElement(into: &text)
            var object = JSONContainerWriter(indentation: list.innerIndentation, into: &text)
            writeMembers(row, to: &object, text: &text, dates: &dates)
            if selection.separateBySource {
                object.beginMember("sources", into: &text)
                var sources = JSONContainerWriter(indentation: object.innerIndentation, into: &text)
                for line in sourceRows {
                    sources.beginMember(source(of: line) ?? "", into: &text)
                    var values = JSONContainerWriter(indentation: sources.innerIndentation, into: &text)
                    writeValueMembers(line, to: &values, text: &text, dates: &dates)
                    values.close(into: &text)
                }
                sources.close(into: &text)
            }
            object.close(into: &text)
            text.writeIfLarge()
        }
        list.close(into: &text)
        document.close(into: &text)
    }

    /// A line's dates and values as members of `object`.
    private func writeMembers(_ line: Row, to object: inout JSONContainerWriter, text: inout OutputText,
                              dates: inout RFC3339Writer) {
        object.beginMember("startDate", into: &text)
        appendJSONDate(line.start, to: &text, dates: &dates)
        object.beginMember("endDate", into: &text)
        appendJSONDate(line.end, to: &text, dates: &dates)
        writeValueMembers(line, to: &object, text: &text, dates: &dates)
    }

    /// One member per requested statistic (and the most recent sample's dates after its value).
    private func writeValueMembers(_ line: Row, to object: inout JSONContainerWriter, text: inout OutputText,
                                   dates: inout RFC3339Writer) {
        for (index, column) in selection.columns.enumerated() {
            object.beginMember(column.rawValue, into: &text)
            if let value = value(of: line, column: index) { text.appendNumber(value) } else { text.append("null") }
            if column == .mostRecent {
                object.beginMember("mostRecentStartDate", into: &text)
                appendJSONDate(line.mostRecentStart, to: &text, dates: &dates)
                object.beginMember("mostRecentEndDate", into: &text)
                appendJSONDate(line.mostRecentEnd, to: &text, dates: &dates)
            }
        }
    }

    private func appendJSONDate(_ date: Timestamp?, to text: inout OutputText, dates: inout RFC3339Writer) {
        guard let date else { return text.append("null") }
        text.append(byte: UInt8(ascii: "\""))
        text.appendRFC3339(date, dates: &dates)
        text.append(byte: UInt8(ascii: "\""))
    }

    // MARK: CSV

    /// A header and one line per interval (and per source), with RFC 3339 dates and full-precision numbers.
    func writeCSV(to text: inout OutputText) {
        text.append(csvHeader())
        writeCSVRows(to: &text)
    }

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
        var text = OutputText()
        writeCSVRows(leadingFields: leadingFields, to: &text)
        return text.string
    }

    /// Appends one CSV line per interval (and per source), each starting with `leadingFields`.
    ///
    /// Dates and numbers go straight into memory, a line's worth at a time (see
    /// ``OutputText/appendASCII(maximumCount:_:)``), by a ``CSVLineWriter`` passed along rather
    /// than captured (a captured variable is checked for exclusive access at every use); only the
    /// source's name, which may need quoting, and the leading fields are appended apart.
    func writeCSVRows(leadingFields: [String] = [], to text: inout OutputText) {
        var writer = CSVLineWriter(columns: selection.columns, values: values, sourceNames: sourceNames, timeZone: timeZone)
        let separateBySource = selection.separateBySource
        for row in rows {
            writer.append(row, leadingFields: leadingFields, separateBySource: separateBySource, to: &text)
            text.writeIfLarge()
        }
    }

    /// Writes the CSV lines of one report's rows: dates in its zone (``RFC3339Writer``).
    private struct CSVLineWriter {
        let columns: [StatisticColumn]
        /// The report's ``StatisticsReport/values``.
        let values: [Double]
        /// The report's ``StatisticsReport/sourceNames``.
        let sourceNames: [String]
        var dates: RFC3339Writer
        /// The most bytes of a line's dates, and of its values.
        let datesCount: Int
        let valuesCount: Int

        init(columns: [StatisticColumn], values: [Double], sourceNames: [String], timeZone: TimeZone) {
            self.columns = columns
            self.values = values
            self.sourceNames = sourceNames
            dates = RFC3339Writer(timeZone: timeZone)
            let dateCount = RFC3339Writer.maximumCount
            datesCount = 2 * dateCount + 1
            valuesCount = columns.reduce(1) { count, column in
                count + 1 + ASCIIWriter.numberMaximumCount + (column == .mostRecent ? 2 * (1 + dateCount) : 0)
            }
        }

        mutating func append(_ line: Row, leadingFields: [String], separateBySource: Bool, to text: inout OutputText) {
            for field in leadingFields {
                text.appendCSVField(field)
                text.append(byte: UInt8(ascii: ","))
            }
            if separateBySource {
                text.appendASCII(maximumCount: datesCount) { writeDates(line, to: &$0) }
                text.append(byte: UInt8(ascii: ","))
                text.appendCSVField(line.sourceIndex.map { sourceNames[$0] } ?? "")
                text.appendASCII(maximumCount: valuesCount) { writeValues(line, to: &$0) }
            } else {
                text.appendASCII(maximumCount: datesCount + valuesCount) { row in
                    writeDates(line, to: &row)
                    writeValues(line, to: &row)
                }
            }
        }

        private mutating func writeDates(_ line: Row, to row: inout ASCIIWriter) {
            writeDate(line.start, to: &row)
            row.append(byte: UInt8(ascii: ","))
            writeDate(line.end, to: &row)
        }

        private mutating func writeValues(_ line: Row, to row: inout ASCIIWriter) {
            var offset = line.valueOffset
            for column in columns {
                row.append(byte: UInt8(ascii: ","))
                // NaN: no data, an empty field.
                let value = values[offset]
                if !value.isNaN { row.appendNumber(value) }
                offset &+= 1
                if column == .mostRecent {
                    row.append(byte: UInt8(ascii: ","))
                    writeDate(line.mostRecentStart, to: &row)
                    row.append(byte: UInt8(ascii: ","))
                    writeDate(line.mostRecentEnd, to: &row)
                }
            }
            row.append(byte: UInt8(ascii: "\n"))
        }

        private mutating func writeDate(_ date: Timestamp?, to row: inout ASCIIWriter) {
            guard let date else { return }
            row.appendRFC3339(date, dates: &dates)
        }
    }

    // MARK: JSON lines

    /// One compact JSON object per line for each interval (and each source within it, whose
    /// `source` is its name; `null` on the merged line): a tidy table, keyed like ``csvHeader(leadingColumns:)``.
    func jsonLines(leadingMembers: [(key: String, value: JSONValue)] = []) -> String {
        var text = OutputText()
        var dates = RFC3339Writer(timeZone: timeZone)
        for line in rows {
            var object = JSONContainerWriter(indentation: nil, into: &text)
            for member in leadingMembers {
                object.beginMember(member.key, into: &text)
                member.value.write(to: &text, indentation: nil)
            }
            object.beginMember("startDate", into: &text)
            appendJSONDate(line.start, to: &text, dates: &dates)
            object.beginMember("endDate", into: &text)
            appendJSONDate(line.end, to: &text, dates: &dates)
            if selection.separateBySource {
                object.beginMember("source", into: &text)
                if let source = source(of: line) { text.appendJSONString(source) } else { text.append("null") }
            }
            writeValueMembers(line, to: &object, text: &text, dates: &dates)
            object.close(into: &text)
            text.append(byte: UInt8(ascii: "\n"))
        }
        return text.string
    }

    // MARK: Table

    /// Appends aligned columns with local dates and the unit in each value header.
    func writeTable(to text: inout OutputText) {
        var dates = LocalDateText.Writer(timeZone: timeZone)
        var showsTime = false
        for row in rows where !showsTime {
            showsTime = [row.start, row.end].contains { date in date.map { !dates.isMidnight(Date(timestamp: $0)) } ?? false }
        }
        var columns = [TableRenderer.Column("Start"), TableRenderer.Column("End")]
        if selection.separateBySource { columns.append(TableRenderer.Column("Source")) }
        for column in selection.columns {
            let unitText = column == .duration ? " (h:mm:ss)" : column == .count ? "" : " (\(unit.unitString))"
            columns.append(TableRenderer.Column(column.title + unitText, alignment: .right))
        }
        var table = TableRenderer(columns: columns)
        func appendDate(_ date: Timestamp?) {
            guard let date else { return table.appendCell("") }
            table.appendASCIICell { dates.append(Date(timestamp: date), showsTime: showsTime, to: &$0) }
        }
        for line in rows {
            let isSourceLine = line.sourceIndex != nil
            appendDate(isSourceLine ? nil : line.start)
            appendDate(isSourceLine ? nil : line.end)
            if selection.separateBySource { table.appendCell(source(of: line) ?? "all sources") }
            for (index, column) in selection.columns.enumerated() {
                if let value = value(of: line, column: index) {
                    if column == .duration {
                        table.appendCell(NumberText.clock(value, alwaysShowsHours: true))
                    } else {
                        table.appendASCIICell { NumberText.appendReadable(value, to: &$0) }
                    }
                } else {
                    table.appendCell("-")
                }
            }
        }
        // Durations print as clock times and counts as numbers: only other statistics need the unit.
        let unitPhrase = selection.columns.allSatisfy { $0 == .duration || $0 == .count } ? "" : " in \(unit.unitString)"
        // The type may be one the store holds under any name: escaped like the cells below.
        text.append(TerminalText.escaped("\(typeName)\(unitPhrase), times in \(timeZoneName)") + "\n")
        if rows.isEmpty { text.append("(no intervals)\n") }
        table.write(to: &text)
    }
}
