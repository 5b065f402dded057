//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// The rows of an import CSV file that are entries of series samples (a non-empty `sample`
/// column), kept aside by owner and made into series samples once the whole file is read, so that
/// cutting the file into segments never splits a series (<doc:HowCadenceComputes#Quantity-series>).
struct CSVSeriesRows {
    /// One entry row, as strings; `line` counts from the file's start once its segment is absorbed.
    struct Row {
        var line: Int
        var owner: String
        var type: String, sourceName: String, unit: String?, start: String, end: String, value: String?
        var sourceVersion: String?, device: String?, creation: String?
        var sampleStart: String?, sampleEnd: String?
        var metadata: [String: String]

        /// What every row of one series sample must repeat, with its name for errors.
        var owned: [(String, String?)] {
            [("type", type), ("sourceName", sourceName), ("sourceVersion", sourceVersion), ("device", device),
             ("creationDate", creation), ("sampleStartDate", sampleStart), ("sampleEndDate", sampleEnd)]
        }
    }

    private(set) var rows: [Row] = []

    var isEmpty: Bool { rows.isEmpty }

    /// Keeps the row if it is a series entry; returns whether it was.
    mutating func take(_ fields: inout CSVFields, columns: CSVImportColumns) -> Bool {
        guard let sample = columns.sample, !fields.withView({ $0.isEmpty(sample) }) else { return false }
        let row = fields.row()
        func field(_ index: Int?) -> String? {
            guard let index, let text = row[index], !text.isEmpty else { return nil }
            return text
        }
        var metadata: [String: String] = [:]
        for (key, index) in columns.metadata { if let value = field(index) { metadata[key] = value } }
        rows.append(Row(line: row.line, owner: field(sample) ?? "", type: field(columns.type) ?? "",
                        sourceName: field(columns.sourceName) ?? "", unit: field(columns.unit),
                        start: field(columns.startDate) ?? "", end: field(columns.endDate) ?? "",
                        value: field(columns.value), sourceVersion: field(columns.sourceVersion),
                        device: field(columns.device), creation: field(columns.creationDate),
                        sampleStart: field(columns.sampleStartDate), sampleEnd: field(columns.sampleEndDate),
                        metadata: metadata))
        return true
    }

    /// Takes a later segment's rows, whose lines counted from 1 at `lineOffset + 1`.
    mutating func absorb(_ segment: CSVSeriesRows, lineOffset: Int) {
        rows += segment.rows.map { row in
            var row = row
            row.line += lineOffset
            return row
        }
    }

    /// The series samples the rows make, one per owner UUID and type, in order of their first
    /// rows; a series with a row that cannot be stored is rejected whole, naming that row's line.
    func series(store: HealthStore, summary: inout ImportSummary) -> [QuantitySeriesSample] {
        var order: [String] = []
        var groups: [String: [Row]] = [:]
        for var row in rows {
            // A type's short and full names name one type: its rows make one series (two series
            // of one owner and type would be one sample listing the entries of both).
            row.type = QuantityType.known(row.type)?.identifier ?? row.type
            let key = row.owner + "\u{0}" + row.type
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(row)
        }
        return order.compactMap { key in
            guard let rows = groups[key], let first = rows.first else { return nil }
            do {
                return try Self.series(rows, store: store)
            } catch let failure as Failure {
                summary.reject(line: failure.line, "the series sample \(first.owner): \(failure.reason)")
                summary.rejected += rows.count - 1
                return nil
            } catch {
                summary.reject(line: first.line, "the series sample \(first.owner): \(error)")
                summary.rejected += rows.count - 1
                return nil
            }
        }
    }

    /// Why a series cannot be stored, and the line to blame.
    private struct Failure: Error {
        var line: Int
        var reason: String
    }

    /// One owner's series sample.
    private static func series(_ rows: [Row], store: HealthStore) throws -> QuantitySeriesSample {
        guard let first = rows.first else { throw Failure(line: 0, reason: "it has no entry") }
        func fail(_ row: Row, _ reason: String) -> Failure { Failure(line: row.line, reason: reason) }
        func message(_ error: any Error) -> String { (error as? CadenceError)?.message ?? "\(error)" }
        guard let uuid = UUID(uuidString: first.owner) else {
            throw fail(first, "'\(first.owner.prefix(64))' is not a UUID")
        }
        guard !first.sourceName.isEmpty else { throw fail(first, "the source name is missing") }
        for row in rows.dropFirst() {
            for ((name, expected), (_, found)) in zip(first.owned, row.owned) where expected != found {
                throw fail(row, "its \(name) '\(found ?? "")' differs from '\(expected ?? "")' on line \(first.line)")
            }
            if row.metadata != first.metadata {
                throw fail(row, "its metadata differs from that on line \(first.line)")
            }
        }
        guard let type = QuantityType.known(first.type) ?? store.snapshotType(first.type) else {
            throw fail(first, "'\(first.type.prefix(64))' is not a quantity type this store knows")
        }
        func date(_ text: String, of row: Row) throws -> Date {
            do { return Date(timestamp: try SampleCollector.parseDate(text)) } catch { throw fail(row, message(error)) }
        }
        var entries: [(Row, Quantity, DateInterval)] = []
        for row in rows {
            guard let text = row.value, let value = SampleCollector.parseNumber(text), value.isFinite else {
                throw fail(row, "the value '\((row.value ?? "").prefix(64))' is not a finite number")
            }
            guard let unitText = row.unit else { throw fail(row, "the unit is missing") }
            let unit: HealthUnit
            do { unit = try HealthUnit(unitText) } catch { throw fail(row, message(error)) }
            let start = try date(row.start, of: row), end = try date(row.end, of: row)
            guard start <= end else { throw fail(row, "the start date \(row.start) is after the end date \(row.end)") }
            entries.append((row, Quantity(value: value, unit: unit), DateInterval(start: start, end: end)))
        }
        let start = try first.sampleStart.map { try date($0, of: first) } ?? entries.map(\.2.start).min() ?? Date(timestamp: 0)
        let end = try first.sampleEnd.map { try date($0, of: first) } ?? entries.map(\.2.end).max() ?? start
        var builder: QuantitySeriesSampleBuilder
        do { builder = try QuantitySeriesSampleBuilder(type: type, start: start, end: end) } catch { throw fail(first, message(error)) }
        for (row, quantity, interval) in entries {
            do { try builder.insert(quantity, dateInterval: interval) } catch { throw fail(row, message(error)) }
        }
        do {
            return try builder.finishSeries(
                uuid: uuid, source: Source(name: first.sourceName), sourceVersion: first.sourceVersion,
                device: first.device.map { Device(description: $0) },
                creationDate: try first.creation.map { try date($0, of: first) }, metadata: first.metadata)
        } catch {
            // Overlapping cumulative entries: blame the later of the first overlapping pair.
            let sorted = entries.sorted { ($0.2.start, $0.2.end, $0.0.line) < ($1.2.start, $1.2.end, $1.0.line) }
            let overlap = zip(sorted, sorted.dropFirst()).first { $1.2.start < $0.2.end }?.1.0
            throw fail(overlap ?? first, message(error))
        }
    }
}
