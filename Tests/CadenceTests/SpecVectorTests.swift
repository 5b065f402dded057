//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// The six test vectors of <doc:HowCadenceComputes#Worked-examples>, end to end through a store.
@Suite("Worked examples of How Cadence computes")
struct SpecVectorTests {
    let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        return calendar
    }()

    func sample(_ type: QuantityType, _ start: String, _ end: String, _ value: Double, source: String = "Phone",
                device: Device? = nil) throws -> QuantitySample {
        try QuantitySample(type: type, value: value, start: date(start), end: date(end), source: Source(name: source),
                           device: device)
    }

    @Test("1. Hourly sum with proration and a predicate that selects without cutting")
    func hourlyProratedSum() throws {
        let store = HealthStore.inMemory()
        try store.save([
            try sample(.stepCount, "2024-05-01T13:24:00Z", "2024-05-01T14:36:00Z", 80),
            try sample(.stepCount, "2024-05-01T13:57:00Z", "2024-05-01T14:02:00Z", 100),
            try sample(.stepCount, "2024-05-01T14:30:00Z", "2024-05-01T14:42:00Z", 200),
            try sample(.stepCount, "2024-05-01T14:55:00Z", "2024-05-01T15:07:00Z", 120),
            try sample(.stepCount, "2024-05-01T15:44:00Z", "2024-05-01T15:51:00Z", 999),
        ])
        let query = try StatisticsCollectionQuery(
            quantityType: .stepCount,
            quantitySamplePredicate: .samples(start: date("2024-05-01T14:00:00Z"), end: date("2024-05-01T15:00:00Z")),
            options: .cumulativeSum, anchorDate: date("2024-05-01T00:00:00Z"), intervalComponents: .hours(1),
            calendar: utc)
        let collection = try store.execute(query)
        #expect(collection.sources() == [Source(name: "Phone")])
        let result = collection.statistics()
        #expect(result.map(\.startDate) == [date("2024-05-01T13:00:00Z"), date("2024-05-01T14:00:00Z"), date("2024-05-01T15:00:00Z")])
        let sums = result.map { $0.sumQuantity()?.value ?? -1 }
        // 13:00 gets 80·36/72 + 100·3/5 = 100; 14:00 gets 40 + 40 + 200 + 50 = 330; 15:00 gets 70. S5 is not selected.
        #expect(nearlyEqual(sums[0], 100) && nearlyEqual(sums[1], 330) && nearlyEqual(sums[2], 70))
    }

    @Test("2. Source merge: Watch 600 + iPhone's uncovered half 250 = 850")
    func sourceMerge() throws {
        let store = HealthStore.inMemory()
        let watch = Device(description: "<<HKDevice: 0x1>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.1>")
        let phone = Device(description: "<<HKDevice: 0x2>, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,2, software:17.1>")
        try store.save([
            try sample(.stepCount, "2024-05-01T10:05:00Z", "2024-05-01T10:15:00Z", 500, source: "iPhone", device: phone),
            try sample(.stepCount, "2024-05-01T10:00:00Z", "2024-05-01T10:10:00Z", 600, source: "Watch", device: watch),
        ])
        let merged = try store.execute(StatisticsQuery(quantityType: .stepCount, options: .cumulativeSum))
        #expect(nearlyEqual(merged.sumQuantity()?.value, 850))
        let separate = try store.execute(StatisticsQuery(quantityType: .stepCount, options: [.cumulativeSum, .separateBySource]))
        #expect(nearlyEqual(separate.sumQuantity(for: Source(name: "Watch"))?.value, 600))
        #expect(nearlyEqual(separate.sumQuantity(for: Source(name: "iPhone"))?.value, 500))
        #expect(nearlyEqual(separate.sumQuantity()?.value, 850))
        #expect(separate.sources?.map(\.name) == ["Watch", "iPhone"])
    }

    @Test("3. Body mass 70.0, 71.0, 72.5 kg in one day")
    func discreteArithmetic() throws {
        let store = HealthStore.inMemory()
        try store.save([
            try sample(.bodyMass, "2024-05-01T07:00:00Z", "2024-05-01T07:00:00Z", 70.0),
            try sample(.bodyMass, "2024-05-01T12:00:00Z", "2024-05-01T12:00:00Z", 71.0),
            try sample(.bodyMass, "2024-05-01T20:00:00Z", "2024-05-01T20:00:00Z", 72.5),
        ])
        let query = try StatisticsCollectionQuery(
            quantityType: .bodyMass, options: [.discreteAverage, .discreteMin, .discreteMax],
            anchorDate: date("2024-01-01T00:00:00Z"), intervalComponents: .days(1), calendar: utc)
        let day = try #require(try store.execute(query).statistics().first)
        #expect(nearlyEqual(day.averageQuantity()?.value, 71.166666666666667))
        #expect(day.minimumQuantity()?.value == 70.0)
        #expect(day.maximumQuantity()?.value == 72.5)
    }

    @Test("4. Daily intervals anchored 03:00 America/New_York across the spring-forward day")
    func dstDay() throws {
        var newYork = Calendar(identifier: .gregorian)
        newYork.timeZone = try timeZone(named: "America/New_York")
        let store = HealthStore.inMemory()
        try store.save([try sample(.stepCount, "2024-03-10T01:00:00-05:00", "2024-03-10T01:00:00-05:00", 10)])
        let query = try StatisticsCollectionQuery(
            quantityType: .stepCount, options: .cumulativeSum, anchorDate: date("2024-01-01T03:00:00-05:00"),
            intervalComponents: .days(1), calendar: newYork)
        let collection = try store.execute(query)
        let interval = try #require(collection.statistics(for: date("2024-03-10T01:00:00-05:00")))
        #expect(interval.startDate == date("2024-03-09T03:00:00-05:00"))
        #expect(interval.endDate == date("2024-03-10T03:00:00-04:00"))
        #expect(interval.endDate.timeIntervalSince(interval.startDate) == 23 * 3600)
        let next = try #require(collection.statistics(for: date("2024-03-10T12:00:00-04:00")))
        #expect(next.endDate.timeIntervalSince(next.startDate) == 24 * 3600)
    }

    @Test("5. Monthly intervals anchored Jan 31 start Jan 31, Feb 29, Mar 31")
    func monthEnds() throws {
        let store = HealthStore.inMemory()
        try store.save([try sample(.stepCount, "2024-02-15T00:00:00Z", "2024-02-15T00:00:00Z", 1)])
        let query = try StatisticsCollectionQuery(
            quantityType: .stepCount, options: .cumulativeSum, anchorDate: date("2024-01-31T00:00:00Z"),
            intervalComponents: .months(1), calendar: utc)
        let starts = try store.execute(query).statistics(from: date("2024-01-31T00:00:00Z"), to: date("2024-03-31T00:00:00Z"))
            .map(\.startDate)
        #expect(starts == [date("2024-01-31T00:00:00Z"), date("2024-02-29T00:00:00Z"), date("2024-03-31T00:00:00Z")])
    }

    @Test("6. Enumerating hourly from 10:30 to 13:00 gives four intervals")
    func enumerateInclusive() throws {
        let store = HealthStore.inMemory()
        try store.save([try sample(.stepCount, "2024-05-01T11:10:00Z", "2024-05-01T11:20:00Z", 30)])
        let query = try StatisticsCollectionQuery(
            quantityType: .stepCount, options: .cumulativeSum, anchorDate: date("2024-05-01T00:00:00Z"),
            intervalComponents: .hours(1), calendar: utc)
        let intervals = try store.execute(query).statistics(from: date("2024-05-01T10:30:00Z"), to: date("2024-05-01T13:00:00Z"))
        #expect(intervals.map(\.startDate) == ["10", "11", "12", "13"].map { date("2024-05-01T\($0):00:00Z") })
        #expect(intervals.map { $0.sumQuantity()?.value } == [nil, 30, nil, nil])
    }

    @Test("dBASPL: 60 dB and 80 dB, one minute each, average 77.03 dB")
    func equivalentContinuousLevel() throws {
        let store = HealthStore.inMemory()
        let audio = try QuantityType("environmentalAudioExposure")
        try store.save([
            try sample(audio, "2024-05-01T10:00:00Z", "2024-05-01T10:01:00Z", 60),
            try sample(audio, "2024-05-01T10:01:00Z", "2024-05-01T10:02:00Z", 80),
        ])
        let result = try store.execute(StatisticsQuery(quantityType: audio, options: .discreteAverage))
        #expect(abs((result.averageQuantity()?.value ?? 0) - 77.0329) < 1e-3)
    }

    @Test("Invalid options are rejected when the query is created")
    func invalidOptions() throws {
        #expect(throws: CadenceError.self) { try StatisticsQuery(quantityType: .heartRate, options: .cumulativeSum) }
        #expect(throws: CadenceError.self) { try StatisticsQuery(quantityType: .stepCount, options: .discreteAverage) }
        let empty = try StatisticsQuery(quantityType: .stepCount, options: [])
        #expect(try HealthStore.inMemory().execute(empty).sumQuantity() == nil)
    }
}
