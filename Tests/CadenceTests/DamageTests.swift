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

/// Damage is told apart from other failures, counted exactly, and never answered from.
@Suite("Damage")
struct DamageTests {
    /// A memory store with one flushed save in small chunks and three unflushed saves (three log
    /// records), left without closing as after a crash.
    static func store() throws -> (fileSystem: MemoryFileSystem, logPath: String, flushed: Int) {
        let memory = MemoryFileSystem()
        var options = HealthStore.Options()
        options.chunkCapacity = 50
        let flushed = try StoreTests.randomSamples(count: 400, seed: 41)
        let known = Set(flushed.map(\.uuid))
        let logged = try (0..<3).map { index in
            try StoreTests.randomSamples(count: 120, seed: 42 + UInt64(index)).filter { !known.contains($0.uuid) }
        }
        do {
            let store = try HealthStore.open(at: "/s", options: options, fileSystem: memory)
            try store.save(flushed)
            try store.flush()
            for batch in logged { try store.save(batch) }
        }
        let log = try #require(try memory.contentsOfDirectory("/s").first { $0.hasSuffix(".log") })
        return (memory, "/s/" + log, flushed.count)
    }

    @Test("A chunk that cannot be read for a reason other than damage stops repair with that error, dropping nothing")
    func unreadableChunkIsNotDamage() throws {
        let (memory, _, _) = try Self.store()
        let before = try StoreTests.readAll(HealthStore.open(at: "/s", options: .readOnly, fileSystem: memory))
        let chunk = try #require(try memory.contentsOfDirectory("/s").first { $0.hasPrefix("chunk-") })
        let hooked = HookedFileSystem(wrapping: memory) { operation, path in
            if operation == .readFile && path.hasSuffix(chunk) {
                throw CadenceError(.io, "open failed: Permission denied", path: path)
            }
        }
        let error = #expect(throws: CadenceError.self) { _ = try HealthStore.repair(at: "/s", fileSystem: hooked) }
        #expect(error?.code == .io)
        let after = try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: memory)
        #expect(try StoreTests.readAll(after) == before)
    }

    @Test("Repair counts lost log records: a flipped byte in the first of three loses three")
    func damagedFirstRecord() throws {
        let (memory, logPath, flushed) = try Self.store()
        var bytes = try memory.readFile(logPath)
        bytes[WriteAheadLog.headerSize + 20] ^= 0xFF
        memory.overwrite(logPath, with: bytes)
        let report = try HealthStore.repair(at: "/s", fileSystem: memory)
        #expect(report.logRecordsLost == 3)
        let repaired = try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: memory)
        #expect(try StoreTests.readAll(repaired).count == flushed)
    }

    @Test("Repair counts lost log records: garbage appended after three intact records loses none")
    func appendedGarbage() throws {
        let (memory, logPath, _) = try Self.store()
        let before = try StoreTests.readAll(HealthStore.open(at: "/s", options: .readOnly, fileSystem: memory))
        var random = TestRandom(seed: 9)
        let garbage = (0..<3_000).map { _ in UInt8.random(in: 1...255, using: &random) }
        memory.overwrite(logPath, with: try memory.readFile(logPath) + garbage)
        let report = try HealthStore.repair(at: "/s", fileSystem: memory)
        #expect(!report.wasIntact && report.logRecordsLost == 0)
        let repaired = try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: memory)
        #expect(try StoreTests.readAll(repaired) == before)
    }

    @Test("Repair makes its cut of the log durable before it installs the manifest")
    func repairSyncsItsCut() throws {
        let (memory, logPath, _) = try Self.store()
        memory.overwrite(logPath, with: try memory.readFile(logPath) + [UInt8](repeating: 0xEE, count: 100))
        let calls = Mutex<[(HookedFileSystem.Operation, String)]>([])
        let hooked = HookedFileSystem(wrapping: memory) { operation, path in
            if operation != .readFile && operation != .fileSize && operation != .contentsOfDirectory {
                calls.withLock { $0.append((operation, path)) }
            }
        }
        _ = try HealthStore.repair(at: "/s", fileSystem: hooked)
        let order = calls.withLock { $0 }
        let cut = try #require(order.firstIndex { $0 == (.truncate, logPath) })
        let installed = try #require(order.firstIndex { $0.0 == .rename && $0.1.hasSuffix("MANIFEST.tmp") })
        #expect(order[cut..<installed].contains { $0 == (.syncFile, logPath) }, "\(order)")
    }

    @Test("A log whose last record was damaged in place (not a torn append) does not open, naming the log")
    func zeroedLogTail() throws {
        let (memory, logPath, _) = try Self.store()
        var bytes = try memory.readFile(logPath)
        for index in (bytes.count - 1_000)..<bytes.count { bytes[index] = 0 }
        memory.overwrite(logPath, with: bytes)
        let error = #expect(throws: CadenceError.self) { _ = try HealthStore.open(at: "/s", options: .readOnly, fileSystem: memory) }
        #expect(error?.path == logPath && error?.code == .corruptFile)
    }

    @Test("Verify reports zeros after the last record, which a tear may leave but cannot prove, as damage")
    func zerosAfterLastRecord() throws {
        let (memory, logPath, _) = try Self.store()
        memory.overwrite(logPath, with: try memory.readFile(logPath) + [UInt8](repeating: 0, count: 600))
        let reader = try HealthStore.open(at: "/s", options: .readOnly, fileSystem: memory)
        let problems = reader.verify()
        #expect(problems.map(\.path) == [logPath])
        #expect(problems.first?.code == .corruptFile)
    }

    @Test("Verify accepts a log that ends in a torn append (a prefix of the record that never returned)")
    func tornLogTail() throws {
        let (memory, logPath, _) = try Self.store()
        let bytes = try memory.readFile(logPath)
        memory.overwrite(logPath, with: Array(bytes.prefix(bytes.count - 700)))
        let reader = try HealthStore.open(at: "/s", options: .readOnly, fileSystem: memory)
        #expect(reader.verify().isEmpty)
        #expect(try reader.info().unfinishedLogBytes > 0)
    }

    @Test("A query never answers from the summary of a chunk file that is missing or has the wrong size",
          arguments: [true, false])
    func missingChunk(removed: Bool) throws {
        let (memory, _, _) = try Self.store()
        let reader = try HealthStore.open(at: "/s", options: .readOnly, fileSystem: memory)
        let chunk = try #require(reader.snapshot().types.values.flatMap(\.chunks).first)
        let type = try #require(reader.snapshot().types.values.first { $0.chunks.contains { $0.path == chunk.path } }?.type)
        if removed {
            try memory.remove(chunk.path)
        } else {
            memory.overwrite(chunk.path, with: try memory.readFile(chunk.path) + [0])
        }
        let options: StatisticsOptions = type.aggregationStyle.isDiscrete ? .discreteAverage : .cumulativeSum
        let error = #expect(throws: CadenceError.self) {
            _ = try reader.execute(StatisticsQuery(quantityType: type, options: options))
        }
        #expect(error?.path == chunk.path)
    }
}
