//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import Cadence

/// Series samples in the import CSV (<doc:HowCadenceComputes#Quantity-series>): rows naming the
/// same `sample` become one series, read whole however the file is cut into segments.
@Suite("Quantity series in CSV")
struct QuantitySeriesCSVTests {
    static let header = "type,sourceName,unit,startDate,endDate,value,sample,uuid,sourceVersion,device,creationDate,"
        + "sampleStartDate,sampleEndDate,metadata:HKWasUserEntered\n"
    static let steps = "HKQuantityTypeIdentifierStepCount"
    static let heart = "HKQuantityTypeIdentifierHeartRate"
    static let stepOwner = "00000000-0000-4000-8000-0000000000A1"
    static let heartOwner = "00000000-0000-4000-8000-0000000000A2"
    static let plain = "00000000-0000-4000-8000-0000000000B1"

    /// Many series interleaved with plain samples, so that segments cut through series.
    static func file(series count: Int) -> String {
        var text = header
        for index in 0..<count {
            let owner = String(format: "00000000-0000-4000-8000-%012X", 0xC00 + index)
            let day = 1 + index % 28
            // Written newest first: the reader sorts a series' entries itself.
            for minute in (0..<6).reversed() {
                text += "\(steps),Watch \(index % 3),count,2024-05-\(String(format: "%02d", day))T10:0\(minute):00Z,"
                    + "2024-05-\(String(format: "%02d", day))T10:0\(minute):30Z,\(minute + index),\(owner),,10.1,,,"
                    + "2024-05-\(String(format: "%02d", day))T09:59:00Z,2024-05-\(String(format: "%02d", day))T10:10:00Z,\n"
                text += "\(steps),Phone,count,2024-05-\(String(format: "%02d", day))T11:0\(minute):00Z,"
                    + "2024-05-\(String(format: "%02d", day))T11:0\(minute):00Z,\(index),,,,,,,,\n"
            }
        }
        return text
    }

