//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// One generated row, flattened for comparisons.
private struct Row: Equatable {
    var type: String
    var source: String
    var start: Timestamp
    var end: Timestamp
    var value: Double
    var metadata: [String: String]
}

private func rows(of batches: [QuantitySampleBatch]) -> [Row] {
    var result: [Row] = []
    for batch in batches {
        let columns = batch.columns
        for row in 0..<columns.count {
            result.append(Row(type: batch.quantityType.identifier,
                              source: batch.provenances[Int(columns.provenance[row])].source.name,
                              start: columns.start[row], end: columns.end[row], value: columns.value[row],
                              metadata: columns.metadata(at: row)))
        }
    }
    return result
}

private func rowsByType(_ batches: [QuantitySampleBatch]) -> [String: [Row]] {
    Dictionary(grouping: rows(of: batches), by: \.type)
}

private func microseconds(_ date: Date) -> Timestamp {
    Timestamp((date.timeIntervalSince1970 * 1_000_000).rounded())
}

private func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory
        .appendingPathComponent("cadence-synthetic-\(UUID().uuidString)-\(name)").path
}

/// Splits one CSV line into fields, honouring RFC 4180 quotes.
private func csvFields(_ line: Substring) -> [String] {
    var fields: [String] = []
    var field = ""
    var quoted = false
    var iterator = line.makeIterator()
    var pending: Character? = nil
    while let character = pending ?? iterator.next() {
        pending = nil
        if quoted {
            if character == "\"" {
                if let next = iterator.next() {
                    if next == "\"" { field.append("\"") } else { quoted = false; pending = next }
                } else {
                    quoted = false
                }
            } else {
                field.append(character)
            }
        } else if character == "\"" {
            quoted = true
        } else if character == "," {
            fields.append(field)
            field = ""
        } else {
            field.append(character)
        }
    }
    fields.append(field)
    return fields
}

@Suite("SyntheticHealthData")
struct SyntheticHealthDataTests {
    @Test func seededRandomIsDeterministicAndInRange() {
        var first = SeededRandom(seed: 99)
        var second = SeededRandom(seed: 99)
        var other = SeededRandom(seed: 100)
        var differs = false
        for _ in 0..<1_000 {
            let value = first.next()
            #expect(value == second.next())
            if value != other.next() { differs = true }
            let unit = first.unitDouble()
            #expect(unit >= 0 && unit < 1)
            let integer = first.integer(in: -3...7)
            #expect(integer >= -3 && integer <= 7)
            let bell = first.bell()
            #expect(bell >= -1 && bell <= 1)
            #expect(first.normal(mean: 5, standardDeviation: 2).isFinite)
            _ = second.unitDouble()
            _ = second.integer(in: -3...7)
            _ = second.bell()
            _ = second.normal(mean: 5, standardDeviation: 2)
        }
        #expect(differs)
        #expect(SeededRandom(seed: 1, stream: 0) != SeededRandom(seed: 1, stream: 1))
    }

    @Test func sameSeedGivesSameDataAndOtherSeedDiffers() throws {
        for profile in SyntheticProfile.allCases {
            let size: SyntheticHealthData.Size = profile == .dense ? .samples(20_000) : .days(3)
            let first = try SyntheticHealthData(profile: profile, seed: 42, size: size).batches(batchSize: 1_000)
            let again = try SyntheticHealthData(profile: profile, seed: 42, size: size).batches(batchSize: 1_000)
            let other = try SyntheticHealthData(profile: profile, seed: 43, size: size).batches(batchSize: 1_000)
            #expect(first.map(\.count) == again.map(\.count))
            #expect(rows(of: first) == rows(of: again))
            #expect(rows(of: first) != rows(of: other))
        }
    }

    @Test func batchSizeOnlyMovesTheCuts() throws {
        let data = SyntheticHealthData(profile: .realistic, seed: 5, size: .days(2))
        let small = try data.batches(batchSize: 97)
        let large = try data.batches(batchSize: 1_000_000)
        #expect(small.allSatisfy { $0.count <= 97 && $0.count > 0 })
        #expect(large.count == 4)
        #expect(rowsByType(small) == rowsByType(large))
    }

