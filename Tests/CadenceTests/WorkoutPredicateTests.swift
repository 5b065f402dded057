//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// Workout predicates (activity type, duration, energy, distance) composed with date, source and
/// UUID predicates, in sample queries, anchored queries and deletes, against a naive filter over
/// the random workouts of ``WorkoutStorageTests``; and long-running queries on workouts and
/// correlations.
@Suite("Workout predicates agree with a naive filter")
struct WorkoutPredicateTests {
    /// A condition as the library writes it and as a naive filter over workouts reads it.
    struct Condition {
        var predicate: SamplePredicate
        var matches: (Workout) -> Bool
        var text: String
    }

    static let comparisons: [SamplePredicate.Comparison] = [
        .lessThan, .lessThanOrEqual, .equal, .notEqual, .greaterThanOrEqual, .greaterThan,
    ]

    /// The comparison, written out rather than through the library.
    static func holds(_ comparison: SamplePredicate.Comparison, _ left: Double, _ right: Double) -> Bool {
        switch comparison {
        case .lessThan: left < right
        case .lessThanOrEqual: left <= right
        case .equal: left == right
        case .notEqual: left != right
        case .greaterThanOrEqual: left >= right
        case .greaterThan: left > right
        }
    }

    /// A number to compare a figure with: often one a workout has (so that equality and the
    /// bounds of each comparison are tried), else a random one in `range`.
    static func threshold(_ random: inout TestRandom, figures: [Double], range: ClosedRange<Double>) -> Double {
        if !figures.isEmpty && Bool.random(using: &random) { return figures[Int.random(in: 0..<figures.count, using: &random)] }
        return Double.random(in: range, using: &random)
    }

    /// A comparison of an optional figure with a quantity given in one of `units`: the threshold is
    /// drawn in `unit` (a workout's own figure, or a random one) and written in the other unit.
    static func figureCondition(_ random: inout TestRandom, name: String, workouts: [Workout],
                                figure: @escaping (Workout) -> Double?,
                                unit: HealthUnit, units: [HealthUnit], range: ClosedRange<Double>,
                                make: (SamplePredicate.Comparison, Quantity) -> SamplePredicate) throws -> Condition {
        let comparison = comparisons[Int.random(in: 0..<comparisons.count, using: &random)]
        let written = units[Int.random(in: 0..<units.count, using: &random)]
        let value = try unit.convert(threshold(&random, figures: workouts.compactMap(figure), range: range), to: written)
        let quantity = Quantity(value: value, unit: written)
        let bound = try quantity.doubleValue(for: unit)
        return Condition(predicate: make(comparison, quantity), matches: { workout in
            figure(workout).map { holds(comparison, $0, bound) } ?? false
        }, text: "\(name) \(comparison.rawValue) \(quantity)")
    }

    /// A random condition tree over workout, date, source and UUID conditions.
    static func randomCondition(_ random: inout TestRandom, workouts: [Workout], depth: Int = 2) throws -> Condition {
        switch Int.random(in: 0..<(depth > 0 ? 10 : 7), using: &random) {
        case 0:
            let types = WorkoutStorageTests.activities.filter { _ in Bool.random(using: &random) }
            return Condition(predicate: .workoutActivityType(in: types), matches: { types.contains($0.activityType) },
                             text: "activity in \(types.map(\.identifier.count))")
        case 1:
            let comparison = comparisons[Int.random(in: 0..<comparisons.count, using: &random)]
            let seconds = threshold(&random, figures: workouts.map(\.duration), range: 0...(3 * 3_600))
            return Condition(predicate: .workoutDuration(comparison, seconds),
                             matches: { holds(comparison, $0.duration, seconds) }, text: "duration \(comparison.rawValue) \(seconds)")
        case 2:
            return try figureCondition(&random, name: "energy", workouts: workouts, figure: \.totalEnergyBurned,
                                       unit: .kilocalorie, units: [.kilocalorie, try HealthUnit("kJ"), try HealthUnit("Cal")],
                                       range: 0...900, make: SamplePredicate.workoutTotalEnergyBurned)
        case 3:
            return try figureCondition(&random, name: "distance", workouts: workouts, figure: \.totalDistance,
                                       unit: .meter, units: [.meter, .kilometer, .mile], range: 0...20_000,
                                       make: SamplePredicate.workoutTotalDistance)
        case 4:
            let lower = Bool.random(using: &random)
                ? nil : WorkoutStorageTests.base + Int64.random(in: 0..<(30 * 86_400), using: &random) * 1_000_000
            let upper = Bool.random(using: &random)
                ? nil : (lower ?? WorkoutStorageTests.base) + Int64.random(in: 1...(20 * 86_400), using: &random) * 1_000_000
            let options = SamplePredicate.DateOptions(rawValue: Int.random(in: 0...3, using: &random))
            let first = options.contains(.strictStartDate) ? \Workout.startDate : \Workout.endDate
            let last = options.contains(.strictEndDate) ? \Workout.endDate : \Workout.startDate
            return Condition(predicate: .samples(start: lower.map(Date.init(timestamp:)), end: upper.map(Date.init(timestamp:)),
                                                 options: options),
                             matches: { workout in
                                 workout[keyPath: first].timestamp >= (lower ?? .min) && workout[keyPath: last].timestamp < (upper ?? .max)
                             }, text: "dates \(String(describing: lower))..<\(String(describing: upper)) \(options.rawValue)")
        case 5:
            let names = Set(WorkoutStorageTests.sources.map(\.name).filter { _ in Bool.random(using: &random) })
            return Condition(predicate: .sources(named: names), matches: { names.contains($0.source.name) },
                             text: "sources \(names.sorted())")
        case 6:
            let uuids = Set(workouts.map(\.uuid).filter { _ in Int.random(in: 0..<4, using: &random) == 0 })
            return Condition(predicate: .uuids(uuids), matches: { uuids.contains($0.uuid) }, text: "\(uuids.count) uuids")
        case 7:
            let left = try randomCondition(&random, workouts: workouts, depth: depth - 1)
            let right = try randomCondition(&random, workouts: workouts, depth: depth - 1)
            return Condition(predicate: left.predicate && right.predicate, matches: { left.matches($0) && right.matches($0) },
                             text: "(\(left.text) && \(right.text))")
        case 8:
            let left = try randomCondition(&random, workouts: workouts, depth: depth - 1)
            let right = try randomCondition(&random, workouts: workouts, depth: depth - 1)
            return Condition(predicate: left.predicate || right.predicate, matches: { left.matches($0) || right.matches($0) },
                             text: "(\(left.text) || \(right.text))")
        default:
            let inner = try randomCondition(&random, workouts: workouts, depth: depth - 1)
            return Condition(predicate: !inner.predicate, matches: { !inner.matches($0) }, text: "!\(inner.text)")
        }
    }

