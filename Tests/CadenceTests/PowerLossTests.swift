//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// Saves, deletes, flushes, compactions, reopenings and repairs lose power at every file-system
/// call (``PowerLossFileSystem``); after each, the store must open (or `repair` restore it),
/// verify clean, hold every acknowledged save exactly once (its metadata too) and no acknowledged delete, and
/// hold the change in flight wholly or not at all.
///
/// The unit tests run a fixed workload with a crash at each of its calls; `scripts/power-loss.sh`
/// runs `randomPowerLosses` with `CADENCE_POWER_LOSS_COUNT` random workloads and crash points.
@Suite("Power loss")
struct PowerLossTests {
    enum Operation: Equatable, CustomStringConvertible {
        case save(batch: Int, size: Int), delete(batch: Int), flush, compact, reopen, repair

        var description: String {
            switch self {
            case .save(let batch, let size): "save of batch \(batch) (\(size))"
            case .delete(let batch): "delete of batch \(batch)"
            case .flush: "flush"
            case .compact: "compaction"
            case .reopen: "reopening"
            case .repair: "repair"
            }
        }
    }

    /// What a run acknowledged, and what was in flight when the power went.
    struct Outcome {
        var sizes: [Int: Int] = [:]
        var present: Set<Int> = []
        var deleted: Set<Int> = []
        var inFlight: Operation?
        var crashed = false
    }

    static let path = "/s"

    static var options: HealthStore.Options {
        var options = HealthStore.Options()
        options.chunkCapacity = 40
        options.flushThreshold = 120
        return options
    }

    static func uuid(seed: UInt64, batch: Int, index: Int) -> UUID {
        UUID(uuidString: String(format: "%08X-%04X-4000-8000-%012X", UInt32(truncatingIfNeeded: seed), batch, index))!
    }

    static func batch(seed: UInt64, batch: Int, size: Int) throws -> [QuantitySample] {
        try (0..<size).map { index in
            let start = Date(timeIntervalSince1970: Double(1_700_000_000 + batch * 3_600 + index * 60))
            return try QuantitySample(uuid: uuid(seed: seed, batch: batch, index: index),
                                      type: index % 3 == 0 ? .heartRate : .stepCount, value: Double(index % 50 + 60),
                                      start: start, end: start.addingTimeInterval(30), source: Source(name: "Power"),
                                      metadata: metadata(batch: batch, index: index))
        }
    }

    /// The metadata of a batch's sample: a set of its own for one in four, so that chunk files
    /// hold metadata set groups.
    static func metadata(batch: Int, index: Int) -> [String: String] {
        index % 4 == 1 ? ["batch": "\(batch)", "index": "\(index)"] : [:]
    }

    /// Runs the workload of `seed` on `fileSystem` until it ends or the power goes.
    static func run(seed: UInt64, steps: Int, on fileSystem: PowerLossFileSystem) throws -> Outcome {
        var outcome = Outcome()
        var random = TestRandom(seed: seed)
        do {
            var store = try HealthStore.open(at: path, options: options, fileSystem: fileSystem)
            for _ in 0..<steps {
                let live = outcome.present.sorted()
                let choice = Int.random(in: 0..<100, using: &random)
                let operation: Operation = switch choice {
                case ..<55: .save(batch: outcome.sizes.count, size: Int.random(in: 1...30, using: &random))
                case ..<72 where !live.isEmpty: .delete(batch: live[Int.random(in: 0..<live.count, using: &random)])
                case ..<82: .flush
                case ..<88: .compact
                case ..<95: .reopen
                default: .repair
                }
                outcome.inFlight = operation
                switch operation {
                case .save(let batch, let size):
                    outcome.sizes[batch] = size
                    try store.save(try Self.batch(seed: seed, batch: batch, size: size))
                    outcome.present.insert(batch)
                case .delete(let batch):
                    let size = outcome.sizes[batch] ?? 0
                    let uuids = (0..<size).map { uuid(seed: seed, batch: batch, index: $0) }
                    // An automatic compaction after the delete may lose the power: the delete
                    // is then unacknowledged, though committed.
                    let count = try store.deleteSamples(withUUIDs: uuids)
                    try #require(count == size)
                    outcome.present.remove(batch)
                    outcome.deleted.insert(batch)
                case .flush:
                    try store.flush()
                case .compact:
                    try store.compact()
                case .reopen:
                    try store.close()
                    store = try HealthStore.open(at: path, options: options, fileSystem: fileSystem)
                case .repair:
                    try store.close()
                    // Garbage after the log's last record: repair cuts it off.
                    let log = store.currentLogPath()
                    try fileSystem.damage(log, appending: (0..<100).map { _ in UInt8.random(in: 1...255, using: &random) })
                    let report = try HealthStore.repair(at: path, fileSystem: fileSystem)
                    try #require(report.logRecordsLost == 0 && report.samplesLost == 0)
                    store = try HealthStore.open(at: path, options: options, fileSystem: fileSystem)
                }
                outcome.inFlight = nil
            }
            try store.close()
        } catch is PowerLossFileSystem.PowerLoss {
            outcome.crashed = true
        }
        return outcome
    }