    @Test func denseProfileHasExactlyNSamplesEveryFiveSeconds() throws {
        let count = 40_000  // crosses two midnights
        let data = SyntheticHealthData(profile: .dense, seed: 9, size: .samples(count))
        #expect(data.expectedSampleCount == count)
        let batches = try data.batches(batchSize: 4_096)
        #expect(batches.allSatisfy { $0.quantityType == .heartRate && $0.count <= 4_096 })
        #expect(Set(batches.flatMap { $0.provenances }) == [SyntheticHealthData.watchProvenance])
        let all = rows(of: batches)
        #expect(all.count == count)
        #expect(all.first?.start == SyntheticHealthData.defaultStartTimestamp)
        var previous: Row? = nil
        for row in all {
            #expect(row.start == row.end)
            #expect(row.value == row.value.rounded() && row.value >= 30 && row.value <= 220)
            if let previous {
                #expect(row.start - previous.start == 5_000_000)
                #expect(abs(row.value - previous.value) <= 6)
            }
            previous = row
        }
        let byDays = try SyntheticHealthData(profile: .dense, seed: 9, size: .days(1)).batches()
        #expect(rows(of: byDays).count == SyntheticHealthData.denseSamplesPerDay)
    }

    @Test func realisticWeekHasAllFourTypesFromTheirSources() throws {
        let data = SyntheticHealthData(profile: .realistic, seed: 2024, size: .days(7))
        let byType = rowsByType(try data.batches())
        #expect(Set(byType.keys) == Set(data.quantityTypes.map(\.identifier)))
        let heartRate = byType[QuantityType.heartRate.identifier] ?? []
        let steps = byType[QuantityType.stepCount.identifier] ?? []
        let energy = byType[QuantityType.activeEnergyBurned.identifier] ?? []
        let mass = byType[QuantityType.bodyMass.identifier] ?? []
        #expect(heartRate.count > 7 * 500)
        #expect(energy.count > 7 * 600)
        #expect(mass.count >= 3 && mass.count <= 7)
        #expect(Set(steps.map(\.source)) == ["Alex’s Apple Watch", "Alex’s iPhone"])
        #expect(Set(mass.map(\.source)) == ["Withings"])
        #expect(heartRate.allSatisfy { $0.start == $0.end && $0.value == $0.value.rounded() })
        #expect(energy.allSatisfy { $0.end - $0.start == 60_000_000 && $0.value > 0 })
        #expect(energy.contains { $0.value != $0.value.rounded() })
        #expect(mass.allSatisfy { $0.start == $0.end && ($0.value * 10).rounded() == $0.value * 10 })
        // Workouts: heart rate every 5 seconds, and elevated.
        let fiveSecondGaps = zip(heartRate, heartRate.dropFirst()).filter { $1.start - $0.start == 5_000_000 }
        #expect(fiveSecondGaps.count > 7 * 300)
        #expect(heartRate.contains { $0.value >= 130 })
        // Sparse motion-context metadata.
        let withMetadata = heartRate.filter { !$0.metadata.isEmpty }
        #expect(!withMetadata.isEmpty && withMetadata.count < heartRate.count / 5)
        #expect(withMetadata.allSatisfy { ["0", "1"].contains($0.metadata[SyntheticHealthData.heartRateMotionContextKey]) })
        // Nights (01:00–05:00 after the start) have no steps, and a lower heart rate.
        let day: Timestamp = 86_400_000_000
        let hour: Timestamp = 3_600_000_000
        func isNight(_ time: Timestamp) -> Bool {
            let offset = (time - data.startTimestamp) % day
            return offset >= hour && offset < 5 * hour
        }
        #expect(!steps.contains { isNight($0.start) || isNight($0.end) })
        let night = heartRate.filter { isNight($0.start) }.map(\.value)
        let afternoon = heartRate.filter { ((($0.start - data.startTimestamp) % day) / hour) == 15 }.map(\.value)
        #expect(!night.isEmpty && !afternoon.isEmpty)
        let nightAverage: Double = night.reduce(0, +) / Double(night.count)
        let afternoonAverage: Double = afternoon.reduce(0, +) / Double(afternoon.count)
        #expect(nightAverage < afternoonAverage)
    }

