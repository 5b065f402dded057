//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// The constants mirror the identifier tables of the Cadence module (QuantityType+Table.swift and
// CategoryType+Table.swift): one constant a row suffix, named as HealthKit's Swift overlay names it,
// the same names as the Cadence module's static members. IdentifierConstantsTests checks that
// they stay in step with the tables.

extension HKQuantityTypeIdentifier {
    /// `HKQuantityTypeIdentifierStepCount`: step count.
    public static let stepCount = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierStepCount")
    /// `HKQuantityTypeIdentifierFlightsClimbed`: flights climbed.
    public static let flightsClimbed = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierFlightsClimbed")
    /// `HKQuantityTypeIdentifierPushCount`: push count.
    public static let pushCount = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierPushCount")
    /// `HKQuantityTypeIdentifierSwimmingStrokeCount`: swimming stroke count.
    public static let swimmingStrokeCount = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierSwimmingStrokeCount")
    /// `HKQuantityTypeIdentifierNikeFuel`: nike fuel.
    public static let nikeFuel = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierNikeFuel")
    /// `HKQuantityTypeIdentifierNumberOfTimesFallen`: number of times fallen.
    public static let numberOfTimesFallen = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierNumberOfTimesFallen")
    /// `HKQuantityTypeIdentifierInhalerUsage`: inhaler usage.
    public static let inhalerUsage = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierInhalerUsage")
    /// `HKQuantityTypeIdentifierNumberOfAlcoholicBeverages`: number of alcoholic beverages.
    public static let numberOfAlcoholicBeverages = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierNumberOfAlcoholicBeverages")
    /// `HKQuantityTypeIdentifierDistanceWalkingRunning`: distance walking running.
    public static let distanceWalkingRunning = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDistanceWalkingRunning")
    /// `HKQuantityTypeIdentifierDistanceCycling`: distance cycling.
    public static let distanceCycling = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDistanceCycling")
    /// `HKQuantityTypeIdentifierDistanceSwimming`: distance swimming.
    public static let distanceSwimming = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDistanceSwimming")
    /// `HKQuantityTypeIdentifierDistanceWheelchair`: distance wheelchair.
    public static let distanceWheelchair = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDistanceWheelchair")
    /// `HKQuantityTypeIdentifierDistanceDownhillSnowSports`: distance downhill snow sports.
    public static let distanceDownhillSnowSports = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDistanceDownhillSnowSports")
    /// `HKQuantityTypeIdentifierDistanceRowing`: distance rowing.
    public static let distanceRowing = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDistanceRowing")
    /// `HKQuantityTypeIdentifierDistanceSkatingSports`: distance skating sports.
    public static let distanceSkatingSports = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDistanceSkatingSports")
    /// `HKQuantityTypeIdentifierDistancePaddleSports`: distance paddle sports.
    public static let distancePaddleSports = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDistancePaddleSports")
    /// `HKQuantityTypeIdentifierDistanceCrossCountrySkiing`: distance cross country skiing.
    public static let distanceCrossCountrySkiing = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDistanceCrossCountrySkiing")
    /// `HKQuantityTypeIdentifierActiveEnergyBurned`: active energy burned.
    public static let activeEnergyBurned = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierActiveEnergyBurned")
    /// `HKQuantityTypeIdentifierBasalEnergyBurned`: basal energy burned.
    public static let basalEnergyBurned = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBasalEnergyBurned")
    /// `HKQuantityTypeIdentifierDietaryEnergyConsumed`: dietary energy consumed.
    public static let dietaryEnergyConsumed = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryEnergyConsumed")
    /// `HKQuantityTypeIdentifierAppleExerciseTime`: apple exercise time.
    public static let appleExerciseTime = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierAppleExerciseTime")
    /// `HKQuantityTypeIdentifierAppleStandTime`: apple stand time.
    public static let appleStandTime = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierAppleStandTime")
    /// `HKQuantityTypeIdentifierAppleMoveTime`: apple move time.
    public static let appleMoveTime = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierAppleMoveTime")
    /// `HKQuantityTypeIdentifierTimeInDaylight`: time in daylight.
    public static let timeInDaylight = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierTimeInDaylight")
    /// `HKQuantityTypeIdentifierDietaryWater`: dietary water.
    public static let dietaryWater = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryWater")
    /// `HKQuantityTypeIdentifierDietaryProtein`: dietary protein.
    public static let dietaryProtein = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryProtein")
    /// `HKQuantityTypeIdentifierDietaryCarbohydrates`: dietary carbohydrates.
    public static let dietaryCarbohydrates = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryCarbohydrates")
    /// `HKQuantityTypeIdentifierDietaryFatTotal`: dietary fat total.
    public static let dietaryFatTotal = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryFatTotal")
    /// `HKQuantityTypeIdentifierDietaryFatSaturated`: dietary fat saturated.
    public static let dietaryFatSaturated = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryFatSaturated")
    /// `HKQuantityTypeIdentifierDietaryFatMonounsaturated`: dietary fat monounsaturated.
    public static let dietaryFatMonounsaturated = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryFatMonounsaturated")
    /// `HKQuantityTypeIdentifierDietaryFatPolyunsaturated`: dietary fat polyunsaturated.
    public static let dietaryFatPolyunsaturated = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryFatPolyunsaturated")
    /// `HKQuantityTypeIdentifierDietaryCholesterol`: dietary cholesterol.
    public static let dietaryCholesterol = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryCholesterol")
    /// `HKQuantityTypeIdentifierDietarySugar`: dietary sugar.
    public static let dietarySugar = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietarySugar")
    /// `HKQuantityTypeIdentifierDietaryFiber`: dietary fiber.
    public static let dietaryFiber = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryFiber")
    /// `HKQuantityTypeIdentifierDietarySodium`: dietary sodium.
    public static let dietarySodium = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietarySodium")
    /// `HKQuantityTypeIdentifierDietaryCaffeine`: dietary caffeine.
    public static let dietaryCaffeine = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryCaffeine")
    /// `HKQuantityTypeIdentifierDietaryCalcium`: dietary calcium.
    public static let dietaryCalcium = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryCalcium")
    /// `HKQuantityTypeIdentifierDietaryIron`: dietary iron.
    public static let dietaryIron = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryIron")
    /// `HKQuantityTypeIdentifierDietaryPotassium`: dietary potassium.
    public static let dietaryPotassium = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryPotassium")
    /// `HKQuantityTypeIdentifierDietaryVitaminA`: dietary vitamin a.
    public static let dietaryVitaminA = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryVitaminA")
    /// `HKQuantityTypeIdentifierDietaryVitaminB6`: dietary vitamin b6.
    public static let dietaryVitaminB6 = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryVitaminB6")
    /// `HKQuantityTypeIdentifierDietaryVitaminB12`: dietary vitamin b12.
    public static let dietaryVitaminB12 = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryVitaminB12")
    /// `HKQuantityTypeIdentifierDietaryVitaminC`: dietary vitamin c.
    public static let dietaryVitaminC = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryVitaminC")
    /// `HKQuantityTypeIdentifierDietaryVitaminD`: dietary vitamin d.
    public static let dietaryVitaminD = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryVitaminD")
    /// `HKQuantityTypeIdentifierDietaryVitaminE`: dietary vitamin e.
    public static let dietaryVitaminE = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryVitaminE")
    /// `HKQuantityTypeIdentifierDietaryVitaminK`: dietary vitamin k.
    public static let dietaryVitaminK = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryVitaminK")
    /// `HKQuantityTypeIdentifierDietaryFolate`: dietary folate.
    public static let dietaryFolate = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryFolate")
    /// `HKQuantityTypeIdentifierDietaryMagnesium`: dietary magnesium.
    public static let dietaryMagnesium = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryMagnesium")
    /// `HKQuantityTypeIdentifierDietaryNiacin`: dietary niacin.
    public static let dietaryNiacin = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryNiacin")
    /// `HKQuantityTypeIdentifierDietaryPhosphorus`: dietary phosphorus.
    public static let dietaryPhosphorus = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryPhosphorus")
    /// `HKQuantityTypeIdentifierDietaryRiboflavin`: dietary riboflavin.
    public static let dietaryRiboflavin = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryRiboflavin")
    /// `HKQuantityTypeIdentifierDietaryThiamin`: dietary thiamin.
    public static let dietaryThiamin = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryThiamin")
    /// `HKQuantityTypeIdentifierDietaryZinc`: dietary zinc.
    public static let dietaryZinc = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryZinc")
    /// `HKQuantityTypeIdentifierDietaryBiotin`: dietary biotin.
    public static let dietaryBiotin = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryBiotin")
    /// `HKQuantityTypeIdentifierDietaryChloride`: dietary chloride.
    public static let dietaryChloride = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryChloride")
    /// `HKQuantityTypeIdentifierDietaryChromium`: dietary chromium.
    public static let dietaryChromium = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryChromium")
    /// `HKQuantityTypeIdentifierDietaryCopper`: dietary copper.
    public static let dietaryCopper = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryCopper")
    /// `HKQuantityTypeIdentifierDietaryIodine`: dietary iodine.
    public static let dietaryIodine = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryIodine")
    /// `HKQuantityTypeIdentifierDietaryManganese`: dietary manganese.
    public static let dietaryManganese = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryManganese")
    /// `HKQuantityTypeIdentifierDietaryMolybdenum`: dietary molybdenum.
    public static let dietaryMolybdenum = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryMolybdenum")
    /// `HKQuantityTypeIdentifierDietaryPantothenicAcid`: dietary pantothenic acid.
    public static let dietaryPantothenicAcid = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietaryPantothenicAcid")
    /// `HKQuantityTypeIdentifierDietarySelenium`: dietary selenium.
    public static let dietarySelenium = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierDietarySelenium")
    /// `HKQuantityTypeIdentifierInsulinDelivery`: insulin delivery.
    public static let insulinDelivery = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierInsulinDelivery")
    /// `HKQuantityTypeIdentifierHeartRate`: heart rate.
    public static let heartRate = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierHeartRate")
    /// `HKQuantityTypeIdentifierAtrialFibrillationBurden`: atrial fibrillation burden.
    public static let atrialFibrillationBurden = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierAtrialFibrillationBurden")
    /// `HKQuantityTypeIdentifierRestingHeartRate`: resting heart rate.
    public static let restingHeartRate = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierRestingHeartRate")
    /// `HKQuantityTypeIdentifierWalkingHeartRateAverage`: walking heart rate average.
    public static let walkingHeartRateAverage = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierWalkingHeartRateAverage")
    /// `HKQuantityTypeIdentifierHeartRateRecoveryOneMinute`: heart rate recovery one minute.
    public static let heartRateRecoveryOneMinute = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierHeartRateRecoveryOneMinute")
    /// `HKQuantityTypeIdentifierRespiratoryRate`: respiratory rate.
    public static let respiratoryRate = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierRespiratoryRate")
    /// `HKQuantityTypeIdentifierCyclingCadence`: cycling cadence.
    public static let cyclingCadence = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierCyclingCadence")
    /// `HKQuantityTypeIdentifierHeartRateVariabilitySDNN`: heart rate variability sdnn.
    public static let heartRateVariabilitySDNN = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierHeartRateVariabilitySDNN")
    /// `HKQuantityTypeIdentifierRunningGroundContactTime`: running ground contact time.
    public static let runningGroundContactTime = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierRunningGroundContactTime")
    /// `HKQuantityTypeIdentifierOxygenSaturation`: oxygen saturation.
    public static let oxygenSaturation = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierOxygenSaturation")
    /// `HKQuantityTypeIdentifierBodyFatPercentage`: body fat percentage.
    public static let bodyFatPercentage = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBodyFatPercentage")
    /// `HKQuantityTypeIdentifierWalkingAsymmetryPercentage`: walking asymmetry percentage.
    public static let walkingAsymmetryPercentage = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierWalkingAsymmetryPercentage")
    /// `HKQuantityTypeIdentifierWalkingDoubleSupportPercentage`: walking double support percentage.
    public static let walkingDoubleSupportPercentage = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierWalkingDoubleSupportPercentage")
    /// `HKQuantityTypeIdentifierAppleWalkingSteadiness`: apple walking steadiness.
    public static let appleWalkingSteadiness = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierAppleWalkingSteadiness")
    /// `HKQuantityTypeIdentifierBloodAlcoholContent`: blood alcohol content.
    public static let bloodAlcoholContent = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBloodAlcoholContent")
    /// `HKQuantityTypeIdentifierPeripheralPerfusionIndex`: peripheral perfusion index.
    public static let peripheralPerfusionIndex = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierPeripheralPerfusionIndex")
    /// `HKQuantityTypeIdentifierBodyMass`: body mass.
    public static let bodyMass = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBodyMass")
    /// `HKQuantityTypeIdentifierLeanBodyMass`: lean body mass.
    public static let leanBodyMass = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierLeanBodyMass")
    /// `HKQuantityTypeIdentifierHeight`: height.
    public static let height = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierHeight")
    /// `HKQuantityTypeIdentifierWaistCircumference`: waist circumference.
    public static let waistCircumference = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierWaistCircumference")
    /// `HKQuantityTypeIdentifierWalkingStepLength`: walking step length.
    public static let walkingStepLength = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierWalkingStepLength")
    /// `HKQuantityTypeIdentifierRunningStrideLength`: running stride length.
    public static let runningStrideLength = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierRunningStrideLength")
    /// `HKQuantityTypeIdentifierSixMinuteWalkTestDistance`: six minute walk test distance.
    public static let sixMinuteWalkTestDistance = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierSixMinuteWalkTestDistance")
    /// `HKQuantityTypeIdentifierUnderwaterDepth`: underwater depth.
    public static let underwaterDepth = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierUnderwaterDepth")
    /// `HKQuantityTypeIdentifierRunningVerticalOscillation`: running vertical oscillation.
    public static let runningVerticalOscillation = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierRunningVerticalOscillation")
    /// `HKQuantityTypeIdentifierBodyMassIndex`: body mass index.
    public static let bodyMassIndex = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBodyMassIndex")
    /// `HKQuantityTypeIdentifierUVExposure`: uvexposure.
    public static let uvExposure = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierUVExposure")
    /// `HKQuantityTypeIdentifierAppleSleepingBreathingDisturbances`: apple sleeping breathing disturbances.
    public static let appleSleepingBreathingDisturbances = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierAppleSleepingBreathingDisturbances")
    /// `HKQuantityTypeIdentifierBloodGlucose`: blood glucose.
    public static let bloodGlucose = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBloodGlucose")
    /// `HKQuantityTypeIdentifierBloodPressureSystolic`: blood pressure systolic.
    public static let bloodPressureSystolic = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBloodPressureSystolic")
    /// `HKQuantityTypeIdentifierBloodPressureDiastolic`: blood pressure diastolic.
    public static let bloodPressureDiastolic = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBloodPressureDiastolic")
    /// `HKQuantityTypeIdentifierBodyTemperature`: body temperature.
    public static let bodyTemperature = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBodyTemperature")
    /// `HKQuantityTypeIdentifierBasalBodyTemperature`: basal body temperature.
    public static let basalBodyTemperature = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierBasalBodyTemperature")
    /// `HKQuantityTypeIdentifierAppleSleepingWristTemperature`: apple sleeping wrist temperature.
    public static let appleSleepingWristTemperature = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierAppleSleepingWristTemperature")
    /// `HKQuantityTypeIdentifierWaterTemperature`: water temperature.
    public static let waterTemperature = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierWaterTemperature")
    /// `HKQuantityTypeIdentifierVO2Max`: vo2 max.
    public static let vo2Max = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierVO2Max")
    /// `HKQuantityTypeIdentifierWalkingSpeed`: walking speed.
    public static let walkingSpeed = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierWalkingSpeed")
    /// `HKQuantityTypeIdentifierRunningSpeed`: running speed.
    public static let runningSpeed = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierRunningSpeed")
    /// `HKQuantityTypeIdentifierStairAscentSpeed`: stair ascent speed.
    public static let stairAscentSpeed = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierStairAscentSpeed")
    /// `HKQuantityTypeIdentifierStairDescentSpeed`: stair descent speed.
    public static let stairDescentSpeed = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierStairDescentSpeed")
    /// `HKQuantityTypeIdentifierCyclingSpeed`: cycling speed.
    public static let cyclingSpeed = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierCyclingSpeed")
    /// `HKQuantityTypeIdentifierCrossCountrySkiingSpeed`: cross country skiing speed.
    public static let crossCountrySkiingSpeed = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierCrossCountrySkiingSpeed")
    /// `HKQuantityTypeIdentifierPaddleSportsSpeed`: paddle sports speed.
    public static let paddleSportsSpeed = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierPaddleSportsSpeed")
    /// `HKQuantityTypeIdentifierRowingSpeed`: rowing speed.
    public static let rowingSpeed = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierRowingSpeed")
    /// `HKQuantityTypeIdentifierCyclingPower`: cycling power.
    public static let cyclingPower = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierCyclingPower")
    /// `HKQuantityTypeIdentifierCyclingFunctionalThresholdPower`: cycling functional threshold power.
    public static let cyclingFunctionalThresholdPower = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierCyclingFunctionalThresholdPower")
    /// `HKQuantityTypeIdentifierRunningPower`: running power.
    public static let runningPower = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierRunningPower")
    /// `HKQuantityTypeIdentifierPhysicalEffort`: physical effort.
    public static let physicalEffort = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierPhysicalEffort")
    /// `HKQuantityTypeIdentifierWorkoutEffortScore`: workout effort score.
    public static let workoutEffortScore = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierWorkoutEffortScore")
    /// `HKQuantityTypeIdentifierEstimatedWorkoutEffortScore`: estimated workout effort score.
    public static let estimatedWorkoutEffortScore = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierEstimatedWorkoutEffortScore")
    /// `HKQuantityTypeIdentifierElectrodermalActivity`: electrodermal activity.
    public static let electrodermalActivity = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierElectrodermalActivity")
    /// `HKQuantityTypeIdentifierForcedVitalCapacity`: forced vital capacity.
    public static let forcedVitalCapacity = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierForcedVitalCapacity")
    /// `HKQuantityTypeIdentifierForcedExpiratoryVolume1`: forced expiratory volume1.
    public static let forcedExpiratoryVolume1 = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierForcedExpiratoryVolume1")
    /// `HKQuantityTypeIdentifierPeakExpiratoryFlowRate`: peak expiratory flow rate.
    public static let peakExpiratoryFlowRate = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierPeakExpiratoryFlowRate")
    /// `HKQuantityTypeIdentifierEnvironmentalAudioExposure`: environmental audio exposure.
    public static let environmentalAudioExposure = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierEnvironmentalAudioExposure")
    /// `HKQuantityTypeIdentifierHeadphoneAudioExposure`: headphone audio exposure.
    public static let headphoneAudioExposure = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierHeadphoneAudioExposure")
    /// `HKQuantityTypeIdentifierEnvironmentalSoundReduction`: environmental sound reduction.
    public static let environmentalSoundReduction = HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierEnvironmentalSoundReduction")
}

