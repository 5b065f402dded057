//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// Sample queries over several types at once (<doc:HowCadenceComputes#Sample-queries>) against a naive reference: each part
/// filtered, ordered and limited on its own, then merged, ordered and limited.
@Suite("Queries over several types agree with the naive reference")
struct MergedSampleQueryTests {
    static let types: [QuantityType] = [.stepCount, .distanceWalkingRunning, .activeEnergyBurned]
    static let sources = ["Watch", "iPhone", "Scale"].map { Source(name: $0) }
    static let base: Int64 = 1_709_251_200_000_000  // 2024-03-01T00:00:00Z
    static let span: Int64 = 10 * 86_400

    /// Random samples of the three types with distinct start and distinct end instants, so that
    /// every order is fully determined, saved in several batches into a store of small chunks.
    static func makeStore(_ random: inout TestRandom) throws -> (HealthStore, [QuantitySample]) {
        let store = HealthStore.inMemory(chunkCapacity: 150, flushThreshold: 400)
        let count = 900
        var starts = Array(Set((0..<(count * 2)).map { _ in Int64.random(in: 0..<span, using: &random) })).shuffled(using: &random)
        starts = Array(starts.prefix(count))
        var ends = Set<Int64>()
        var samples: [QuantitySample] = []
        for start in starts {
            var end = start + Int64.random(in: 0...1_800, using: &random)
            while !ends.insert(end).inserted { end += 1 }
            samples.append(try QuantitySample(
                uuid: UUID(high: random.next(), low: random.next(), version: 4),
                type: types[Int.random(in: 0..<types.count, using: &random)], value: Double(Int.random(in: 1...500, using: &random)),
                start: Date(timestamp: base + start * 1_000_000), end: Date(timestamp: base + end * 1_000_000),
                source: sources[Int.random(in: 0..<sources.count, using: &random)]))
        }
        var saved = 0
        while saved < samples.count {
            let next = min(samples.count, saved + Int.random(in: 1...250, using: &random))
            try store.save(Array(samples[saved..<next]))
            saved = next
        }
        return (store, samples)
    }

    static func randomDescriptors(_ random: inout TestRandom) -> [SampleSortDescriptor] {
        let all: [SampleSortDescriptor] = [.startDate(ascending: true), .startDate(ascending: false),
                                           .endDate(ascending: true), .endDate(ascending: false)]
        return (0..<Int.random(in: 0...2, using: &random)).map { _ in all[Int.random(in: 0..<all.count, using: &random)] }
    }

    /// The naive order: the first descriptor that tells two samples apart decides (keys are distinct).
    static func precedes(_ descriptors: [SampleSortDescriptor]) -> (QuantitySample, QuantitySample) -> Bool {
        let descriptors = descriptors.isEmpty ? [.startDate(ascending: true)] : descriptors
        return { left, right in
            for descriptor in descriptors {
                switch descriptor {
                case .startDate(let ascending) where left.startDate != right.startDate:
                    return ascending == (left.startDate < right.startDate)
                case .endDate(let ascending) where left.endDate != right.endDate:
                    return ascending == (left.endDate < right.endDate)
                default: continue
                }
            }
            return false
        }
    }

    @Test("random parts, windows, sources, orders and limits", arguments: [1, 2, 3, 4] as [UInt64])
    func againstReference(seed: UInt64) throws {
        var random = TestRandom(seed: seed)
        let (store, samples) = try Self.makeStore(&random)
        for _ in 0..<40 {
            var parts: [SampleQuery<QuantitySample>] = []
            var expected: [QuantitySample] = []
            for type in Self.types.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)) {
                let lower = Self.base + Int64.random(in: 0..<Self.span, using: &random) * 1_000_000
                let upper = lower + Int64.random(in: 0...(3 * 86_400), using: &random) * 1_000_000
                let source = Self.sources[Int.random(in: 0..<Self.sources.count, using: &random)]
                let bySource = Bool.random(using: &random)
                var predicate = SamplePredicate.samples(start: Date(timestamp: lower), end: Date(timestamp: upper),
                                                        options: .strictStartDate)
                if bySource { predicate = predicate && .sources(named: [source.name]) }
                let limit = Bool.random(using: &random) ? 0 : Int.random(in: 1...30, using: &random)
                let descriptors = Self.randomDescriptors(&random)
                parts.append(SampleQuery(quantityType: type, predicate: predicate, limit: limit, sortDescriptors: descriptors))
                var selected = samples.filter { sample in
                    sample.quantityType == type && (!bySource || sample.source == source)
                        && sample.startDate.timestamp >= lower && sample.startDate.timestamp < upper
                }.sorted(by: Self.precedes(descriptors))
                if limit > 0 { selected = Array(selected.prefix(limit)) }
                expected += selected
            }
            let limit = Bool.random(using: &random) ? 0 : Int.random(in: 1...40, using: &random)
            let descriptors = Self.randomDescriptors(&random)
            expected.sort(by: Self.precedes(descriptors))
            if limit > 0 { expected = Array(expected.prefix(limit)) }
            let found = try store.execute(MergedSampleQuery(parts, limit: limit, sortDescriptors: descriptors))
            #expect(found.map(\.uuid) == expected.map(\.uuid))
        }
    }

    @Test("samples equal on every key come in the order they were saved, whatever their type")
    func tiesFollowSaveOrder() throws {
        let store = HealthStore.inMemory()
        let instant = Date(timeIntervalSince1970: 1_709_280_000)
        let steps = try QuantitySample(type: .stepCount, value: 10, start: instant, end: instant, source: Self.sources[0])
        let distance = try QuantitySample(type: .distanceWalkingRunning, value: 8, start: instant, end: instant, source: Self.sources[0])
        let energy = try QuantitySample(type: .activeEnergyBurned, value: 1, start: instant, end: instant, source: Self.sources[0])
        for sample in [distance, energy, steps] { try store.save([sample]) }
        let query = MergedSampleQuery(Self.types.map { SampleQuery(quantityType: $0) })
        #expect(try store.execute(query).map(\.uuid) == [distance.uuid, energy.uuid, steps.uuid])
        #expect(try store.execute(MergedSampleQuery<QuantitySample>([])).isEmpty)
    }

    @Test("correlations of two types come with their members, less a deleted one")
    func correlationsAreCompleted() throws {
        let store = HealthStore.inMemory()
        let cuff = Source(name: "Withings")
        let time = Date(timeIntervalSince1970: 1_714_564_800)
        let systolic = try QuantitySample(type: try QuantityType("bloodPressureSystolic"), value: 120, start: time, end: time, source: cuff)
        let diastolic = try QuantitySample(type: try QuantityType("bloodPressureDiastolic"), value: 80, start: time, end: time, source: cuff)
        let pressure = try Correlation(type: .bloodPressure, start: time, end: time, source: cuff, objects: [systolic, diastolic])
        let later = time.addingTimeInterval(3_600)
        let energy = try QuantitySample(type: try QuantityType("dietaryEnergyConsumed"), value: 104.6, start: later, end: later, source: cuff)
        let food = try Correlation(type: .food, start: later, end: later, source: cuff, objects: [energy])
        try store.save([food, pressure])
        try store.deleteSamples(withUUIDs: [diastolic.uuid])
        let found = try store.execute(MergedSampleQuery([SampleQuery(correlationType: .food), SampleQuery(correlationType: .bloodPressure)],
                                                        sortDescriptors: [.startDate(ascending: false)]))
        #expect(found.map(\.uuid) == [food.uuid, pressure.uuid])
        #expect(found.map { $0.objects.map(\.uuid) } == [[energy.uuid], [systolic.uuid]])
    }
}
