//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// I/O faults injected under the store, one per run, at every call a fixed workload makes: the
/// error reaches the caller, the writer refuses further writes without retrying I/O, and a reopen
/// (without faults) finds a consistent store holding every acknowledged change.
///
/// What is asserted about the change whose call failed:
/// - a save or delete whose log **append** failed (short write, `EIO`, `ENOSPC`) is absent after
///   reopening: its record is incomplete, and replay truncates it as a torn tail;
/// - a save or delete whose log **fsync** failed is all or nothing (its record reached the
///   underlying files, but a real disk may have lost it);
/// - a save whose record was synced but whose automatic flush then failed is present (it was
///   durable before the error), even though the call threw;
/// - the first save after opening also syncs the segment's name: when that fails, the record is
///   in the log but unacknowledged, so all or nothing;
/// - every other batch is exactly as the successful calls left it, each sample exactly once.
@Suite("Fault injection")
struct FaultInjectionTests {
    typealias Fault = FaultInjectingFileSystem.Fault

    /// Options that make the workload flush into several chunks and compact often.
    static var options: HealthStore.Options {
        var options = HealthStore.Options()
        options.flushThreshold = 40
        options.chunkCapacity = 16
        return options
    }

    /// One call of the workload.
    enum Step: CustomStringConvertible {
        case save(Int), delete(Int), flush, compact, sourcePriority([String]), close

        var phase: String {
            switch self {
            case .save: "save"
            case .delete: "delete"
            case .flush: "flush"
            case .compact: "compact"
            case .sourcePriority: "manifest replacement"
            case .close: "close"
            }
        }

        var description: String {
            switch self {
            case .save(let batch): "save(\(batch))"
            case .delete(let batch): "delete(\(batch))"
            default: phase
            }
        }
    }

    /// The batches the workload saves; one more (number `batchCount`) is saved after recovery.
    static let batchCount = 25

    /// Saves of 25 batches (automatic flushes every few), deletes, explicit flushes,
    /// compactions, source-priority changes (a manifest replacement each) and a close that
    /// flushes what the last saves left in the log.
    static let steps: [Step] = {
        var steps: [Step] = []
        for batch in 0..<batchCount {
            steps.append(.save(batch))
            if batch % 4 == 3 { steps.append(.delete(batch - 2)) }
            if batch % 6 == 5 { steps.append(.flush) }
            if batch % 9 == 8 { steps.append(.compact) }
            if batch % 10 == 4 { steps.append(.sourcePriority(["Fault test", "Batch \(batch)"])) }
        }
        steps.append(.close)
        return steps
    }()

    static let types: [QuantityType] = [.stepCount, .heartRate, .activeEnergyBurned]

