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

/// Each type keeps its deletion records in a file of its own: a save, a delete or an anchored
/// query of one type reads neither the other types' deletions nor their chunks.
@Suite("Deletions per type")
struct PerTypeDeletionsTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// `count` samples of `type`, one a minute from `offset` minutes on, from one source; a
    /// sample's UUID follows from its type and minute, so saving it again is a re-import.
    static func samples(_ type: QuantityType, _ count: Int, offset: Int = 0) throws -> [QuantitySample] {
        var typeNumber: UInt64 = 0
        for byte in type.identifier.utf8 { typeNumber = typeNumber &* 31 &+ UInt64(byte) }
        return try (offset..<offset + count).map { (minute: Int) -> QuantitySample in
            let uuid = UUID(high: typeNumber, low: UInt64(minute))
            let sampleStart: Date = start.addingTimeInterval(Double(minute) * 60)
            let value = Double(minute % 50 + 1)
            return try QuantitySample(uuid: uuid, type: type, value: value, start: sampleStart,
                                      end: sampleStart.addingTimeInterval(30), source: Source(name: "Phone"))
        }
    }

    /// The paths a file system read.
    final class ReadLog: Sendable {
        let paths = Mutex<[String]>([])
    }

    /// The paths read while `body` runs.
    static func reads(through log: ReadLog, _ body: () throws -> Void) rethrows -> [String] {
        log.paths.withLock { $0 = [] }
        try body()
        return log.paths.withLock { $0 }
    }

    /// A store of steps and heart rates, each with deletions flushed, reopened so nothing is loaded.
    static func twoTypeStore(in memory: MemoryFileSystem, paths: ReadLog) throws -> HealthStore {
        let store = try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: memory)
        try store.save(try samples(.stepCount, 200) + samples(.heartRate, 200))
        try store.flush()
        let cut = start.addingTimeInterval(10 * 60)
        #expect(try store.deleteSamples(of: .stepCount, matching: .samples(start: nil, end: cut)) == 10)
        #expect(try store.deleteSamples(of: .heartRate, matching: .samples(start: nil, end: cut)) == 10)
        try store.close()
        let hooked = HookedFileSystem(wrapping: memory) { operation, path in
            if operation == .readFile { paths.paths.withLock { $0.append(path) } }
        }
        return try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: hooked)
    }

    static func files(of type: String, _ store: HealthStore) throws -> (chunks: [String], deletions: String?) {
        let snapshot = try #require(store.snapshot().types[type])
        return (snapshot.chunks.map(\.path), snapshot.deletions.file.map { "/s/" + DeletionsFile.fileName($0.number) })
    }

    @Test func deletingOneTypeReadsNoOtherTypesChunks() throws {
        let paths = ReadLog()
        let store = try Self.twoTypeStore(in: MemoryFileSystem(), paths: paths)
        let heart = try Self.files(of: QuantityType.heartRate.identifier, store)
        var deleted = 0
        let read = try Self.reads(through: paths) {
            deleted = try store.deleteSamples(of: .stepCount, matching: .samples(start: nil, end: Self.start.addingTimeInterval(900)))
        }
        #expect(deleted == 5)
        #expect(!read.isEmpty)
        #expect(Set(read).isDisjoint(with: heart.chunks + [heart.deletions].compactMap { $0 }))
    }

    @Test func savingOneTypeReadsOnlyItsDeletions() throws {
        let paths = ReadLog()
        let memory = MemoryFileSystem()
        let store = try Self.twoTypeStore(in: memory, paths: paths)
        let steps = try Self.files(of: QuantityType.stepCount.identifier, store)
        let heart = try Self.files(of: QuantityType.heartRate.identifier, store)
        let stepFile = try #require(steps.deletions)
        let heartFile = try #require(heart.deletions)
        #expect(stepFile != heartFile)
        let heartBytes = try memory.readFile(heartFile)
        // Re-importing deleted steps: they stay deleted, and only the steps' deletions are read.
        var summary = SaveSummary()
        let read = try Self.reads(through: paths) { summary = try store.save(try Self.samples(.stepCount, 20)) }
        #expect(summary.keptDeleted == 10 && summary.saved == 0)
        #expect(read.contains(stepFile) && !read.contains(heartFile))
        // Deleting more steps and flushing appends to the steps' file only.
        #expect(try store.deleteSamples(of: .stepCount, matching: .samples(start: nil, end: Self.start.addingTimeInterval(1200))) == 10)
        try store.flush()
        #expect(try memory.readFile(heartFile) == heartBytes)
        #expect(try store.info().deletedObjects == 30)
        #expect(store.verify().isEmpty)
    }

    /// A flipped bit in a type's deletions file is an error naming the file when that type's
    /// deletions are read (on open, for the records that hide rows still in chunks); verify
    /// reports it; repair keeps the records before the damage.
    @Test(arguments: [false, true])
    func aFlippedBitInADeletionsFileIsAnErrorNamingIt(compacting: Bool) throws {
        let memory = MemoryFileSystem()
        let store = try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: memory)
        try store.save(try Self.samples(.stepCount, 100) + Self.samples(.heartRate, 10))
        try store.flush()
        for minute in 0..<3 {
            let cut = Self.start.addingTimeInterval(Double(minute + 1) * 60)
            #expect(try store.deleteSamples(of: .stepCount, matching: .samples(start: nil, end: cut)) == 1)
            try store.flush()
        }
        if compacting { try store.compact() }
        let path = try #require(try Self.files(of: QuantityType.stepCount.identifier, store).deletions)
        try store.close()
        var bytes = try memory.readFile(path)
        bytes[bytes.count - 3] ^= 0x10
        try memory.writeFile(path, bytes)

        if compacting {
            // Nothing hidden: the store opens, other types answer, the damaged type's save does not.
            let reopened = try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: memory)
            #expect(try reopened.execute(SampleQuery(quantityType: .heartRate)).count == 10)
            let error = expectCadenceError(.corruptFile) { try reopened.save(try Self.samples(.stepCount, 5)) }
            #expect(error?.path == path)
            #expect(reopened.verify().contains { $0.path == path && $0.code == .corruptFile })
            try reopened.close()
        } else {
            let error = expectCadenceError(.corruptFile) { _ = try HealthStore.open(at: "/s", options: .readOnly, fileSystem: memory) }
            #expect(error?.path == path)
        }
        let report = try HealthStore.repair(at: "/s", fileSystem: memory)
        #expect(report.deletionsLost == 1 && report.damage.map(\.path) == [path])
        let repaired = try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: memory)
        #expect(repaired.verify().isEmpty)
        #expect(try repaired.info().deletedObjects == 2)
    }

    /// Random saves, deletes, re-imports, flushes, compactions and reopenings across three
    /// types, against a set model per type: the minutes stored, and the minutes deleted (never
    /// stored again unless restored), whose UUIDs an anchored query lists as deleted objects.
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func randomOperationsMatchASetModel(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let memory = MemoryFileSystem()
        var store = try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: memory)
        let types: [QuantityType] = [.stepCount, .heartRate, .activeEnergyBurned]
        var stored: [String: Set<Int>] = [:]
        var deleted: [String: Set<Int>] = [:]
        var deletedUUIDs: [String: Set<UUID>] = [:]
        /// The stored samples of a type by minute.
        func storedByMinute(_ type: QuantityType) throws -> [Int: UUID] {
            Dictionary(try store.execute(SampleQuery(quantityType: type)).map { sample in
                (Int(sample.startDate.timeIntervalSince(Self.start) / 60), sample.uuid)
            }, uniquingKeysWith: { first, _ in first })
        }
        for _ in 0..<40 {
            let type = types[Int(random.next() % 3)]
            let id = type.identifier
            switch random.next() % 6 {
            case 0, 1:
                let offset = Int(random.next() % 60)
                let minutes = offset..<offset + 1 + Int(random.next() % 12)
                let batches = try QuantitySampleBatch.grouping(try Self.samples(type, minutes.count, offset: offset), series: \.quantityType) {
                    try $0.append($1)
                }
                let restoring = random.next() % 5 == 0
                let summary = try store.save(batches, restoringDeleted: restoring)
                let new = Set(minutes).subtracting(stored[id, default: []]).filter { restoring || !deleted[id, default: []].contains($0) }
                #expect(summary.saved == new.count)
                stored[id, default: []].formUnion(new)
            case 2, 3:
                let before = try storedByMinute(type)
                let victims: Set<Int>
                if random.next() % 2 == 0 {
                    let from = Int(random.next() % 70)
                    let range = from..<from + Int(random.next() % 15)
                    victims = stored[id, default: []].filter { range.contains($0) }
                    let count = try store.deleteSamples(of: type, matching: .samples(start: Self.start.addingTimeInterval(Double(range.lowerBound) * 60),
                                                                                     end: Self.start.addingTimeInterval(Double(range.upperBound) * 60 - 1)))
                    #expect(count == victims.count)
                } else {
                    victims = Set(stored[id, default: []].shuffled(using: &random).prefix(2))
                    #expect(try store.deleteSamples(withUUIDs: victims.compactMap { before[$0] }) == victims.count)
                }
                stored[id, default: []].subtract(victims)
                deleted[id, default: []].formUnion(victims)
                deletedUUIDs[id, default: []].formUnion(victims.compactMap { before[$0] })
            case 4:
                if random.next() % 2 == 0 { try store.flush() } else { try store.compact() }
            default:
                try store.close()
                store = try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: memory)
            }
        }
        for type in types {
            let id = type.identifier
            #expect(Set(try storedByMinute(type).keys) == stored[id, default: []])
            let changes = try store.execute(AnchoredObjectQuery(quantityType: type, anchor: nil))
            #expect(Set(changes.deletedObjects.map(\.uuid)) == deletedUUIDs[id, default: []])
        }
        #expect(store.verify().isEmpty)
    }
}