    @Test("sample queries select what the naive filter selects, in start order", arguments: [11, 12, 13] as [UInt64])
    func sampleQueries(seed: UInt64) throws {
        let (store, reference) = try WorkoutStorageTests.makeStore(seed: seed)
        var random = TestRandom(seed: seed &+ 300)
        var selectedSome = 0
        for _ in 0..<60 {
            let condition = try Self.randomCondition(&random, workouts: reference)
            let answer = try store.execute(SampleQuery(workoutsMatching: condition.predicate, includingRoutes: true))
            // Ascending start order, save order breaking ties.
            let expected = reference.enumerated().filter { condition.matches($0.element) }.sorted { left, right in
                left.element.startDate != right.element.startDate
                    ? left.element.startDate < right.element.startDate : left.offset < right.offset
            }.map(\.element)
            #expect(answer == expected, "\(condition.text)")
            if !expected.isEmpty && expected.count < reference.count { selectedSome += 1 }
        }
        // The conditions are not all trivially true or false.
        #expect(selectedSome > 10)
    }

    @Test("anchored queries with workout predicates page through saves and deletes", arguments: [21, 22] as [UInt64])
    func anchoredPaging(seed: UInt64) throws {
        let (store, reference) = try WorkoutStorageTests.makeStore(seed: seed)
        var random = TestRandom(seed: seed &+ 400)
        let condition = try Self.randomCondition(&random, workouts: reference, depth: 1)
        var current = Dictionary(uniqueKeysWithValues: reference.map { ($0.uuid, $0) })
        var seen: [UUID: Workout] = [:]
        var query = AnchoredObjectQuery(workoutsMatching: condition.predicate, includingRoutes: true)
        for round in 0..<6 {
            try store.pageChanges(&query, into: &seen, maxLimit: 25, random: &random, uuid: \.uuid)
            #expect(seen == current.filter { condition.matches($0.value) }, "round \(round): \(condition.text)")
            try store.changeAtRandom(&current, maxAdded: 20, deleteOneIn: 8, random: &random, uuid: \.uuid,
                                     make: WorkoutStorageTests.randomWorkout, save: { try store.save($0) })
        }
    }

    @Test("deleting by a workout predicate deletes what the naive filter selects", arguments: [31, 32, 33] as [UInt64])
    func deletes(seed: UInt64) throws {
        let (store, reference) = try WorkoutStorageTests.makeStore(seed: seed)
        var random = TestRandom(seed: seed &+ 500)
        var current = reference
        for _ in 0..<4 {
            let condition = try Self.randomCondition(&random, workouts: current, depth: 1)
            let deleted = try store.deleteWorkouts(matching: condition.predicate)
            let before = current.count
            current.removeAll(where: condition.matches)
            #expect(deleted == before - current.count, "\(condition.text)")
            #expect(Set(try store.execute(SampleQuery(workoutsMatching: .all, includingRoutes: true))) == Set(current))
        }
    }

