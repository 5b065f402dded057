//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// Where rows are cut into blocks and chunks (`ColumnCodec.blockBoundaries`,
/// `ColumnCodec.chunkBoundaries`): regular data keeps whole hours in blocks and chunks, with no
/// hour summaries, and answers as the naive reference.
@Suite("Block and chunk boundaries")
struct BlockBoundaryTests {
    static let hour = HourSummaries.hour
    static let base: Int64 = 1_730_592_000_000_000  // 2024-11-03T00:00Z

    /// A heart rate every 5 seconds (720 an hour) from `skipped` rows into the hour at ``base``.
    static func dense(rows: Int, skipped: Int) throws -> (QuantitySampleBatch, [ReferenceSample]) {
        var batch = QuantitySampleBatch(type: .heartRate)
        _ = batch.addProvenance(Provenance(source: Source(name: "Watch")))
        var samples: [ReferenceSample] = []
        for row in 0..<rows {
            let start = base + Int64(skipped + row) * 5_000_000
            let value = 60 + Double((row * 7) % 53)
            try batch.append(startTimestamp: start, endTimestamp: start, value: value, provenanceIndex: 0)
            samples.append(ReferenceSample(start: start, end: start, value: value, source: "Watch", rank: 0,
                                           sequence: Int64(row + 1)))
        }
        return (batch, samples)
    }

    /// ``dense(rows:skipped:)`` saved and flushed into a store of 7,200-row chunks, with the
    /// heart-rate type's snapshot.
    static func flushedDense(rows: Int, skipped: Int) throws -> (HealthStore, TypeSnapshot, [ReferenceSample]) {
        let (batch, samples) = try dense(rows: rows, skipped: skipped)
        let store = HealthStore.inMemory(chunkCapacity: 7_200, flushThreshold: 100_000)
        try store.save(batch)
        try store.flush()
        let type = try #require(store.snapshot().types[QuantityType.heartRate.identifier])
        return (store, type, samples)
    }

    @Test("A dense chunk starting late in an hour has that hour's tail as its first block and no hour summaries, and its hourly answers equal the reference")
    func lateStartNeedsNoHourSummaries() throws {
        // 220 rows of the first hour, then whole hours; chunks of 7,200 rows cut mid-hour, each
        // the next starting 500 rows into its hour.
        let (store, type, samples) = try Self.flushedDense(rows: 720 * 30, skipped: 500)
        #expect(type.chunks.count == 3)
        for chunk in type.chunks {
            let file = try chunk.file()
            #expect(file.hourSummaries == nil)
            #expect(file.blocks.first?.count == 220)
            for block in file.blocks {
                #expect(TimestampArithmetic.floorDivide(block.minimumStart, Self.hour)
                        == TimestampArithmetic.floorDivide(block.maximumStart, Self.hour))
            }
        }
        let calendar = try TimeTestSupport.calendar("UTC")
        let query = try StatisticsCollectionQuery(quantityType: .heartRate, options: [.discreteAverage, .discreteMin, .discreteMax, .mostRecent],
                                                  anchorDate: Date(timestamp: Self.base), intervalComponents: .hours(1),
                                                  calendar: calendar)
        let statistics = try store.execute(query).statistics()
        #expect(statistics.count == 31)
        for interval in statistics {
            let expected = ReferenceInterval(samples: samples, start: interval.startDate.timestamp, end: interval.endDate.timestamp,
                                             style: QuantityType.heartRate.aggregationStyle, mergesSources: false)
            #expect(expected.count > 0)
            #expect(nearlyEqual(interval.averageQuantity()?.value, expected.average))
            #expect(interval.minimumQuantity()?.value == expected.minimum)
            #expect(interval.maximumQuantity()?.value == expected.maximum)
            #expect(interval.mostRecentQuantity()?.value == expected.mostRecent)
        }
    }

    @Test("Chunks of regular data end on the hour edge within their last 1/64 of capacity, so the next starts on a whole hour")
    func chunksEndOnHourEdges() throws {
        // 100 rows into the first hour: 620 rows of it, then whole hours; 7,200 rows a chunk may
        // give back 112, so the first ends at 7,100 (an hour edge) and every later one holds ten hours.
        let (_, type, _) = try Self.flushedDense(rows: 720 * 30, skipped: 100)
        let files = try type.chunks.map { try $0.file() }
        #expect(files.map(\.summary.count) == [7_100, 7_200, 7_200, 100])
        for file in files.dropFirst() { #expect(file.summary.minimumStart % Self.hour == 0) }
        for file in files.dropFirst().dropLast() { #expect(file.blocks.map(\.count) == Array(repeating: 720, count: 10)) }
    }

    @Test("Chunk boundaries cover the rows in order, within capacity, ending at an hour edge in the last 1/64 when there is one",
          arguments: [UInt64(1), 2, 3, 4])
    func chunkBoundaryProperties(seed: UInt64) {
        var random = TestRandom(seed: seed)
        var columns = SampleColumns()
        var start = Self.base
        for _ in 0..<Int.random(in: 1...20_000, using: &random) {
            start += Int64.random(in: 0...(Bool.random(using: &random) ? 5 : 90), using: &random) * 1_000_000
            columns.append(start: start, end: start, value: 1, provenance: 0, sequence: Int64(columns.count + 1))
        }
        let capacity = Int.random(in: 1...5_000, using: &random)
        let ranges = ColumnCodec.chunkBoundaries(columns, capacity: capacity)
        func hour(_ row: Int) -> Int64 { TimestampArithmetic.floorDivide(columns.start[row], Self.hour) }
        #expect(ranges.first?.lowerBound == 0)
        #expect(ranges.last?.upperBound == columns.count)
        for (range, next) in zip(ranges, ranges.dropFirst()) {
            #expect(range.upperBound == next.lowerBound)
            let window = (range.upperBound - capacity / 64 + 1)..<(range.upperBound + 1)
            let edges = window.filter { hour($0) != hour($0 - 1) }
            #expect(edges.isEmpty ? range.count == capacity : range.upperBound == edges.last)
        }
        #expect(ranges.allSatisfy { !$0.isEmpty && $0.count <= capacity })
    }
}
