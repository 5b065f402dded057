//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import Cadence

/// The importer's fast path — plain records handed over as ``ExportRecordView``s, dates parsed
/// with a remembered day, decimals parsed without `strtod` — must give exactly what the general
/// path gives: the general path is the oracle.
@Suite("Record views and their fast parsers agree with the general path")
struct RecordViewTests {
    /// Feeds a collector every record as an ``ExportRecord``, never as a view.
    struct RecordsOnly: ExportRecordSink {
        var collector: SampleCollector

        mutating func receive(_ record: ExportRecord) { collector.add(record) }
    }

    /// Takes views, through the protocol's default that turns them into records.
    struct ViewsAsRecords: ExportRecordSink {
        static var receivesRecordViews: Bool { true }
        var records: [ExportRecord] = []

        mutating func receive(_ record: ExportRecord) { records.append(record) }
    }

    /// What a collector holds after reading a file, in a comparable form.
    static func outcome(of collector: inout SampleCollector) -> [String] {
        let summary = collector.summary
        var lines = [
            "records \(collector.records)",
            "rejected \(summary.rejected) \(summary.rejections)", "unknown \(summary.unknownTypes.sorted { $0.key < $1.key })",
            "unknown values \(summary.unknownCategoryValues.sorted { $0.key < $1.key }) other \(summary.otherRecords) inside \(summary.correlationRecords)",
        ]
        for batch in collector.takeBatches() {
            lines.append("batch \(batch.quantityType.identifier) \(batch.provenances)")
            let columns = batch.columns
            for row in 0..<columns.count {
                lines.append("\(columns.start[row]) \(columns.end[row]) \(columns.value[row].bitPattern) "
                             + "\(columns.provenance[row]) \(columns.creation.isEmpty ? 0 : columns.creation[row]) "
                             + "\(columns.flags.isEmpty ? 0 : columns.flags[row]) "
                             + "\(metadata(columns, row).sorted { $0.key < $1.key })")
            }
        }
        return lines
    }

    /// The metadata of one row.
    static func metadata(_ columns: SampleColumns, _ row: Int) -> [String: String] {
        guard !columns.metadataIndex.isEmpty, columns.metadataIndex[row] > 0 else { return [:] }
        return columns.metadataSets[Int(columns.metadataIndex[row]) - 1]
    }

    /// Reads `bytes` in blocks into a collector, with views when `views`, and describes the result.
    static func read(_ bytes: [UInt8], views: Bool, blockSize: Int) -> [String] {
        let store = HealthStore.inMemory()
        var reader = ExportXMLReader(path: "export.xml")
        reader.parsesExportDates = true
        var collector = SampleCollector(store: store, path: "export.xml", dryRun: false)
        var recordsOnly = RecordsOnly(collector: collector)
        var error = "none"
        do {
            try bytes.withUnsafeBytes { buffer in
                var start = 0
                while start < buffer.count {
                    let block = UnsafeRawBufferPointer(rebasing: buffer[start..<min(buffer.count, start + blockSize)])
                    if views { try reader.feed(block, into: &collector) } else { try reader.feed(block, into: &recordsOnly) }
                    start += blockSize
                }
            }
            try reader.finish()
        } catch let caught {
            error = "\(caught)"
        }
        if !views { collector = recordsOnly.collector }
        return ["error \(error)", "read \(reader.summary)"] + outcome(of: &collector)
    }

