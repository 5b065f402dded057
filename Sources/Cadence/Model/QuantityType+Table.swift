//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension QuantityType {
    /// Every HealthKit quantity type identifier, as data (<doc:HowCadenceComputes#Types-and-units>): identifier suffixes that share a
    /// canonical unit and an aggregation style.
    ///
    /// Units and styles are the ones HealthKit's `HKTypeIdentifiers.h` gives each identifier, with one
    /// deliberate difference: heart rate and respiratory rate are kept in `count/min`, as <doc:HowCadenceComputes#Types-and-units> asks,
    /// where the header names `count/s`. The two units are compatible, and beats or breaths per
    /// minute is what exports carry and people type.
    static let rows: [(suffixes: [String], unit: String, style: AggregationStyle)] = [
        // Values that add up over time.
        (["StepCount", "FlightsClimbed", "PushCount", "SwimmingStrokeCount", "NikeFuel", "NumberOfTimesFallen",
          "InhalerUsage", "NumberOfAlcoholicBeverages"], "count", .cumulative),
        (["DistanceWalkingRunning", "DistanceCycling", "DistanceSwimming", "DistanceWheelchair",
          "DistanceDownhillSnowSports", "DistanceRowing", "DistanceSkatingSports", "DistancePaddleSports",
          "DistanceCrossCountrySkiing"], "m", .cumulative),
        (["ActiveEnergyBurned", "BasalEnergyBurned", "DietaryEnergyConsumed"], "kcal", .cumulative),
        (["AppleExerciseTime", "AppleStandTime", "AppleMoveTime", "TimeInDaylight"], "min", .cumulative),
        (["DietaryWater"], "mL", .cumulative),
        (["DietaryProtein", "DietaryCarbohydrates", "DietaryFatTotal", "DietaryFatSaturated",
          "DietaryFatMonounsaturated", "DietaryFatPolyunsaturated", "DietaryCholesterol", "DietarySugar",
          "DietaryFiber", "DietarySodium", "DietaryCaffeine", "DietaryCalcium", "DietaryIron",
          "DietaryPotassium", "DietaryVitaminA", "DietaryVitaminB6", "DietaryVitaminB12", "DietaryVitaminC",
          "DietaryVitaminD", "DietaryVitaminE", "DietaryVitaminK", "DietaryFolate", "DietaryMagnesium",
          "DietaryNiacin", "DietaryPhosphorus", "DietaryRiboflavin", "DietaryThiamin", "DietaryZinc",
          "DietaryBiotin", "DietaryChloride", "DietaryChromium", "DietaryCopper", "DietaryIodine",
          "DietaryManganese", "DietaryMolybdenum", "DietaryPantothenicAcid", "DietarySelenium"], "g", .cumulative),
        (["InsulinDelivery"], "IU", .cumulative),
        // Levels held for a while: each value weighs by the time it covers.
        (["HeartRate"], "count/min", .discreteTemporallyWeighted),
        (["AtrialFibrillationBurden"], "%", .discreteTemporallyWeighted),
        // Readings that each count once.
        (["RestingHeartRate", "WalkingHeartRateAverage", "HeartRateRecoveryOneMinute", "RespiratoryRate",
          "CyclingCadence"], "count/min", .discreteArithmetic),
        (["HeartRateVariabilitySDNN", "RunningGroundContactTime"], "ms", .discreteArithmetic),
        (["OxygenSaturation", "BodyFatPercentage", "WalkingAsymmetryPercentage", "WalkingDoubleSupportPercentage",
          "AppleWalkingSteadiness", "BloodAlcoholContent", "PeripheralPerfusionIndex"], "%", .discreteArithmetic),
        (["BodyMass", "LeanBodyMass"], "kg", .discreteArithmetic),
        (["Height", "WaistCircumference", "WalkingStepLength", "RunningStrideLength", "SixMinuteWalkTestDistance",
          "UnderwaterDepth"], "m", .discreteArithmetic),
        (["RunningVerticalOscillation"], "cm", .discreteArithmetic),
        // The UV index is a level, not an amount: summing it over a day means nothing.
        (["BodyMassIndex", "UVExposure", "AppleSleepingBreathingDisturbances"], "count", .discreteArithmetic),
        (["BloodGlucose"], "mg/dL", .discreteArithmetic),
        (["BloodPressureSystolic", "BloodPressureDiastolic"], "mmHg", .discreteArithmetic),
        (["BodyTemperature", "BasalBodyTemperature", "AppleSleepingWristTemperature", "WaterTemperature"], "degC",
         .discreteArithmetic),
        (["VO2Max"], "mL/kg·min", .discreteArithmetic),
        (["WalkingSpeed", "RunningSpeed", "StairAscentSpeed", "StairDescentSpeed", "CyclingSpeed",
          "CrossCountrySkiingSpeed", "PaddleSportsSpeed", "RowingSpeed"], "m/s", .discreteArithmetic),
        (["CyclingPower", "CyclingFunctionalThresholdPower", "RunningPower"], "W", .discreteArithmetic),
        // METs: kilocalories per kilogram of body mass per hour.
        (["PhysicalEffort"], "kcal/hr·kg", .discreteArithmetic),
        (["WorkoutEffortScore", "EstimatedWorkoutEffortScore"], "appleEffortScore", .discreteArithmetic),
        (["ElectrodermalActivity"], "S", .discreteArithmetic),
        (["ForcedVitalCapacity", "ForcedExpiratoryVolume1"], "L", .discreteArithmetic),
        (["PeakExpiratoryFlowRate"], "L/min", .discreteArithmetic),
        // Sound levels, averaged as energy.
        (["EnvironmentalAudioExposure", "HeadphoneAudioExposure", "EnvironmentalSoundReduction"], "dBASPL",
         .discreteEquivalentContinuousLevel),
    ]

    /// Short names that do not follow the rule of lowering the suffix's first letter: HealthKit's Swift
    /// names lower a leading acronym whole.
    static let irregularShortIdentifiers: [String: String] = ["UVExposure": "uvExposure", "VO2Max": "vo2Max"]

    /// Every known type, keyed by its full identifier.
    static let table: [String: QuantityType] = {
        var table: [String: QuantityType] = [:]
        for row in rows {
            // The table's unit strings are constants checked by the tests; a typo leaves the row out
            // rather than trapping.
            guard let unit = try? HealthUnit(row.unit) else { continue }
            for suffix in row.suffixes {
                let identifier = identifierPrefix + suffix
                table[identifier] = QuantityType(
                    identifier: identifier, aggregationStyle: row.style, canonicalUnit: unit)
            }
        }
        return table
    }()

    /// Every known type, keyed by its short name in lowercase, so that `uvExposure`, `UVExposure`
    /// and `uVExposure` all find the same type.
    static let tableByLowercasedShortIdentifier: [String: QuantityType] = Dictionary(
        uniqueKeysWithValues: table.values.map { ($0.shortIdentifier.lowercased(), $0) })

    /// Every type in Cadence's table, sorted by identifier.
    public static var allKnown: [QuantityType] { table.values.sorted { $0.identifier < $1.identifier } }

    /// The table's type for an identifier suffix: the static members (``stepCount`` …) are
    /// generated from the table, so each finds its row; the fallback only keeps this total.
    static func tableType(_ suffix: String) -> QuantityType {
        table[identifierPrefix + suffix] ?? unknown(identifierPrefix + suffix, unit: .count)
    }
}
