//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import Cadence

/// Source priority lists per type beside the store-wide one (<doc:HowCadenceComputes#Merging-sources>).
@Suite("Source priority per type")
struct SourcePriorityTests {
    static let ten = Date(timeIntervalSince1970: 1_704_103_200)  // 2024-01-01 10:00 UTC

    /// The example of <doc:HowCadenceComputes#Merging-sources> for one type: Phone (saved first) 10:05–10:15 500, Watch 10:00–10:10 600.
    static func save(_ type: QuantityType, into store: HealthStore) throws {
        _ = try store.save([
            try QuantitySample(type: type, value: 500, start: ten + 300, end: ten + 900, source: Source(name: "Phone")),
            try QuantitySample(type: type, value: 600, start: ten, end: ten + 600, source: Source(name: "Watch")),
        ])
    }

    static func mergedSum(_ type: QuantityType, in store: HealthStore) throws -> Double? {
        try store.execute(StatisticsQuery(quantityType: type, options: .cumulativeSum)).sumQuantity()?.value
    }

    @Test("A type's own list ranks its sources; other types follow the store-wide list; both persist")
    func perTypeLists() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store").path
        let steps = QuantityType.stepCount
        let distance = try #require(QuantityType.known("distanceWalkingRunning"))
        do {
            let store = try HealthStore.open(at: path)
            try Self.save(steps, into: store)
            try Self.save(distance, into: store)
            // No list: sources rank in order of first appearance, Phone first: 500 + 600 × 5/10.
            #expect(try Self.mergedSum(steps, in: store) == 800)
            try store.setSourcePriority(["Phone", "Watch"])
            try store.setSourcePriority(["Watch", "Phone"], for: steps)
            #expect(try Self.mergedSum(steps, in: store) == 850, "the type's own list: 600 + 500 × 5/10")
            #expect(try Self.mergedSum(distance, in: store) == 800, "the store-wide list")
            try store.close()
        }
        let reopened = try HealthStore.open(at: path)
        #expect(reopened.sourcePriorities == SourcePriorities(storeWide: ["Phone", "Watch"],
                                                               byType: [steps.identifier: ["Watch", "Phone"]]))
        #expect(try Self.mergedSum(steps, in: reopened) == 850)
        // A list passed with the query wins over both.
        let query = try StatisticsQuery(quantityType: steps, options: .cumulativeSum, sourcePriority: ["Phone"])
        #expect(try reopened.execute(query).sumQuantity()?.value == 800)
        try reopened.setSourcePriority(nil, for: steps)
        #expect(try Self.mergedSum(steps, in: reopened) == 800, "without its own list the type follows the store-wide one")
        try reopened.close()
    }

    @Test("Collections follow the type's list too")
    func collectionsFollowTheTypeList() throws {
        let store = HealthStore.inMemory()
        try Self.save(.stepCount, into: store)
        try store.setSourcePriority(["Watch"], for: .stepCount)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let collection = try store.execute(StatisticsCollectionQuery(
            quantityType: .stepCount, options: .cumulativeSum, anchorDate: Self.ten, intervalComponents: .hours(1),
            calendar: calendar))
        #expect(collection.statistics(for: Self.ten)?.sumQuantity()?.value == 850)
    }
}
