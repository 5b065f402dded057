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

/// One writer process and readers in others, as a server and an import job run: readers see
/// every commit, long-running queries fire for the other process's commits, a second writer is
/// refused naming the holder (or waits), and a dead writer's lock blocks nobody.
@Suite("Many processes on one store")
struct MultiProcessTests {
    /// The writer child (`cadence-crash-child serve`), driven line by line by one task at a time.
    final class ChildWriter: @unchecked Sendable {
        let process = Process()
        private let input = Pipe()
        private let output = Pipe()
        private var lines: PipeLines
        private(set) var pid: Int32 = 0

        init(store: String, waiting: Bool = false) throws {
            let child = try #require(CrashTests.childExecutable(), "cadence-crash-child is not built")
            process.executableURL = URL(fileURLWithPath: child)
            process.arguments = ["serve", store] + (waiting ? ["wait"] : [])
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.standardError
            lines = PipeLines(descriptor: output.fileHandleForReading.fileDescriptor)
            try process.run()
        }

        /// Waits for the child's next line (a minute at most, against a hang) and returns it.
        func nextLine() throws -> String {
            var pending: [String] = []
            for _ in 0..<600 where pending.isEmpty {
                let (status, read) = lines.read(waiting: 100)
                pending += read
                if status == .end && pending.isEmpty { throw CadenceError(.io, "the writer child ended early") }
            }
            return try #require(pending.first, "the writer child said nothing for a minute")
        }

        /// Waits for `opening`.
        func opening() throws {
            let line = try nextLine()
            try #require(line == "opening", "unexpected: \(line)")
        }

        /// Waits for `opening` (unless it was read) and `opened <pid>`.
        func opened() throws {
            var line = try nextLine()
            if line == "opening" { line = try nextLine() }
            let words = line.split(separator: " ")
            try #require(words.first == "opened" && words.count == 2, "unexpected: \(line)")
            pid = Int32(words[1]) ?? 0
        }

        /// Sends a command and waits for its acknowledgement.
        @discardableResult
        func run(_ command: String) throws -> String {
            input.fileHandleForWriting.write(Data((command + "\n").utf8))
            return try nextLine()
        }

        func exit() {
            input.fileHandleForWriting.write(Data("exit\n".utf8))
            process.waitUntilExit()
        }

        func kill() {
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    static func uuids(batch: Int, size: Int) -> Set<UUID> {
        Set((0..<size).map { index in
            UUID(uuidString: String(format: "00000000-%04X-4000-8000-%012X", batch, index))!
        })
    }

    static func stored(_ store: HealthStore) throws -> Set<UUID> {
        Set(try StoreTests.readAll(store).keys)
    }

    @Test("A reader in another process sees every commit: appended saves and deletes, and the state after a flush")
    func readerFollowsWriter() throws {
        let path = StoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try ChildWriter(store: path)
        defer { writer.kill() }
        try writer.opened()
        let reader = try HealthStore.open(at: path, options: .readOnly)
        var expected = Set<UUID>()
        #expect(try Self.stored(reader) == expected)
        for batch in 0..<6 {
            #expect(try writer.run("save \(batch) \(10 + batch)") == "saved \(batch)")
            expected.formUnion(Self.uuids(batch: batch, size: 10 + batch))
            #expect(try Self.stored(reader) == expected, "after saving batch \(batch)")
            if batch == 2 {
                #expect(try writer.run("delete 1 11") == "deleted 1")
                expected.subtract(Self.uuids(batch: 1, size: 11))
                #expect(try Self.stored(reader) == expected, "after deleting batch 1")
            }
            if batch == 3 {
                #expect(try writer.run("flush") == "flushed")
                #expect(try Self.stored(reader) == expected, "after a flush")
            }
        }
        #expect(reader.snapshot().lastSequence == expected.count + 11 + 11)
    }

    @Test("Observers and long-running queries in a reader fire for another process's commits")
    func observersFire() async throws {
        let path = StoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try ChildWriter(store: path)
        defer { writer.kill() }
        try writer.opened()
        try writer.run("save 0 6")
        var options = HealthStore.Options.readOnly
        options.refreshInterval = 0.01
        let reader = try HealthStore.open(at: path, options: options)
        let updates = reader.anchoredUpdates(AnchoredObjectQuery(quantityType: .stepCount))
        // Batch 1's samples of every third index are step counts (the type rotates with the index).
        let expected = Self.uuids(batch: 0, size: 6).union(Self.uuids(batch: 1, size: 9)).filter { uuid in
            (Int(uuid.uuidString.dropFirst(9).prefix(4), radix: 16)! + Int(uuid.uuidString.suffix(12), radix: 16)!) % 3 == 0
        }
        let consumer = Task {
            var seen = Set<UUID>()
            var saved = false
            for try await update in updates {
                seen.formUnion(update.samples.map(\.uuid))
                if !saved {
                    try writer.run("save 1 9")
                    saved = true
                }
                if seen == expected { break }
            }
            return seen
        }
        // Against a hang: a stream that is never fed ends when its task is cancelled.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(60))
            consumer.cancel()
        }
        defer { watchdog.cancel() }
        #expect(try await consumer.value == expected)
    }

    @Test("A second writer is refused with the holder's pid; a killed writer's lock blocks no one")
    func lockHolderAndDeath() throws {
        let path = StoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try ChildWriter(store: path)
        try writer.opened()
        try writer.run("save 0 5")
        let error = #expect(throws: CadenceError.self) { _ = try HealthStore.open(at: path) }
        #expect(error?.code == .storeLocked)
        #expect(error?.message.contains("pid \(writer.pid)") == true, "\(error?.message ?? "")")
        writer.kill()
        let next = try HealthStore.open(at: path)
        #expect(try Self.stored(next) == Self.uuids(batch: 0, size: 5))
        try next.close()
    }

    @Test("A writer that waits for the lock opens once the holder closes the store")
    func waitingWriter() throws {
        let path = StoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let holder = try HealthStore.open(at: path)
        let waiter = try ChildWriter(store: path, waiting: true)
        defer { waiter.kill() }
        try waiter.opening()
        // The child now blocks in `open` until the lock is free (the pause only makes it likely
        // that it got there; the outcome does not depend on it). What the holder saved first is
        // what the waiter then sees.
        try holder.save(try StoreTests.randomSamples(count: 7, seed: 3))
        Thread.sleep(forTimeInterval: 0.2)
        try holder.close()
        try waiter.opened()
        #expect(try waiter.run("save 0 4") == "saved 0")
        waiter.exit()
        #expect(waiter.process.terminationStatus == 0)
        #expect(try HealthStore.open(at: path, options: .readOnly).info().totalSamples == 7 + 4)
    }
}
