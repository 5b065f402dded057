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

/// A reader that opens while a writer flushes sees the store as it was before the flush or after
/// it, never a mix of the old manifest and the new log.
@Suite("Reader snapshots")
struct ReaderSnapshotTests {
    /// Runs an action the first time it is asked to (the hook fires on every read).
    final class FirstTime: Sendable {
        private let done = Mutex(false)
        func run(_ action: () throws -> Void) rethrows {
            guard done.withLock({ state in defer { state = true }; return !state }) else { return }
            try action()
        }
    }

    /// A store whose last save is only in the log, and the samples it holds.
    static func unflushedStore() throws -> (fileSystem: MemoryFileSystem, writer: HealthStore, uuids: Set<UUID>) {
        let memory = MemoryFileSystem()
        let writer = try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: memory)
        let samples = try StoreTests.randomSamples(count: 300, seed: 31)
        try writer.save(samples)
        return (memory, writer, Set(samples.map(\.uuid)))
    }

    @Test("A flush between reading the manifest and finding the log segments")
    func flushBeforeFindingSegments() throws {
        let (memory, writer, uuids) = try Self.unflushedStore()
        let once = FirstTime()
        let hooked = HookedFileSystem(wrapping: memory) { operation, path in
            // An existence check ignores what its hook throws: the flush's failure is expected here instead.
            if operation == .exists && path.hasSuffix(".log") { once.run { #expect(throws: Never.self) { try writer.flush() } } }
        }
        let reader = try HealthStore.open(at: "/s", options: .readOnly, fileSystem: hooked)
        #expect(Set(try StoreTests.readAll(reader).keys) == uuids)
        #expect(reader.snapshot().lastSequence == writer.snapshot().lastSequence)
    }

    @Test("A query whose chunk file a compaction removed meanwhile runs again on the store as it now is")
    func compactionDuringQuery() throws {
        let (memory, writer, uuids) = try Self.unflushedStore()
        try writer.flush()
        let once = FirstTime()
        let hooked = HookedFileSystem(wrapping: memory) { operation, path in
            if operation == .readFile && path.contains("/chunk-") { try once.run { try writer.compact() } }
        }
        let reader = try HealthStore.open(at: "/s", options: .readOnly, fileSystem: hooked)
        #expect(Set(try StoreTests.readAll(reader).keys) == uuids)
    }

    @Test("A flush between listing the log segments and reading one (the segment vanishes)")
    func flushBeforeReadingSegment() throws {
        let (memory, writer, uuids) = try Self.unflushedStore()
        let once = FirstTime()
        let hooked = HookedFileSystem(wrapping: memory) { operation, path in
            if operation == .readFile && path.hasSuffix(".log") { try once.run { try writer.flush() } }
        }
        let reader = try HealthStore.open(at: "/s", options: .readOnly, fileSystem: hooked)
        #expect(Set(try StoreTests.readAll(reader).keys) == uuids)
    }
}

/// A reader catches up with a manifest the writer replaced at the same size (a priority change
/// writes only the manifest), on disk and in memory.
@Suite("Readers catching up")
struct ReaderCatchUpTests {
    static func sameSizePriorityChange(at path: String, fileSystem: any FileSystem) throws {
        let writer = try HealthStore.open(at: path, options: HealthStore.Options(), fileSystem: fileSystem)
        try writer.save(try StoreTests.randomSamples(count: 50, seed: 7))
        try writer.flush()
        try writer.setSourcePriority(["Phone"])
        let reader = try HealthStore.open(at: path, options: .readOnly, fileSystem: fileSystem)
        #expect(reader.sourcePriorities.storeWide == ["Phone"])
        try writer.setSourcePriority(["Watch"])
        try reader.refresh()
        #expect(reader.sourcePriorities.storeWide == ["Watch"])
        try writer.close()
    }

    @Test func inMemory() throws {
        try Self.sameSizePriorityChange(at: "/s", fileSystem: MemoryFileSystem())
    }

    @Test func onDisk() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("catch-up-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.sameSizePriorityChange(at: directory.path, fileSystem: POSIXFileSystem())
    }
}
