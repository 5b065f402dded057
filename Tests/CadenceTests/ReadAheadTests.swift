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

/// An `export.zip` is inflated on a thread of its own ahead of the reading: every block must
/// still arrive once and in order, errors from either side must come out as before, and no
/// thread may be left running.
@Suite("Reading ahead on another thread")
struct ReadAheadTests {
    struct ProducerFailed: Error {}
    struct ConsumerFailed: Error {}

    /// Block `number`: its number in every byte, of a length that varies with it.
    static func block(_ number: Int) -> [UInt8] {
        [UInt8](repeating: UInt8(truncatingIfNeeded: number), count: 1 + number * 37 % 500)
    }

    @Test("Every block arrives once, in order, with at most `capacity` waiting", arguments: [1, 3, 64])
    func inOrder(capacity: Int) throws {
        let produced = Mutex(0)
        var consumed: [[UInt8]] = []
        var mostAhead = 0
        try readAhead(capacity: capacity, produce: { deliver in
            for number in 0..<400 {
                let block = Self.block(number)
                try block.withUnsafeBytes { try deliver($0) }
                produced.withLock { $0 += 1 }
            }
        }) { block in
            consumed.append(Array(block))
            mostAhead = max(mostAhead, produced.withLock { $0 } - consumed.count)
        }
        #expect(consumed == (0..<400).map(Self.block))
        #expect(mostAhead <= capacity)
    }

    @Test("A producer's error comes after the blocks it delivered before it")
    func producerError() {
        var consumed = 0
        #expect(throws: ProducerFailed.self) {
            try readAhead(capacity: 4, produce: { deliver in
                for number in 0..<10 { try Self.block(number).withUnsafeBytes { try deliver($0) } }
                throw ProducerFailed()
            }) { _ in consumed += 1 }
        }
        #expect(consumed == 10)
    }

    @Test("A consumer's error stops the producer, which has finished when the call returns")
    func consumerError() {
        let state = Mutex((delivered: 0, stoppedByThrow: false, finished: false))
        var consumed = 0
        #expect(throws: ConsumerFailed.self) {
            try readAhead(capacity: 2, produce: { deliver in
                defer { state.withLock { $0.finished = true } }
                do {
                    for number in 0..<100_000 {
                        try Self.block(number).withUnsafeBytes { try deliver($0) }
                        state.withLock { $0.delivered += 1 }
                    }
                } catch {
                    state.withLock { $0.stoppedByThrow = true }
                    throw error
                }
            }) { _ in
                consumed += 1
                if consumed == 5 { throw ConsumerFailed() }
            }
        }
        let final = state.withLock { $0 }
        #expect(final.finished && final.stoppedByThrow)
        #expect(final.delivered <= 5 + 2 + 1)
    }

    @Test("A corrupt export.zip imports what came before the damage, and its summary says where reading stopped")
    func corruptZipImport() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = try Data(contentsOf: URL(fileURLWithPath: try ImportFixtures.appleHealthFile("hkimport-export.xml")))
        let whole = directory.appendingPathComponent("whole.zip")
        try ZipFixtures.write([ZipFixtures.Item(path: "apple_health_export/export.xml", data: data)], to: whole)
        var bytes = try [UInt8](Data(contentsOf: whole))
        let damage = bytes.count * 3 / 4
        for offset in damage..<damage + 400 { bytes[offset] ^= 0x5A }
        let corrupt = directory.appendingPathComponent("corrupt.zip")
        try Data(bytes).write(to: corrupt)

        let complete = try HealthDataImporter(store: HealthStore.inMemory()).importFile(atPath: whole.path)
        for parallelism in [1, 2] {
            let store = HealthStore.inMemory()
            var importer = HealthDataImporter(store: store, batchSize: 500, parallelism: parallelism)
            importer.segmentBytes = 64 << 10
            let summary = try importer.importFile(atPath: corrupt.path)
            let stopped = try #require(summary.stoppedAt)
            #expect(summary.failed && stopped.reason.contains("corrupt") && stopped.line > 1, "\(stopped)")
            let kept = try store.info().types.reduce(0) { $0 + $1.samples }
            #expect(kept > 0 && kept < complete.imported, "\(parallelism) cores: kept \(kept) of \(complete.imported)")
            #expect(summary.imported == kept)
        }
    }
}
