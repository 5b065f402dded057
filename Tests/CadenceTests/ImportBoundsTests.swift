//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Synchronization
import Testing
@testable import Cadence

/// An import's memory stays bounded whatever the file holds: the record that would be one source
/// more than a store holds stops it where it is read, and records with large metadata are saved in
/// batches bounded by their bytes.
@Suite("Import bounds")
struct ImportBoundsTests {
    /// A CSV file of step records, one a row, with the source names given (header on line 1).
    static func csv(sources: [String], metadata: String? = nil) -> String {
        let header = "type,sourceName,unit,startDate,endDate,value" + (metadata == nil ? "" : ",metadata:note")
        let rows = sources.enumerated().map { index, source in
            let date = formatRFC3339(Int64(index) * 60_000_000, secondsFromGMT: 0)
            return "HKQuantityTypeIdentifierStepCount,\(source),count,\(date),\(date),\(index)"
                + (metadata.map { ",\($0)\(index)" } ?? "")
        }
        return ([header] + rows).joined(separator: "\n") + "\n"
    }

    /// Writes `text` to a file named `name` in a new temporary directory, and returns its path.
    static func write(_ text: String, name: String) throws -> (path: String, directory: URL) {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        let path = directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return (path, directory)
    }

    @Test("The record that would be one source more than the store holds stops the import at its line")
    func sourceCapStopsAtTheLine() throws {
        let store = HealthStore.inMemory()
        var batch = QuantitySampleBatch(type: .stepCount)
        try batch.append(startTimestamp: 0, endTimestamp: 0, value: 1,
                         provenanceIndex: batch.addProvenance(Provenance(source: Source(name: "Phone"))))
        try store.save(batch)
        // The store holds Phone: with a cap of 3, A and B fit and C (line 6) is one too many.
        let file = try Self.write(Self.csv(sources: ["Phone", "A", "A", "B", "C", "A", "D"]), name: "many.csv")
        defer { try? FileManager.default.removeItem(at: file.directory) }
        var importer = HealthDataImporter(store: store)
        importer.sourceLimit = 3
        let summary = try importer.importFile(atPath: file.path)
        #expect(summary.stoppedAt?.line == 6)
        #expect(summary.stoppedAt?.reason.contains("'C'") == true && summary.stoppedAt?.reason.contains("3 sources") == true)
        #expect(summary.failed && summary.imported == 4)
        #expect(store.snapshot().provenances.map(\.source.name) == ["Phone", "A", "B"])
        #expect(try store.info().totalSamples == 5)
    }

    @Test("As many sources as the store holds import whole")
    func sourcesUpToTheCapImport() throws {
        let file = try Self.write(Self.csv(sources: ["A", "B", "A", "C"]), name: "three.csv")
        defer { try? FileManager.default.removeItem(at: file.directory) }
        var importer = HealthDataImporter(store: HealthStore.inMemory())
        importer.sourceLimit = 3
        let summary = try importer.importFile(atPath: file.path)
        #expect(summary.stoppedAt == nil && summary.imported == 4)
    }

    @Test("Strict mode refuses a file with one source too many and stores nothing")
    func strictSourceCap() throws {
        let file = try Self.write(Self.csv(sources: ["A", "B", "C"]), name: "strict.csv")
        defer { try? FileManager.default.removeItem(at: file.directory) }
        let store = HealthStore.inMemory()
        var importer = HealthDataImporter(store: store, strict: true)
        importer.sourceLimit = 2
        let error = #expect(throws: CadenceError.self) { try importer.importFile(atPath: file.path) }
        #expect(error?.line == 4 && error?.message.contains("nothing was imported") == true)
        #expect(try store.info().totalSamples == 0)
    }

    @Test("Read on several cores, an export stops at the same line as read on one",
          arguments: [1, 2])
    func sourceCapInSegments(parallelism: Int) throws {
        // 400 records, a new source every fourth: the 41st source (record 160) is one too many.
        let records = (0..<400).map { ImportFixtures.record(source: "source \($0 / 4)", value: "\($0)") }
        let file = try Self.write(ImportFixtures.export(records.joined(separator: "\n")), name: "export.xml")
        defer { try? FileManager.default.removeItem(at: file.directory) }
        let store = HealthStore.inMemory()
        var importer = HealthDataImporter(store: store, parallelism: parallelism)
        importer.segmentBytes = 2_048
        importer.sourceLimit = 40
        let summary = try importer.importFile(atPath: file.path)
        #expect(summary.stoppedAt?.line == 4 + 160)
        #expect(summary.imported == 160 && store.snapshot().provenances.count == 40)
    }

