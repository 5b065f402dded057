//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// `print(sample)` gives one readable line, not a dump of the struct.
@Suite("Readable descriptions")
struct ReadableDescriptionTests {
    static let start = Date(timeIntervalSince1970: 1_714_557_600)   // 2024-05-01T10:00:00Z
    static let uuid = UUID(uuidString: "0F8FAD5B-D9CB-469F-A165-70867728950E")!

    @Test("samples, correlations, workouts and statistics describe themselves in one line")
    func lines() throws {
        let cuff = Source(name: "Cuff")
        let systolic = try QuantitySample(uuid: Self.uuid, type: .bloodPressureSystolic, value: 120, start: Self.start,
                                          end: Self.start, source: cuff, sourceVersion: "2.1",
                                          metadata: ["HKWasUserEntered": "1"])
        #expect("\(systolic)" == "bloodPressureSystolic 120 mmHg, 2024-05-01T10:00:00Z, Cuff (2.1), "
                + "{HKWasUserEntered: 1}, 0F8FAD5B-D9CB-469F-A165-70867728950E")
        let diastolic = try QuantitySample(type: .bloodPressureDiastolic, value: 80.5, start: Self.start, end: Self.start,
                                           source: cuff)
        let reading = try Correlation(uuid: Self.uuid, type: .bloodPressure, start: Self.start, end: Self.start, source: cuff,
                                      objects: [systolic, diastolic])
        #expect("\(reading)".hasPrefix("bloodPressure [bloodPressureSystolic 120 mmHg; bloodPressureDiastolic 80.5 mmHg], "))
        #expect(!"\(reading)".contains("memberTypeIdentifiers"))

        let night = try CategorySample(uuid: Self.uuid, type: .sleepAnalysis, value: CategoryValueSleepAnalysis.asleepCore.rawValue,
                                       start: Self.start, end: Self.start + 3_600, source: Source(name: "Watch"))
        #expect("\(night)" == "sleepAnalysis asleepCore, 2024-05-01T10:00:00Z – 2024-05-01T11:00:00Z, Watch, "
                + "0F8FAD5B-D9CB-469F-A165-70867728950E")

        let store = HealthStore.inMemory()
        try store.save([try QuantitySample(type: .stepCount, value: 500, start: Self.start, end: Self.start + 600,
                                           source: Source(name: "Phone"))])
        let window = SamplePredicate.samples(start: Self.start, end: Self.start + 3_600)
        let statistics = try store.execute(try StatisticsQuery(quantityType: .stepCount, quantitySamplePredicate: window,
                                                               options: .cumulativeSum))
        #expect("\(statistics)" == "stepCount 2024-05-01T10:00:00Z – 2024-05-01T11:00:00Z: sum 500 count")
        let empty = try store.execute(try StatisticsQuery(quantityType: .heartRate, quantitySamplePredicate: window,
                                                          options: .discreteAverage))
        #expect("\(empty)".hasSuffix(": no data"))
    }
}
