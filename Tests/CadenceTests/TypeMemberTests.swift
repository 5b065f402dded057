//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// The static members and value enumerations generated from the type tables agree with the tables.
@Suite("Type members")
struct TypeMemberTests {
    @Test("static members are the table's types")
    func members() throws {
        #expect(QuantityType.bloodPressureSystolic == QuantityType.known("HKQuantityTypeIdentifierBloodPressureSystolic"))
        #expect(QuantityType.bloodPressureSystolic.canonicalUnit == .millimeterOfMercury)
        #expect(QuantityType.vo2Max.identifier == "HKQuantityTypeIdentifierVO2Max")
        #expect(QuantityType.uvExposure.aggregationStyle == .discreteArithmetic)
        #expect(QuantityType.dietaryEnergyConsumed.aggregationStyle == .cumulative)
        #expect(QuantityType.environmentalAudioExposure.aggregationStyle == .discreteEquivalentContinuousLevel)
        #expect(CategoryType.sleepAnalysis == CategoryType.known("sleepAnalysis"))
        #expect(CategoryType.appleWalkingSteadinessEvent.isKnown && CategoryType.sleepApneaEvent.isKnown)
    }

    /// A value enumeration's cases against the values of a type of its group.
    static func agree<Value: CategoryValueEnumeration>(_ values: Value.Type, _ type: CategoryType) -> Bool {
        let cases = Value.allCases.map { ($0.rawValue, "\($0)") }
        let table = type.values.map { ($0.rawValue, $0.shortName) }
        return cases.elementsEqual(table) { $0 == $1 }
    }

    @Test("each value enumeration has its group's raw values and HealthKit's case names")
    func valueEnumerations() throws {
        #expect(Self.agree(CategoryValueSleepAnalysis.self, .sleepAnalysis))
        #expect(Self.agree(CategoryValueAppleStandHour.self, .appleStandHour))
        #expect(Self.agree(CategoryValueNotApplicable.self, .mindfulSession))
        #expect(Self.agree(CategoryValueSeverity.self, .headache))
        #expect(Self.agree(CategoryValuePresence.self, .moodChanges))
        #expect(Self.agree(CategoryValueMenstrualFlow.self, .menstrualFlow))
        #expect(Self.agree(CategoryValueAppetiteChanges.self, .appetiteChanges))
        #expect(Self.agree(CategoryValueCervicalMucusQuality.self, .cervicalMucusQuality))
        #expect(Self.agree(CategoryValueOvulationTestResult.self, .ovulationTestResult))
        #expect(Self.agree(CategoryValueContraceptive.self, .contraceptive))
        #expect(Self.agree(CategoryValueEnvironmentalAudioExposureEvent.self, .environmentalAudioExposureEvent))
        #expect(Self.agree(CategoryValueHeadphoneAudioExposureEvent.self, .headphoneAudioExposureEvent))
        #expect(Self.agree(CategoryValueLowCardioFitnessEvent.self, .lowCardioFitnessEvent))
        #expect(Self.agree(CategoryValueAppleWalkingSteadinessEvent.self, .appleWalkingSteadinessEvent))
        #expect(CategoryValueSleepAnalysis.allAsleepValues.map(\.rawValue).sorted() == [1, 3, 4, 5])
    }

    @Test("an enumeration's values select category samples as their raw values do")
    func predicates() throws {
        let store = HealthStore.inMemory()
        let start = Date(timeIntervalSince1970: 1_714_600_000)
        let stages: [CategoryValueSleepAnalysis] = [.inBed, .asleepCore, .awake, .asleepREM, .asleepDeep]
        try store.save(try stages.enumerated().map { index, stage in
            try CategorySample(type: .sleepAnalysis, value: stage.rawValue, start: start + Double(index) * 600,
                               end: start + Double(index + 1) * 600, source: Source(name: "Watch"))
        })
        let asleep = try store.execute(SampleQuery(categoryType: .sleepAnalysis,
                                                   predicate: .categoryValue(in: CategoryValueSleepAnalysis.allAsleepValues)))
        #expect(asleep.compactMap { $0.value(as: CategoryValueSleepAnalysis.self) } == [.asleepCore, .asleepREM, .asleepDeep])
        let awake = try store.execute(SampleQuery(categoryType: .sleepAnalysis,
                                                  predicate: .categoryValue(equalTo: CategoryValueSleepAnalysis.awake)))
        #expect(awake.count == 1)
    }
}