    @Test("a workout predicate refuses another type, and a total compared in another dimension")
    func validation() throws {
        let (store, _) = try WorkoutStorageTests.makeStore(seed: 41)
        #expect {
            try store.execute(SampleQuery(workoutsMatching: .workoutTotalDistance(.greaterThan, Quantity(value: 1, unit: .kilocalorie))))
        } throws: { ($0 as? CadenceError)?.code == .incompatibleUnits }
        #expect {
            try store.execute(AnchoredObjectQuery(workoutsMatching: !.workoutTotalEnergyBurned(.lessThan, Quantity(value: 5, unit: .meter))))
        } throws: { ($0 as? CadenceError)?.code == .incompatibleUnits }
        #expect {
            try store.execute(SampleQuery(quantityType: .stepCount, predicate: .workoutDuration(.greaterThan, 60)))
        } throws: { ($0 as? CadenceError)?.code == .invalidArgument }
        #expect {
            try store.execute(SampleQuery(categoryType: .sleepAnalysis, predicate: .workoutActivityType(.running)))
        } throws: { ($0 as? CadenceError)?.code == .invalidArgument }
        #expect {
            try store.deleteSamples(of: .stepCount, matching: .all && .workoutActivityType(.walking))
        } throws: { ($0 as? CadenceError)?.code == .invalidArgument }
        #expect(try store.execute(SampleQuery(quantityType: .stepCount)).count == 1)
    }

    @Test("the head of the stored attributes is what a full decoding gives, whatever the name's length")
    func head() throws {
        var random = TestRandom(seed: 51)
        for _ in 0..<60 {
            let workout = try WorkoutStorageTests.randomWorkout(&random)
            let head = try WorkoutAttributes.head(of: WorkoutAttributes.encode(workout))
            #expect(head == WorkoutAttributes.Head(version: 2, 
                activityTypeIdentifier: workout.activityType.identifier, duration: workout.duration,
                totalEnergyBurned: workout.totalEnergyBurned, totalDistance: workout.totalDistance,
                totalSwimmingStrokeCount: workout.totalSwimmingStrokeCount, totalFlightsClimbed: workout.totalFlightsClimbed))
        }
        #expect(throws: CadenceError.self) { try WorkoutAttributes.head(of: String(repeating: "A", count: 400)) }
    }

    @Test("observers and long-running anchored queries hear of workout changes, and of correlation ones")
    func longRunning() async throws {
        let store = HealthStore.inMemory()
        var observer = store.observeWorkouts().makeAsyncIterator()
        var runs = store.anchoredUpdates(AnchoredObjectQuery(workoutsMatching: .workoutActivityType(.running)))
            .makeAsyncIterator()
        var pressures = store.observe([CorrelationType.bloodPressure]).makeAsyncIterator()
        #expect(try await observer.next()?.typeIdentifiers == [Workout.typeIdentifier])
        #expect(try await runs.next()?.samples.isEmpty == true)
        #expect(try await pressures.next()?.typeIdentifiers == [CorrelationType.bloodPressure.identifier])

        let start = Date(timestamp: WorkoutStorageTests.base)
        let source = WorkoutStorageTests.sources[0]
        try store.save([QuantitySample(type: .stepCount, value: 5, start: start, end: start, source: source)])  // heard by none
        let walk = try Workout(activityType: .walking, start: start, end: start.addingTimeInterval(600), source: source)
        let run = try Workout(activityType: .running, start: start.addingTimeInterval(900), end: start.addingTimeInterval(2_700),
                              source: source, totalDistance: 5_000)
        try store.save([walk])
        #expect(try await observer.next()?.typeIdentifiers == [Workout.typeIdentifier])
        try store.save([run])
        #expect(try await observer.next()?.typeIdentifiers == [Workout.typeIdentifier])
        // The walk's save changed nothing the running query selects: its next update is the run.
        #expect(try await runs.next()?.samples == [run])
        try store.deleteSamples(withUUIDs: [run.uuid])
        #expect(try await observer.next()?.typeIdentifiers == [Workout.typeIdentifier])
        #expect(try await runs.next()?.deletedObjects.map(\.uuid) == [run.uuid])

        let systolic = try QuantitySample(type: CorrelationTests.systolic, value: 120, start: start, end: start, source: source)
        let diastolic = try QuantitySample(type: CorrelationTests.diastolic, value: 80, start: start, end: start, source: source)
        let pressure = try Correlation(type: .bloodPressure, start: start, end: start, source: source,
                                       objects: [systolic, diastolic])
        try store.save([pressure])
        let heard = try #require(try await pressures.next())
        #expect(heard.typeIdentifiers == [CorrelationType.bloodPressure.identifier])
        try store.deleteSamples(withUUIDs: [pressure.uuid])
        #expect(try await pressures.next()?.typeIdentifiers == [CorrelationType.bloodPressure.identifier])
        // The correlation's transactions were not the workout observer's: its next one is this delete.
        try store.deleteWorkouts()
        let cleared = try #require(try await observer.next())
        #expect(cleared.typeIdentifiers == [Workout.typeIdentifier])
        #expect(cleared.anchor == (try store.execute(AnchoredObjectQuery(workoutsMatching: .all)).anchor))
    }
}
