//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import Cadence

/// Every HealthKit quantity type by its Swift short name, with the unit and style HealthKit's
/// `HKTypeIdentifiers.h` gives it (heart and respiratory rates per minute, as <doc:HowCadenceComputes#Types-and-units> keeps them).
/// Written independently of the table, in HealthKit's own spelling, so a row typed wrong disagrees.
private let healthKitQuantityTypes: [String: (unit: String, style: AggregationStyle)] = [
    // Body measurements
    "appleSleepingWristTemperature": ("degC", .discreteArithmetic), "bodyFatPercentage": ("%", .discreteArithmetic),
    "bodyMass": ("kg", .discreteArithmetic), "bodyMassIndex": ("count", .discreteArithmetic),
    "electrodermalActivity": ("S", .discreteArithmetic), "height": ("m", .discreteArithmetic),
    "leanBodyMass": ("kg", .discreteArithmetic), "waistCircumference": ("m", .discreteArithmetic),
    // Fitness
    "activeEnergyBurned": ("kcal", .cumulative), "appleExerciseTime": ("min", .cumulative),
    "appleMoveTime": ("min", .cumulative), "appleStandTime": ("min", .cumulative),
    "basalEnergyBurned": ("kcal", .cumulative), "crossCountrySkiingSpeed": ("m/s", .discreteArithmetic),
    "cyclingCadence": ("count/min", .discreteArithmetic), "cyclingFunctionalThresholdPower": ("W", .discreteArithmetic),
    "cyclingPower": ("W", .discreteArithmetic), "cyclingSpeed": ("m/s", .discreteArithmetic),
    "distanceCrossCountrySkiing": ("m", .cumulative), "distanceCycling": ("m", .cumulative),
    "distanceDownhillSnowSports": ("m", .cumulative), "distancePaddleSports": ("m", .cumulative),
    "distanceRowing": ("m", .cumulative), "distanceSkatingSports": ("m", .cumulative),
    "distanceSwimming": ("m", .cumulative), "distanceWalkingRunning": ("m", .cumulative),
    "distanceWheelchair": ("m", .cumulative), "estimatedWorkoutEffortScore": ("appleEffortScore", .discreteArithmetic),
    "flightsClimbed": ("count", .cumulative), "nikeFuel": ("count", .cumulative),
    "paddleSportsSpeed": ("m/s", .discreteArithmetic), "physicalEffort": ("kcal/(kg*hr)", .discreteArithmetic),
    "pushCount": ("count", .cumulative), "rowingSpeed": ("m/s", .discreteArithmetic),
    "runningPower": ("W", .discreteArithmetic), "runningSpeed": ("m/s", .discreteArithmetic),
    "stepCount": ("count", .cumulative), "swimmingStrokeCount": ("count", .cumulative),
    "underwaterDepth": ("m", .discreteArithmetic), "workoutEffortScore": ("appleEffortScore", .discreteArithmetic),
    // Hearing health
    "environmentalAudioExposure": ("dBASPL", .discreteEquivalentContinuousLevel),
    "environmentalSoundReduction": ("dBASPL", .discreteEquivalentContinuousLevel),
    "headphoneAudioExposure": ("dBASPL", .discreteEquivalentContinuousLevel),
    // Heart
    "atrialFibrillationBurden": ("%", .discreteTemporallyWeighted),
    "heartRate": ("count/min", .discreteTemporallyWeighted),
    "heartRateRecoveryOneMinute": ("count/min", .discreteArithmetic),
    "heartRateVariabilitySDNN": ("ms", .discreteArithmetic), "peripheralPerfusionIndex": ("%", .discreteArithmetic),
    "restingHeartRate": ("count/min", .discreteArithmetic), "vo2Max": ("mL/(kg*min)", .discreteArithmetic),
    "walkingHeartRateAverage": ("count/min", .discreteArithmetic),
    // Mobility
    "appleWalkingSteadiness": ("%", .discreteArithmetic), "runningGroundContactTime": ("ms", .discreteArithmetic),
    "runningStrideLength": ("m", .discreteArithmetic), "runningVerticalOscillation": ("cm", .discreteArithmetic),
    "sixMinuteWalkTestDistance": ("m", .discreteArithmetic), "stairAscentSpeed": ("m/s", .discreteArithmetic),
    "stairDescentSpeed": ("m/s", .discreteArithmetic), "walkingAsymmetryPercentage": ("%", .discreteArithmetic),
    "walkingDoubleSupportPercentage": ("%", .discreteArithmetic), "walkingSpeed": ("m/s", .discreteArithmetic),
    "walkingStepLength": ("m", .discreteArithmetic),
    // Nutrition
    "dietaryBiotin": ("g", .cumulative), "dietaryCaffeine": ("g", .cumulative), "dietaryCalcium": ("g", .cumulative),
    "dietaryCarbohydrates": ("g", .cumulative), "dietaryChloride": ("g", .cumulative),
    "dietaryCholesterol": ("g", .cumulative), "dietaryChromium": ("g", .cumulative),
    "dietaryCopper": ("g", .cumulative),
    "dietaryEnergyConsumed": ("kcal", .cumulative), "dietaryFatMonounsaturated": ("g", .cumulative),
    "dietaryFatPolyunsaturated": ("g", .cumulative), "dietaryFatSaturated": ("g", .cumulative),
    "dietaryFatTotal": ("g", .cumulative), "dietaryFiber": ("g", .cumulative), "dietaryFolate": ("g", .cumulative),
    "dietaryIodine": ("g", .cumulative), "dietaryIron": ("g", .cumulative), "dietaryMagnesium": ("g", .cumulative),
    "dietaryManganese": ("g", .cumulative), "dietaryMolybdenum": ("g", .cumulative),
    "dietaryNiacin": ("g", .cumulative),
    "dietaryPantothenicAcid": ("g", .cumulative), "dietaryPhosphorus": ("g", .cumulative),
    "dietaryPotassium": ("g", .cumulative), "dietaryProtein": ("g", .cumulative),
    "dietaryRiboflavin": ("g", .cumulative), "dietarySelenium": ("g", .cumulative), "dietarySodium": ("g", .cumulative),
    "dietarySugar": ("g", .cumulative), "dietaryThiamin": ("g", .cumulative), "dietaryVitaminA": ("g", .cumulative),
    "dietaryVitaminB12": ("g", .cumulative), "dietaryVitaminB6": ("g", .cumulative),
    "dietaryVitaminC": ("g", .cumulative), "dietaryVitaminD": ("g", .cumulative), "dietaryVitaminE": ("g", .cumulative),
    "dietaryVitaminK": ("g", .cumulative), "dietaryWater": ("mL", .cumulative), "dietaryZinc": ("g", .cumulative),
    // Other
    "bloodAlcoholContent": ("%", .discreteArithmetic), "bloodPressureDiastolic": ("mmHg", .discreteArithmetic),
    "bloodPressureSystolic": ("mmHg", .discreteArithmetic), "insulinDelivery": ("IU", .cumulative),
    "numberOfAlcoholicBeverages": ("count", .cumulative), "numberOfTimesFallen": ("count", .cumulative),
    "timeInDaylight": ("min", .cumulative), "uvExposure": ("count", .discreteArithmetic),
    "waterTemperature": ("degC", .discreteArithmetic),
    // Reproductive health
    "basalBodyTemperature": ("degC", .discreteArithmetic),
    // Respiratory
    "appleSleepingBreathingDisturbances": ("count", .discreteArithmetic),
    "forcedExpiratoryVolume1": ("L", .discreteArithmetic), "forcedVitalCapacity": ("L", .discreteArithmetic),
    "inhalerUsage": ("count", .cumulative), "oxygenSaturation": ("%", .discreteArithmetic),
    "peakExpiratoryFlowRate": ("L/min", .discreteArithmetic), "respiratoryRate": ("count/min", .discreteArithmetic),
    // Vital signs
    "bloodGlucose": ("mg/dL", .discreteArithmetic), "bodyTemperature": ("degC", .discreteArithmetic),
]

