//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
import ZIPFoundation
@testable import Cadence

/// Importing the real exports in `Tests/Fixtures/apple-health/` and CSV files.
@Suite("Importing exports and CSV")
struct HealthDataImporterTests {
    static let dataDirectory = ImportFixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/apple-health")

    /// Top-level records and workouts per type, found with a plain scan of the tags (an oracle
    /// independent of the XML reader): records inside `<Correlation>` are repeated at top level,
    /// and every top-level record is a sample of its own, look-alikes included (<doc:HowCadenceComputes#Identity>).
    static func expectedCounts(_ file: URL) throws -> [String: Int] {
        let text = try String(contentsOf: file, encoding: .utf8)
        var insideCorrelation = false
        var counts: [String: Int] = [:]
        func attribute(_ name: String, _ line: Substring) -> String {
            guard let range = line.range(of: " \(name)=\"") else { return "" }
            return String(line[range.upperBound...].prefix { $0 != "\"" })
        }
        // One fragment per tag (records may span several lines).
        for fragment in text.split(separator: "<") {
            let line = Substring(fragment.replacingOccurrences(of: "\n", with: " "))
            if line.hasPrefix("Correlation ") {
                insideCorrelation = true
                counts[attribute("type", line), default: 0] += 1
            }
            if line.hasPrefix("/Correlation>") { insideCorrelation = false }
            if line.hasPrefix("Workout ") { counts["HKWorkoutTypeIdentifier", default: 0] += 1 }
            if line.hasPrefix("ActivitySummary ") { counts["HKActivitySummaryTypeIdentifier", default: 0] += 1 }
            let type = attribute("type", line)
            guard !insideCorrelation, line.hasPrefix("Record "),
                  type.hasPrefix("HKQuantityTypeIdentifier") || type.hasPrefix("HKCategoryTypeIdentifier") else { continue }
            counts[type, default: 0] += 1
        }
        return counts
    }

    @Test("The real exports import with the counts a line scan finds, and a re-import adds nothing",
          arguments: ["hkimport-export.xml", "tdda-export6s3sample.xml", "dogsheep-export.xml", "alxdrcirilo-export.xml"])
    func realExports(name: String) throws {
        let file = Self.dataDirectory.appendingPathComponent(name)
        try #require(FileManager.default.fileExists(atPath: file.path), "missing test data: \(file.path)")
        let store = HealthStore.inMemory()
        let summary = try HealthDataImporter(store: store).importFile(atPath: file.path)
        let expected = try Self.expectedCounts(file)
        let info = try store.info()
        let actual = Dictionary(info.types.map { ($0.identifier, $0.samples) }, uniquingKeysWith: +)
        #expect(actual == expected)
        // Activity summaries are counted apart from samples.
        let summaries = expected[ActivitySummary.typeIdentifier] ?? 0
        #expect(summary.activitySummariesImported == summaries)
        #expect(summary.imported == expected.values.reduce(0, +) - summaries)
        #expect(summary.duplicates == 0, "a first import of a file without repeats skips nothing")
        #expect(summary.rejected == 0, "\(summary.rejections)")
        let again = try HealthDataImporter(store: store).importFile(atPath: file.path)
        #expect(again.imported == 0 && again.duplicates == summary.imported + summary.duplicates)
        #expect(again.activitySummariesImported == 0 && again.activitySummariesUnchanged == summaries)
    }

    @Test("An export.zip imports exactly like its export.xml, read straight from the archive")
    func zipImport() throws {
        let xml = Self.dataDirectory.appendingPathComponent("hkimport-export.xml")
        let data = try Data(contentsOf: xml)
        let zip = URL(fileURLWithPath: NSTemporaryDirectory() + "cadence-export-\(UUID().uuidString).zip")
        defer { try? FileManager.default.removeItem(at: zip) }
        let archive = try Archive(url: zip, accessMode: .create)
        try archive.addEntry(with: "apple_health_export/export.xml", type: .file, uncompressedSize: Int64(data.count),
                             compressionMethod: .deflate, bufferSize: 64 << 10) { position, size in
            data.subdata(in: Int(position)..<(Int(position) + size))
        }
        let fromZip = HealthStore.inMemory()
        let zipSummary = try HealthDataImporter(store: fromZip).importFile(atPath: zip.path)
        let fromXML = HealthStore.inMemory()
        let xmlSummary = try HealthDataImporter(store: fromXML).importFile(atPath: xml.path)
        #expect(zipSummary.imported == xmlSummary.imported && zipSummary.imported > 10_000)
        #expect(try fromZip.info().types.map(\.samples) == fromXML.info().types.map(\.samples))
        #expect(zipSummary.workouts == 61 && zipSummary.correlations == 34)
    }

    @Test("Display units convert to canonical ones; source names keep their quirks")
    func unitsAndNames() throws {
        let store = HealthStore.inMemory()
        _ = try HealthDataImporter(store: store).importFile(atPath: Self.dataDirectory.appendingPathComponent("dogsheep-export.xml").path)
        let heartRate = try store.execute(SampleQuery(quantityType: .heartRate))
        #expect(heartRate.map(\.source.name) == ["Apple\u{00A0}Watch"])
        #expect(heartRate.first?.device?.model == "Watch")
        #expect(heartRate.first?.metadata["HKMetadataKeyHeartRateMotionContext"] == "0")
    }

    @Test("A CSV with a bad row imports the rest and reports the row; strict mode changes nothing")
    func csvRejections() throws {
        let path = NSTemporaryDirectory() + "cadence-import-\(UUID().uuidString).csv"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let csv = """
            type,sourceName,unit,startDate,endDate,value,metadata:HKWasUserEntered
            stepCount,Phone,count,2024-01-01T10:00:00Z,2024-01-01T10:05:00Z,100,
            distanceWalkingRunning,Phone,km,2024-01-01T10:00:00Z,2024-01-01T10:05:00Z,1.5,1
            stepCount,Phone,count,2024-01-01T11:00:00Z,2024-01-01T10:05:00Z,100,
            stepCount,Phone,furlong,2024-01-01T11:00:00Z,2024-01-01T11:05:00Z,100,
            heartRate,Watch,count/min,2024-01-01T11:00:00Z,2024-01-01T11:00:00Z,NaN,
            stepCount,Phone,count,2024-01-01T12:00:00Z,2024-01-01T12:05:00Z,-5,
            oxygenSaturation,Watch,%,2024-01-01T12:00:00Z,2024-01-01T12:00:00Z,97,

            """
        try csv.write(toFile: path, atomically: true, encoding: .utf8)
        let strictStore = HealthStore.inMemory()
        #expect(throws: CadenceError.self) { try HealthDataImporter(store: strictStore, strict: true).importFile(atPath: path) }
        #expect(try strictStore.info().totalSamples == 0)
        let store = HealthStore.inMemory()
        let summary = try HealthDataImporter(store: store).importFile(atPath: path)
        #expect(summary.imported == 2)
        #expect(summary.rejections.map(\.line) == [4, 5, 6, 7, 8])
        #expect(summary.rejections[3].reason.contains("out of range"))
        let distance = try store.execute(SampleQuery(quantityType: .distanceWalkingRunning))
        #expect(distance.first?.value == 1500 && distance.first?.metadata[MetadataKey.wasUserEntered] == "1")
    }
}
