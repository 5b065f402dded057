//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// `StatisticsCollection.sources()` names every source whose samples the query selected, whatever
/// the aggregation style and options, from decoded rows and from blocks answered by summaries.
@Suite("A collection's sources")
struct CollectionSourcesTests {
    static let sources = ["Watch", "iPhone", "Polar"].map { Source(name: $0) }
    static let base = Date(timeIntervalSince1970: 1_709_251_200)  // 2024-03-01T00:00:00Z

    @Test("every source the predicate selects, for discrete and cumulative types, with and without separateBySource",
          arguments: [1, 2, 3] as [UInt64])
    func everySelectedSource(seed: UInt64) throws {
        var random = TestRandom(seed: seed)
        let store = HealthStore.inMemory(chunkCapacity: 120, flushThreshold: 300)
        var saved: [QuantitySample] = []
        for type in [QuantityType.heartRate, .stepCount] {
            // Runs of one source, so that some blocks hold one source and others several.
            for _ in 0..<12 {
                let source = Self.sources[Int.random(in: 0..<Self.sources.count, using: &random)]
                let run = try (0..<Int.random(in: 1...80, using: &random)).map { _ in
                    let start = Self.base.addingTimeInterval(Double(Int.random(in: 0..<(20 * 86_400), using: &random)))
                    return try QuantitySample(type: type, value: Double(Int.random(in: 40...180, using: &random)),
                                              start: start, end: start.addingTimeInterval(Double(Int.random(in: 0...600, using: &random))),
                                              source: source)
                }
                try store.save(run)
                saved += run
            }
        }
        let utc = try TimeTestSupport.calendar("UTC")
        for _ in 0..<10 {
            let from = Self.base.addingTimeInterval(Double(Int.random(in: 0..<(20 * 86_400), using: &random)))
            let to = from.addingTimeInterval(Double(Int.random(in: 3_600...(8 * 86_400), using: &random)))
            let predicate = SamplePredicate.samples(start: from, end: to, options: .strictStartDate)
            for (type, statistics) in [(QuantityType.heartRate, StatisticsOptions.discreteAverage), (.stepCount, .cumulativeSum)] {
                let expected = Set(saved.filter { $0.quantityType == type && $0.startDate >= from && $0.startDate < to }.map(\.source))
                for separate in [false, true] {
                    let query = try StatisticsCollectionQuery(
                        quantityType: type, quantitySamplePredicate: predicate,
                        options: separate ? statistics.union(.separateBySource) : statistics,
                        anchorDate: Self.base, intervalComponents: .hours(6), calendar: utc)
                    #expect(try store.execute(query).sources() == expected, "\(type.shortIdentifier), separate: \(separate)")
                }
            }
        }
    }

    @Test("chunks of one source each, answered by their summaries, name that source once it contributes")
    func chunksOfOneSource() throws {
        let store = HealthStore.inMemory(chunkCapacity: 100_000, flushThreshold: 1_000_000)
        // Five days of one source, then the next five of another, every 5 seconds (blocks of one
        // hour), each flushed into chunks of its own: every daily interval is answered by block
        // summaries, without decoding a row.
        for (offset, source) in Self.sources.prefix(2).enumerated() {
            let first = Self.base.addingTimeInterval(Double(offset * 5 * 86_400))
            let samples = try (0..<(5 * 17_280)).map { index in
                let start = first.addingTimeInterval(Double(index * 5))
                return try QuantitySample(type: .heartRate, value: 60, start: start, end: start, source: source)
            }
            try store.save(samples)
            try store.flush()
        }
        let utc = try TimeTestSupport.calendar("UTC")
        for (days, expected) in [(0..<5, [0]), (5..<10, [1]), (3..<8, [0, 1])] {
            let predicate = SamplePredicate.samples(start: Self.base.addingTimeInterval(Double(days.lowerBound * 86_400)),
                                                    end: Self.base.addingTimeInterval(Double(days.upperBound * 86_400)))
            let query = try StatisticsCollectionQuery(quantityType: .heartRate, quantitySamplePredicate: predicate,
                                                      options: .discreteMax, anchorDate: Self.base,
                                                      intervalComponents: .days(1), calendar: utc)
            #expect(try store.execute(query).sources() == Set(expected.map { Self.sources[$0] }), "days \(days)")
        }
    }
}
