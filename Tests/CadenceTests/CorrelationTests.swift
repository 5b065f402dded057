//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// Correlations (<doc:HowCadenceComputes#Categories-workouts-and-correlations>): stored with their members' UUIDs, the members ordinary quantity
/// samples; sample and anchored queries against a naive reference.
@Suite("Correlations")
struct CorrelationTests {
    static let cuff = Source(name: "Withings")
    static let base = Date(timeIntervalSince1970: 1_714_564_800)

    static let systolic = QuantityType.known("bloodPressureSystolic")!
    static let diastolic = QuantityType.known("bloodPressureDiastolic")!

    /// A random blood pressure reading: a correlation of a systolic and a diastolic sample.
    static func reading(_ random: inout TestRandom) throws -> Correlation {
        let time = base.addingTimeInterval(Double(Int.random(in: 0..<(30 * 86_400), using: &random)))
        let high = try QuantitySample(uuid: UUID(high: random.next(), low: random.next(), version: 4), type: systolic,
                                      value: Double(Int.random(in: 100...160, using: &random)), start: time, end: time,
                                      source: cuff)
        let low = try QuantitySample(uuid: UUID(high: random.next(), low: random.next(), version: 4), type: diastolic,
                                     value: Double(Int.random(in: 60...100, using: &random)), start: time, end: time,
                                     source: cuff)
        return try Correlation(uuid: UUID(high: random.next(), low: random.next(), version: 4), type: .bloodPressure,
                               start: time, end: time, source: cuff, metadata: ["HKWasUserEntered": "1"],
                               objects: [high, low])
    }

    @Test("a sample query returns each correlation with its members; members stay quantity samples")
    func query() throws {
        var random = TestRandom(seed: 21)
        let store = HealthStore.inMemory(chunkCapacity: 16, flushThreshold: 40)
        let readings = try (0..<60).map { _ in try Self.reading(&random) }
        #expect(try store.save(readings).saved == 180)
        #expect(try store.save(readings).duplicates == 180)
        let sorted = readings.enumerated().sorted { ($0.element.startDate, $0.offset) < ($1.element.startDate, $1.offset) }.map(\.element)
        let answer = try store.execute(SampleQuery(correlationType: .bloodPressure))
        #expect(answer == sorted)
        #expect(answer.first?.objects(for: Self.systolic).count == 1)
        #expect(try store.execute(SampleQuery(quantityType: Self.systolic)).count == 60)
        #expect(store.correlationTypes == [.bloodPressure])

        // Deleting a correlation deletes it alone; deleting a member removes it from its correlation.
        let doomed = sorted[0]
        try store.deleteSamples(withUUIDs: [doomed.uuid])
        #expect(try store.execute(SampleQuery(quantityType: Self.systolic)).count == 60)
        let member = sorted[1].objects[0]
        try store.deleteSamples(withUUIDs: [member.uuid])
        let after = try store.execute(SampleQuery(correlationType: .bloodPressure))
        #expect(after.count == 59)
        #expect(after.first?.uuid == sorted[1].uuid)
        #expect(after.first?.objects.map(\.uuid) == [sorted[1].objects[1].uuid])
        #expect(after.first?.memberUUIDs == [sorted[1].objects[1].uuid])
        let limited = try store.execute(SampleQuery(correlationType: .bloodPressure,
                                                    predicate: .samples(start: sorted[10].startDate, end: nil, options: .strictStartDate),
                                                    limit: 5))
        #expect(limited == Array(sorted[10..<15]))
    }

    @Test("anchored queries page through correlation saves and deletes")
    func anchored() throws {
        var random = TestRandom(seed: 22)
        let store = HealthStore.inMemory()
        var current: [UUID: Correlation] = [:]
        var seen: [UUID: Correlation] = [:]
        var anchor: QueryAnchor?
        for _ in 0..<5 {
            let added = try (0..<Int.random(in: 1...20, using: &random)).map { _ in try Self.reading(&random) }
            try store.save(added)
            for reading in added { current[reading.uuid] = reading }
            let doomed = current.keys.sorted { $0.uuidString < $1.uuidString }.filter { _ in Bool.random(using: &random) }
            try store.deleteSamples(withUUIDs: doomed)
            for uuid in doomed { current[uuid] = nil }
            var page: AnchoredObjectQuery<Correlation>.Result
            repeat {
                page = try store.execute(AnchoredObjectQuery(correlationType: .bloodPressure, anchor: anchor, limit: 7))
                for correlation in page.samples { seen[correlation.uuid] = correlation }
                for deleted in page.deletedObjects { seen[deleted.uuid] = nil }
                anchor = page.anchor
            } while page.hasMore
            #expect(seen == current)
        }
    }
}