@Suite("Quantity type table")
struct QuantityTypeTableTests {
    @Test("Every row's unit parses, so no row is silently left out of the table")
    func everyRowParses() throws {
        var suffixes = 0
        for row in QuantityType.rows {
            let unit = try HealthUnit(row.unit)
            for suffix in row.suffixes {
                let type = try #require(QuantityType.table[QuantityType.identifierPrefix + suffix], "\(suffix)")
                #expect(type.canonicalUnit == unit, "\(suffix)")
                #expect(type.aggregationStyle == row.style, "\(suffix)")
                suffixes += 1
            }
        }
        #expect(suffixes == QuantityType.table.count, "a suffix appears in two rows")
        #expect(QuantityType.allKnown.count == QuantityType.table.count)
    }

    @Test("The table holds every HealthKit quantity type, each with HealthKit's unit and style, and nothing else")
    func matchesHealthKit() throws {
        for (shortName, expected) in healthKitQuantityTypes {
            let type = try #require(QuantityType.known(shortName), "\(shortName) is missing")
            #expect(type.canonicalUnit == (try HealthUnit(expected.unit)), "\(shortName): \(type.canonicalUnit)")
            #expect(type.aggregationStyle == expected.style, "\(shortName): \(type.aggregationStyle)")
            #expect(type.shortIdentifier == shortName)
        }
        let extra = QuantityType.allKnown.map(\.shortIdentifier).filter { healthKitQuantityTypes[$0] == nil }
        #expect(extra.isEmpty, "not HealthKit quantity types: \(extra)")
        #expect(QuantityType.allKnown.count == healthKitQuantityTypes.count)
    }