    /// The samples of batch `number`: 2 to 8, of three types, with explicit UUIDs.
    static func batch(_ number: Int) throws -> [QuantitySample] {
        try (0..<(2 + number % 7)).map { index in
            let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(number * 3_600 + index * 60))
            let uuid = UUID(uuid: (0xFA, 0x17, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, UInt8(number), UInt8(index)))
            return try QuantitySample(uuid: uuid, type: types[(number + index) % 3], value: Double(number * 10 + index + 1),
                                      start: start, end: start.addingTimeInterval(30), source: Source(name: "Fault test"))
        }
    }

    /// What a batch must look like after reopening.
    enum Expectation: Equatable { case present, absent, either }

    /// What one run of the workload did.
    struct Outcome {
        var expectations: [Expectation]
        /// The failed step (`nil` for the open) and its error, if a call failed.
        var failure: (step: Step?, error: any Error)?
        var injection: FaultInjectingFileSystem.Injection?
    }

    /// Runs the workload on `fileSystem` (wrapped to fail call `call` of `fault`) and checks what
    /// the caller sees: the injected error, then a poisoned writer that makes no more I/O calls.
    static func runWorkload(on base: any FileSystem, at path: String, fault: Fault?, call: Int)
        throws -> (outcome: Outcome, counts: [Fault: Int], store: HealthStore?)
    {
        let faulty = FaultInjectingFileSystem(wrapping: base, failing: fault, atCall: call)
        var outcome = Outcome(expectations: Array(repeating: .absent, count: batchCount + 1))
        let store: HealthStore
        do {
            store = try HealthStore.open(at: path, options: options, fileSystem: faulty)
        } catch {
            outcome.failure = (nil, error)
            outcome.injection = faulty.injection
            checkReported(outcome)
            return (outcome, faulty.counts, nil)
        }
        for step in steps {
            do {
                switch step {
                case .save(let number):
                    let samples = try batch(number)
                    outcome.expectations[number] = .either
                    let summary = try store.save(samples)
                    #expect(summary.saved == samples.count)
                    outcome.expectations[number] = .present
                case .delete(let number):
                    guard outcome.expectations[number] == .present else { continue }
                    let uuids = try batch(number).map(\.uuid)
                    outcome.expectations[number] = .either
                    let deleted = try store.deleteSamples(withUUIDs: uuids)
                    #expect(deleted == uuids.count)
                    outcome.expectations[number] = .absent
                case .flush:
                    try store.flush()
                case .compact:
                    try store.compact()
                case .sourcePriority(let names):
                    try store.setSourcePriority(names)
                case .close:
                    try store.close()
                }
            } catch {
                outcome.failure = (step, error)
                break
            }
        }
        outcome.injection = faulty.injection
        checkReported(outcome)
        guard let step = outcome.failure?.step, let injection = outcome.injection else { return (outcome, faulty.counts, store) }
        // Refine the failed step's expectation by where the fault hit.
        func isLog(_ path: String) -> Bool { WriteAheadLog.segmentNumber(String(path.split(separator: "/").last ?? "")) != nil }
        let wasLogWrite = isLog(injection.path)
        // The first record after opening syncs the segment's name too: its record is in the log
        // but was not acknowledged, so reopening may replay it (left `.either`).
        let followsLogSync = injection.operation == .syncDirectory && injection.previous?.operation == .sync
            && injection.previous.map { isLog($0.path) } == true
        switch step {
        case .save(let number) where injection.operation == .append && wasLogWrite:
            outcome.expectations[number] = .absent
        case .save where followsLogSync:
            break
        case .save(let number) where !(wasLogWrite && injection.operation == .sync):
            outcome.expectations[number] = .present  // synced, then its automatic flush failed
        // An append to the deletions file is a flush's, after the change was synced.
        case .delete(let number) where injection.operation == .append && wasLogWrite:
            outcome.expectations[number] = .present
        default:
            break
        }
        // The writer is poisoned: every write is refused, and no further I/O is attempted.
        let writes: [() throws -> Void] = [
            { try store.save(try batch(batchCount)) }, { try store.flush() }, { try store.compact() },
            { _ = try store.deleteSamples(withUUIDs: try batch(0).map(\.uuid)) }, { try store.setSourcePriority([]) },
        ]
        for write in writes {
            do {
                try write()
                Issue.record("a write succeeded after \(injection) in \(step)")
            } catch let error as CadenceError {
                #expect(error.code == .closed, "\(error)")
            }
        }
        #expect(faulty.callsAfterInjection == 0, "I/O was attempted after \(injection)")
        // Readers keep working on the last published snapshot (which lacks the failed change
        // even when its record reached the files, so `.either` is not resolved here).
        var published = outcome.expectations
        try checkContents(of: store, against: &published, context: "poisoned store after \(injection)")
        // Closing a poisoned store fails, but must release the lock: the caller reopens at once,
        // while the old store object is still alive.
        #expect(throws: CadenceError.self) { try store.close() }
        return (outcome, faulty.counts, store)
    }

    /// The error that reached the caller is the injected one, and every injected fault was reported.
    static func checkReported(_ outcome: Outcome) {
        guard let injection = outcome.injection else {
            #expect(outcome.failure == nil, "a call failed without an injected fault: \(outcome.failure.map { "\($0.error)" } ?? "")")
            return
        }
        guard let failure = outcome.failure else {
            Issue.record("\(injection) was not reported to any caller")
            return
        }
        let (step, error) = (failure.step, failure.error)
        let cadenceError = error as? CadenceError
        #expect(cadenceError?.code == .io && cadenceError?.path == injection.path
                    && cadenceError?.message.hasSuffix("(injected)") == true,
                "\(step.map(\.description) ?? "open") failed with \(error) instead of \(injection)")
    }

    /// Checks the store holds exactly the batches `expectations` allow, each sample once, with
    /// statistics that agree with the samples; resolves `.either` to what was found.
    static func checkContents(of store: HealthStore, against expectations: inout [Expectation], context: String) throws {
        var found: [UUID: QuantitySample] = [:]
        var rows = 0
        for type in store.quantityTypes {
            let samples = try store.execute(SampleQuery(quantityType: type))
            rows += samples.count
            for sample in samples { found[sample.uuid] = sample }
            let values = samples.map(\.value)
            if type.aggregationStyle.isDiscrete {
                let statistics = try store.execute(StatisticsQuery(quantityType: type, options: [.discreteMin, .discreteMax]))
                #expect(statistics.minimumQuantity()?.value == values.min() && statistics.maximumQuantity()?.value == values.max(),
                        "\(context): \(type.identifier) minimum/maximum disagree with the samples")
            } else {
                let statistics = try store.execute(StatisticsQuery(quantityType: type, options: .cumulativeSum))
                #expect(nearlyEqual(statistics.sumQuantity()?.value, values.isEmpty ? nil : values.reduce(0, +)),
                        "\(context): \(type.identifier) sum disagrees with the samples")
            }
        }
        #expect(rows == found.count, "\(context): a sample is listed twice")
        var expected = 0
        for number in expectations.indices {
            let samples = try batch(number)
            let present = samples.filter { found[$0.uuid] == $0 }.count
            expected += present
            switch expectations[number] {
            case .present: #expect(present == samples.count, "\(context): batch \(number) has \(present) of \(samples.count)")
            case .absent: #expect(present == 0, "\(context): batch \(number) should be absent, has \(present)")
            case .either:
                #expect(present == 0 || present == samples.count, "\(context): batch \(number) is half there (\(present))")
                expectations[number] = present == 0 ? .absent : .present
            }
        }
        #expect(expected == found.count, "\(context): the store holds samples of no batch, or altered ones")
    }

    /// Reopens the files without faults, checks them, then checks the store still takes writes.
    static func checkRecovery(on base: any FileSystem, at path: String, _ outcome: Outcome, context: String) throws {
        var expectations = outcome.expectations
        let store: HealthStore
        do {
            store = try HealthStore.open(at: path, options: options, fileSystem: base)
        } catch {
            Issue.record("\(context): the store does not reopen: \(error)")
            return
        }
        try checkContents(of: store, against: &expectations, context: "\(context), reopened")
        #expect(store.verify().isEmpty, "\(context): \(store.verify())")
        try store.save(try batch(batchCount))
        try store.compact()
        try store.close()
        expectations[batchCount] = .present
        let again = try HealthStore.open(at: path, options: options, fileSystem: base)
        try checkContents(of: again, against: &expectations, context: "\(context), written after recovery")
        try again.close()
    }

    @Test("Every short write, EIO, ENOSPC and fsync failure across open, save, delete, flush, compaction, manifest replacement and close",
          arguments: Fault.allCases)
    func everyCallInMemory(fault: Fault) throws {
        let calls = try Self.runWorkload(on: MemoryFileSystem(), at: "/store", fault: nil, call: 0).counts[fault] ?? 0
        #expect(calls > 20)
        var phases: Set<String> = []
        for call in 1...calls {
            let fileSystem = MemoryFileSystem()
            let (outcome, _, store) = try Self.runWorkload(on: fileSystem, at: "/store", fault: fault, call: call)
            let context = "\(fault) at call \(call): \(outcome.injection.map { "\($0)" } ?? "none")"
            #expect(outcome.injection != nil, "\(context)")
            phases.insert(outcome.failure.map { $0.step?.phase ?? "open" } ?? "none")
            try withExtendedLifetime(store) {
                try Self.checkRecovery(on: fileSystem, at: "/store", outcome, context: context)
            }
        }
        // The faults landed in every phase that does I/O of this kind.
        let wanted: Set<String> = ["open", "save", "delete", "flush", "compact", "manifest replacement", "close"]
        #expect(wanted.isSubset(of: phases), "faults landed only in \(phases.sorted())")
    }

    @Test("Faults under the real file system: a reopen finds a consistent store", arguments: Fault.allCases)
    func someCallsOnDisk(fault: Fault) throws {
        let root = StoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let calls = try Self.runWorkload(on: POSIXFileSystem(), at: root + "/count", fault: nil, call: 0).counts[fault] ?? 0
        for call in stride(from: 1, through: calls, by: 9) {
            let path = root + "/\(call)"
            let (outcome, _, store) = try Self.runWorkload(on: POSIXFileSystem(), at: path, fault: fault, call: call)
            let context = "\(fault) at call \(call) on disk: \(outcome.injection.map { "\($0)" } ?? "none")"
            #expect(outcome.injection != nil, "\(context)")
            try withExtendedLifetime(store) {
                try Self.checkRecovery(on: POSIXFileSystem(), at: path, outcome, context: context)
            }
        }
    }

    @Test("An interrupted store creation (manifest written but not renamed) still opens")
    func interruptedCreation() throws {
        for fault in [Fault.syncFailure, .eio, .shortWrite] {
            let fileSystem = MemoryFileSystem()
            let faulty = FaultInjectingFileSystem(wrapping: fileSystem, failing: fault, atCall: fault == .eio ? 4 : 1)
            #expect(throws: CadenceError.self) { _ = try HealthStore.open(at: "/store", options: Self.options, fileSystem: faulty) }
            #expect(faulty.injection?.path.hasSuffix("MANIFEST.tmp") == true, "\(String(describing: faulty.injection))")
            let store = try HealthStore.open(at: "/store", options: Self.options, fileSystem: fileSystem)
            #expect(store.quantityTypes.isEmpty)
            try store.save(try Self.batch(1))
            try store.close()
        }
    }

    @Test("Reopening a cleanly closed store syncs nothing; its first save syncs the segment and its name, later saves the segment")
    func openAfterCleanClose() throws {
        let fileSystem = MemoryFileSystem()
        let first = try HealthStore.open(at: "/store", options: Self.options, fileSystem: fileSystem)
        try first.save(try Self.batch(1))
        try first.close()

        let counting = FaultInjectingFileSystem(wrapping: fileSystem)
        let store = try HealthStore.open(at: "/store", options: Self.options, fileSystem: counting)
        #expect(counting.counts[.syncFailure, default: 0] == 0, "the open synced")
        try store.save(try Self.batch(2))
        #expect(counting.counts[.syncFailure, default: 0] == 2, "the first save: the segment and the directory")
        try store.save(try Self.batch(3))
        #expect(counting.counts[.syncFailure, default: 0] == 3, "a later save: the segment only")
        try store.close()
        let reopened = try HealthStore.open(at: "/store", options: Self.options, fileSystem: fileSystem)
        var expectations: [Expectation] = (0...Self.batchCount).map { [1, 2, 3].contains($0) ? .present : .absent }
        try Self.checkContents(of: reopened, against: &expectations, context: "after reopening")
    }
}
