//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// `HealthStore.repair(at:)` salvages what is intact.
@Suite("Repair")
struct RepairTests {
    @Test("A damaged chunk and a damaged log record are dropped; everything else survives")
    func salvage() throws {
        let path = StoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let flushed = try StoreTests.randomSamples(count: 2_000, seed: 21)
        let flushedUUIDs = Set(flushed.map(\.uuid))
        let logged = try StoreTests.randomSamples(count: 60, seed: 22).filter { !flushedUUIDs.contains($0.uuid) }.prefix(30)
        try #require(logged.count == 30)
        do {
            // Left without closing, as after a crash: the last saves are only in the log.
            var options = HealthStore.Options()
            options.chunkCapacity = 500
            let store = try HealthStore.open(at: path, options: options)
            try store.save(flushed)
            try store.flush()
            try store.save(Array(logged.prefix(10)))
            try store.save(Array(logged.suffix(20)))
        }

        #expect(try HealthStore.repair(at: path).wasIntact)
        // Damage one chunk and the last log record.
        let names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        let chunk = try #require(names.first { $0.hasPrefix("chunk-") })
        let chunkPath = path + "/" + chunk
        var chunkBytes = [UInt8](try #require(FileManager.default.contents(atPath: chunkPath)))
        chunkBytes[chunkBytes.count - 20] ^= 0xFF
        try Data(chunkBytes).write(to: URL(fileURLWithPath: chunkPath))
        let log = try #require(names.first { $0.hasSuffix(".log") })
        var logBytes = [UInt8](try #require(FileManager.default.contents(atPath: path + "/" + log)))
        // Damage the second record (the 20-sample save) in its middle, and append a record after it
        // so the damage is not a torn tail.
        logBytes[logBytes.count - 40] ^= 0xFF
        let trailing = try WriteAheadLog.record(.delete([]))
        try Data(logBytes + trailing).write(to: URL(fileURLWithPath: path + "/" + log))

        #expect(throws: CadenceError.self) {
            let damaged = try HealthStore.open(at: path, options: .readOnly)
            for type in damaged.quantityTypes { _ = try damaged.execute(SampleQuery(quantityType: type)) }
        }
        let report = try HealthStore.repair(at: path)
        #expect(report.damage.map(\.path).contains(chunkPath))
        #expect(report.samplesLost > 0 && report.logRecordsLost >= 1)
        let repaired = try HealthStore.open(at: path)
        let survivors = try StoreTests.readAll(repaired)
        #expect(survivors.count == flushed.count - report.samplesLost + 10)
        #expect(Set(logged.prefix(10).map(\.uuid)).isSubset(of: survivors.keys))
        #expect(repaired.verify().isEmpty)
    }
}
