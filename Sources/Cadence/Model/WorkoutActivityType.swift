//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The kind of activity a workout records (HealthKit's `HKWorkoutActivityType`).
///
///     let run = WorkoutActivityType.running
///     run.identifier                       // "HKWorkoutActivityTypeRunning"
///     run.rawValue                         // 37
///     WorkoutActivityType("running")       // the same type
///
/// Known types come from a table of HealthKit's raw values and the names exports write
/// (``WorkoutActivityType/known``), deprecated ones included since old exports carry them. A name
/// Cadence does not know is kept verbatim, with no raw value, so imported workouts are never dropped
/// or renamed.
public struct WorkoutActivityType: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The name as exports write it, such as `HKWorkoutActivityTypeRunning`.
    public let identifier: String

    /// The prefix every HealthKit workout activity type name starts with.
    public static let identifierPrefix = "HKWorkoutActivityType"

    /// A type by its name: long (`HKWorkoutActivityTypeRunning`), or short (`running`, in any letter
    /// case) for a known type. A long name Cadence does not know is kept as it is; a short one gets
    /// the prefix and an uppercase first letter.
    public init(_ name: String) {
        if !name.hasExactPrefix(Self.identifierPrefix), let known = Self.tableByLowercasedShortName.exactly(name.lowercased()) {
            identifier = known.name
        } else {
            identifier = HealthKitIdentifier.prefixed(name, Self.identifierPrefix)
        }
    }

    /// The known type with HealthKit's raw value, or `nil` when no type has it.
    public init?(rawValue: UInt) {
        guard let entry = Self.table.first(where: { $0.rawValue == rawValue }) else { return nil }
        identifier = entry.name
    }

    /// HealthKit's raw value, or `nil` for a type Cadence does not know.
    public var rawValue: UInt? { Self.rawValuesByName.exactly(identifier) }

    /// Whether the type appears in Cadence's table.
    public var isKnown: Bool { rawValue != nil }

    /// The name without its prefix, lowercased at the front: `HKWorkoutActivityTypeRunning` → `running`.
    public var shortName: String {
        guard identifier.hasPrefix(Self.identifierPrefix) else { return identifier }
        let suffix = identifier.dropFirst(Self.identifierPrefix.count)
        guard let first = suffix.first else { return identifier }
        return first.lowercased() + suffix.dropFirst()
    }

    /// Every type in Cadence's table, in raw-value order.
    public static var known: [WorkoutActivityType] { table.map { WorkoutActivityType(verbatim: $0.name) } }

    public var description: String { identifier }

    private init(verbatim identifier: String) { self.identifier = identifier }

    private static let rawValuesByName: [String: UInt] =
        Dictionary(uniqueKeysWithValues: table.map { ($0.name, $0.rawValue) })
    private static let tableByLowercasedShortName: [String: (rawValue: UInt, name: String)] =
        Dictionary(uniqueKeysWithValues: table.map {
            (String($0.name.dropFirst(identifierPrefix.count)).lowercased(), $0)
        })

    /// HealthKit's raw values and export names (`HKWorkoutActivityType` as of iOS 18), as data.
    private static let table: [(rawValue: UInt, name: String)] = [
        (1, "AmericanFootball"), (2, "Archery"), (3, "AustralianFootball"), (4, "Badminton"), (5, "Baseball"),
        (6, "Basketball"), (7, "Bowling"), (8, "Boxing"), (9, "Climbing"), (10, "Cricket"), (11, "CrossTraining"),
        (12, "Curling"), (13, "Cycling"), (14, "Dance"), (15, "DanceInspiredTraining"), (16, "Elliptical"),
        (17, "EquestrianSports"), (18, "Fencing"), (19, "Fishing"), (20, "FunctionalStrengthTraining"),
        (21, "Golf"), (22, "Gymnastics"), (23, "Handball"), (24, "Hiking"), (25, "Hockey"), (26, "Hunting"),
        (27, "Lacrosse"), (28, "MartialArts"), (29, "MindAndBody"), (30, "MixedMetabolicCardioTraining"),
        (31, "PaddleSports"), (32, "Play"), (33, "PreparationAndRecovery"), (34, "Racquetball"), (35, "Rowing"),
        (36, "Rugby"), (37, "Running"), (38, "Sailing"), (39, "SkatingSports"), (40, "SnowSports"),
        (41, "Soccer"), (42, "Softball"), (43, "Squash"), (44, "StairClimbing"), (45, "SurfingSports"),
        (46, "Swimming"), (47, "TableTennis"), (48, "Tennis"), (49, "TrackAndField"),
        (50, "TraditionalStrengthTraining"), (51, "Volleyball"), (52, "Walking"), (53, "WaterFitness"),
        (54, "WaterPolo"), (55, "WaterSports"), (56, "Wrestling"), (57, "Yoga"), (58, "Barre"),
        (59, "CoreTraining"), (60, "CrossCountrySkiing"), (61, "DownhillSkiing"), (62, "Flexibility"),
        (63, "HighIntensityIntervalTraining"), (64, "JumpRope"), (65, "Kickboxing"), (66, "Pilates"),
        (67, "Snowboarding"), (68, "Stairs"), (69, "StepTraining"), (70, "WheelchairWalkPace"),
        (71, "WheelchairRunPace"), (72, "TaiChi"), (73, "MixedCardio"), (74, "HandCycling"), (75, "DiscSports"),
        (76, "FitnessGaming"), (77, "CardioDance"), (78, "SocialDance"), (79, "Pickleball"), (80, "Cooldown"),
        (82, "SwimBikeRun"), (83, "Transition"), (84, "UnderwaterDiving"), (3000, "Other"),
    ].map { ($0.0, identifierPrefix + $0.1) }
}

extension WorkoutActivityType {
    /// `HKWorkoutActivityTypeRunning` (37).
    public static let running = WorkoutActivityType(verbatim: "HKWorkoutActivityTypeRunning")
    /// `HKWorkoutActivityTypeWalking` (52).
    public static let walking = WorkoutActivityType(verbatim: "HKWorkoutActivityTypeWalking")
    /// `HKWorkoutActivityTypeCycling` (13).
    public static let cycling = WorkoutActivityType(verbatim: "HKWorkoutActivityTypeCycling")
    /// `HKWorkoutActivityTypeSwimming` (46).
    public static let swimming = WorkoutActivityType(verbatim: "HKWorkoutActivityTypeSwimming")
    /// `HKWorkoutActivityTypeHiking` (24).
    public static let hiking = WorkoutActivityType(verbatim: "HKWorkoutActivityTypeHiking")
    /// `HKWorkoutActivityTypeYoga` (57).
    public static let yoga = WorkoutActivityType(verbatim: "HKWorkoutActivityTypeYoga")
    /// `HKWorkoutActivityTypeTraditionalStrengthTraining` (50).
    public static let traditionalStrengthTraining =
        WorkoutActivityType(verbatim: "HKWorkoutActivityTypeTraditionalStrengthTraining")
    /// `HKWorkoutActivityTypeHighIntensityIntervalTraining` (63).
    public static let highIntensityIntervalTraining =
        WorkoutActivityType(verbatim: "HKWorkoutActivityTypeHighIntensityIntervalTraining")
    /// `HKWorkoutActivityTypeSwimBikeRun` (82), a multisport workout made of activities.
    public static let swimBikeRun = WorkoutActivityType(verbatim: "HKWorkoutActivityTypeSwimBikeRun")
    /// `HKWorkoutActivityTypeOther` (3000).
    public static let other = WorkoutActivityType(verbatim: "HKWorkoutActivityTypeOther")
}
