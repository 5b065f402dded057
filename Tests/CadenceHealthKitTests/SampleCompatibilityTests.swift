//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import CadenceHealthKit
import Foundation
import Testing

/// The HealthKit-style sample, anchored and observer code of `HealthKitStyle/` gives what the
/// Cadence API gives.
@Suite("HealthKit-style samples and changes")
struct SampleCompatibilityTests {
    @Test("the sleep log (compound predicate, end-date sort, limit) equals the Cadence sample query")
    func sleepLog() async throws {
        let fixture = HealthFixture()
        var random = HealthFixture.Random(state: 5)
        try fixture.saveSleep(&random)
        let from = HealthFixture.date(day: 3, hour: 0)
        let to = HealthFixture.date(day: 10, hour: 0)
        let log = SleepLog(healthStore: HKHealthStore(store: fixture.store))
        let entries = try await completion { log.loadLatest(15, from: from, to: to, completion: $0) }

        let expected = try fixture.store.execute(SampleQuery(
            categoryType: .sleepAnalysis,
            predicate: .samples(start: from, end: to) && .categoryValue(in: [1, 3, 4, 5]),
            limit: 15, sortDescriptors: [.endDate(ascending: false)]))
        #expect(entries.map(\.uuid) == expected.map(\.uuid))
        #expect(entries.map(\.stage?.rawValue) == expected.map(\.value))
        #expect(entries.count == 15)
        #expect(entries.allSatisfy { $0.stage != .inBed && $0.stage != .awake })
        #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.end >= $1.end })
    }

    @Test("an anchored sync sends additions and deletions once, across an archived anchor, as the Cadence anchored query does")
    func anchoredSync() async throws {
        let fixture = HealthFixture()
        var random = HealthFixture.Random(state: 6)
        try fixture.saveSteps(&random)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-hk-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let anchorFile = directory.appendingPathComponent("steps.anchor")
        let healthStore = HKHealthStore(store: fixture.store)

        let first = try await completion { StepSync(healthStore: healthStore, anchorFile: anchorFile).sync(completion: $0) }
        let all = try fixture.store.execute(AnchoredObjectQuery(quantityType: .stepCount))
        #expect(first.added == all.samples.map(\.uuid))
        #expect(first.deleted.isEmpty)
        #expect(FileManager.default.fileExists(atPath: anchorFile.path))

        // Changes after the first sync: a few deletions and a new walk saved through the HealthKit API.
        let doomed = Array(all.samples.prefix(5).map(\.uuid))
        try #require(try fixture.store.deleteSamples(withUUIDs: doomed) == 5)
        let walk = HKQuantitySample(type: HKQuantityType(.stepCount), quantity: HKQuantity(unit: .count(), doubleValue: 321),
                                    start: HealthFixture.date(day: 5, hour: 9), end: HealthFixture.date(day: 5, hour: 9.25))
        try await healthStore.save(walk)

        // A new sync object, as after a restart: it reads the archived anchor.
        let second = try await completion { StepSync(healthStore: healthStore, anchorFile: anchorFile).sync(completion: $0) }
        let since = try fixture.store.execute(AnchoredObjectQuery(quantityType: .stepCount, anchor: all.anchor))
        #expect(second.added == since.samples.map(\.uuid))
        #expect(second.added == [walk.uuid])
        #expect(second.deleted == since.deletedObjects.map(\.uuid))
        #expect(Set(second.deleted) == Set(doomed))

        let third = try await completion { StepSync(healthStore: healthStore, anchorFile: anchorFile).sync(completion: $0) }
        #expect(third.added.isEmpty && third.deleted.isEmpty)
    }