extension HKCategoryTypeIdentifier {
    /// `HKCategoryTypeIdentifierSleepAnalysis`: sleep analysis.
    public static let sleepAnalysis = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierSleepAnalysis")
    /// `HKCategoryTypeIdentifierAppleStandHour`: apple stand hour.
    public static let appleStandHour = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierAppleStandHour")
    /// `HKCategoryTypeIdentifierMindfulSession`: mindful session.
    public static let mindfulSession = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierMindfulSession")
    /// `HKCategoryTypeIdentifierHighHeartRateEvent`: high heart rate event.
    public static let highHeartRateEvent = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierHighHeartRateEvent")
    /// `HKCategoryTypeIdentifierLowHeartRateEvent`: low heart rate event.
    public static let lowHeartRateEvent = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierLowHeartRateEvent")
    /// `HKCategoryTypeIdentifierIrregularHeartRhythmEvent`: irregular heart rhythm event.
    public static let irregularHeartRhythmEvent = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierIrregularHeartRhythmEvent")
    /// `HKCategoryTypeIdentifierToothbrushingEvent`: toothbrushing event.
    public static let toothbrushingEvent = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierToothbrushingEvent")
    /// `HKCategoryTypeIdentifierHandwashingEvent`: handwashing event.
    public static let handwashingEvent = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierHandwashingEvent")
    /// `HKCategoryTypeIdentifierSexualActivity`: sexual activity.
    public static let sexualActivity = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierSexualActivity")
    /// `HKCategoryTypeIdentifierIntermenstrualBleeding`: intermenstrual bleeding.
    public static let intermenstrualBleeding = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierIntermenstrualBleeding")
    /// `HKCategoryTypeIdentifierPregnancy`: pregnancy.
    public static let pregnancy = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierPregnancy")
    /// `HKCategoryTypeIdentifierLactation`: lactation.
    public static let lactation = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierLactation")
    /// `HKCategoryTypeIdentifierPregnancyTestResult`: pregnancy test result.
    public static let pregnancyTestResult = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierPregnancyTestResult")
    /// `HKCategoryTypeIdentifierProgesteroneTestResult`: progesterone test result.
    public static let progesteroneTestResult = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierProgesteroneTestResult")
    /// `HKCategoryTypeIdentifierInfrequentMenstrualCycles`: infrequent menstrual cycles.
    public static let infrequentMenstrualCycles = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierInfrequentMenstrualCycles")
    /// `HKCategoryTypeIdentifierIrregularMenstrualCycles`: irregular menstrual cycles.
    public static let irregularMenstrualCycles = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierIrregularMenstrualCycles")
    /// `HKCategoryTypeIdentifierPersistentIntermenstrualBleeding`: persistent intermenstrual bleeding.
    public static let persistentIntermenstrualBleeding = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierPersistentIntermenstrualBleeding")
    /// `HKCategoryTypeIdentifierProlongedMenstrualPeriods`: prolonged menstrual periods.
    public static let prolongedMenstrualPeriods = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierProlongedMenstrualPeriods")
    /// `HKCategoryTypeIdentifierAudioExposureEvent`: audio exposure event.
    public static let audioExposureEvent = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierAudioExposureEvent")
    /// `HKCategoryTypeIdentifierBleedingDuringPregnancy`: bleeding during pregnancy.
    public static let bleedingDuringPregnancy = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierBleedingDuringPregnancy")
    /// `HKCategoryTypeIdentifierBleedingAfterPregnancy`: bleeding after pregnancy.
    public static let bleedingAfterPregnancy = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierBleedingAfterPregnancy")
    /// `HKCategoryTypeIdentifierSleepApneaEvent`: sleep apnea event.
    public static let sleepApneaEvent = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierSleepApneaEvent")
    /// `HKCategoryTypeIdentifierAbdominalCramps`: abdominal cramps.
    public static let abdominalCramps = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierAbdominalCramps")
    /// `HKCategoryTypeIdentifierAcne`: acne.
    public static let acne = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierAcne")
    /// `HKCategoryTypeIdentifierBladderIncontinence`: bladder incontinence.
    public static let bladderIncontinence = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierBladderIncontinence")
    /// `HKCategoryTypeIdentifierBloating`: bloating.
    public static let bloating = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierBloating")
    /// `HKCategoryTypeIdentifierBreastPain`: breast pain.
    public static let breastPain = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierBreastPain")
    /// `HKCategoryTypeIdentifierChestTightnessOrPain`: chest tightness or pain.
    public static let chestTightnessOrPain = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierChestTightnessOrPain")
    /// `HKCategoryTypeIdentifierChills`: chills.
    public static let chills = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierChills")
    /// `HKCategoryTypeIdentifierConstipation`: constipation.
    public static let constipation = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierConstipation")
    /// `HKCategoryTypeIdentifierCoughing`: coughing.
    public static let coughing = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierCoughing")
    /// `HKCategoryTypeIdentifierDiarrhea`: diarrhea.
    public static let diarrhea = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierDiarrhea")
    /// `HKCategoryTypeIdentifierDizziness`: dizziness.
    public static let dizziness = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierDizziness")
    /// `HKCategoryTypeIdentifierDrySkin`: dry skin.
    public static let drySkin = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierDrySkin")
    /// `HKCategoryTypeIdentifierFainting`: fainting.
    public static let fainting = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierFainting")
    /// `HKCategoryTypeIdentifierFatigue`: fatigue.
    public static let fatigue = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierFatigue")
    /// `HKCategoryTypeIdentifierFever`: fever.
    public static let fever = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierFever")
    /// `HKCategoryTypeIdentifierGeneralizedBodyAche`: generalized body ache.
    public static let generalizedBodyAche = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierGeneralizedBodyAche")
    /// `HKCategoryTypeIdentifierHairLoss`: hair loss.
    public static let hairLoss = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierHairLoss")
    /// `HKCategoryTypeIdentifierHeadache`: headache.
    public static let headache = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierHeadache")
    /// `HKCategoryTypeIdentifierHeartburn`: heartburn.
    public static let heartburn = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierHeartburn")
    /// `HKCategoryTypeIdentifierHotFlashes`: hot flashes.
    public static let hotFlashes = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierHotFlashes")
    /// `HKCategoryTypeIdentifierLossOfSmell`: loss of smell.
    public static let lossOfSmell = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierLossOfSmell")
    /// `HKCategoryTypeIdentifierLossOfTaste`: loss of taste.
    public static let lossOfTaste = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierLossOfTaste")
    /// `HKCategoryTypeIdentifierLowerBackPain`: lower back pain.
    public static let lowerBackPain = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierLowerBackPain")
    /// `HKCategoryTypeIdentifierMemoryLapse`: memory lapse.
    public static let memoryLapse = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierMemoryLapse")
    /// `HKCategoryTypeIdentifierNausea`: nausea.
    public static let nausea = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierNausea")
    /// `HKCategoryTypeIdentifierNightSweats`: night sweats.
    public static let nightSweats = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierNightSweats")
    /// `HKCategoryTypeIdentifierPelvicPain`: pelvic pain.
    public static let pelvicPain = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierPelvicPain")
    /// `HKCategoryTypeIdentifierRapidPoundingOrFlutteringHeartbeat`: rapid pounding or fluttering heartbeat.
    public static let rapidPoundingOrFlutteringHeartbeat = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierRapidPoundingOrFlutteringHeartbeat")
    /// `HKCategoryTypeIdentifierRunnyNose`: runny nose.
    public static let runnyNose = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierRunnyNose")
    /// `HKCategoryTypeIdentifierShortnessOfBreath`: shortness of breath.
    public static let shortnessOfBreath = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierShortnessOfBreath")
    /// `HKCategoryTypeIdentifierSinusCongestion`: sinus congestion.
    public static let sinusCongestion = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierSinusCongestion")
    /// `HKCategoryTypeIdentifierSkippedHeartbeat`: skipped heartbeat.
    public static let skippedHeartbeat = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierSkippedHeartbeat")
    /// `HKCategoryTypeIdentifierSoreThroat`: sore throat.
    public static let soreThroat = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierSoreThroat")
    /// `HKCategoryTypeIdentifierVaginalDryness`: vaginal dryness.
    public static let vaginalDryness = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierVaginalDryness")
    /// `HKCategoryTypeIdentifierVomiting`: vomiting.
    public static let vomiting = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierVomiting")
    /// `HKCategoryTypeIdentifierWheezing`: wheezing.
    public static let wheezing = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierWheezing")
    /// `HKCategoryTypeIdentifierMoodChanges`: mood changes.
    public static let moodChanges = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierMoodChanges")
    /// `HKCategoryTypeIdentifierSleepChanges`: sleep changes.
    public static let sleepChanges = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierSleepChanges")
    /// `HKCategoryTypeIdentifierMenstrualFlow`: menstrual flow.
    public static let menstrualFlow = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierMenstrualFlow")
    /// `HKCategoryTypeIdentifierAppetiteChanges`: appetite changes.
    public static let appetiteChanges = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierAppetiteChanges")
    /// `HKCategoryTypeIdentifierCervicalMucusQuality`: cervical mucus quality.
    public static let cervicalMucusQuality = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierCervicalMucusQuality")
    /// `HKCategoryTypeIdentifierOvulationTestResult`: ovulation test result.
    public static let ovulationTestResult = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierOvulationTestResult")
    /// `HKCategoryTypeIdentifierContraceptive`: contraceptive.
    public static let contraceptive = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierContraceptive")
    /// `HKCategoryTypeIdentifierEnvironmentalAudioExposureEvent`: environmental audio exposure event.
    public static let environmentalAudioExposureEvent = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierEnvironmentalAudioExposureEvent")
    /// `HKCategoryTypeIdentifierHeadphoneAudioExposureEvent`: headphone audio exposure event.
    public static let headphoneAudioExposureEvent = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierHeadphoneAudioExposureEvent")
    /// `HKCategoryTypeIdentifierLowCardioFitnessEvent`: low cardio fitness event.
    public static let lowCardioFitnessEvent = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierLowCardioFitnessEvent")
    /// `HKCategoryTypeIdentifierAppleWalkingSteadinessEvent`: apple walking steadiness event.
    public static let appleWalkingSteadinessEvent = HKCategoryTypeIdentifier(rawValue: "HKCategoryTypeIdentifierAppleWalkingSteadinessEvent")
}
