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

/// Readers on their own threads query a store while a writer saves, deletes, flushes and
/// compacts; every read must see a whole number of transactions in writer order. Run it under the
/// thread sanitizer too (see the acceptance notes):
///
///     swift build --build-tests -Xswiftc -sanitize=thread --scratch-path .build-tsan
///     swift test --skip-build --scratch-path .build-tsan --filter ConcurrencyStress
@Suite("Concurrency stress")
struct ConcurrencyStressTests {
    /// Midnight UTC, so that the 144 batches of a day never straddle two days.
    static let base: Int64 = 1_700_006_400
    static let batchSeconds: Int64 = 600
    /// The step deltas of a batch: ten samples whose values sum to exactly 100.
    static let deltas: [Double] = [-4, -3, -2, -1, 0, 0, 1, 2, 3, 4]

    /// Batch `number`: ten step-count samples summing to 100 and one heart-rate sample whose
    /// value is the batch number plus one, saved in one transaction.
    static func batch(_ number: Int) throws -> [QuantitySample] {
        let source = Source(name: "Stress")
        let origin = Date(timeIntervalSince1970: Double(base + Int64(number) * batchSeconds))
        func uuid(_ index: Int) -> UUID {
            UUID(uuid: (0x57, 0x8E, 0x55, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, UInt8(number >> 8), UInt8(number & 0xFF), UInt8(index)))
        }
        var samples = try (0..<10).map { index in
            let start = origin.addingTimeInterval(Double(index * 60))
            return try QuantitySample(uuid: uuid(index), type: .stepCount, value: 10 + deltas[(index + number) % 10],
                                      start: start, end: start.addingTimeInterval(30), source: source)
        }
        samples.append(try QuantitySample(uuid: uuid(10), type: .heartRate, value: Double(number + 1), start: origin,
                                          end: origin, source: source))
        return samples
    }

    /// The batch a stored start time belongs to.
    static func batchNumber(start: Int64) -> Int { Int((start / 1_000_000 - base) / batchSeconds) }

    /// The writer's program after saving batch `number`: every third batch deletes the one saved
    /// two steps before.
    static func deletion(after number: Int) -> Int? { number % 3 == 2 ? number - 2 : nil }

    /// Whether `present` is the set of batches after some prefix of the writer's program.
    static func isWriterState(_ present: Set<Int>) -> Bool {
        guard let last = present.max() else { return true }
        var expected = Set(0...last)
        for number in 0..<last { if let victim = deletion(after: number) { expected.remove(victim) } }
        if present == expected { return true }
        if let victim = deletion(after: last) { expected.remove(victim) }
        return present == expected
    }

    /// What the readers share with the test.
    final class Shared: Sendable {
        let stop = Atomic<Bool>(false)
        let problems = Mutex<[String]>([])
        let reads = Atomic<Int>(0)

        func report(_ problem: String) { problems.withLock { if $0.count < 20 { $0.append(problem) } } }
    }

    /// One read of one kind; reports every broken invariant.
    static func read(_ store: HealthStore, kind: Int, shared: Shared, lastSequence: inout Int64) throws {
        switch kind % 4 {
        case 0:
            // One snapshot, read three ways: rows of both types, and the aggregator, agree.
            let snapshot = store.snapshot()
            if snapshot.lastSequence < lastSequence { shared.report("the sequence went back from \(lastSequence) to \(snapshot.lastSequence)") }
            lastSequence = snapshot.lastSequence
            var steps: [Int: (count: Int, sum: Double)] = [:]
            var hearts: Set<Int> = []
            if let type = snapshot.types[QuantityType.stepCount.identifier] {
                try StoredSample.forEachRow(of: type, details: false) { columns, row in
                    let number = batchNumber(start: columns.start[row])
                    steps[number, default: (0, 0)].count += 1
                    steps[number, default: (0, 0)].sum += columns.value[row]
                }
                let output = try Aggregator(snapshot: snapshot, type: .stepCount, predicate: .all, options: .cumulativeSum,
                                            edges: [Int64.min, Int64.max], sourcePriority: nil).run()
                let total = output.merged.first?.count ?? 0
                if total != steps.values.reduce(0, { $0 + $1.count }) {
                    shared.report("the aggregator counts \(total) samples, the rows \(steps.values.reduce(0) { $0 + $1.count })")
                }
            }
            if let type = snapshot.types[QuantityType.heartRate.identifier] {
                try StoredSample.forEachRow(of: type, details: false) { columns, row in
                    if !hearts.insert(Int(columns.value[row]) - 1).inserted { shared.report("a heart-rate sample appears twice") }
                }
            }
            for (number, batch) in steps where batch.count != 10 || batch.sum != 100 {
                shared.report("snapshot: batch \(number) has \(batch.count) samples summing to \(batch.sum)")
            }
            if Set(steps.keys) != hearts { shared.report("a transaction is half visible across types") }
            if !isWriterState(hearts) { shared.report("snapshot batches \(hearts.sorted()) are no state of the writer") }
        case 1:
            let statistics = try store.execute(StatisticsQuery(quantityType: .stepCount, options: .cumulativeSum))
            let sum = statistics.sumQuantity()?.value ?? 0
            if sum.truncatingRemainder(dividingBy: 100) != 0 { shared.report("a statistics sum of \(sum) is no whole number of batches") }
        case 2:
            var batches: [Int: (count: Int, sum: Double)] = [:]
            for sample in try store.execute(SampleQuery(quantityType: .stepCount)) {
                let number = batchNumber(start: sample.startDate.timestamp)
                batches[number, default: (0, 0)].count += 1
                batches[number, default: (0, 0)].sum += sample.value
            }
            for (number, batch) in batches where batch.count != 10 || batch.sum != 100 {
                shared.report("sample query: batch \(number) has \(batch.count) samples summing to \(batch.sum)")
            }
            if !isWriterState(Set(batches.keys)) { shared.report("sample query batches are no state of the writer") }
        default:
            let query = try StatisticsCollectionQuery(
                quantityType: .stepCount, options: .cumulativeSum, anchorDate: Date(timeIntervalSince1970: Double(base)),
                intervalComponents: .days(1), calendar: utcCalendar)
            for day in try store.execute(query).statistics() {
                let sum = day.sumQuantity()?.value ?? 0
                if sum.truncatingRemainder(dividingBy: 100) != 0 { shared.report("a day sums to \(sum)") }
            }
        }
        shared.reads.add(1, ordering: .relaxed)
    }

