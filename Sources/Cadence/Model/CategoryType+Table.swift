//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension CategoryType {
    /// A set of values several types share (HealthKit's `HKCategoryValue…` enumerations): the
    /// export's name prefix, each value's name suffix and raw value, older names, and tracks.
    struct ValueGroup: Sendable {
        let prefix: String
        let values: [(suffix: String, rawValue: Int)]
        var aliases: [(suffix: String, rawValue: Int)] = []
        /// The tracks, when there is more than the one holding every value.
        var tracks: [Set<Int>]? = nil
    }

    /// Every known category type identifier suffix with its values, as data (<doc:HowCadenceComputes#Categories-workouts-and-correlations>).
    static let rows: [(suffixes: [String], values: ValueGroup)] = [
        (["SleepAnalysis"], .sleepAnalysis),
        (["AppleStandHour"], .standHour),
        (["MindfulSession", "HighHeartRateEvent", "LowHeartRateEvent", "IrregularHeartRhythmEvent",
          "ToothbrushingEvent", "HandwashingEvent", "SexualActivity", "IntermenstrualBleeding", "Pregnancy",
          "Lactation", "PregnancyTestResult", "ProgesteroneTestResult", "InfrequentMenstrualCycles",
          "IrregularMenstrualCycles", "PersistentIntermenstrualBleeding", "ProlongedMenstrualPeriods",
          "AudioExposureEvent", "BleedingDuringPregnancy", "BleedingAfterPregnancy", "SleepApneaEvent"], .notApplicable),
        (["AbdominalCramps", "Acne", "BladderIncontinence", "Bloating", "BreastPain", "ChestTightnessOrPain", "Chills",
          "Constipation", "Coughing", "Diarrhea", "Dizziness", "DrySkin", "Fainting", "Fatigue", "Fever",
          "GeneralizedBodyAche", "HairLoss", "Headache", "Heartburn", "HotFlashes", "LossOfSmell", "LossOfTaste",
          "LowerBackPain", "MemoryLapse", "Nausea", "NightSweats", "PelvicPain", "RapidPoundingOrFlutteringHeartbeat",
          "RunnyNose", "ShortnessOfBreath", "SinusCongestion", "SkippedHeartbeat", "SoreThroat", "VaginalDryness",
          "Vomiting", "Wheezing"], .severity),
        (["MoodChanges", "SleepChanges"], .presence),
        (["MenstrualFlow"], .menstrualFlow),
        (["AppetiteChanges"], .appetiteChanges),
        (["CervicalMucusQuality"], .cervicalMucusQuality),
        (["OvulationTestResult"], .ovulationTestResult),
        (["Contraceptive"], .contraceptive),
        (["EnvironmentalAudioExposureEvent"], .environmentalAudioExposureEvent),
        (["HeadphoneAudioExposureEvent"], .headphoneAudioExposureEvent),
        (["LowCardioFitnessEvent"], .lowCardioFitnessEvent),
        (["AppleWalkingSteadinessEvent"], .walkingSteadinessEvent),
    ]

    static let valueGroupsBySuffix: [String: ValueGroup] = Dictionary(
        rows.flatMap { row in row.suffixes.map { ($0, row.values) } }, uniquingKeysWith: { first, _ in first })

    static let suffixesByLowercasedShortIdentifier: [String: String] = Dictionary(
        valueGroupsBySuffix.keys.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })

    /// Every value-name prefix, longest first (so a specific group wins over `HKCategoryValue`).
    static let valueGroupPrefixes: [String] = Set(rows.map(\.values.prefix)).sorted { $0.count > $1.count }
}

extension CategoryType.ValueGroup {
    static let sleepAnalysis = Self(
        prefix: "HKCategoryValueSleepAnalysis",
        values: [("InBed", 0), ("AsleepUnspecified", 1), ("Awake", 2), ("AsleepCore", 3), ("AsleepDeep", 4), ("AsleepREM", 5)],
        // Exports from before iOS 16 write the unspecified stage as plain "Asleep".
        aliases: [("Asleep", 1)],
        // In-bed records overlap sleep records by design (How Cadence computes: Category durations).
        tracks: [[0], [1, 2, 3, 4, 5]])
    static let standHour = Self(prefix: "HKCategoryValueAppleStandHour", values: [("Stood", 0), ("Idle", 1)])
    static let notApplicable = Self(prefix: "HKCategoryValue", values: [("NotApplicable", 0)])
    static let severity = Self(
        prefix: "HKCategoryValueSeverity",
        values: [("Unspecified", 0), ("NotPresent", 1), ("Mild", 2), ("Moderate", 3), ("Severe", 4)])
    static let presence = Self(prefix: "HKCategoryValuePresence", values: [("Present", 0), ("NotPresent", 1)])
    static let menstrualFlow = Self(
        prefix: "HKCategoryValueMenstrualFlow",
        values: [("Unspecified", 1), ("Light", 2), ("Medium", 3), ("Heavy", 4), ("None", 5)])
    static let appetiteChanges = Self(
        prefix: "HKCategoryValueAppetiteChanges",
        values: [("Unspecified", 0), ("NoChange", 1), ("Decreased", 2), ("Increased", 3)])
    static let cervicalMucusQuality = Self(
        prefix: "HKCategoryValueCervicalMucusQuality",
        values: [("Dry", 1), ("Sticky", 2), ("Creamy", 3), ("Watery", 4), ("EggWhite", 5)])
    static let ovulationTestResult = Self(
        prefix: "HKCategoryValueOvulationTestResult",
        values: [("Negative", 1), ("LuteinizingHormoneSurge", 2), ("Indeterminate", 3), ("EstrogenSurge", 4)],
        aliases: [("Positive", 2)])
    static let contraceptive = Self(
        prefix: "HKCategoryValueContraceptive",
        values: [("Unspecified", 1), ("Implant", 2), ("Injection", 3), ("IntrauterineDevice", 4),
                 ("IntravaginalRing", 5), ("Oral", 6), ("Patch", 7)])
    static let environmentalAudioExposureEvent = Self(
        prefix: "HKCategoryValueEnvironmentalAudioExposureEvent", values: [("MomentaryLimit", 1)])
    static let headphoneAudioExposureEvent = Self(
        prefix: "HKCategoryValueHeadphoneAudioExposureEvent", values: [("SevenDayLimit", 1)])
    static let lowCardioFitnessEvent = Self(prefix: "HKCategoryValueLowCardioFitnessEvent", values: [("LowFitness", 1)])
    static let walkingSteadinessEvent = Self(
        prefix: "HKCategoryValueAppleWalkingSteadinessEvent",
        values: [("InitialLow", 1), ("InitialVeryLow", 2), ("RepeatLow", 3), ("RepeatVeryLow", 4)])
}