    @Test("an archived anchor unarchives equal, and another store's anchor is reported to the handler")
    func anchorArchiving() async throws {
        let fixture = HealthFixture()
        var random = HealthFixture.Random(state: 7)
        try fixture.saveSteps(&random)
        let healthStore = HKHealthStore(store: fixture.store)
        let page = try await HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: HKQuantityType(.stepCount))],
                                                             anchor: nil, limit: 10).result(for: healthStore)
        #expect(page.addedSamples.count == 10)
        let data = try NSKeyedArchiver.archivedData(withRootObject: page.newAnchor, requiringSecureCoding: true)
        let back = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data))
        #expect(back == page.newAnchor)

        let other = HKHealthStore(store: HealthStore.inMemory())
        let error: (any Error)? = await withCheckedContinuation { continuation in
            other.execute(HKAnchoredObjectQuery(type: HKQuantityType(.stepCount), predicate: nil, anchor: back, limit: 0) {
                _, _, _, _, error in continuation.resume(returning: error)
            })
        }
        #expect((error as? CadenceError)?.code == .foreignAnchor)
    }

    @Test("an observer query fires once at the start, once per save of its type, and not after stop")
    func observer() async throws {
        let fixture = HealthFixture()
        let healthStore = HKHealthStore(store: fixture.store)
        let observer = StepObserver(healthStore: healthStore)
        let (notifications, continuation) = AsyncStream.makeStream(of: Void.self)
        let query = observer.start { continuation.yield() }
        var iterator = notifications.makeAsyncIterator()
        await iterator.next()

        try await observer.recordWalk(steps: 500, start: HealthFixture.date(day: 0, hour: 9), end: HealthFixture.date(day: 0, hour: 9.5))
        await iterator.next()
        // Another type's save does not notify; the next step save does.
        var random = HealthFixture.Random(state: 8)
        _ = try fixture.saveBodyMass(&random)
        try await observer.recordWalk(steps: 700, start: HealthFixture.date(day: 1, hour: 9), end: HealthFixture.date(day: 1, hour: 9.5))
        await iterator.next()
        observer.stop(query)
        try await observer.recordWalk(steps: 900, start: HealthFixture.date(day: 2, hour: 9), end: HealthFixture.date(day: 2, hour: 9.5))
        try await Task.sleep(for: .milliseconds(200))
        continuation.finish()
        var late = 0
        while await iterator.next() != nil { late += 1 }
        #expect(late == 0)
        let saved = try fixture.store.execute(SampleQuery(quantityType: .stepCount))
        #expect(saved.map(\.value) == [500, 700, 900])
        #expect(saved.allSatisfy { $0.source.name == HKSource.default().name })
    }

    @Test("blood pressure correlations with a systolic samplePredicate equal the Cadence correlation query")
    func highBloodPressure() async throws {
        let fixture = HealthFixture()
        var random = HealthFixture.Random(state: 13)
        let readings = try fixture.saveBloodPressure(&random)
        let log = HighBloodPressureLog(healthStore: HKHealthStore(store: fixture.store))
        let high = try await completion { log.loadHighReadings(completion: $0) }

        let systolic = try QuantityType("bloodPressureSystolic")
        let diastolic = try QuantityType("bloodPressureDiastolic")
        let expected = try fixture.store.execute(CorrelationQuery(
            type: .bloodPressure,
            samplePredicates: [systolic: .quantity(.greaterThanOrEqual, Quantity(value: 140, unit: .millimeterOfMercury))]))
        #expect(high.map(\.uuid) == expected.map(\.uuid))
        #expect(high.map(\.systolic) == expected.map { $0.objects(for: systolic).first?.value ?? -1 })
        #expect(high.map(\.diastolic) == expected.map { $0.objects(for: diastolic).first?.value ?? -1 })
        // The naive reference: readings whose systolic member is 140 or more, in start order.
        let naive = readings.filter { ($0.objects(for: systolic).first?.value ?? 0) >= 140 }.map(\.uuid)
        #expect(Set(high.map(\.uuid)) == Set(naive))
        #expect(!high.isEmpty && high.count < readings.count)
    }
}
