//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import Cadence

/// The CSV import's shortcuts — fields kept as bytes, a column's string reused from the row
/// before, rows that repeat the previous provenance stored without strings — must give exactly
/// what plain strings give.
@Suite("CSV rows as bytes agree with CSV rows as strings")
struct CSVFieldsTests {
    /// Field texts drawn often, so that columns repeat, change length, empty and come back.
    static let pool: [[UInt8]] = [
        [], Array("a".utf8), Array("ab".utf8), Array("abc".utf8), Array("abd".utf8), Array("x,y".utf8),
        Array("say \"hi\"".utf8), Array("two\nlines".utf8), Array("Alex’s Watch".utf8), [0x61, 0xFF, 0x62],
        [0xE2, 0x80], Array(String(repeating: "long", count: 40).utf8),
    ]

    /// The bytes of one field in a file: quoted when it holds a delimiter, quote or line break.
    static func encode(_ field: [UInt8]) -> [UInt8] {
        guard field.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A }) else {
            return field
        }
        var quoted: [UInt8] = [UInt8(ascii: "\"")]
        for byte in field {
            quoted.append(byte)
            if byte == UInt8(ascii: "\"") { quoted.append(byte) }
        }
        quoted.append(UInt8(ascii: "\""))
        return quoted
    }

    /// Whether a row would be written as an empty line.
    static func isBlank(_ row: [[UInt8]]) -> Bool { row.count == 1 && row[0].isEmpty }

    @Test("Each field's string is its text, whichever columns are asked for and however the file is cut",
          arguments: [1, 2, 3])
    func stringsMatchTheFields(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let header = ["c0", "c1", "c2", "c3", "c4"]
        var rows: [[[UInt8]]] = []
        for _ in 0..<400 {
            // Mostly five fields; sometimes fewer or more, as real files are.
            let count = random.below(8) == 0 ? random.below(7) + 1 : 5
            rows.append((0..<count).map { column in
                // Column 0 changes rarely, column 4 every row.
                random.below(column * 2 + 1) == 0 || rows.isEmpty || column >= rows[rows.count - 1].count
                    ? Self.pool[random.below(Self.pool.count)] : rows[rows.count - 1][column]
            })
        }
        var file = Array((header.joined(separator: ",") + "\r\n").utf8)
        for row in rows {
            // A row of one empty field would be a blank line, which the reader skips.
            let fields = Self.isBlank(row) ? [Array("a".utf8)] : row
            file += fields.map(Self.encode).joined(separator: [UInt8(ascii: ",")])
            file += random.below(2) == 0 ? [0x0A] : [0x0D, 0x0A]
        }
        let expectedBytes = rows.map { row in Self.isBlank(row) ? [Array("a".utf8)] : row }
        let expected = expectedBytes.map { row in row.map { String(decoding: $0, as: UTF8.self) } }

        var reader = try CSVReader(path: "fields.csv")
        var delivered = 0
        var mismatches: [String] = []
        let check: (inout CSVFields) -> Void = { fields in
            let want = expected[delivered]
            let wantBytes = expectedBytes[delivered]
            delivered += 1
            #expect(fields.count == want.count)
            // Ask for a random subset of the columns, in a random order, some twice.
            for _ in 0..<random.below(7) {
                let column = random.below(6)
                let other = random.below(6)
                let got = fields.string(column)
                let (isEmpty, bytes, equalsOther) = fields.withView { view in
                    (view.isEmpty(column), view.field(column).map(Array.init), view.field(column, equals: other))
                }
                let text = column < want.count ? want[column] : nil
                let otherText = other < want.count ? want[other] : nil
                if got != text || isEmpty != (text?.isEmpty ?? true)
                    || bytes.map({ String(decoding: $0, as: UTF8.self) }) != text
                    || equalsOther != ((column < wantBytes.count ? wantBytes[column] : nil)
                                       == (other < wantBytes.count ? wantBytes[other] : nil)) {
                    mismatches.append("row \(delivered) column \(column): \(String(describing: got)) vs \(String(describing: text))"
                                      + ", equal to column \(other) (\(String(describing: otherText))): \(equalsOther)")
                }
            }
        }
        try file.withUnsafeBytes { buffer in
            var start = 0
            while start < buffer.count {
                let end = min(buffer.count, start + 1 + random.below(40))
                try reader.feedFields(UnsafeRawBufferPointer(rebasing: buffer[start..<end]), to: check)
                start = end
            }
        }
        let summary = try reader.finishFields(to: check)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(delivered == rows.count)
        #expect(summary.rowCount == rows.count && summary.malformedRowCount == 0)
        #expect(summary.columns?.names == header)
    }

    /// Rows the shortcut must decline or handle exactly: changes of type, unit and each part of
    /// the provenance, UUIDs and metadata, both date formats and broken dates, values that are not
    /// plain decimals, out-of-range and reversed samples, unknown and category types.
    static func trickyCSV() -> String {
        var lines = ["type,sourceName,unit,startDate,endDate,value,uuid,sourceVersion,device,creationDate,metadata:HKWasUserEntered"]
        func row(_ type: String = "HKQuantityTypeIdentifierHeartRate", source: String = "Watch", unit: String = "count/min",
                 start: String = "2024-01-01T08:00:00Z", end: String = "2024-01-01T08:05:00Z", value: String = "60",
                 uuid: String = "", version: String = "", device: String = "", creation: String = "", entered: String = "") {
            let device = device.contains(",") ? "\"\(device)\"" : device
            lines.append([type, source, unit, start, end, value, uuid, version, device, creation, entered].joined(separator: ","))
        }
        let values = ["60", "61.5", "-0", "0.000001", "72.", ".5", "7e1", " 80", "80 ", "+70", "1234567890123456789012",
                      "9007199254740993", "0.1234567890123456789", "abc", "", "NaN", "inf", "-5", "100000"]
        for (index, value) in values.enumerated() { row(source: index % 3 == 0 ? "Phone" : "Watch", value: value) }
        row(value: "61", device: "<<HKDevice>, name:Apple Watch>")
        row(value: "62", device: "<<HKDevice>, name:Apple Watch>")
        row(value: "63", device: "<<HKDevice>, name:iPhone>")
        row(value: "64", version: "10.1")
        row(value: "65", version: "10.2")
        row(value: "66", version: "10.2")
        row(start: "2024-01-01 08:00:00 +0000", end: "2024-01-01 08:05:00 +0000")
        row(start: "2024-01-01 09:00:00 +0100", end: "2024-01-01T08:06:00Z")
        row(start: "2024-01-01T08:10:00Z", end: "2024-01-01T08:00:00Z")
        row(start: "2024-02-30T08:00:00Z")
        row(start: "2024-01-01T08:00:00")
        row(end: "")
        row(creation: "2024-01-01T08:09:00Z")
        // An end or creation date written as the start is taken from it, whatever its format.
        row(end: "2024-01-01T08:00:00Z", creation: "2024-01-01T08:00:00Z")
        row(start: "2024-01-01 08:00:00 +0000", end: "2024-01-01 08:00:00 +0000", creation: "2024-01-01 08:00:00 +0000")
        row(start: "2024-01-01T08:00:00.5+01:00", end: "2024-01-01T08:00:00.5+01:00")
        row(start: "2024-01-01T08:00:00Z", end: "2024-01-01T08:00:00Z", creation: "2024-01-01T08:00:00z")
        row(start: "2024-02-30T08:00:00Z", end: "2024-02-30T08:00:00Z", creation: "2024-02-30T08:00:00Z")
        row(creation: "2024-01-01T08:99:00Z")
        row(creation: "2024-01-01 08:09:00 +0000")
        row(uuid: "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0")
        row(uuid: "not-a-uuid")
        row(value: "67")
        row(entered: "1")
        row(value: "68")
        row(unit: "count/s", value: "1.5")
        row(unit: "count/s", value: "1.25")
        row(unit: "furlong")
        row(unit: "")
        row(source: "")
        row("HKQuantityTypeIdentifierFancyNewMetric", unit: "ms", value: "5")
        row("HKQuantityTypeIdentifierFancyNewMetric", unit: "ms", value: "6")
        row("HKQuantityTypeIdentifierFancyNewMetric", unit: "s", value: "5")
        // A phone's and a watch's steps alternating, a ring's now and then, and a category between.
        for index in 0..<14 {
            row("stepCount", source: ["Phone", "Watch", "Phone", "Watch", "Ring"][index % 5], unit: "count", value: "\(index + 1)",
                device: index % 4 == 1 ? "<<HKDevice>, name:Apple Watch>" : "")
            if index == 8 { row("HKCategoryTypeIdentifierSleepAnalysis", unit: "", value: "HKCategoryValueSleepAnalysisAwake") }
        }
        row("HKCategoryTypeIdentifierSleepAnalysis", unit: "", value: "HKCategoryValueSleepAnalysisAsleep")
        row("stepCount", unit: "count", value: "3")
        row("stepCount", unit: "count", value: "-3")
        row("stepCount", unit: "count", value: "4")
        row("", unit: "count", value: "3")
        row("HKQuantityTypeIdentifierBodyMass", unit: "lb", value: "150.5")
        row("HKQuantityTypeIdentifierBodyMass", unit: "kg", value: "70.25")
        row("HKQuantityTypeIdentifierBodyMass", unit: "kg", value: "70.5")
        lines.append("HKQuantityTypeIdentifierBodyMass,Scale")
        lines.append("HKQuantityTypeIdentifierBodyMass,Scale,kg,2024-01-01T08:00:00Z,2024-01-01T08:00:00Z,71,,,,,,extra")
        row("HKQuantityTypeIdentifierBodyMass", source: "Scale", unit: "kg", value: "71.5")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads a CSV file into a collector, each row as bytes (`asFields`) or as a ``CSVRow``, and
    /// describes what the collector ends with.
    /// What reading a CSV file gave: the reader's summary, compared as a value (its column
    /// dictionary prints in no fixed order), and the collector's outcome.
    struct ReadOutcome: Equatable {
        var summary: CSVReadSummary
        var collected: [String]

        func contains(where predicate: (String) -> Bool) -> Bool { collected.contains(where: predicate) }
        var count: Int { collected.count }
    }

    static func read(_ text: String, asFields: Bool, blockSize: Int) throws -> ReadOutcome {
        var reader = try CSVReader(path: "tricky.csv")
        var collector = SampleCollector(store: HealthStore.inMemory(), path: "tricky.csv", dryRun: false)
        var columns: CSVImportColumns?
        let handler: (inout CSVFields) throws -> Void = { fields in
            if columns == nil { columns = try CSVImportColumns(fields.columns, path: "tricky.csv") }
            guard let columns else { return }
            if asFields { collector.add(&fields, columns: columns) } else { collector.add(fields.row(), columns: columns) }
        }
        let bytes = Array(text.utf8)
        try bytes.withUnsafeBytes { buffer in
            var start = 0
            while start < buffer.count {
                let end = min(buffer.count, start + blockSize)
                try reader.feedFields(UnsafeRawBufferPointer(rebasing: buffer[start..<end]), to: handler)
                start = end
            }
        }
        let summary = try reader.finishFields(to: handler)
        return ReadOutcome(summary: summary, collected: RecordViewTests.outcome(of: &collector))
    }

    @Test("Collectors fed rows as bytes and as strings end with the same batches, counts and rejections",
          arguments: [1 << 20, 7])
    func fieldsMatchRows(blockSize: Int) throws {
        let text = Self.trickyCSV()
        let shortcut = try Self.read(text, asFields: true, blockSize: blockSize)
        let strings = try Self.read(text, asFields: false, blockSize: blockSize)
        #expect(shortcut == strings)
        // The file exercised both paths: samples stored and rows rejected.
        #expect(strings.contains { $0.hasPrefix("batch HKQuantityTypeIdentifierHeartRate") })
        #expect(strings.contains { $0.hasPrefix("rejected") && !$0.hasPrefix("rejected 0 ") })
    }

    @Test("A generated CSV file imports the same through the shortcut as through strings")
    func generatedFileMatches() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("generated.csv").path
        try SyntheticExportWriter.export(SyntheticHealthData(seed: 11, size: .samples(3_000)), format: .csv, to: path)
        let csv = try String(contentsOfFile: path, encoding: .utf8)
        let shortcut = try Self.read(csv, asFields: true, blockSize: 4_096)
        #expect(shortcut == (try Self.read(csv, asFields: false, blockSize: 4_096)))
        #expect(shortcut.count > 3_000)
    }
}

extension SeededRandom {
    /// A number in `0..<bound`.
    fileprivate mutating func below(_ bound: Int) -> Int { Int(next(upperBound: UInt64(bound))) }
}