    /// Opens the store a power loss left, repairing it first when opening finds damage: only
    /// damage that repair mends without losing anything acknowledged (the garbage the repair
    /// step appends, when the power went before repair cut it off).
    static func recover(_ fileSystem: any FileSystem, context: String) throws -> HealthStore {
        do {
            return try HealthStore.open(at: path, options: options, fileSystem: fileSystem)
        } catch let error as CadenceError where error.code == .corruptFile {
            let report = try HealthStore.repair(at: path, fileSystem: fileSystem)
            #expect(report.samplesLost == 0, "\(context): repair lost samples: \(report.damage)")
            // A crash only tears the append in flight, which is not damage: no record is cut.
            #expect(report.logRecordsLost == 0, "\(context): repair cut log records: \(report.damage)")
            return try HealthStore.open(at: path, options: options, fileSystem: fileSystem)
        }
    }

    /// Checks the store a power loss left against what the run acknowledged.
    static func check(_ image: MemoryFileSystem, _ outcome: Outcome, seed: UInt64, context: String) throws {
        let store = try recover(image, context: context)
        #expect(store.verify().isEmpty, "\(context): \(store.verify())")
        var counts: [Int: Int] = [:]
        var seen = Set<UUID>()
        for type in store.quantityTypes {
            for sample in try store.execute(SampleQuery(quantityType: type)) {
                #expect(seen.insert(sample.uuid).inserted, "\(context): \(sample.uuid) twice")
                let batch = Int(sample.uuid.uuidString.dropFirst(9).prefix(4), radix: 16) ?? -1
                let index = Int(sample.uuid.uuidString.suffix(12), radix: 16) ?? -1
                #expect(sample.metadata == Self.metadata(batch: batch, index: index), "\(context): \(sample.uuid)'s metadata")
                counts[batch, default: 0] += 1
            }
        }
        var expected: [Int: Int] = [:]
        for batch in outcome.present { expected[batch] = outcome.sizes[batch] }
        switch outcome.inFlight {
        case .save(let batch, _)?, .delete(let batch)?:
            let found = counts[batch] ?? 0
            #expect(found == 0 || found == outcome.sizes[batch], "\(context): \(found) of batch \(batch) in flight")
            counts[batch] = nil
            expected[batch] = nil
        default:
            break
        }
        counts = counts.filter { $0.value > 0 }
        #expect(counts == expected, "\(context): found \(counts.sorted { $0.key < $1.key }), acknowledged \(expected.sorted { $0.key < $1.key })")
        try store.close()
    }

    /// Runs `seed`'s workload with the power lost at `call`, and checks `images` disks it may
    /// leave; with `recoveryCrash`, the recovery of each disk (opening, or repair) loses power
    /// at that call of its own too, and the disk that leaves is checked as well.
    static func losePower(seed: UInt64, steps: Int, at call: Int, images: Int, recoveryCrash: Int? = nil) throws -> Bool {
        let fileSystem = PowerLossFileSystem(crashAt: call)
        let outcome = try run(seed: seed, steps: steps, on: fileSystem)
        for image in 0..<images {
            var choice = PowerLossFileSystem.Choice(anySubset: image % 2 == 1,
                                                    random: TestRandom(seed: seed &* 1_000_003 &+ UInt64(call * 7 + image)))
            let disk = try fileSystem.image(choosing: &choice)
            let context = "seed \(seed), power lost at call \(call) during \(outcome.inFlight?.description ?? "nothing"), image \(image)"
            if let recoveryCrash {
                let recovery = try PowerLossFileSystem(restoring: disk, crashAt: recoveryCrash)
                do {
                    try recover(recovery, context: context).close()
                } catch is PowerLossFileSystem.PowerLoss {}
                let recovered = try recovery.image(choosing: &choice)
                try check(recovered, outcome, seed: seed, context: context + ", then at call \(recoveryCrash) of its recovery")
            }
            try check(disk, outcome, seed: seed, context: context)
        }
        return outcome.crashed
    }

    @Test("A fixed workload loses power at each of its file-system calls", arguments: [UInt64(11), 12])
    func everyCall(seed: UInt64) throws {
        let steps = 24
        let dryRun = PowerLossFileSystem()
        _ = try Self.run(seed: seed, steps: steps, on: dryRun)
        let calls = dryRun.callCount
        try #require(calls > 50)
        for call in 1...calls {
            #expect(try Self.losePower(seed: seed, steps: steps, at: call, images: 2))
        }
        print("power-loss: seed \(seed): \(calls) crash points, each checked on 2 disk images")
    }

    @Test("Random workloads lose power at random calls (CADENCE_POWER_LOSS_COUNT of them; 40 by default)")
    func randomPowerLosses() throws {
        let count = ProcessInfo.processInfo.environment["CADENCE_POWER_LOSS_COUNT"].flatMap(Int.init) ?? 40
        var random = TestRandom(seed: UInt64(count))
        var losses = 0
        var attempts = 0
        while losses < count && attempts < count * 4 {
            attempts += 1
            let seed = random.next() % 1_000_000
            if try Self.losePower(seed: seed, steps: 40, at: Int.random(in: 1...500, using: &random), images: 3,
                                  recoveryCrash: Int.random(in: 1...12, using: &random)) {
                losses += 1
            }
        }
        #expect(losses == count)
        print("power-loss: \(losses) simulated power losses, each checked on 3 disk images, and each of those again "
              + "after a power loss during its recovery")
    }
}
