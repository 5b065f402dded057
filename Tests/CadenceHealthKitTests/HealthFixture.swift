//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// A fixed, seeded month of a person's data from two sources (a watch and a phone that both
/// count steps), saved through the Cadence API: what the HealthKit-style code reads back.
struct HealthFixture {
    static let watch = Source(name: "Jane’s Apple Watch", bundleIdentifier: "com.apple.health.watch")
    static let phone = Source(name: "Jane’s iPhone", bundleIdentifier: "com.apple.health.phone")
    /// Midnight at the start of the month, in the host's calendar (the one HealthKit-style code uses).
    static let start = Calendar.current.startOfDay(for: Date(timeIntervalSince1970: 1_709_251_200))
    static let days = 21

    let store = HealthStore.inMemory()

    /// A small deterministic generator (SplitMix64), so every run sees the same data.
    struct Random: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func date(day: Int, hour: Double) -> Date {
        start.addingTimeInterval(Double(day) * 86_400 + hour * 3_600)
    }

    /// Steps from both sources, overlapping, some across midnight.
    func saveSteps(_ random: inout Random) throws {
        var samples: [QuantitySample] = []
        for day in 0..<Self.days {
            for _ in 0..<30 {
                let start = Self.date(day: day, hour: Double.random(in: 0..<24, using: &random))
                let end = start.addingTimeInterval(Double(Int.random(in: 60...1_800, using: &random)))
                let source = Bool.random(using: &random) ? Self.watch : Self.phone
                samples.append(try QuantitySample(type: .stepCount, value: Double(Int.random(in: 10...900, using: &random)),
                                                  start: start, end: end, source: source))
            }
        }
        try store.save(samples)
    }

    /// Heart rate readings (instants) from the watch, every few minutes.
    func saveHeartRates(_ random: inout Random) throws {
        var samples: [QuantitySample] = []
        for day in 0..<3 {
            var hour = 0.0
            while hour < 24 {
                let time = Self.date(day: day, hour: hour)
                samples.append(try QuantitySample(type: .heartRate, value: Double(Int.random(in: 50...150, using: &random)),
                                                  start: time, end: time, source: Self.watch))
                hour += Double.random(in: 0.02...0.4, using: &random)
            }
        }
        try store.save(samples)
    }

    /// Nights of sleep: in bed, then stages, from the watch.
    func saveSleep(_ random: inout Random) throws {
        var samples: [CategorySample] = []
        for day in 0..<Self.days {
            let bedtime = Self.date(day: day, hour: 22 + Double.random(in: 0..<1.5, using: &random))
            samples.append(try CategorySample(type: .sleepAnalysis, value: 0, start: bedtime,
                                              end: bedtime.addingTimeInterval(8.5 * 3_600), source: Self.watch))
            var time = bedtime.addingTimeInterval(600)
            for _ in 0..<12 {
                let end = time.addingTimeInterval(Double(Int.random(in: 10...60, using: &random)) * 60)
                samples.append(try CategorySample(type: .sleepAnalysis, value: Int.random(in: 1...5, using: &random),
                                                  start: time, end: end, source: Self.watch))
                time = end
            }
        }
        try store.save(samples)
    }

    /// Body mass readings from a scale, one every other day.
    func saveBodyMass(_ random: inout Random) throws -> [QuantitySample] {
        let scale = Source(name: "Withings")
        let samples = try stride(from: 0, to: Self.days, by: 2).map { day in
            let time = Self.date(day: day, hour: 7 + Double.random(in: 0..<1, using: &random))
            return try QuantitySample(type: .bodyMass, value: 70 + Double(Int.random(in: 0...30, using: &random)) / 10,
                                      start: time, end: time, source: scale)
        }
        try store.save(samples)
        return samples
    }

    /// Blood pressure readings: correlations of a systolic and a diastolic sample.
    func saveBloodPressure(_ random: inout Random) throws -> [Correlation] {
        let cuff = Source(name: "Omron")
        guard let systolic = QuantityType.known("bloodPressureSystolic"),
              let diastolic = QuantityType.known("bloodPressureDiastolic") else { return [] }
        let readings = try (0..<Self.days).map { day in
            let time = Self.date(day: day, hour: 8)
            let high = try QuantitySample(type: systolic, value: Double(Int.random(in: 105...165, using: &random)),
                                          start: time, end: time, source: cuff)
            let low = try QuantitySample(type: diastolic, value: Double(Int.random(in: 60...100, using: &random)),
                                         start: time, end: time, source: cuff)
            return try Correlation(type: .bloodPressure, start: time, end: time, source: cuff, objects: [high, low])
        }
        try store.save(readings)
        return readings
    }
}