    @Test("Records with large metadata are saved in batches bounded by their bytes")
    func batchesBoundedByBytes() throws {
        // 48 rows of 64 KiB notes: 3 MiB, read in blocks of 1 MiB, checked after each block.
        let note = String(repeating: "n", count: 64 << 10)
        let file = try Self.write(Self.csv(sources: Array(repeating: "Phone", count: 48), metadata: note), name: "notes.csv")
        defer { try? FileManager.default.removeItem(at: file.directory) }
        let store = HealthStore.inMemory()
        let saves = Mutex(0)
        let token = store.observers.add { _ in saves.withLock { $0 += 1 } }
        defer { store.observers.remove(token) }
        var importer = HealthDataImporter(store: store, parallelism: 1)
        importer.batchBytes = 256 << 10
        let summary = try importer.importFile(atPath: file.path)
        #expect(summary.imported == 48)
        // A save after each block read, never all 48 rows at once.
        #expect(saves.withLock { $0 } >= 3)
        let whole = HealthStore.inMemory()
        let wholeSaves = Mutex(0)
        let wholeToken = whole.observers.add { _ in wholeSaves.withLock { $0 += 1 } }
        defer { whole.observers.remove(wholeToken) }
        _ = try HealthDataImporter(store: whole, parallelism: 1).importFile(atPath: file.path)
        #expect(wholeSaves.withLock { $0 } == 1)
    }
}

extension ImportBoundsTests {
    @Test("The record that would be one type more than the store holds stops the import at its line")
    func typeCapStopsAtTheLine() throws {
        let rows = ["type,sourceName,unit,startDate,endDate,value"]
            + ["HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierMadeUpOne", "HKQuantityTypeIdentifierStepCount",
               "HKCategoryTypeIdentifierMindfulSession", "HKQuantityTypeIdentifierMadeUpTwo"].enumerated().map { index, type in
                let date = formatRFC3339(Int64(index) * 60_000_000, secondsFromGMT: 0)
                return "\(type),Phone,\(type.contains("Category") ? "" : "count"),\(date),\(date),\(type.contains("Category") ? "" : "1")"
            }
        let file = try Self.write(rows.joined(separator: "\n") + "\n", name: "types.csv")
        defer { try? FileManager.default.removeItem(at: file.directory) }
        let store = HealthStore.inMemory()
        var importer = HealthDataImporter(store: store)
        importer.typeLimit = 3
        let summary = try importer.importFile(atPath: file.path)
        #expect(summary.stoppedAt?.line == 6)
        #expect(summary.stoppedAt?.reason.contains("MadeUpTwo") == true && summary.stoppedAt?.reason.contains("3 types") == true)
        #expect(summary.imported == 4 && store.snapshot().types.count == 3)
        importer.typeLimit = 4
        #expect(try importer.importFile(atPath: file.path).stoppedAt == nil)
    }
}

extension ImportBoundsTests {
    @Test("A save that would add one type more than a store holds fails whole, naming the store")
    func storeTypeCap() throws {
        let store = HealthStore.inMemory()
        func batches(_ range: Range<Int>) throws -> [QuantitySampleBatch] {
            try range.map { index in
                var batch = QuantitySampleBatch(type: .unknown("HKQuantityTypeIdentifierMade\(index)", unit: .count))
                try batch.append(startTimestamp: 0, endTimestamp: 0, value: 1,
                                 provenanceIndex: batch.addProvenance(Provenance(source: Source(name: "Phone"))))
                return batch
            }
        }
        #expect(try store.save(batches(0..<HealthStore.maximumTypes)).saved == HealthStore.maximumTypes)
        let error = #expect(throws: CadenceError.self) { try store.save(batches(HealthStore.maximumTypes..<(HealthStore.maximumTypes + 2))) }
        #expect(error?.code == .invalidArgument && error?.message.contains("4096 types") == true)
        #expect(try store.info().totalSamples == HealthStore.maximumTypes)
    }
}

extension ImportBoundsTests {
    @Test("A record whose metadata holds more bytes than the limit is malformed, naming its line; one at the limit is read")
    func recordMetadataBytes() throws {
        let entries = (0..<4).map { #"  <MetadataEntry key="k\#($0)" value="\#(String(repeating: "v", count: 98))"/>"# }
        let record = ImportFixtures.record().replacingOccurrences(of: "/>", with: ">\n") + entries.joined(separator: "\n")
            + "\n </Record>"
        let xml = ImportFixtures.export(record + "\n" + ImportFixtures.record(value: "2"))
        // Four entries of 100 bytes each (key and value).
        let over = ImportFixtures.readXML(xml, limits: ExportXMLReader.Limits(maxMetadataBytes: 399))
        #expect(over.records.map(\.value) == ["2"])
        #expect(over.summary?.issues.first?.line == 4)
        #expect(over.summary?.issues.first?.reason.contains("more than 399 bytes") == true)
        let at = ImportFixtures.readXML(xml, limits: ExportXMLReader.Limits(maxMetadataBytes: 400))
        #expect(at.records.count == 2 && at.records.first?.metadata.count == 4)
    }
}
