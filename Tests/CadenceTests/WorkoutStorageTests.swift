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

/// Workouts stored as a sample kind: the attribute encoding round trip, the import of a real
/// export, and sample and anchored queries against a naive reference.
@Suite("Workouts are stored and queried")
struct WorkoutStorageTests {
    static let sources = ["Watch", "Strava", "iPhone"].map { Source(name: $0) }
    static let base: Int64 = 1_709_251_200_000_000  // 2024-03-01T00:00:00Z
    /// Known activity types, and unknown ones: a short name, and one too long for the head of the
    /// attributes to fit their first bytes.
    static let activities: [WorkoutActivityType] = [
        .running, .walking, .other, WorkoutActivityType("HKWorkoutActivityTypeFuture"),
        WorkoutActivityType("HKWorkoutActivityType" + String(repeating: "Underwater", count: 9)),
    ]

    /// A random workout, paused for part of its time in about one case in two; about one in three
    /// has events, statistics, an activity and a short route.
    static func randomWorkout(_ random: inout TestRandom) throws -> Workout {
        let start = base + Int64.random(in: 0..<(30 * 86_400), using: &random) * 1_000_000
        let length = Int64.random(in: 60...(3 * 3_600), using: &random) * 1_000_000
        let startDate = Date(timestamp: start)
        let active = Bool.random(using: &random) ? nil : Double(length / 1_000_000) * Double.random(in: 0.5...1, using: &random)
        var workout = try Workout(
            uuid: UUID(high: random.next(), low: random.next(), version: 4),
            activityType: activities[Int.random(in: 0..<activities.count, using: &random)], start: startDate,
            end: Date(timestamp: start + length), duration: active, source: sources[Int.random(in: 0..<3, using: &random)],
            totalEnergyBurned: Bool.random(using: &random) ? Double.random(in: 0...900, using: &random) : nil,
            totalDistance: Bool.random(using: &random) ? Double.random(in: 0...20_000, using: &random) : nil,
            metadata: Bool.random(using: &random) ? ["HKIndoorWorkout": "0"] : [:])
        guard Int.random(in: 0..<3, using: &random) == 0 else { return workout }
        workout.events = [WorkoutEvent(type: .pause, date: startDate.addingTimeInterval(30)),
                          WorkoutEvent(type: .segment, date: startDate, duration: 60, metadata: ["lap": "1"])]
        workout.statistics = [
            WorkoutStatistics(quantityType: .heartRate, average: 140, minimum: 90, maximum: 171, unit: .countPerMinute),
            WorkoutStatistics(quantityType: .unknown("HKQuantityTypeIdentifierFuture", unit: try HealthUnit("km")),
                              startDate: startDate, sum: 3.5, unit: try HealthUnit("km")),
        ]
        workout.activities = [WorkoutActivity(uuid: UUID(high: random.next(), low: random.next(), version: 4),
                                              activityType: .running, startDate: startDate, duration: 600,
                                              events: [WorkoutEvent(type: .lap, date: startDate)])]
        let points = (0..<Int.random(in: 0...20, using: &random)).map { index in
            LocationSeries.Location(timestamp: start + Int64(index) * 1_000_000, latitude: 47 + Double(index) / 1e4,
                                    longitude: 8.5, altitude: index.isMultiple(of: 2) ? .nan : 410, speed: 2.5)
        }
        workout.routes = [WorkoutRoute(source: workout.source, device: Device(name: "Apple Watch", model: "Watch"),
                                       startDate: startDate, metadata: ["HKMetadataKeySyncVersion": "2"],
                                       filePath: "/workout-routes/route.gpx", locations: LocationSeries(points))]
        return workout
    }

    @Test("the attribute encoding gives back every attribute, and refuses text that is not one")
    func encodingRoundTrip() throws {
        var random = TestRandom(seed: 7)
        for _ in 0..<40 {
            let workout = try Self.randomWorkout(&random)
            var decoded = try Workout(uuid: workout.uuid, activityType: .walking, start: workout.startDate,
                                      end: workout.endDate, source: workout.source, metadata: workout.metadata)
            try WorkoutAttributes.decode(WorkoutAttributes.encode(workout), into: &decoded)
            // The routes are the row's payload, apart from the text.
            #expect(decoded.routes.isEmpty)
            let payload = WorkoutAttributes.encodeRoutes(workout.routes)
            #expect(payload.isEmpty == workout.routes.isEmpty)
            decoded.routes = payload.isEmpty ? [] : try WorkoutAttributes.decodeRoutes(payload, path: "test")
            #expect(decoded == workout)
        }
        var workout = try Self.randomWorkout(&random)
        let text = WorkoutAttributes.encode(workout)
        #expect(throws: CadenceError.self) { try WorkoutAttributes.decode("not base64!", into: &workout) }
        var truncated = Data(base64Encoded: text) ?? Data()
        truncated.removeLast()
        #expect(throws: CadenceError.self) { try WorkoutAttributes.decode(truncated.base64EncodedString(), into: &workout) }
    }

