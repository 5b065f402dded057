//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// `HealthStore.upgrade()` on the format version 4 fixture: every chunk file is rewritten in the
/// current version, and the store answers exactly as before — samples, statistics, deletions,
/// anchors and source priorities.
@Suite("Upgrading a store")
struct UpgradeTests {
    /// A copy of the version 4 fixture store in a new temporary directory.
    static func copyOfVersionFourStore() throws -> String {
        let path = StoreTests.temporaryDirectory()
        try FileManager.default.copyItem(atPath: StoreVersionFourTests.fixture.appendingPathComponent("store").path, toPath: path)
        return path
    }

    /// The version of every chunk file in the directory, by name.
    static func chunkVersions(_ path: String, fileSystem: any FileSystem = POSIXFileSystem()) throws -> [String: UInt16] {
        var versions: [String: UInt16] = [:]
        for name in try fileSystem.contentsOfDirectory(path) where Manifest.chunkNumber(name) != nil {
            versions[name] = try ChunkFile(bytes: try fileSystem.readFile(path + "/" + name), path: name).version
        }
        return versions
    }

    /// Every file in the directory with its bytes.
    static func files(_ path: String, fileSystem: any FileSystem = POSIXFileSystem()) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in try fileSystem.contentsOfDirectory(path) { files[name] = try fileSystem.readFile(path + "/" + name) }
        return files
    }

    /// What the store answers beyond its samples: every type's changes from the start (samples and
    /// deleted objects in change order, and the anchor after them), and statistics of the
    /// quantity types.
    struct Answers: Equatable {
        var changes: [String: [String]] = [:]
        var anchors: [String: QueryAnchor] = [:]
        var statistics: [String: String] = [:]
        var sourcePriorities: SourcePriorities

        init(_ store: HealthStore) throws {
            sourcePriorities = store.sourcePriorities
            func record<Sample>(_ query: AnchoredObjectQuery<Sample>, uuid: (Sample) -> UUID) throws {
                let result = try store.execute(query)
                changes[query.typeIdentifier] = result.samples.map { "+" + uuid($0).uuidString }
                    + result.deletedObjects.map { "-" + $0.uuid.uuidString }
                anchors[query.typeIdentifier] = result.anchor
            }
            for type in store.quantityTypes {
                try record(AnchoredObjectQuery(quantityType: type), uuid: \.uuid)
                let options: StatisticsOptions = type.aggregationStyle == .cumulative
                    ? [.cumulativeSum, .separateBySource] : [.discreteAverage, .discreteMin, .discreteMax, .mostRecent]
                let figures = try store.execute(StatisticsQuery(quantityType: type, options: options))
                statistics[type.identifier] = "\(figures.count() ?? -1) \(String(describing: figures.sumQuantity())) "
                    + "\(String(describing: figures.averageQuantity())) \(String(describing: figures.mostRecentQuantity()))"
            }
            for type in store.categoryTypes { try record(AnchoredObjectQuery(categoryType: type), uuid: \.uuid) }
            for type in store.correlationTypes { try record(AnchoredObjectQuery(correlationType: type), uuid: \.uuid) }
            try record(AnchoredObjectQuery(workoutsMatching: .all), uuid: \.uuid)
        }
    }

    @Test("every chunk file of the version 4 store is rewritten in the current version; the store answers as before")
    func upgradesVersionFourStore() throws {
        let path = try Self.copyOfVersionFourStore()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let oldChunks = try Self.chunkVersions(path)
        try #require(!oldChunks.isEmpty && oldChunks.values.allSatisfy { $0 < FormatVersion.current })
        let oldBytes = try Self.files(path).filter { Manifest.chunkNumber($0.key) != nil }.values.reduce(0) { $0 + $1.count }
        let expected = StoreVersionFourTests.asVersionFourKept(try StoreVersionFourTests.reference())

        let store = try HealthStore.open(at: path)
        // A priority set on the old store must survive the rewrite.
        try store.setSourcePriority(["Jane’s Apple Watch", "Jane’s iPhone"], for: .stepCount)
        let before = try Answers(store)
        #expect(try store.outdatedChunkFiles() == oldChunks.count)
        let report = try store.upgrade()
        #expect(report.formatVersion == HealthStore.formatVersion)
        #expect(report.chunks == oldChunks.count)
        #expect(report.bytesBefore == oldBytes)
        #expect(Set(report.types.map(\.identifier)) == Set(store.snapshot().types.keys))
        #expect(try store.outdatedChunkFiles() == 0)
        // The open store answers from the new files, as does a fresh open of them.
        #expect(try StoreVersionFourTests.Contents(store) == expected)
        #expect(try Answers(store) == before)
        try store.close()

        let newChunks = try Self.chunkVersions(path)
        #expect(newChunks.count == oldChunks.count)
        #expect(newChunks.values.allSatisfy { $0 == FormatVersion.current }, "\(newChunks)")
        #expect(Set(newChunks.keys).isDisjoint(with: oldChunks.keys), "the old chunk files are removed")
        #expect(report.bytesAfter == (try Self.files(path).filter { newChunks[$0.key] != nil }.values.reduce(0) { $0 + $1.count }))
        let reopened = try HealthStore.open(at: path, options: .readOnly)
        #expect(reopened.verify().isEmpty, "\(reopened.verify())")
        #expect(try StoreVersionFourTests.Contents(reopened) == expected)
        #expect(try Answers(reopened) == before)
        #expect(try reopened.outdatedChunkFiles() == 0)

        // Anchors taken before the upgrade see no change after it.
        let writer = try HealthStore.open(at: path)
        for type in writer.quantityTypes {
            let changes = try writer.execute(AnchoredObjectQuery(quantityType: type, anchor: before.anchors[type.identifier]))
            #expect(changes.samples.isEmpty && changes.deletedObjects.isEmpty, "\(type.identifier)")
        }
        for type in writer.categoryTypes {
            let changes = try writer.execute(AnchoredObjectQuery(categoryType: type, anchor: before.anchors[type.identifier]))
            #expect(changes.samples.isEmpty && changes.deletedObjects.isEmpty, "\(type.identifier)")
        }
        for type in writer.correlationTypes {
            let changes = try writer.execute(AnchoredObjectQuery(correlationType: type, anchor: before.anchors[type.identifier]))
            #expect(changes.samples.isEmpty && changes.deletedObjects.isEmpty, "\(type.identifier)")
        }
        let workoutAnchor = before.anchors[AnchoredObjectQuery<Workout>(workoutsMatching: .all).typeIdentifier]
        let workoutChanges = try writer.execute(AnchoredObjectQuery(workoutsMatching: .all, anchor: workoutAnchor))
        #expect(workoutChanges.samples.isEmpty && workoutChanges.deletedObjects.isEmpty)

        // A second upgrade finds nothing to do and writes nothing.
        let files = try Self.files(path)
        #expect(try writer.upgrade().isEmpty)
        try writer.close()
        #expect(try Self.files(path) == files)
    }

    @Test("A deletion and saves after the upgrade behave as on any store; the deleted sample's record is kept")
    func writesAfterUpgrade() throws {
        let path = try Self.copyOfVersionFourStore()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try HealthStore.open(at: path)
        let deletedBefore = try store.execute(AnchoredObjectQuery(quantityType: .stepCount)).deletedObjects
        #expect(deletedBefore.count == 1)
        try store.upgrade()
        let steps = try store.execute(SampleQuery(quantityType: .stepCount))
        let first = try #require(steps.first)
        #expect(try store.deleteSamples(withUUIDs: [first.uuid]) == 1)
        // Saving the deleted samples again keeps them deleted: the deletion records survived.
        #expect(try store.save([first]).keptDeleted == 1)
        try store.close()
        let reopened = try HealthStore.open(at: path, options: .readOnly)
        let changes = try reopened.execute(AnchoredObjectQuery(quantityType: .stepCount))
        #expect(Set(changes.deletedObjects.map(\.uuid)) == Set(deletedBefore.map(\.uuid) + [first.uuid]))
        #expect(reopened.verify().isEmpty)
    }

    @Test("A damaged chunk file stops the upgrade with the advice to verify and repair, and nothing changes")
    func refusesDamage() throws {
        let path = try Self.copyOfVersionFourStore()
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Moved to the current version first: that is opening's doing, not the upgrade's.
        try HealthStore.open(at: path).close()
        let damaged = try #require(try Self.chunkVersions(path).keys.sorted().last)
        var bytes = try POSIXFileSystem().readFile(path + "/" + damaged)
        bytes[bytes.count - 3] ^= 0x5A
        try Data(bytes).write(to: URL(fileURLWithPath: path + "/" + damaged))
        let files = try Self.files(path)

        let store = try HealthStore.open(at: path)
        let error = try #require(throws: CadenceError.self) { try store.upgrade() }
        #expect(error.code == .corruptFile)
        #expect(error.path?.hasSuffix(damaged) == true, "\(error)")
        #expect(error.message.contains("cadence verify") && error.message.contains("cadence repair"), "\(error.message)")
        #expect(try store.outdatedChunkFiles() > 0)
        try store.close()
        #expect(try Self.files(path) == files)
    }

    @Test("A reader in another process whose chunk file an upgrade removed meanwhile reads the store again")
    func readerDuringUpgrade() throws {
        let memory = try PowerLossTests.versionFourDisk()
        let expected = try StoreVersionFourTests.Contents(HealthStore.open(at: PowerLossTests.path, options: .readOnly, fileSystem: memory))
        let writer = try HealthStore.open(at: PowerLossTests.path, options: HealthStore.Options(), fileSystem: memory)
        let once = ReaderSnapshotTests.FirstTime()
        let hooked = HookedFileSystem(wrapping: memory) { operation, path in
            if operation == .readFile && path.contains("/chunk-") { try once.run { try writer.upgrade() } }
        }
        let reader = try HealthStore.open(at: PowerLossTests.path, options: .readOnly, fileSystem: hooked)
        #expect(try StoreVersionFourTests.Contents(reader) == expected)
        #expect(try writer.outdatedChunkFiles() == 0)
        #expect(try reader.outdatedChunkFiles() == 0)
        try writer.close()
    }

    @Test("An I/O fault at any call of an upgrade leaves the store as before or after it; upgrading again finishes it")
    func faults() throws {
        let path = PowerLossTests.path
        let expected = try StoreVersionFourTests.Contents(
            HealthStore.open(at: path, options: .readOnly, fileSystem: try PowerLossTests.versionFourDisk()))
        let dryRun = FaultInjectingFileSystem(wrapping: try PowerLossTests.versionFourDisk(), failing: nil, atCall: 0)
        try PowerLossTests.upgrade(on: dryRun)
        let chunkCount = try Self.chunkVersions(path, fileSystem: dryRun).count
        var injected = 0
        for fault in FaultInjectingFileSystem.Fault.allCases {
            for call in 1...max(1, dryRun.counts[fault] ?? 0) {
                let disk = try PowerLossTests.versionFourDisk()
                let faulty = FaultInjectingFileSystem(wrapping: disk, failing: fault, atCall: call)
                var store: HealthStore?
                do {
                    store = try HealthStore.open(at: path, options: PowerLossTests.options, fileSystem: faulty)
                    try store?.upgrade()
                } catch {}
                try? store?.close()
                let context = "\(fault) at call \(call): \(faulty.injection.map(String.init(describing:)) ?? "none")"
                if faulty.injection != nil { injected += 1 }
                let reopened = try HealthStore.open(at: path, options: PowerLossTests.options, fileSystem: disk)
                #expect(reopened.verify().isEmpty, "\(context): \(reopened.verify())")
                let outdated = try reopened.outdatedChunkFiles()
                #expect(outdated == 0 || outdated == chunkCount, "\(context): \(outdated) chunk files outdated")
                #expect(try StoreVersionFourTests.Contents(reopened) == expected, "\(context)")
                // Upgrading again removes the files the interrupted upgrade left.
                try reopened.upgrade()
                #expect(try Self.chunkVersions(path, fileSystem: disk).count == chunkCount, "\(context)")
                #expect(try reopened.outdatedChunkFiles() == 0, "\(context)")
                #expect(try StoreVersionFourTests.Contents(reopened) == expected, "\(context)")
                try reopened.close()
            }
        }
        #expect(injected > 20)
    }

    @Test("A read-only store refuses to upgrade")
    func readOnlyRefuses() throws {
        let path = try Self.copyOfVersionFourStore()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try HealthStore.open(at: path, options: .readOnly)
        #expect(try store.outdatedChunkFiles() > 0)
        let error = try #require(throws: CadenceError.self) { try store.upgrade() }
        #expect(error.code == .readOnly)
    }
}
