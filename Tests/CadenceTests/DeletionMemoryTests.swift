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
        _ = try HealthDataImporter(store: store).importFile(atPath: path)
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

/// The deletion records live in a deletions file a flush appends to, not in the manifest.
@Suite("Deletions file")
struct DeletionsFileTests {
    /// A store at `/s` in `memory` holding `count` step samples, one a minute, flushed.
    static func store(_ count: Int, in memory: MemoryFileSystem) throws -> HealthStore {
        let store = try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: memory)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        try store.save((0..<count).map { index in
            try QuantitySample(type: .stepCount, value: 1, start: start.addingTimeInterval(Double(index) * 60),
                               end: start.addingTimeInterval(Double(index) * 60 + 30), source: Source(name: "Phone"))
        })
        try store.flush()
        return store
    }

    static func deletionsFiles(_ memory: MemoryFileSystem) throws -> [String] {
        try memory.contentsOfDirectory("/s").filter { DeletionsFile.number(ofFileNamed: $0) != nil }
    }

    /// Deletes `uuids` one at a time, flushing after each, as a user deleting over months would.
    static func deleteOneByOne(_ uuids: some Sequence<UUID>, from store: HealthStore) throws {
        for uuid in uuids {
            #expect(try store.deleteSamples(withUUIDs: [uuid]) == 1)
            try store.flush()
        }
    }

    @Test func theManifestStaysSmallAndTheFileOnlyGrows() throws {
        let memory = MemoryFileSystem()
        let store = try Self.store(300, in: memory)
        let uuids = try store.execute(SampleQuery(quantityType: .stepCount)).map(\.uuid)
        try Self.deleteOneByOne(uuids.prefix(10), from: store)
        let manifestSize = try memory.fileSize("/s/MANIFEST")
        let name = try #require(try Self.deletionsFiles(memory).first)
        let early = try memory.readFile("/s/" + name)
        try Self.deleteOneByOne(uuids.dropFirst(10).prefix(140), from: store)
        // 140 more deletions: the manifest does not grow with them (a compaction may change a few
        // of its varints); the file is the same file, appended to.
        #expect(try memory.fileSize("/s/MANIFEST") <= manifestSize + 16)
        #expect(try Self.deletionsFiles(memory) == [name])
        let late = try memory.readFile("/s/" + name)
        #expect(late.count > early.count && Array(late.prefix(early.count)) == early)
        try store.close()
        let reopened = try HealthStore.open(at: "/s", options: .readOnly, fileSystem: memory)
        #expect(try reopened.info().deletedObjects == 150)
        #expect(try reopened.execute(SampleQuery(quantityType: .stepCount)).count == 150)
        #expect(reopened.verify().isEmpty)
    }

    /// Bytes a crashed flush appended after the length the manifest covers are never read, and
    /// the next flush cuts them off before appending.
    @Test func bytesPastTheCoveredLengthAreIgnoredAndCut() throws {
        let memory = MemoryFileSystem()
        let store = try Self.store(20, in: memory)
        let uuids = try store.execute(SampleQuery(quantityType: .stepCount)).map(\.uuid)
        try Self.deleteOneByOne(uuids.prefix(3), from: store)
        try store.close()
        let name = try #require(try Self.deletionsFiles(memory).first)
        let covered = try memory.fileSize("/s/" + name)
        let torn = try memory.openForAppending("/s/" + name)
        try torn.append([0x10, 0, 0, 0, 0xAB, 0xCD, 0xEF, 0x01, 7, 7])
        try torn.sync()
        torn.close()

        let writer = try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: memory)
        #expect(try writer.info().deletedObjects == 3)
        try Self.deleteOneByOne(uuids.dropFirst(3).prefix(2), from: writer)
        try writer.close()
        let reopened = try HealthStore.open(at: "/s", options: .readOnly, fileSystem: memory)
        #expect(try reopened.info().deletedObjects == 5)
        #expect(reopened.verify().isEmpty)
        let bytes = try memory.readFile("/s/" + name)
        #expect(!bytes.dropFirst(covered).starts(with: [0x10, 0, 0, 0, 0xAB]))
    }

    @Test func forgettingDeletionsRemovesTheFile() throws {
        let memory = MemoryFileSystem()
        let store = try Self.store(20, in: memory)
        let uuids = try store.execute(SampleQuery(quantityType: .stepCount)).map(\.uuid)
        try Self.deleteOneByOne(uuids.prefix(4), from: store)
        #expect(try Self.deletionsFiles(memory).count == 1)
        try store.compact(discardingDeletionsBefore: try store.info().lastSequence)
        #expect(try Self.deletionsFiles(memory).isEmpty)
        try Self.deleteOneByOne(uuids.dropFirst(4).prefix(1), from: store)
        try store.close()
        let reopened = try HealthStore.open(at: "/s", options: .readOnly, fileSystem: memory)
        #expect(try reopened.info().deletedObjects == 1)
        #expect(try Self.deletionsFiles(memory).count == 1)
    }
}
