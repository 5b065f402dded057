//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// Correlation queries: the worked food and blood pressure examples, and random correlations
/// against a direct reading of the three rules on member conditions.
@Suite("Correlation queries")
struct CorrelationQueryTests {
    static let app = Source(name: "MyFitnessPal")
    static let base = Date(timeIntervalSince1970: 1_714_564_800)
    static let energy = QuantityType.known("dietaryEnergyConsumed")!
    static let protein = QuantityType.known("dietaryProtein")!
    static let fat = QuantityType.known("dietaryFatTotal")!
    static let systolic = QuantityType.known("bloodPressureSystolic")!
    static let diastolic = QuantityType.known("bloodPressureDiastolic")!

    static func member(_ type: QuantityType, _ value: Double, at time: Date, _ random: inout TestRandom) throws
        -> QuantitySample
    {
        try QuantitySample(uuid: UUID(high: random.next(), low: random.next(), version: 4), type: type, value: value,
                           start: time, end: time, source: app)
    }

    static func correlation(_ type: CorrelationType, _ members: [(QuantityType, Double)], at time: Date,
                            _ random: inout TestRandom) throws -> Correlation {
        try Correlation(uuid: UUID(high: random.next(), low: random.next(), version: 4), type: type, start: time,
                        end: time, source: app,
                        objects: members.map { try member($0.0, $0.1, at: time, &random) })
    }

    static func kcal(_ value: Double) -> Quantity { Quantity(value: value, unit: .kilocalorie) }

    @Test("the worked examples: food by energy and protein, blood pressure by systolic")
    func examples() throws {
        var random = TestRandom(seed: 5)
        let store = HealthStore.inMemory()
        let a = try Self.correlation(.food, [(Self.energy, 600), (Self.protein, 20)], at: Self.base, &random)
        let b = try Self.correlation(.food, [(Self.energy, 300), (Self.protein, 10)], at: Self.base + 60, &random)
        let c = try Self.correlation(.food, [(Self.energy, 700)], at: Self.base + 120, &random)
        let high = try Self.correlation(.bloodPressure, [(Self.systolic, 150), (Self.diastolic, 95)], at: Self.base, &random)
        let normal = try Self.correlation(.bloodPressure, [(Self.systolic, 120), (Self.diastolic, 80)], at: Self.base + 60,
                                          &random)
        try store.save([a, b, c, high, normal])

        func food(_ conditions: [QuantityType: SamplePredicate]) throws -> [UUID] {
            try store.execute(CorrelationQuery(type: .food, samplePredicates: conditions)).map(\.uuid)
        }
        let bigMeal = SamplePredicate.quantity(.greaterThanOrEqual, Self.kcal(500))
        #expect(try food([Self.energy: bigMeal, Self.protein: .all]) == [a.uuid])
        #expect(try food([Self.energy: bigMeal]) == [a.uuid, c.uuid])
        #expect(try food([Self.protein: .quantity(.greaterThanOrEqual, Quantity(value: 15, unit: .gram))]) == [a.uuid])
        #expect(try food([:]) == [a.uuid, b.uuid, c.uuid])
        let pressure = try store.execute(CorrelationQuery(type: .bloodPressure, samplePredicates: [
            Self.systolic: .quantity(.greaterThanOrEqual, Quantity(value: 140, unit: try HealthUnit("mmHg"))),
        ]))
        #expect(pressure.map(\.uuid) == [high.uuid])
        #expect(pressure.first?.objects.count == 2)
        // The predicate on the correlation itself narrows first.
        #expect(try store.execute(CorrelationQuery(type: .food, predicate: .samples(start: Self.base + 60, end: nil),
                                                   samplePredicates: [Self.energy: bigMeal])).map(\.uuid) == [c.uuid])

        #expect(throws: CadenceError.self) {
            try store.execute(CorrelationQuery(type: .food, samplePredicates: [Self.energy: .quantity(.greaterThan, Quantity(value: 1, unit: .meter))]))
        }
    }

    @Test("random food correlations select as the three rules read directly", arguments: [1, 2, 3, 4] as [UInt64])
    func againstRules(seed: UInt64) throws {
        var random = TestRandom(seed: seed)
        let store = HealthStore.inMemory(chunkCapacity: 8, flushThreshold: 20)
        let types = [Self.energy, Self.protein, Self.fat]
        let correlations = try (0..<80).map { index in
            let members = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                (types[Int.random(in: 0..<3, using: &random)], Double(Int.random(in: 0...10, using: &random)) * 100)
            }
            return try Self.correlation(.food, members, at: Self.base + Double(index) * 60, &random)
        }
        try store.save(correlations)
        // Some members are deleted: the rules apply to the members still stored.
        let doomed = correlations.flatMap(\.objects).enumerated().filter { $0.offset % 7 == 3 }.map(\.element.uuid)
        try store.deleteSamples(withUUIDs: doomed)

        for _ in 0..<12 {
            // Each chosen type: either any member (nil) or members at least some threshold.
            var thresholds: [QuantityType: Double?] = [:]
            for type in types where Bool.random(using: &random) {
                let threshold = Bool.random(using: &random) ? nil : Double(Int.random(in: 0...10, using: &random)) * 100
                thresholds.updateValue(threshold, forKey: type)
            }
            let conditions = Dictionary(uniqueKeysWithValues: thresholds.map { type, threshold in
                (type, threshold.map { SamplePredicate.quantity(.greaterThanOrEqual, Quantity(value: $0, unit: type.canonicalUnit)) }
                    ?? .all)
            })
            let expected = correlations.filter { correlation in
                thresholds.allSatisfy { type, threshold in
                    let members = correlation.objects.filter { $0.quantityType == type && !doomed.contains($0.uuid) }
                    return !members.isEmpty && members.allSatisfy { $0.value >= (threshold ?? -.infinity) }
                }
            }.map(\.uuid)
            let answer = try store.execute(CorrelationQuery(type: .food, samplePredicates: conditions)).map(\.uuid)
            #expect(answer == expected, "conditions \(thresholds)")
        }
    }
}
