//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import Cadence

/// Deleted samples stay deleted when the file holding them is imported again, until asked.
@Suite("Remembered deletions")
struct DeletionMemoryTests {
    /// Ten step samples, one a minute, in a CSV file.
    static func stepFile() throws -> String {
        let path = NSTemporaryDirectory() + "cadence-deletions-\(UUID().uuidString).csv"
        var lines = ["type,sourceName,unit,startDate,endDate,value"]
        for minute in 0..<10 {
            lines.append("stepCount,Phone,count,2024-01-01T10:\(10 + minute):00Z,2024-01-01T10:\(10 + minute):30Z,\(minute + 1)")
        }
        try (lines + [""]).joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func stepCount(_ store: HealthStore) throws -> Int { try store.execute(SampleQuery(quantityType: .stepCount)).count }

    @Test(arguments: [false, true])
    func reimportDoesNotResurrectDeletedSamples(flushing: Bool) throws {
        let path = try Self.stepFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = HealthStore.inMemory()
        #expect(try HealthDataImporter(store: store).importFile(atPath: path).imported == 10)
        let cut = Date(timeIntervalSince1970: 1_704_104_100)  // 2024-01-01T10:15:00Z: the first five samples are before it
        let deleted = try store.deleteSamples(of: .stepCount, matching: .samples(start: nil, end: cut))
        #expect(deleted == 5)
        if flushing { try store.compact() }

        let again = try HealthDataImporter(store: store).importFile(atPath: path)
        #expect(again.imported == 0 && again.duplicates == 5 && again.keptDeleted == 5)
        #expect(try Self.stepCount(store) == 5)

        var restoring = HealthDataImporter(store: store)
        restoring.restoresDeleted = true
        let restored = try restoring.importFile(atPath: path)
        #expect(restored.imported == 5 && restored.keptDeleted == 0)
        #expect(try Self.stepCount(store) == 10)
    }

    @Test func forgettingDeletionsForgetsEveryOne() throws {
        let path = try Self.stepFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = HealthStore.inMemory()
        try HealthDataImporter(store: store).importFile(atPath: path)
        // One delete per sample: the last deletion record is the store's last change.
        for uuid in try store.execute(SampleQuery(quantityType: .stepCount)).map(\.uuid) {
            #expect(try store.deleteSamples(withUUIDs: [uuid]) == 1)
        }
        #expect(try store.info().deletedObjects == 10)
        try store.compact(discardingDeletionsBefore: try store.info().lastSequence)
        #expect(try store.info().deletedObjects == 0)
        // Forgotten: importing the file again stores its samples again.
        #expect(try HealthDataImporter(store: store).importFile(atPath: path).imported == 10)
    }
}

/// The source dictionary's cap: a store holds at most ``HealthStore/maximumSources`` sources.
@Suite("Source dictionary cap")
struct SourceCapTests {
    @Test func oneSourceMoreThanTheCapIsRefusedNamingTheStore() throws {
        let store = HealthStore.inMemory()
        var batch = QuantitySampleBatch(type: .stepCount)
        for index in 0..<HealthStore.maximumSources {
            let provenance = batch.addProvenance(Provenance(source: Source(name: "source \(index)")))
            try batch.append(startTimestamp: Int64(index) * 1_000_000, endTimestamp: Int64(index) * 1_000_000,
                             value: 1, provenanceIndex: provenance)
        }
        #expect(try store.save(batch).saved == HealthStore.maximumSources)
        var more = QuantitySampleBatch(type: .stepCount)
        let provenance = more.addProvenance(Provenance(source: Source(name: "one more")))
        try more.append(startTimestamp: 0, endTimestamp: 0, value: 1, provenanceIndex: provenance)
        let error = #expect(throws: CadenceError.self) { try store.save(more) }
        #expect(error?.code == .invalidArgument && error?.message.contains("one more") == true)
        #expect(try store.info().totalSamples == HealthStore.maximumSources)
    }
}
