//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// <doc:HowCadenceComputes#Predicates> predicates beyond dates and sources, sample-query ordering, and the long-running queries.
@Suite("Predicates, sample queries and long-running queries")
struct PredicateAndLongRunningTests {
    static let watch = Device(description: "<<HKDevice: 0x1>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.1>")

    static func store() throws -> (HealthStore, [QuantitySample]) {
        let store = HealthStore.inMemory()
        let base = date("2024-05-01T10:00:00Z")
        var samples: [QuantitySample] = []
        for index in 0..<12 {
            let start: Date = base.addingTimeInterval(Double(index) * 600)
            let end: Date = start.addingTimeInterval(Double(index % 3) * 60)
            let isWatch = index % 2 == 0
            let motion: String = String(index % 8 / 4)
            let metadata: [String: String] = index % 4 == 0 ? ["HKMetadataKeyHeartRateMotionContext": motion] : [:]
            samples.append(try QuantitySample(type: .heartRate, value: Double(60 + index * 5), start: start, end: end,
                                              source: Source(name: isWatch ? "Watch" : "Strap"), device: isWatch ? watch : nil,
                                              metadata: metadata))
        }
        try store.save(samples)
        return (store, samples)
    }

    @Test("Device, metadata, quantity, UUID, and/or/not predicates select what How Cadence computes: Predicates says", arguments: [
        // Each case: a predicate and the plain-Swift condition it must agree with.
        "model", "metadataExists", "metadataEquals", "metadataCompares", "quantity", "uuid", "or", "not",
    ])
    func predicates(name: String) throws {
        let (store, samples) = try Self.store()
        let predicate: SamplePredicate
        let expected: (QuantitySample) -> Bool
        switch name {
        case "model":
            predicate = .devices(.model, in: ["Watch"])
            expected = { $0.device?.model == "Watch" }
        case "metadataExists":
            predicate = .metadata(keyExists: "HKMetadataKeyHeartRateMotionContext")
            expected = { $0.metadata["HKMetadataKeyHeartRateMotionContext"] != nil }
        case "metadataEquals":
            predicate = .metadata(key: "HKMetadataKeyHeartRateMotionContext", in: ["1"])
            expected = { $0.metadata["HKMetadataKeyHeartRateMotionContext"] == "1" }
        case "metadataCompares":
            predicate = .metadata(key: "HKMetadataKeyHeartRateMotionContext", .lessThan, 1)
            expected = { $0.metadata["HKMetadataKeyHeartRateMotionContext"] == "0" }
        case "quantity":
            // 1.5 Hz = 90 count/min: the right-hand quantity converts to the sample's unit.
            predicate = .quantity(.greaterThanOrEqual, Quantity(value: 1.5, unit: try HealthUnit("Hz")))
            expected = { $0.value >= 90 }
        case "uuid":
            let chosen = Set(samples.filter { Int($0.value) % 10 == 0 }.map(\.uuid))
            predicate = .uuids(chosen)
            expected = { chosen.contains($0.uuid) }
        case "or":
            predicate = .sources(named: ["Strap"]) || .quantity(.lessThan, Quantity(value: 70, unit: .countPerMinute))
            expected = { $0.source.name == "Strap" || $0.value < 70 }
        default:
            predicate = !.sources(named: ["Strap"])
            expected = { $0.source.name != "Strap" }
        }
        let listed = try store.execute(SampleQuery(quantityType: .heartRate, predicate: predicate))
        #expect(listed.map(\.uuid) == samples.filter(expected).map(\.uuid))
        let statistics = try store.execute(StatisticsQuery(quantityType: .heartRate, quantitySamplePredicate: predicate,
                                                           options: .discreteMax))
        #expect(statistics.maximumQuantity()?.value == samples.filter(expected).map(\.value).max())
    }

    @Test("A quantity predicate in an incompatible unit is rejected")
    func incompatiblePredicate() throws {
        #expect(throws: CadenceError.self) {
            try StatisticsQuery(quantityType: .heartRate,
                                quantitySamplePredicate: .quantity(.lessThan, Quantity(value: 1, unit: .kilogram)),
                                options: .discreteMax)
        }
    }

    @Test("Sample queries sort by several descriptors and honour the limit")
    func sorting() throws {
        let (store, samples) = try Self.store()
        let byEndDescending = try store.execute(SampleQuery(quantityType: .heartRate, limit: 5,
                                                            sortDescriptors: [.endDate(ascending: false), .startDate(ascending: true)]))
        let expected = samples.sorted { ($0.endDate, $1.startDate) > ($1.endDate, $0.startDate) }.prefix(5)
        #expect(byEndDescending.map(\.uuid) == expected.map(\.uuid))
        #expect(try store.execute(SampleQuery(quantityType: .heartRate)).map(\.startDate) == samples.map(\.startDate).sorted())
    }

    @Test("Long-running queries deliver one update per transaction touching their type, and none for others",
          .timeLimit(.minutes(1)))
    func longRunning() async throws {
        let store = HealthStore.inMemory()
        let query = try StatisticsCollectionQuery(quantityType: .stepCount, options: .cumulativeSum,
                                                  anchorDate: date("2024-05-01T00:00:00Z"), intervalComponents: .hours(1),
                                                  calendar: Calendar(identifier: .gregorian))
        var collectionUpdates = store.statisticsCollectionUpdates(query).makeAsyncIterator()
        var observer = store.observe([.stepCount]).makeAsyncIterator()
        var anchored = store.anchoredUpdates(AnchoredObjectQuery(quantityType: .stepCount)).makeAsyncIterator()
        // The initial results.
        #expect(try await collectionUpdates.next()?.collection.statistics().isEmpty == true)
        #expect(try await observer.next()?.quantityTypes == [.stepCount])
        #expect(try await anchored.next()?.samples.isEmpty == true)
        let steps = try QuantitySample(type: .stepCount, value: 100, start: date("2024-05-01T13:57:00Z"),
                                       end: date("2024-05-01T14:02:00Z"), source: Source(name: "Phone"))
        let heart = try QuantitySample(type: .heartRate, value: 60, start: date("2024-05-01T13:00:00Z"),
                                       end: date("2024-05-01T13:00:00Z"), source: Source(name: "Watch"))
        try store.save([heart])  // another type: no update
        try store.save([steps])
        let update = try #require(try await collectionUpdates.next())
        #expect(update.changedIntervals.map(\.start) == [date("2024-05-01T13:00:00Z"), date("2024-05-01T14:00:00Z")])
        #expect(update.collection.statistics().map { $0.sumQuantity()?.value } == [60, 40])
        #expect(try await observer.next()?.quantityTypes == [.stepCount])
        #expect(try await anchored.next()?.samples.map(\.uuid) == [steps.uuid])
        // A delete that empties an interval turns it to nil.
        try store.deleteSamples(withUUIDs: [steps.uuid])
        let afterDelete = try #require(try await collectionUpdates.next())
        #expect(afterDelete.collection.statistics().isEmpty)
        #expect(try afterDelete.collection.statistics(from: date("2024-05-01T13:30:00Z"), to: date("2024-05-01T13:30:00Z"))
            .first?.sumQuantity() == nil)
        #expect(try await anchored.next()?.deletedObjects.map(\.uuid) == [steps.uuid])
    }
}