    @Test func stepsFromBothSourcesOverlapButNotWithinASource() throws {
        let data = SyntheticHealthData(profile: .realistic, seed: 11, size: .days(3))
        let steps = rowsByType(try data.batches())[QuantityType.stepCount.identifier] ?? []
        let watch = steps.filter { $0.source == "Alex’s Apple Watch" }
        let phone = steps.filter { $0.source == "Alex’s iPhone" }
        #expect(watch.allSatisfy { $0.end - $0.start >= 1_000_000 && $0.end - $0.start <= 300_000_000 })
        #expect(phone.allSatisfy { $0.end - $0.start >= 1_000_000 && $0.end - $0.start <= 600_000_000 })
        for source in [watch, phone] {
            #expect(zip(source, source.dropFirst()).allSatisfy { $0.end <= $1.start })
        }
        let overlapping = watch.filter { sample in phone.contains { $0.start < sample.end && sample.start < $0.end } }
        #expect(overlapping.count > 10)
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0.start <= $1.start })
    }

    @Test func everySampleIsWellFormed() throws {
        for profile in SyntheticProfile.allCases {
            let data = SyntheticHealthData(profile: profile, seed: 3, size: .samples(25_000))
            let all = rows(of: try data.batches(batchSize: 3_000))
            #expect(all.count == 25_000)
            #expect(all.allSatisfy { $0.start <= $0.end && $0.value.isFinite && $0.value >= 0 })
            #expect(all.allSatisfy { $0.start % 1_000_000 == 0 && $0.end % 1_000_000 == 0 })
        }
    }

    @Test func rejectsBadSizes() {
        #expect(throws: CadenceError.self) {
            try SyntheticHealthData(profile: .dense, seed: 1, size: .samples(-1)).generate { _ in }
        }
        #expect(throws: CadenceError.self) {
            try SyntheticHealthData(profile: .realistic, seed: 1, size: .days(1)).generate(batchSize: 0) { _ in }
        }
        var batches = 0
        #expect(throws: Never.self) {
            try SyntheticHealthData(profile: .realistic, seed: 1, size: .days(0)).generate { _ in batches += 1 }
        }
        #expect(batches == 0)
    }

    @Test func csvExportParsesBack() throws {
        let data = SyntheticHealthData(profile: .realistic, seed: 9, size: .days(1))
        let expected = rows(of: try data.batches())
        let path = temporaryPath("export.csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let written = try SyntheticExportWriter.export(data, format: .csv, to: path, batchSize: 500)
        #expect(written == expected.count)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.first.map(String.init) == SyntheticExportWriter.csvHeader)
        #expect(lines.count == expected.count + 1)
        let fields = lines.dropFirst().map(csvFields)
        #expect(fields.allSatisfy { $0.count == 9 })
        let watchRow = fields.first { $0[1] == "Alex’s Apple Watch" }
        #expect(watchRow?[7] == SyntheticHealthData.watchProvenance.device?.descriptionString)
        #expect(watchRow?[6] == "10.1")
        let scaleRow = fields.first { $0[0] == QuantityType.bodyMass.identifier }
        #expect(scaleRow?[2] == "kg" && scaleRow?[6] == "6.3.1" && scaleRow?[7] == "")
        let units = Dictionary(fields.map { ($0[0], $0[2]) }, uniquingKeysWith: { first, _ in first })
        #expect(units[QuantityType.heartRate.identifier] == "count/min")
        #expect(units[QuantityType.stepCount.identifier] == "count")
        #expect(units[QuantityType.activeEnergyBurned.identifier] == "kcal")
        // Values and dates read back exactly.
        let formatter = ISO8601DateFormatter()
        let parsed = fields.map { row in
            (row[0], formatter.date(from: row[3]).map(microseconds), formatter.date(from: row[4]).map(microseconds),
             Double(row[5]))
        }
        let sortedExpected = expected.sorted { ($0.type, $0.start, $0.end, $0.value) < ($1.type, $1.start, $1.end, $1.value) }
        let sortedParsed = parsed.sorted { ($0.0, $0.1 ?? 0, $0.2 ?? 0, $0.3 ?? 0) < ($1.0, $1.1 ?? 0, $1.2 ?? 0, $1.3 ?? 0) }
        #expect(sortedParsed.count == sortedExpected.count)
        for (row, sample) in zip(sortedParsed, sortedExpected) {
            #expect(row.0 == sample.type && row.1 == sample.start && row.2 == sample.end && row.3 == sample.value)
        }
        #expect(lines[1].contains("2024-01-01T"))
        #expect(lines[1].hasSuffix("Z"))
    }

    @Test func xmlExportHasTheAppleLayout() throws {
        let data = SyntheticHealthData(profile: .realistic, seed: 9, size: .days(1))
        let expected = rows(of: try data.batches())
        let path = temporaryPath("export.xml")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let written = try SyntheticExportWriter.export(data, format: .xml, to: path, utcOffsetSeconds: 3_600)
        #expect(written == expected.count)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE HealthData ["))
        #expect(text.contains("<HealthData locale=\"en_US\">\n <ExportDate value=\"2024-01-02 01:00:00 +0100\"/>\n <Me "))
        #expect(text.hasSuffix("</HealthData>\n"))
        #expect(text.components(separatedBy: "<Record ").count - 1 == expected.count)
        let metadataCount = expected.filter { !$0.metadata.isEmpty }.count
        #expect(text.components(separatedBy: "<MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\"").count - 1
            == metadataCount)
        #expect(text.components(separatedBy: " </Record>\n").count - 1 == metadataCount)
        #expect(text.contains("sourceName=\"Alex’s Apple Watch\" sourceVersion=\"10.1\" device=\"&lt;&lt;HKDevice: 0x2836a4f00&gt;, name:Apple Watch"))
        #expect(text.contains("unit=\"count/min\" creationDate=\"2024-01-01 "))
        #expect(text.contains(" +0100\" startDate=\"2024-01-01 "))
        #expect(text.contains("<Record type=\"HKQuantityTypeIdentifierBodyMass\" sourceName=\"Withings\" sourceVersion=\"6.3.1\" unit=\"kg\""))
    }

    @Test func writerFormatsEdgeValuesAndDates() throws {
        // A type Cadence does not know, so that a negative value is allowed.
        var batch = QuantitySampleBatch(type: .unknown("bodyMassChange", unit: .kilogram))
        let source = batch.addProvenance(Provenance(source: Source(name: "A \"quoted\", name & <more>")))
        // 1999-12-31T23:59:59.25Z and 1960-02-29T12:00:00Z (before 1970).
        try batch.append(startTimestamp: 946_684_799_250_000, endTimestamp: 946_684_799_250_000, value: 0.1,
                         provenanceIndex: source)
        try batch.append(startTimestamp: -310_478_400_000_000, endTimestamp: -310_478_400_000_000,
                         value: 1.0 / 3.0, provenanceIndex: source, metadata: ["b": "2", "a": "x\"y"])
        try batch.append(startTimestamp: 0, endTimestamp: 0, value: -72, provenanceIndex: source)
        let csvPath = temporaryPath("edge.csv")
        let xmlPath = temporaryPath("edge.xml")
        defer {
            try? FileManager.default.removeItem(atPath: csvPath)
            try? FileManager.default.removeItem(atPath: xmlPath)
        }
        let csv = try SyntheticExportWriter(path: csvPath, format: .csv)
        try csv.write(batch)
        try csv.finish()
        try csv.finish()
        #expect(throws: CadenceError.self) { try csv.write(batch) }
        let csvLines = try String(contentsOfFile: csvPath, encoding: .utf8).split(separator: "\n")
        #expect(csvLines.count == 4)
        #expect(csvLines[1] == "HKQuantityTypeIdentifierBodyMassChange,\"A \"\"quoted\"\", name & <more>\",kg,"
            + "1999-12-31T23:59:59.25Z,1999-12-31T23:59:59.25Z,0.1,,,1999-12-31T23:59:59.25Z")
        #expect(csvFields(csvLines[2])[3] == "1960-02-29T12:00:00Z")
        #expect(Double(csvFields(csvLines[2])[5]) == 1.0 / 3.0)
        #expect(csvFields(csvLines[3])[5] == "-72")

        let xml = try SyntheticExportWriter(path: xmlPath, format: .xml, exportDate: 0, utcOffsetSeconds: -19_800)
        try xml.write(batch)
        try xml.finish()
        let text = try String(contentsOfFile: xmlPath, encoding: .utf8)
        #expect(text.contains("<ExportDate value=\"1969-12-31 18:30:00 -0530\"/>"))
        #expect(text.contains("sourceName=\"A &quot;quoted&quot;, name &amp; &lt;more&gt;\" unit=\"kg\""))
        #expect(text.contains("startDate=\"1999-12-31 18:29:59 -0530\""))
        #expect(text.contains("value=\"0.3333333333333333\">\n  <MetadataEntry key=\"a\" value=\"x&quot;y\"/>\n"
            + "  <MetadataEntry key=\"b\" value=\"2\"/>\n </Record>\n"))
    }

    @Test func civilDatesMatchFoundation() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        // From 1586, where Foundation's Gregorian calendar is proleptic too.
        for days in stride(from: Int64(-140_000), through: 800_000, by: 997) {
            let date = Date(timeIntervalSince1970: Double(days) * 86_400)
            let components = calendar.dateComponents([.year, .month, .day], from: date)
            let civil = SyntheticExportWriter.civilDate(daysSince1970: days)
            let expected: [Int?] = [components.year, components.month, components.day]
            let actual: [Int?] = [Int(civil.year), civil.month, civil.day]
            #expect(actual == expected)
        }
    }
}
