//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension QuantityType {
    /// The known types as data (SPEC §1): identifier suffix, canonical unit, aggregation style.
    private static let rows: [(suffixes: [String], unit: String, style: AggregationStyle)] = [
        (["StepCount", "FlightsClimbed", "PushCount", "SwimmingStrokeCount", "NumberOfTimesFallen",
          "InhalerUsage", "NikeFuel", "UVExposure"], "count", .cumulative),
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
        (["HeartRate"], "count/min", .discreteTemporallyWeighted),
        (["RestingHeartRate", "WalkingHeartRateAverage", "HeartRateRecoveryOneMinute", "RespiratoryRate"],
         "count/min", .discreteArithmetic),
        (["HeartRateVariabilitySDNN"], "ms", .discreteArithmetic),
        (["OxygenSaturation", "BodyFatPercentage", "WalkingAsymmetryPercentage",
          "WalkingDoubleSupportPercentage"], "%", .discreteArithmetic),
        (["BodyMass", "LeanBodyMass"], "kg", .discreteArithmetic),
        (["Height", "WaistCircumference", "WalkingStepLength"], "m", .discreteArithmetic),
        (["BodyMassIndex"], "count", .discreteArithmetic),
        (["BloodGlucose"], "mg/dL", .discreteArithmetic),
        (["BloodPressureSystolic", "BloodPressureDiastolic"], "mmHg", .discreteArithmetic),
        (["BodyTemperature", "BasalBodyTemperature"], "degC", .discreteArithmetic),
        (["VO2Max"], "mL/kg·min", .discreteArithmetic),
        (["WalkingSpeed", "RunningSpeed"], "m/s", .discreteArithmetic),
        (["EnvironmentalAudioExposure", "HeadphoneAudioExposure"], "dBASPL", .discreteEquivalentContinuousLevel),
    ]

    /// Every known type, keyed by its full identifier.
    static let table: [String: QuantityType] = {
        var table: [String: QuantityType] = [:]
        for row in rows {
            // The table's unit strings are constants checked by the tests; a typo leaves the row out
            // rather than trapping.
            guard let unit = try? HealthUnit(row.unit) else { continue }
            for suffix in row.suffixes {
                let identifier = identifierPrefix + suffix
                table[identifier] = QuantityType(identifier: identifier, aggregationStyle: row.style, canonicalUnit: unit)
            }
        }
        return table
    }()

    /// Every type in Cadence's table, sorted by identifier.
    public static var allKnown: [QuantityType] { table.values.sorted { $0.identifier < $1.identifier } }

    /// Step count (`count`, cumulative).
    public static var stepCount: QuantityType { known("stepCount") ?? unknown("stepCount", unit: .count) }
    /// Heart rate (`count/min`, discrete, temporally weighted).
    public static var heartRate: QuantityType { known("heartRate") ?? unknown("heartRate", unit: .count) }
    /// Active energy burned (`kcal`, cumulative).
    public static var activeEnergyBurned: QuantityType {
        known("activeEnergyBurned") ?? unknown("activeEnergyBurned", unit: .count)
    }
    /// Body mass (`kg`, discrete, arithmetic).
    public static var bodyMass: QuantityType { known("bodyMass") ?? unknown("bodyMass", unit: .count) }
    /// Walking and running distance (`m`, cumulative).
    public static var distanceWalkingRunning: QuantityType {
        known("distanceWalkingRunning") ?? unknown("distanceWalkingRunning", unit: .count)
    }
}
