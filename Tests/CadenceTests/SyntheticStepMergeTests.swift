//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import Cadence

/// The realistic profile's iPhone and Watch record the same walks, so source-merged daily steps
/// look like one person's day (<doc:HowCadenceComputes#Merging-sources>).
@Suite("Synthetic steps from two devices")
struct SyntheticStepMergeTests {
    /// Daily step sums of four weeks: merged, and per source.
    static func dailySteps(seed: UInt64) throws -> [(merged: Double, watch: Double, phone: Double)] {
        let data = SyntheticHealthData(profile: .realistic, seed: seed, size: .days(28))
        let store = HealthStore.inMemory()
        try data.generate { batch in if batch.quantityType == .stepCount { _ = try store.save(batch) } }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let days = try store.execute(StatisticsCollectionQuery(
            quantityType: .stepCount, options: [.cumulativeSum, .separateBySource],
            anchorDate: SyntheticHealthData.defaultStartDate, intervalComponents: .days(1), calendar: calendar))
        let watch = SyntheticHealthData.watchProvenance.source
        let phone = SyntheticHealthData.phoneProvenance.source
        return days.statistics().map { day in
            (day.sumQuantity()?.value ?? 0, day.sumQuantity(for: watch)?.value ?? 0, day.sumQuantity(for: phone)?.value ?? 0)
        }
    }

    @Test("Merged daily steps stay near the Watch's own count, far below the two devices' sum", arguments: [1, 7, 42])
    func mergedStepsLookLikeOneDay(seed: UInt64) throws {
        let days = try Self.dailySteps(seed: seed)
        #expect(days.count == 28)
        for (index, day) in days.enumerated() {
            // The Watch ranks first; the iPhone adds only what it saw while the Watch was charging.
            #expect(day.merged >= day.watch - 1e-6, "day \(index)")
            #expect(day.merged <= 1.05 * max(day.watch, day.phone), "day \(index): \(day)")
            #expect(day.merged > 3_000 && day.merged < 30_000, "day \(index): \(day)")
        }
        // Naively adding the two devices would count most steps twice.
        let merged = days.reduce(0) { $0 + $1.merged }
        let naive = days.reduce(0) { $0 + $1.watch + $1.phone }
        #expect(merged < 0.75 * naive)
    }
}
