//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

@Suite("Category types, values and their storage")
struct CategorySampleTests {
    @Test("types resolve from long and short identifiers; values from every name form")
    func table() throws {
        #expect(try CategoryType("sleepAnalysis") == .sleepAnalysis)
        #expect(try CategoryType("HKCategoryTypeIdentifierSleepAnalysis") == .sleepAnalysis)
        #expect(try CategoryType("SLEEPANALYSIS").shortIdentifier == "sleepAnalysis")
        #expect(throws: CadenceError.self) { try CategoryType("sleepAnalysys") }
        let sleep = CategoryType.sleepAnalysis
        #expect(sleep.values.map(\.shortName) == ["inBed", "asleepUnspecified", "awake", "asleepCore", "asleepDeep", "asleepREM"])
        #expect(sleep.value(named: "HKCategoryValueSleepAnalysisAsleepCore") == 3)
        #expect(sleep.value(named: "asleeprem") == 5)
        #expect(sleep.value(named: "HKCategoryValueSleepAnalysisAsleep") == 1)  // the older export's name
        #expect(sleep.value(named: "2") == 2)
        #expect(sleep.value(named: "dreaming") == nil)
        #expect(sleep.tracks == [[0], [1, 2, 3, 4, 5]])
        #expect(CategoryType.appleStandHour.value(named: "HKCategoryValueAppleStandHourIdle") == 1)
        #expect(CategoryType.mindfulSession.value(named: "HKCategoryValueNotApplicable") == 0)
        #expect(CategoryType.headache.value(named: "HKCategoryValueSeverityModerate") == 3)
        #expect(CategoryType.menstrualFlow.value(named: "none") == 5)
        #expect(CategoryType.menstrualFlow.tracks == [[1, 2, 3, 4, 5]])
        #expect(CategoryType(identifier: "HKCategoryTypeIdentifierSomethingNew").isKnown == false)
        #expect(SampleKind(identifier: "HKCategoryTypeIdentifierSleepAnalysis") == .category)
        #expect(SampleKind(identifier: "HKQuantityTypeIdentifierStepCount") == .quantity)
    }

    @Test("samples keep raw values and names; unknown names and types are kept verbatim")
    func samples() throws {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let source = Source(name: "Watch")
        let older = try CategorySample(type: .sleepAnalysis, valueName: "HKCategoryValueSleepAnalysisAsleep",
                                       start: start, end: start + 60, source: source)
        #expect(older.value == 1)
        #expect(older.valueName == "HKCategoryValueSleepAnalysisAsleepUnspecified")
        let unknownName = try CategorySample(type: .sleepAnalysis, valueName: "HKCategoryValueSleepAnalysisDreaming",
                                             start: start, end: start + 60, source: source)
        #expect(unknownName.value == CategorySample.unknownValue)
        #expect(unknownName.valueName == "HKCategoryValueSleepAnalysisDreaming")
        #expect(throws: CadenceError.self) {
            try CategorySample(type: .sleepAnalysis, value: 9, start: start, end: start, source: source)
        }
        #expect(throws: CadenceError.self) {
            try CategorySample(type: .sleepAnalysis, value: 1, start: start + 1, end: start, source: source)
        }
    }

    @Test("category samples survive the log, a flush, reopening and verify; reserved attributes stay hidden")
    func persistence() throws {
        let path = StoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let watch = Source(name: "Watch")
        let samples = [
            try CategorySample(type: .sleepAnalysis, valueName: "asleepCore", start: start, end: start + 600, source: watch,
                               metadata: ["HKTimeZone": "Europe/Paris"]),
            try CategorySample(type: .sleepAnalysis, valueName: "HKCategoryValueSleepAnalysisDreaming", start: start + 600,
                               end: start + 900, source: watch),
            try CategorySample(type: CategoryType(identifier: "HKCategoryTypeIdentifierSomethingNew"),
                               valueName: "HKCategoryValueSomethingNewLoud", start: start, end: start, source: watch),
            try CategorySample(type: .mindfulSession, valueName: "HKCategoryValueNotApplicable", start: start,
                               end: start + 300, source: watch),
        ]
        do {
            let store = try HealthStore.open(at: path)
            #expect(try store.save(samples).saved == 4)
            #expect(try store.save(samples).duplicates == 4)
            try store.close()
        }
        for flushFirst in [false, true] {
            let store = try HealthStore.open(at: path)
            if flushFirst { try store.flush() }
            #expect(store.verify().isEmpty)
            #expect(store.categoryTypes.map(\.shortIdentifier) == ["mindfulSession", "sleepAnalysis", "somethingNew"])
            #expect(store.quantityTypes.isEmpty)
            var stored: [CategorySample] = []
            for type in store.categoryTypes { stored += try store.execute(SampleQuery(categoryType: type)) }
            #expect(Set(stored) == Set(samples))
            try store.close()
        }
    }
}
