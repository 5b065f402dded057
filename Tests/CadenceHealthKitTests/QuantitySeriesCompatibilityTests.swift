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

/// HealthKit's quantity series query, written as HealthKit code writes it.
@Suite("HKQuantitySeriesSampleQuery")
struct QuantitySeriesCompatibilityTests {
    /// One entry the handler received.
    struct Received: Sendable, Equatable {
        var value: Double?
        var interval: DateInterval?
        var sample: UUID?
        var done: Bool
    }

    final class Collector: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [Received] = []
        func add(_ item: Received) { lock.withLock { items.append(item) } }
        var received: [Received] { lock.withLock { items } }
    }

    @Test("Entries come per call, grouped by sample when asked, then one call with done")
    func entriesThenDone() async throws {
        let store = HealthStore.inMemory()
        let start = HealthFixture.date(day: 0, hour: 9)
        var builder = try QuantitySeriesSampleBuilder(type: .stepCount, start: start, end: start.addingTimeInterval(180))
        for minute in 0..<3 {
            try builder.insert(Quantity(value: Double(10 + minute), unit: .count),
                               dateInterval: DateInterval(start: start.addingTimeInterval(Double(minute) * 60), duration: 60))
        }
        let series = try builder.finishSeries(source: HealthFixture.watch)
        try store.save(series)
        let plain = try QuantitySample(type: .stepCount, value: 5, start: start.addingTimeInterval(-60), end: start,
                                       source: HealthFixture.phone)
        try store.save([plain])

        let collector = Collector()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let query = HKQuantitySeriesSampleQuery(quantityType: HKQuantityType(.stepCount), predicate: nil) {
                _, quantity, interval, sample, done, _ in
                collector.add(Received(value: quantity?.doubleValue(for: .count()), interval: interval, sample: sample?.uuid,
                                       done: done))
                if done { continuation.resume() }
            }
            query.includeSample = true
            query.orderByQuantitySampleStartDate = true
            HKHealthStore(store: store).execute(query)
        }
        let received = collector.received
        #expect(received.map(\.value) == [5, 10, 11, 12, nil])
        #expect(received.map(\.sample) == [plain.uuid, series.sample.uuid, series.sample.uuid, series.sample.uuid, nil])
        #expect(received.map(\.done) == [false, false, false, false, true])
    }
}