    /// A store with small chunks holding random workouts (some flushed, some in the head), a random
    /// window of them deleted; returns it with the surviving workouts.
    static func makeStore(seed: UInt64) throws -> (HealthStore, [Workout]) {
        var random = TestRandom(seed: seed)
        let store = HealthStore.inMemory(chunkCapacity: 40, flushThreshold: 100)
        var reference: [Workout] = []
        for _ in 0..<5 {
            let batch = try (0..<Int.random(in: 1...60, using: &random)).map { _ in try randomWorkout(&random) }
            try store.save(batch)
            reference += batch
        }
        // Samples of other kinds beside them must not leak into workout answers.
        try store.save([QuantitySample(type: .stepCount, value: 5, start: Date(timestamp: base), end: Date(timestamp: base),
                                       source: sources[0])])
        let lower = base + Int64.random(in: 0..<(30 * 86_400), using: &random) * 1_000_000
        let upper = lower + 5 * 86_400_000_000
        let deleted = try store.deleteWorkouts(matching: .samples(start: Date(timestamp: lower), end: Date(timestamp: upper),
                                                                  options: .strictStartDate))
        let before = reference.count
        reference.removeAll { $0.startDate.timestamp >= lower && $0.startDate.timestamp < upper }
        #expect(deleted == before - reference.count)
        return (store, reference)
    }

    @Test("sample queries: date and source predicates, orders, limits", arguments: [1, 2] as [UInt64])
    func sampleQueries(seed: UInt64) throws {
        let (store, reference) = try Self.makeStore(seed: seed)
        var random = TestRandom(seed: seed &+ 100)
        for _ in 0..<20 {
            let lower = Self.base + Int64.random(in: 0..<(30 * 86_400), using: &random) * 1_000_000
            let upper = lower + Int64.random(in: 1...(10 * 86_400), using: &random) * 1_000_000
            let source = Self.sources[Int.random(in: 0..<3, using: &random)].name
            let useSource = Bool.random(using: &random)
            var predicate = SamplePredicate.samples(start: Date(timestamp: lower), end: Date(timestamp: upper))
            if useSource { predicate = predicate && .sources(named: [source]) }
            let ascending = Bool.random(using: &random)
            let limit = Int.random(in: 0...15, using: &random)
            // Routes are read only when asked for.
            let routes = Bool.random(using: &random)
            let answer = try store.execute(SampleQuery(workoutsMatching: predicate, limit: limit,
                                                       sortDescriptors: [.startDate(ascending: ascending)],
                                                       includingRoutes: routes))
            // The naive reference: filter, then a stable sort on the start date (save order breaks ties).
            let expected = reference.filter {
                $0.endDate.timestamp >= lower && $0.startDate.timestamp < upper && (!useSource || $0.source.name == source)
            }.enumerated().sorted { left, right in
                left.element.startDate != right.element.startDate
                    ? (ascending == (left.element.startDate < right.element.startDate))
                    : left.offset < right.offset
            }.map(\.element).map { workout in
                var listed = workout
                if !routes { listed.routes = [] }
                return listed
            }
            #expect(answer == Array(limit > 0 ? expected.prefix(limit) : expected[...]))
        }
    }

    @Test("anchored queries page through saves and deletes, losing and repeating nothing")
    func anchoredPaging() throws {
        let (store, reference) = try Self.makeStore(seed: 4)
        var random = TestRandom(seed: 204)
        var current = Dictionary(uniqueKeysWithValues: reference.map { ($0.uuid, $0) })
        var seen: [UUID: Workout] = [:]
        var query = AnchoredObjectQuery(workoutsMatching: .all, includingRoutes: true)
        for round in 0..<5 {
            try store.pageChanges(&query, into: &seen, maxLimit: 40, random: &random, uuid: \.uuid)
            #expect(seen == current, "round \(round)")
            try store.changeAtRandom(&current, maxAdded: 20, deleteOneIn: 8, random: &random, uuid: \.uuid,
                                     make: Self.randomWorkout, save: { try store.save($0) })
        }
    }

    @Test("hkimport-export.xml stores its 61 workouts as read, and a re-import adds none")
    func importStoresWorkouts() throws {
        let path = try ImportFixtures.appleHealthFile("hkimport-export.xml")
        let read = Mutex<[Workout]>([])
        var importer = HealthDataImporter(store: .inMemory(), parallelism: 2)
        importer.workoutHandler = { workouts in read.withLock { $0 += workouts } }
        _ = try importer.importFile(atPath: path)
        let stored = try importer.store.execute(SampleQuery(workoutsMatching: .all, includingRoutes: true))
        #expect(stored.count == 61)
        #expect(Set(stored) == Set(read.withLock { $0 }))
        let before = try importer.store.execute(AnchoredObjectQuery(workoutsMatching: .all)).anchor
        let again = try importer.importFile(atPath: path)
        #expect(again.imported == 0)
        #expect(again.workouts == 61)
        let after = try importer.store.execute(AnchoredObjectQuery(workoutsMatching: .all, anchor: before))
        #expect(after.samples.isEmpty && after.deletedObjects.isEmpty)
        #expect(try importer.store.execute(SampleQuery(workoutsMatching: .all)).count == 61)
    }
}