    @Test("UV exposure is a discrete level; insulin delivery and alcoholic beverages add up")
    func namedCorrections() throws {
        let uvExposure = try QuantityType("uvExposure")
        #expect(uvExposure.aggregationStyle == .discreteArithmetic)
        #expect(uvExposure.canonicalUnit == .count)
        let insulin = try QuantityType("insulinDelivery")
        #expect(insulin.aggregationStyle == .cumulative)
        #expect(insulin.canonicalUnit == .internationalUnit)
        let beverages = try QuantityType("numberOfAlcoholicBeverages")
        #expect(beverages.aggregationStyle == .cumulative)
        #expect(beverages.canonicalUnit == .count)
    }

    @Test("A day of UV exposure averages its readings, and a sum is refused; insulin deliveries add up")
    func correctedStylesInQueries() throws {
        let path = NSTemporaryDirectory() + "cadence-test-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try HealthStore.open(at: path)
        let uvExposure = try QuantityType("uvExposure")
        let insulin = try QuantityType("insulinDelivery")
        let noon = Date(timeIntervalSince1970: 1_700_000_000)
        let source = Source(name: "Watch")
        var samples: [QuantitySample] = []
        for (hour, uvIndex) in [3.0, 5.0, 7.0].enumerated() {
            let start = noon.addingTimeInterval(Double(hour) * 3_600)
            samples.append(try QuantitySample(
                type: uvExposure, value: uvIndex, start: start, end: start.addingTimeInterval(3_600), source: source))
            samples.append(try QuantitySample(
                type: insulin, value: 2, start: start, end: start.addingTimeInterval(60), source: source))
        }
        try store.save(samples)
        let average = try store.execute(StatisticsQuery(quantityType: uvExposure, options: .discreteAverage))
        #expect(average.averageQuantity()?.value == 5)
        let sum = #expect(throws: CadenceError.self) {
            try StatisticsQuery(quantityType: uvExposure, options: .cumulativeSum)
        }
        #expect(sum?.code == .invalidQuery)
        let total = try store.execute(StatisticsQuery(quantityType: insulin, options: .cumulativeSum))
        #expect(total.sumQuantity()?.value == 6)
    }

    @Test(
        "HealthKit's Swift short names find their types and come back unchanged",
        arguments: [
            // Leading acronyms lowered whole.
            ("uvExposure", "HKQuantityTypeIdentifierUVExposure"), ("vo2Max", "HKQuantityTypeIdentifierVO2Max"),
            // A trailing acronym and a trailing digit stay as they are.
            ("heartRateVariabilitySDNN", "HKQuantityTypeIdentifierHeartRateVariabilitySDNN"),
            ("forcedExpiratoryVolume1", "HKQuantityTypeIdentifierForcedExpiratoryVolume1"),
            // Regular names, old and new.
            ("bodyMassIndex", "HKQuantityTypeIdentifierBodyMassIndex"),
            ("oxygenSaturation", "HKQuantityTypeIdentifierOxygenSaturation"),
            ("appleSleepingWristTemperature", "HKQuantityTypeIdentifierAppleSleepingWristTemperature"),
            ("cyclingFunctionalThresholdPower", "HKQuantityTypeIdentifierCyclingFunctionalThresholdPower"),
        ])
    func shortNamesRoundTrip(shortName: String, identifier: String) throws {
        let type = try QuantityType(shortName)
        #expect(type.identifier == identifier)
        #expect(type.shortIdentifier == shortName)
        #expect(QuantityType.fullIdentifier(shortName) == identifier)
        #expect(try QuantityType(identifier) == type)
    }

    @Test(
        "Earlier spellings still find their types",
        arguments: [
            // The old rule's short forms, the suffix as written, and any letter case.
            ("uVExposure", "HKQuantityTypeIdentifierUVExposure"), ("vO2Max", "HKQuantityTypeIdentifierVO2Max"),
            ("UVExposure", "HKQuantityTypeIdentifierUVExposure"), ("VO2MAX", "HKQuantityTypeIdentifierVO2Max"),
            ("StepCount", "HKQuantityTypeIdentifierStepCount"), ("stepcount", "HKQuantityTypeIdentifierStepCount"),
        ])
    func earlierSpellings(text: String, identifier: String) throws {
        #expect(try QuantityType(text).identifier == identifier)
        #expect(QuantityType.fullIdentifier(text) == identifier)
    }

    @Test("A short name in any letter case finds the type the case-folded index holds for it")
    func everySpellingAgreesWithTheIndex() {
        for type in QuantityType.allKnown {
            let short = type.shortIdentifier
            let suffix = String(type.identifier.dropFirst(QuantityType.identifierPrefix.count))
            for spelling in [short, suffix, short.lowercased(), short.uppercased(), suffix.lowercased()] {
                #expect(QuantityType.known(spelling) == type, "\(spelling)")
                #expect(QuantityType.tableByLowercasedShortIdentifier[spelling.lowercased()] == type, "\(spelling)")
            }
        }
    }

    @Test("An unknown identifier is not in the table but stays a type with its own unit, averaged (How Cadence computes: Types and units)")
    func unknownIdentifier() throws {
        let identifier = "HKQuantityTypeIdentifierMadeUpReading"
        #expect(QuantityType.known(identifier) == nil)
        #expect(QuantityType.known("madeUpReading") == nil)
        #expect(throws: CadenceError.self) { try QuantityType("madeUpReading") }
        #expect(QuantityType.fullIdentifier("madeUpReading") == identifier)
        let type = QuantityType.unknown("madeUpReading", unit: try HealthUnit("mg"))
        #expect(type.identifier == identifier)
        #expect(type.shortIdentifier == "madeUpReading")
        #expect(type.aggregationStyle == .discreteArithmetic)
        #expect(type.canonicalUnit == (try HealthUnit("mg")))
        #expect(!type.isKnown)
        // A long identifier must match exactly: a wrongly cased one is a different, unknown type.
        #expect(QuantityType.known("HKQuantityTypeIdentifierStepcount") == nil)
    }
}