    static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }()

    /// Runs the writer's program from batch `first` up to (not including) `end`.
    static func write(_ store: HealthStore, from first: Int, to end: Int) throws {
        for number in first..<end {
            try store.save(try batch(number))
            if let victim = deletion(after: number) {
                #expect(try store.deleteSamples(withUUIDs: try batch(victim).map(\.uuid)) == 11)
            }
            if number % 16 == 15 { try store.flush() }
            if number % 50 == 49 { try store.compact() }
        }
    }

    @Test("Concurrent readers always see whole transactions in writer order while a writer saves, deletes, flushes and compacts")
    func readersAndWriter() async throws {
        let path = StoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var options = HealthStore.Options()
        options.flushThreshold = 150
        options.chunkCapacity = 64
        // Start from a reopened store, so readers also race to load chunk files lazily.
        let prefilled = 60
        let first = try HealthStore.open(at: path, options: options)
        try Self.write(first, from: 0, to: prefilled)
        try first.close()
        let store = try HealthStore.open(at: path, options: options)

        let shared = Shared()
        let readers = 3
        let finished = DispatchGroup()
        for reader in 0..<readers {
            finished.enter()
            let thread = Thread {
                defer { finished.leave() }
                var kind = reader
                var lastSequence: Int64 = 0
                while !shared.stop.load(ordering: .relaxed) {
                    do {
                        try Self.read(store, kind: kind, shared: shared, lastSequence: &lastSequence)
                    } catch {
                        shared.report("a read failed: \(error)")
                    }
                    kind += 1
                }
            }
            thread.start()
        }
        // A long-running anchored query follows every change as the writer commits it.
        let followed = Mutex<(samples: Set<UUID>, deleted: Set<UUID>, sequence: Int64)>(([], [], 0))
        let follower = Task {
            for try await page in store.anchoredUpdates(AnchoredObjectQuery(quantityType: .stepCount)) {
                followed.withLock {
                    $0.samples.formUnion(page.samples.map(\.uuid))
                    $0.deleted.formUnion(page.deletedObjects.map(\.uuid))
                    $0.sequence = page.anchor.sequence
                }
            }
        }
        let total = 240
        let writeResult = Result { try Self.write(store, from: prefilled, to: total) }
        shared.stop.store(true, ordering: .relaxed)
        finished.wait()
        let final = store.snapshot().lastSequence
        for _ in 0..<500 where followed.withLock({ $0.sequence }) < final { try await Task.sleep(for: .milliseconds(10)) }
        follower.cancel()
        try writeResult.get()

        print("concurrency stress: \(shared.reads.load(ordering: .relaxed)) reads by \(readers) readers during \(total - prefilled) writer steps")
        #expect(shared.problems.withLock { $0 } == [])
        #expect(shared.reads.load(ordering: .relaxed) >= readers)
        let finalSteps = Set(try store.execute(SampleQuery(quantityType: .stepCount)).map(\.uuid))
        let expected = Set(0..<total).subtracting((0..<total).compactMap(Self.deletion(after:)))
        #expect(finalSteps.count == expected.count * 10)
        #expect(Self.isWriterState(Set(try store.execute(SampleQuery(quantityType: .heartRate)).map { Int($0.value) - 1 })))
        let (samples, deleted, sequence) = followed.withLock { ($0.samples, $0.deleted, $0.sequence) }
        #expect(sequence == final)
        #expect(samples.subtracting(deleted) == finalSteps)
        try store.close()
    }
}
