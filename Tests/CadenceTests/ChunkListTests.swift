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

/// Opening reads each type's chunks in outline only; a type's chunk list is read on first use,
/// once, and its damage is reported for that type alone.
@Suite("Chunk lists")
struct ChunkListTests {
    /// A closed memory store holding random samples of several types in chunks of 2 (each type
    /// has more chunks than its outline in the manifest has bytes), with the samples it holds.
    static func store() throws -> (fileSystem: MemoryFileSystem, samples: [QuantitySample]) {
        let memory = MemoryFileSystem()
        var options = HealthStore.Options()
        options.chunkCapacity = 2
        let samples = try StoreTests.randomSamples(count: 1_200, seed: 71)
        let store = try HealthStore.open(at: "/s", options: options, fileSystem: memory)
        try store.save(samples)
        try store.close()
        return (memory, samples)
    }

    /// The path of a type's chunk list file, from the manifest.
    static func listPath(of type: QuantityType, in fileSystem: any FileSystem) throws -> String {
        let manifest = try Manifest(decoding: try fileSystem.readFile("/s/MANIFEST"), path: "/s/MANIFEST", fileSystem: fileSystem)
        let entry = try #require(manifest.types.first { $0.type == type })
        return "/s/" + Manifest.chunkListFileName(try #require(entry.chunks.fileNumber))
    }

    /// What queries answer about a type: its samples' UUIDs and, per source, the minimum and
    /// maximum (discrete types) or the sum (cumulative types).
    struct Answer: Equatable {
        var uuids: Set<UUID>
        var bySource: [String: [Double]]

        /// Equal, sums to a relative 1e-9 (summaries add in another order than rows).
        func matches(_ other: Answer) -> Bool {
            uuids == other.uuids && bySource.keys == other.bySource.keys && bySource.allSatisfy { source, values in
                let others = other.bySource[source] ?? []
                return values.count == others.count && zip(values, others).allSatisfy { abs($0 - $1) <= 1e-9 * max(1, abs($0)) }
            }
        }
    }

    static func answer(_ store: HealthStore, _ type: QuantityType) throws -> Answer {
        let samples = try store.execute(SampleQuery(quantityType: type))
        let discrete = type.aggregationStyle.isDiscrete
        let options: StatisticsOptions = discrete ? [.discreteMin, .discreteMax, .separateBySource] : [.cumulativeSum, .separateBySource]
        let statistics = try store.execute(StatisticsQuery(quantityType: type, options: options))
        var bySource: [String: [Double]] = [:]
        for source in statistics.sources ?? [] {
            bySource[source.name] = discrete
                ? [statistics.minimumQuantity(for: source), statistics.maximumQuantity(for: source)].compactMap { $0?.value }
                : [statistics.sumQuantity(for: source)?.value].compactMap { $0 }
        }
        return Answer(uuids: Set(samples.map(\.uuid)), bySource: bySource)
    }

    /// The naive answer from a type's samples.
    static func expected(_ samples: [QuantitySample], _ type: QuantityType) -> Answer {
        let ofType = samples.filter { $0.quantityType == type }
        let values = Dictionary(grouping: ofType, by: \.source.name).mapValues { $0.map(\.value) }
        let bySource = values.mapValues { values in
            type.aggregationStyle.isDiscrete ? [values.min() ?? 0, values.max() ?? 0] : [values.reduce(0, +)]
        }
        return Answer(uuids: Set(ofType.map(\.uuid)), bySource: bySource)
    }

    @Test("Opening reads no chunk list; a type's list is read on its first use only, however many threads query it")
    func listsAreReadOnceOnFirstUse() throws {
        let (memory, samples) = try Self.store()
        let reads = Mutex<[String: Int]>([:])
        let counting = HookedFileSystem(wrapping: memory) { operation, path in
            if operation == .readFile, Manifest.chunkListNumber(String(path.split(separator: "/").last ?? "")) != nil {
                reads.withLock { $0[path, default: 0] += 1 }
            }
        }
        let store = try HealthStore.open(at: "/s", options: .readOnly, fileSystem: counting)
        #expect(reads.withLock { $0.isEmpty })
        #expect(try store.info().totalSamples == samples.count)
        #expect(reads.withLock { $0.isEmpty })

        let types = StoreTests.types
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            let type = types[index % types.count]
            do {
                let answer = try Self.answer(store, type)
                if !answer.matches(Self.expected(samples, type)) { failures.withLock { $0.append("\(type.identifier) differs") } }
            } catch {
                failures.withLock { $0.append("\(type.identifier): \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let listPaths = try Set(types.map { try Self.listPath(of: $0, in: memory) })
        #expect(reads.withLock { $0 } == Dictionary(uniqueKeysWithValues: listPaths.map { ($0, 1) }))
    }

    @Test("A flipped byte in one type's chunk list is a corrupt-file error naming it when that type is used; other types still answer")
    func damagedListIsFoundOnUse() throws {
        let (memory, samples) = try Self.store()
        let damaged = QuantityType.heartRate
        let path = try Self.listPath(of: damaged, in: memory)
        var bytes = try memory.readFile(path)
        bytes[bytes.count - 3] ^= 0x40
        memory.overwrite(path, with: bytes)

        let store = try HealthStore.open(at: "/s", options: .readOnly, fileSystem: memory)
        for type in StoreTests.types where type != damaged {
            #expect(try Self.answer(store, type).matches(Self.expected(samples, type)))
        }
        let queries: [(String, () throws -> Void)] = [
            ("statistics", { _ = try store.execute(StatisticsQuery(quantityType: damaged, options: .discreteAverage)) }),
            ("samples", { _ = try store.execute(SampleQuery(quantityType: damaged)) }),
            ("anchored", { _ = try store.execute(AnchoredObjectQuery(quantityType: damaged)) }),
        ]
        for (name, query) in queries {
            let error = #expect(throws: CadenceError.self, "\(name) query") { try query() }
            #expect(error?.code == .corruptFile)
            #expect(error?.path == path)
        }
        #expect(store.verify().map(\.path) == [path])
        // A failure is not kept: once the file is whole again, the type answers.
        bytes[bytes.count - 3] ^= 0x40
        memory.overwrite(path, with: bytes)
        #expect(try Self.answer(store, damaged).matches(Self.expected(samples, damaged)))
    }

    @Test("A flush writes the lists of the types it changed only, and removes the lists it replaced")
    func flushRewritesChangedListsOnly() throws {
        let (memory, _) = try Self.store()
        let before = try memory.contentsOfDirectory("/s").filter { Manifest.chunkListNumber($0) != nil }
        let unchanged = try Self.listPath(of: .heartRate, in: memory)
        let store = try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: memory)
        let stepsBefore = try store.execute(SampleQuery(quantityType: .stepCount)).count
        let added = try StoreTests.randomSamples(count: 300, seed: 72).filter { $0.quantityType == .stepCount }
        let saved = try store.save(added).saved
        #expect(saved > 0)
        try store.flush()
        let after = try memory.contentsOfDirectory("/s").filter { Manifest.chunkListNumber($0) != nil }
        #expect(after.count == before.count)
        #expect(try Self.listPath(of: .heartRate, in: memory) == unchanged)
        #expect(Set(after).subtracting(before).count == 1)
        #expect(try store.execute(SampleQuery(quantityType: .stepCount)).count == stepsBefore + saved)
        let reopened = try HealthStore.open(at: "/s", options: .readOnly, fileSystem: memory)
        #expect(try reopened.execute(SampleQuery(quantityType: .stepCount)).count == stepsBefore + saved)
        #expect(reopened.verify().isEmpty)
    }

    /// `Tests/Fixtures/store-version-2`, copied into a new temporary directory.
    static func versionTwoStore() throws -> String {
        let fixture = ImportFixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/store-version-2").path
        let path = StoreTests.temporaryDirectory()
        try FileManager.default.copyItem(atPath: fixture, toPath: path)
        return path
    }

    @Test("A store written in format version 2 opens and answers as it did, and opening it for writing moves it to the current version")
    func versionTwoStoreOpens() throws {
        let path = try Self.versionTwoStore()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let manifestVersion = { () throws -> UInt16 in
            let bytes = try POSIXFileSystem().readFile(path + "/MANIFEST")
            return try FormatVersion.readHeader(bytes, magic: Manifest.magic, kind: "store manifest", path: path).version
        }
        #expect(try manifestVersion() == 2)

        let old = try HealthStore.open(at: path, options: .readOnly)
        #expect(old.verify().isEmpty)
        let info = try old.info()
        let types = old.quantityTypes
        #expect(!types.isEmpty)
        let answers = try Dictionary(uniqueKeysWithValues: types.map { ($0, try Self.answer(old, $0)) })
        for type in types {
            let listed = try old.execute(SampleQuery(quantityType: type))
            #expect(answers[type]?.matches(Self.expected(listed, type)) == true)
            #expect(info.types.first { $0.identifier == type.identifier }?.samples == listed.count)
        }

        let writer = try HealthStore.open(at: path)
        try writer.setSourcePriority(["Watch"])
        try writer.close()
        #expect(try manifestVersion() == FormatVersion.current)
        let lists = try FileManager.default.contentsOfDirectory(atPath: path).filter { Manifest.chunkListNumber($0) != nil }
        #expect(lists.count == types.count)

        let upgraded = try HealthStore.open(at: path, options: .readOnly)
        #expect(upgraded.verify().isEmpty)
        #expect(try upgraded.info().types.map(\.samples) == info.types.map(\.samples))
        for type in types { #expect(try answers[type] == Self.answer(upgraded, type)) }
    }
}