    /// Records the fast path must decline or handle exactly: entities and repairs in cached
    /// values, RFC 3339 and broken dates, values that are not plain decimals, out-of-range and
    /// reversed samples, unknown types and units, alternating provenances, iOS 8's `source`.
    static func trickyExport() -> String {
        let date = "2024-01-01 08:00:00 +0000", later = "2024-01-01 08:05:00 +0000"
        func record(_ type: String = "HKQuantityTypeIdentifierHeartRate", source: String = "Watch", unit: String = "count/min",
                    start: String = date, end: String = later, value: String = "60", extra: String = "") -> String {
            #" <Record type="\#(type)" sourceName="\#(source)" unit="\#(unit)" startDate="\#(start)" endDate="\#(end)" "#
                + #"value="\#(value)"\#(extra)/>"# + "\n"
        }
        var body = ""
        let values = ["60", "61.5", "-0", "0.000001", "72.", ".5", "7e1", " 80", "80 ", "+70", "1234567890123456789012",
                      "9007199254740993", "0.1234567890123456789", "abc", "", "1&#48;", "NaN", "inf", "-5", "100000"]
        for (index, value) in values.enumerated() {
            body += record(source: index % 3 == 0 ? "Phone" : "Watch", value: value)
        }
        body += record(source: "Alex&#8217;s Watch", extra: #" device="&lt;&lt;HKDevice&gt;, name:Apple Watch&gt;""#)
        body += record(source: "Alex&#8217;s Watch", extra: #" device="&lt;&lt;HKDevice&gt;, name:Apple Watch&gt;""#)
        body += record(source: "Bad \u{1}byte", value: "61")
        body += record(source: "Bad \u{1}byte", value: "62")
        body += record(start: "2024-01-01T08:00:00+01:00", end: "2024-01-01T09:00:00+01:00")
        body += record(start: "2024-01-01 08:00:00 +0000", end: "2024-01-01 07:00:00 +0000")
        body += record(start: "2024-02-30 08:00:00 +0000")
        body += record(start: "2024-01-01 24:00:00 +0000")
        body += record(start: "2024-01-01 08:00:60 +0000", end: "2024-01-01 08:01:00 +0000")
        body += record(extra: #" creationDate="2024-01-01 08:99:00 +0000""#)
        body += record(extra: #" creationDate="2024-01-01 08:09:00 +0000""#)
        body += record(extra: #" creationDate="2024-01-01 08:09:00 +0000" sourceVersion="10.1""#)
        body += record(unit: "count/s", value: "1.5")
        body += record(unit: "furlong")
        body += record(unit: "")
        body += #" <Record type="HKQuantityTypeIdentifierHeartRate" source="Old Phone" unit="count/min" startDate="\#(date)" endDate="\#(later)" value="70"/>"# + "\n"
        body += record("HKQuantityTypeIdentifierFancyNewMetric", unit: "ms", value: "5")
        body += record("HKQuantityTypeIdentifierFancyNewMetric", unit: "s", value: "5")
        body += record("HKCategoryTypeIdentifierSleepAnalysis", unit: "", value: "HKCategoryValueSleepAnalysisAsleep")
        body += record("HKQuantityTypeIdentifierStepCount", unit: "count", value: "-3")
        body += record("HKQuantityTypeIdentifierStepCount", source: "", unit: "count", value: "3")
        body += record("", unit: "count", value: "3")
        body += record("HKQuantityTypeIdentifierBodyMass", unit: "lb", value: "150.5")
        body += record("HKQuantityTypeIdentifierBodyMass", unit: "kg", value: "70.25")
        body += record("HKQuantityTypeIdentifierBodyMass", unit: "kg", value: "70.25", extra: " value2=\"x\"")
        body += #" <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="\#(date)" endDate="\#(later)" value="65"><MetadataEntry key="HKWasUserEntered" value="1"/></Record>"# + "\n"
        body += record(value: "66")
        // Provenances that differ in one field only.
        body += record(value: "67", extra: #" device="&lt;&lt;HKDevice&gt;, name:Apple Watch&gt;""#)
        body += record(value: "68", extra: #" device="&lt;&lt;HKDevice&gt;, name:iPhone&gt;""#)
        body += record(value: "69")
        body += record(value: "70", extra: #" sourceVersion="10.2""#)
        body += record(value: "71", extra: #" sourceVersion="10.1""#)
        return ImportFixtures.export(body)
    }

    @Test("Collectors fed views and fed records end with the same batches, counts and rejections",
          arguments: [1 << 20, 97])
    func viewsMatchRecords(blockSize: Int) throws {
        var inputs = [Array(Self.trickyExport().utf8)]
        for (seed, malformed) in [(UInt64(1), false), (2, true)] {
            inputs.append(Array(SegmentedImportTests.awkwardExport(seed: seed, records: 600, malformed: malformed).utf8))
        }
        let tricky = inputs[0]
        inputs.append(Array(tricky.prefix(tricky.count * 2 / 3)))
        for name in ImportFixtures.exportNames {
            inputs.append(Array(try Data(contentsOf: URL(fileURLWithPath: try ImportFixtures.appleHealthFile(name)))))
        }
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let generated = directory.appendingPathComponent("generated.xml").path
        try SyntheticExportWriter.export(SyntheticHealthData(seed: 5, size: .samples(3_000)), format: .xml, to: generated,
                                         utcOffsetSeconds: 3_600)
        inputs.append(Array(try Data(contentsOf: URL(fileURLWithPath: generated))))
        for (index, bytes) in inputs.enumerated() {
            let viaViews = Self.read(bytes, views: true, blockSize: blockSize)
            let viaRecords = Self.read(bytes, views: false, blockSize: blockSize)
            #expect(viaViews.count > 3, "input \(index)")
            #expect(viaViews == viaRecords, "input \(index)")
        }
    }

    @Test("The tricky export takes both paths: some records go straight in, the rest are rejected or stored as before")
    func trickyExportIsExercised() {
        let lines = Self.read(Array(Self.trickyExport().utf8), views: true, blockSize: 1 << 20)
        #expect(lines.contains { $0.hasPrefix("batch HKQuantityTypeIdentifierHeartRate") })
        #expect(lines.contains { $0.contains("is not a finite number") })
        #expect(lines.contains { $0.contains("is after the end date") })
    }

    @Test("A view turned into a record equals the record the reader builds")
    func defaultConversion() {
        let bytes = Array(Self.trickyExport().utf8)
        var reader = ExportXMLReader(path: "export.xml")
        reader.parsesExportDates = true
        var records: [ExportRecord] = []
        var viewReader = reader
        var sink = ViewsAsRecords()
        bytes.withUnsafeBytes { buffer in
            #expect(throws: Never.self) { try reader.feed(buffer) { records.append($0) } }
            #expect(throws: Never.self) { try viewReader.feed(buffer, into: &sink) }
        }
        func describe(_ record: ExportRecord) -> String {
            ImportFixtures.fingerprint(record) + " \(String(describing: record.startTimestamp)) "
                + "\(String(describing: record.endTimestamp)) \(String(describing: record.creationTimestamp))"
        }
        #expect(records.count > 40)
        #expect(records.map(describe) == sink.records.map(describe))
        #expect(reader.summary == viewReader.summary)
    }

    @Test("Plain decimals parse to exactly Double(String)'s value, and the rest are declined")
    func plainDecimals() {
        var random = SeededRandom(seed: 11)
        var texts = ["0", "-0", "00012", "1.", ".5", "-", "", "1.2.3", "9007199254740992", "9007199254740993",
                     "0.0000000000000000000001", "0.00000000000000000000001", "12345678901234567890", "1e5", "+1", " 1"]
        for _ in 0..<20_000 {
            let digits = 1 + Int(random.next() % 18)
            var text = random.next() % 4 == 0 ? "-" : ""
            let point = Int(random.next() % UInt64(digits + 1))
            for position in 0..<digits {
                if position == point && position > 0 { text += "." }
                text += String(random.next() % 10)
            }
            texts.append(text)
        }
        var fast = 0
        for text in texts {
            var copy = text
            let parsed = copy.withUTF8 { parsePlainDecimal($0) }
            if let parsed {
                fast += 1
                #expect(parsed.bitPattern == Double(text)?.bitPattern, "\(text)")
            }
        }
        #expect(fast > 15_000)
        #expect(["1.", ".5", "-", "", "1e5", "+1", " 1", "9007199254740993"].allSatisfy { text in
            var copy = text
            return copy.withUTF8 { parsePlainDecimal($0) } == nil
        })
    }

    @Test("Export dates parse to exactly parseExport's value, remembered day or not")
    func exportDates() {
        var random = SeededRandom(seed: 12)
        var parser = ExportTimestampParser()
        var checked = 0
        let fixed = ["2024-01-01 08:00:00 +0000", "2024-01-01 23:59:60 +0000", "2024-01-01 24:00:00 +0000",
                     "2024-01-01 08:60:00 +0000", "2024-01-01 08:00:00 +2400", "2024-01-01 08:00:00 -0959",
                     "2024-01-01 08:00:00 +0060", "2024-01-01T08:00:00 +0000", "2024-01-01 08:00:00 0000",
                     "2024-01-01 08:0a:00 +0000", "2024-02-30 08:00:00 +0000", "2024-02-29 08:00:00 +0000",
                     "2023-02-29 08:00:00 +0000", "0001-01-01 00:00:00 +0100", "9999-12-31 23:59:59 -2359",
                     "2024-01-01 08:00:00 +000", "2024-01-01 08:00:00 +00000"]
        var texts = fixed + fixed.reversed()
        for _ in 0..<20_000 {
            let day = random.next() % 5 == 0 ? Int(random.next() % 31) + 1 : 1
            var text = String(format: "2024-%02d-%02d %02d:%02d:%02d %@%02d%02d", Int(random.next() % 3) + 1, day,
                              Int(random.next() % 25), Int(random.next() % 61), Int(random.next() % 62),
                              random.next() % 2 == 0 ? "+" : "-", Int(random.next() % 25), Int(random.next() % 61))
            if random.next() % 50 == 0 {
                var bytes = Array(text.utf8)
                bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(random.next() % 128)
                text = String(decoding: bytes, as: UTF8.self)
            }
            texts.append(text)
        }
        for text in texts {
            var copy = text
            let fast = copy.withUTF8 { parser.parse($0) }
            #expect(fast == (try? parseExport(text)), "\(text)")
            checked += fast == nil ? 0 : 1
        }
        #expect(checked > 10_000)
    }
}