    /// Writes `text` to a new CSV file, removed by the caller.
    static func write(_ text: String) throws -> String {
        let path = StoreTests.temporaryDirectory() + ".csv"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func importFile(_ path: String, into store: HealthStore, parallelism: Int = 1,
                           segmentBytes: Int = 8 << 20) throws -> ImportSummary {
        var importer = HealthDataImporter(store: store, parallelism: parallelism)
        importer.segmentBytes = segmentBytes
        return try importer.importFile(atPath: path)
    }

    /// Every sample and every entry with its sample, as text, for comparing stores.
    static func listing(_ store: HealthStore, _ type: QuantityType) throws -> [String] {
        let samples = try store.execute(SampleQuery(quantityType: type)).map {
            "\($0.uuid) \($0.value) \($0.count) \($0.dateInterval) \($0.source.name) \($0.sourceVersion ?? "-") "
                + "\($0.metadata.sorted { $0.key < $1.key }) \(String(describing: $0.seriesValues))"
        }
        let entries = try store.execute(QuantitySeriesSampleQuery(quantityType: type, includeSample: true)).map {
            "\($0.dateInterval) \($0.quantity.value) \($0.sample?.uuid.uuidString ?? "-")"
        }
        return samples + entries
    }

    @Test("Series rows import as series samples, the same in segments as serially, and again as duplicates")
    func segmentedRoundTrip() throws {
        let path = try Self.write(Self.file(series: 60))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let serial = HealthStore.inMemory()
        let summary = try Self.importFile(path, into: serial)
        #expect(summary.rejected == 0)
        let owners = try serial.execute(SampleQuery(quantityType: .stepCount)).filter { $0.source.name.hasPrefix("Watch") }
        #expect(owners.count == 60)
        #expect(owners.allSatisfy { $0.count == 6 && $0.sourceVersion == "10.1" })
        let first = try #require(owners.first { $0.uuid.uuidString == "00000000-0000-4000-8000-000000000C00" })
        #expect(first.value == 15 && first.startDate == date("2024-05-01T09:59:00Z") && first.endDate == date("2024-05-01T10:10:00Z"))
        let segmented = HealthStore.inMemory()
        #expect(try Self.importFile(path, into: segmented, parallelism: 4, segmentBytes: 700).rejected == 0)
        #expect(try Self.listing(segmented, .stepCount) == Self.listing(serial, .stepCount))
        let again = try Self.importFile(path, into: serial, parallelism: 4, segmentBytes: 700)
        #expect(again.imported == 0 && again.rejected == 0)
        #expect(try Self.listing(segmented, .stepCount) == Self.listing(serial, .stepCount))
    }

    @Test("A discrete series keeps its extremes and most recent entry through CSV")
    func discreteSeries() throws {
        let text = Self.header
            + "\(Self.heart),Watch,count/min,2024-05-01T10:00:00Z,2024-05-01T10:00:00Z,60,\(Self.heartOwner),,,,,,,1\n"
            + "\(Self.heart),Watch,count/min,2024-05-01T10:01:00Z,2024-05-01T10:01:00Z,90,\(Self.heartOwner),,,,,,,1\n"
        let path = try Self.write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = HealthStore.inMemory()
        #expect(try Self.importFile(path, into: store).rejected == 0)
        let sample = try #require(try store.execute(SampleQuery(quantityType: .heartRate)).first)
        #expect(sample.value == 75 && sample.count == 2 && sample.metadata == [MetadataKey.wasUserEntered: "1"])
        #expect(sample.seriesValues?.maximum == 90 && sample.seriesValues?.mostRecent == 90)
        #expect(sample.dateInterval == DateInterval(start: date("2024-05-01T10:00:00Z"), end: date("2024-05-01T10:01:00Z")))
    }

    /// Found by the CSV fuzz target: the rows of one series naming its type by its full and its
    /// short name made two series of one UUID, stored as one sample counting one entry and listing two.
    @Test("Rows naming a type by its full and short names make one series")
    func shortAndFullTypeNames() throws {
        let text = Self.header
            + "\(Self.heart),Watch,count/min,2024-05-01T10:00:00Z,2024-05-01T10:00:00Z,60,\(Self.heartOwner),,,,,,,1\n"
            + "HeartRate,Watch,count/min,2024-05-01 12:01:00 +0200,2024-05-01 12:01:00 +0200,90,\(Self.heartOwner),,,,,,,1\n"
        let path = try Self.write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = HealthStore.inMemory()
        let summary = try Self.importFile(path, into: store)
        #expect(summary.rejected == 0)
        let samples = try store.execute(SampleQuery(quantityType: .heartRate))
        #expect(samples.map(\.count) == [2] && samples.first?.value == 75)
        let entries = try store.execute(QuantitySeriesSampleQuery(quantityType: .heartRate, includeSample: true))
        #expect(entries.map(\.quantity.value) == [60, 90] && entries.allSatisfy { $0.sample?.uuid == samples.first?.uuid })
    }

    @Test("Malformed series are rejected whole, naming the line at fault")
    func malformedSeries() throws {
        let text = Self.header
            // Overlapping cumulative entries (lines 2 and 3).
            + "\(Self.steps),Watch,count,2024-05-01T10:00:00Z,2024-05-01T10:02:00Z,5,\(Self.stepOwner),,,,,,,\n"
            + "\(Self.steps),Watch,count,2024-05-01T10:01:00Z,2024-05-01T10:03:00Z,5,\(Self.stepOwner),,,,,,,\n"
            // Two sources for one sample (lines 4 and 5).
            + "\(Self.heart),Watch,count/min,2024-05-01T10:00:00Z,2024-05-01T10:00:00Z,60,\(Self.heartOwner),,,,,,,\n"
            + "\(Self.heart),Phone,count/min,2024-05-01T10:01:00Z,2024-05-01T10:01:00Z,61,\(Self.heartOwner),,,,,,,\n"
            // Not a UUID (line 6), then a plain sample that imports (line 7).
            + "\(Self.steps),Watch,count,2024-05-02T10:00:00Z,2024-05-02T10:00:00Z,5,not-a-uuid,,,,,,,\n"
            + "\(Self.steps),Watch,count,2024-05-03T10:00:00Z,2024-05-03T10:00:00Z,7,,\(Self.plain),,,,,,\n"
        let path = try Self.write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = HealthStore.inMemory()
        let summary = try Self.importFile(path, into: store)
        #expect(summary.imported == 1 && summary.rejected == 5)
        #expect(summary.rejections.map(\.line) == [3, 5, 6])
        #expect(summary.rejections.first?.reason.contains("overlap") == true)
        #expect(summary.rejections.dropFirst().first?.reason.contains("sourceName 'Phone' differs from 'Watch' on line 4") == true)
        #expect(try store.execute(SampleQuery(quantityType: .stepCount)).map(\.uuid.uuidString) == [Self.plain])
    }
}
