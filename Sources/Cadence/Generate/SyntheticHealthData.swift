//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// Longer than most files on purpose: one generator per profile, each a small model of a person's
// day (sleep, walks, workouts, devices) whose parts share its random stream and its calendar.

import Foundation

/// A deterministic generator of synthetic health data, for demonstrations, benchmarks and tests.
///
///     let data = SyntheticHealthData(profile: .realistic, seed: 7, size: .days(30))
///     try data.generate(batchSize: 65_536) { batch in
///         try store.save(batch)
///     }
///
/// The data comes in streaming pieces: ``generate(batchSize:_:)`` works one day at a time and
/// hands over each ``QuantitySampleBatch`` as soon as it is full, so generating a hundred million
/// samples never holds more than a few batches in memory.
///
/// **Determinism.** The same profile, seed, start and size always produce the same samples in
/// the same order, byte for byte, whatever the batch size (only the cut between batches moves).
/// Each day of the realistic profile draws from its own random stream
/// (``SeededRandom/init(seed:stream:)``), so days are independent of each other.
///
/// **Time.** Days begin at ``startTimestamp`` and last 24 hours; the realistic profile treats that
/// instant as the person's local midnight (waking at 06:30–08:00, asleep from 22:00–23:45).
/// Every time is a whole second, as in Apple Health exports.
///
/// **Speed.** Generation uses integer microsecond arithmetic and no `Date`, `Calendar` or
/// allocation per sample; a release build produces well over ten million samples a second.
public struct SyntheticHealthData: Sendable {
    /// How much data to generate.
    public enum Size: Sendable, Hashable {
        /// Whole days from the start date.
        ///
        /// The realistic profile produces about 1,800 samples a day (the exact number depends on
        /// the seed); the dense profile exactly 17,280.
        case days(Int)

        /// Exactly this many samples in all types together.
        ///
        /// Days are generated until the count is reached; the last day is cut short at that point,
        /// so with the realistic profile it may lack the types that come later in a day's order
        /// (heart rate, step count, active energy, body mass).
        case samples(Int)
    }

    /// The kind of data to generate.
    public var profile: SyntheticProfile
    /// The seed every random draw derives from.
    public var seed: UInt64
    /// The start of the first day, microseconds since 1970.
    public var startTimestamp: Timestamp
    /// How much data to generate.
    public var size: Size

    /// 2024-01-01T00:00:00Z, the default start of the first day, in microseconds since 1970.
    public static let defaultStartTimestamp: Timestamp = 1_704_067_200_000_000

    /// 2024-01-01T00:00:00Z, the default start of the first day.
    public static var defaultStartDate: Date { Date(timeIntervalSince1970: 1_704_067_200) }

    /// The most days one generator produces, whatever its size (about 2,700 years).
    public static let maximumDays = 1_000_000

    /// The most samples a ``Size/samples(_:)`` size may ask for.
    public static let maximumSamples = 1_000_000_000

    /// The number of samples the dense profile produces per day: one every 5 seconds.
    public static let denseSamplesPerDay = 17_280

    /// Creates a generator starting at a `Date`.
    ///
    /// The date is rounded to the nearest microsecond.
    ///
    /// - Parameters:
    ///   - profile: The kind of data; ``SyntheticProfile/realistic`` by default.
    ///   - seed: The seed; 1 by default.
    ///   - startDate: The start of the first day; 2024-01-01T00:00:00Z by default.
    ///   - size: How much data to generate.
    public init(profile: SyntheticProfile = .realistic, seed: UInt64 = 1,
                startDate: Date = SyntheticHealthData.defaultStartDate, size: Size) {
        self.init(profile: profile, seed: seed,
                  startTimestamp: Timestamp((startDate.timeIntervalSince1970 * 1_000_000).rounded()), size: size)
    }

    /// Creates a generator starting at a timestamp.
    ///
    /// - Parameters:
    ///   - profile: The kind of data.
    ///   - seed: The seed.
    ///   - startTimestamp: The start of the first day, microseconds since 1970.
    ///   - size: How much data to generate.
    public init(profile: SyntheticProfile, seed: UInt64, startTimestamp: Timestamp, size: Size) {
        self.profile = profile
        self.seed = seed
        self.startTimestamp = startTimestamp
        self.size = size
    }

    /// The start of the first day as a `Date`.
    public var startDate: Date { Date(timeIntervalSince1970: Double(startTimestamp) / 1_000_000) }

    /// The types the profile generates, in the order each day produces them.
    public var quantityTypes: [QuantityType] {
        switch profile {
        case .realistic: [.heartRate, .stepCount, .activeEnergyBurned, .bodyMass]
        case .dense: [.heartRate]
        }
    }

    /// The sources the profile's samples come from, in order of first appearance.
    public var provenances: [Provenance] {
        switch profile {
        case .realistic: [Self.watchProvenance, Self.phoneProvenance, Self.scaleProvenance]
        case .dense: [Self.watchProvenance]
        }
    }

    /// The number of samples ``generate(batchSize:_:)`` will produce, when it is known without
    /// generating them: any ``Size/samples(_:)`` size, and the dense profile by days. `nil` for
    /// the realistic profile sized in days, whose daily count depends on the seed.
    public var expectedSampleCount: Int? {
        switch (size, profile) {
        case (.samples(let count), _): count
        case (.days(let days), .dense): days * Self.denseSamplesPerDay
        case (.days, .realistic): nil
        }
    }

    // MARK: Sources

    /// The Apple Watch source (`Alex’s Apple Watch`, watchOS 10.1, `Watch6,2`): heart rate, active
    /// energy and step counts.
    public static let watchProvenance = Provenance(
        source: Source(name: "Alex’s Apple Watch",
                       bundleIdentifier: "com.apple.health.6A1D1F2C-8B3E-4C57-9E0A-2F6B7D3C5E91"),
        sourceVersion: "10.1",
        device: Device(description: "<<HKDevice: 0x2836a4f00>, name:Apple Watch, manufacturer:Apple Inc., "
            + "model:Watch, hardware:Watch6,2, software:10.1>"))

    /// The iPhone source (`Alex’s iPhone`, iOS 17.1, `iPhone15,2`): step counts that overlap the
    /// Watch's.
    public static let phoneProvenance = Provenance(
        source: Source(name: "Alex’s iPhone",
                       bundleIdentifier: "com.apple.health.B47E0C9A-13D2-4F6E-A8C5-7D90E2B1F364"),
        sourceVersion: "17.1",
        device: Device(description: "<<HKDevice: 0x2836a5a40>, name:iPhone, manufacturer:Apple Inc., "
            + "model:iPhone, hardware:iPhone15,2, software:17.1>"))

    /// The scale app's source (`Withings`): body mass, with no device.
    public static let scaleProvenance = Provenance(
        source: Source(name: "Withings", bundleIdentifier: "com.withings.wiScaleNG"),
        sourceVersion: "6.3.1")

    /// The metadata key of the heart rate motion context (`"0"` sedentary, `"1"` active).
    public static let heartRateMotionContextKey = "HKMetadataKeyHeartRateMotionContext"

    // MARK: Generating

    /// Generates the data and passes it to `body` in batches of at most `batchSize` samples.
    ///
    /// Each batch holds one type. The data is produced one day at a time: within a type, samples
    /// come in ascending start order (step counts from the Watch and the iPhone interleaved), and
    /// batches are handed over as soon as they fill, then the partly filled ones at the end, in
    /// the order of ``quantityTypes``. A batch is not used again after `body` returns, so `body`
    /// may keep it.
    ///
    /// - Parameters:
    ///   - batchSize: The most samples in one batch; 65,536 by default.
    ///   - body: Called with each batch; an error it throws stops the generation and is rethrown.
    /// - Throws: ``CadenceError/Code/invalidArgument`` for a batch size below 1, a negative size,
    ///   more than ``maximumDays`` days or ``maximumSamples`` samples, or a start outside the years
    ///   1–9999; otherwise only what `body` throws.
    /// - Complexity: O(*n*) time for *n* samples; memory for a few batches, whatever *n*.
    public func generate(batchSize: Int = 65_536, _ body: (QuantitySampleBatch) throws -> Void) throws {
        guard batchSize >= 1 else {
            throw CadenceError(.invalidArgument, "the batch size must be at least 1, not \(batchSize)")
        }
        guard startTimestamp >= Self.earliestStart, startTimestamp <= Self.latestStart else {
            throw CadenceError(.invalidArgument, "the start \(startTimestamp) µs is outside the years 1–9999")
        }
        let days: Int
        let limit: Int
        switch size {
        case .days(let count):
            guard count >= 0, count <= Self.maximumDays else {
                throw CadenceError(.invalidArgument, "the number of days must be in 0...\(Self.maximumDays), not \(count)")
            }
            days = count
            limit = Int.max
        case .samples(let count):
            guard count >= 0, count <= Self.maximumSamples else {
                throw CadenceError(.invalidArgument,
                                   "the number of samples must be in 0...\(Self.maximumSamples), not \(count)")
            }
            days = Self.maximumDays
            limit = count
        }
        switch profile {
        case .realistic:
            try generateRealistic(days: days, limit: limit, batchSize: batchSize, body)
        case .dense:
            try generateDense(days: days, limit: limit, batchSize: batchSize, body)
        }
    }

    /// Generates all the data into an array of batches.
    ///
    /// Convenient for small sizes (tests, examples); use ``generate(batchSize:_:)`` for large ones.
    ///
    /// - Parameter batchSize: The most samples in one batch.
    /// - Returns: The batches, in the order ``generate(batchSize:_:)`` produces them.
    /// - Throws: As ``generate(batchSize:_:)``.
    /// - Complexity: O(*n*) time and memory for *n* samples.
    public func batches(batchSize: Int = 65_536) throws -> [QuantitySampleBatch] {
        var result: [QuantitySampleBatch] = []
        try generate(batchSize: batchSize) { result.append($0) }
        return result
    }

    // MARK: Internals

    static let earliestStart: Timestamp = -62_135_596_800_000_000  // 0001-01-01T00:00:00Z
    static let latestStart: Timestamp = 253_402_214_400_000_000  // 9999-12-31T00:00:00Z
    static let microsecondsPerSecond: Int64 = 1_000_000
    static let microsecondsPerDay: Int64 = 86_400_000_000
    static let secondsPerDay = 86_400

    private static let motionSedentary = [heartRateMotionContextKey: "0"]
    private static let motionActive = [heartRateMotionContextKey: "1"]

    // Batch slots of the realistic profile, and the provenance indexes inside each batch.
    private enum Slot {
        static let heartRate = 0
        static let stepCount = 1
        static let activeEnergy = 2
        static let bodyMass = 3
    }

    private enum ProvenanceIndex {
        static let watch = 0
        static let phone = 1  // in step count batches, after the Watch
        static let scale = 0  // in body mass batches
    }

    /// The dense profile: heart rate every 5 seconds, a mean-reverting random walk drawn from a
    /// single random stream so that it continues smoothly across midnight.
    private func generateDense(days: Int, limit: Int, batchSize: Int,
                               _ body: (QuantitySampleBatch) throws -> Void) throws {
        var emitter = BatchEmitter(slots: [(.heartRate, [Self.watchProvenance])], batchSize: batchSize, limit: limit)
        var random = SeededRandom(seed: seed, stream: UInt64.max)
        var level = 70.0
        var velocity = 0.0
        var target = 70.0
        let step = 5 * Self.microsecondsPerSecond
        var day = 0
        while day < days, emitter.remaining > 0 {
            var time = startTimestamp + Int64(day) * Self.microsecondsPerDay
            for index in 0..<Self.denseSamplesPerDay {
                if index % 720 == 0 {  // every hour, a new level to drift towards
                    target = min(max(target + 12 * random.bell(), 52), 150)
                }
                velocity = velocity * 0.94 + 0.25 * random.bell() + (target - level) * 0.0015
                level = min(max(level + velocity, 38), 195)
                try emitter.append(0, start: time, end: time, value: Self.rounded(level), provenance: ProvenanceIndex.watch)
                time += step
            }
            try emitter.drain(body)
            day += 1
        }
        try emitter.finish(body)
    }

    /// The realistic profile, one day at a time.
    private func generateRealistic(days: Int, limit: Int, batchSize: Int,
                                   _ body: (QuantitySampleBatch) throws -> Void) throws {
        var emitter = BatchEmitter(
            slots: [(.heartRate, [Self.watchProvenance]),
                    (.stepCount, [Self.watchProvenance, Self.phoneProvenance]),
                    (.activeEnergyBurned, [Self.watchProvenance]),
                    (.bodyMass, [Self.scaleProvenance])],
            batchSize: batchSize, limit: limit)
        var plan = DayPlan()
        var steps: [StepSample] = []
        var day = 0
        while day < days, emitter.remaining > 0 {
            var random = SeededRandom(seed: seed, stream: UInt64(day))
            let dayStart = startTimestamp + Int64(day) * Self.microsecondsPerDay
            plan.draw(using: &random)
            try emitHeartRate(plan, dayStart: dayStart, random: &random, emitter: &emitter)
            try emitSteps(plan, dayStart: dayStart, random: &random, scratch: &steps, emitter: &emitter)
            try emitActiveEnergy(plan, dayStart: dayStart, random: &random, emitter: &emitter)
            try emitBodyMass(plan, day: day, dayStart: dayStart, random: &random, emitter: &emitter)
            try emitter.drain(body)
            day += 1
        }
        try emitter.finish(body)
    }

    /// `value` rounded to the nearest integer, halves away from zero, without a call into the C
    /// library (generated values are far below 2⁶³).
    @inline(__always)
    static func rounded(_ value: Double) -> Double {
        value >= 0 ? Double(Int64(value + 0.5)) : -Double(Int64(0.5 - value))
    }

    @inline(__always)
    private static func timestamp(_ dayStart: Timestamp, _ second: Int) -> Timestamp {
        dayStart + Int64(second) * microsecondsPerSecond
    }

    /// Heart rate: a background reading every 4–6 minutes (none while charging), and a reading
    /// every 5 seconds during the workout.
    private func emitHeartRate(_ plan: DayPlan, dayStart: Timestamp, random: inout SeededRandom,
                               emitter: inout BatchEmitter) throws {
        var second = random.integer(in: 0...299)
        var workoutDone = false
        var cursor = ActivityCursor()
        while second < Self.secondsPerDay {
            if second >= plan.chargeStart && second < plan.chargeEnd {
                second = plan.chargeEnd + random.integer(in: 30...240)
                continue
            }
            if !workoutDone && second >= plan.workoutStart {
                workoutDone = true
                try emitWorkoutHeartRate(plan, dayStart: dayStart, random: &random, emitter: &emitter)
                second = plan.workoutEnd + random.integer(in: 60...300)
                continue
            }
            let activity = cursor.activity(at: second, in: plan)
            let noise = random.bell()
            let beats: Double
            switch activity {
            case .asleep: beats = plan.restingHeartRate - 1 + 6 * noise
            case .sedentary: beats = plan.restingHeartRate + 16 + 18 * noise
            case .walking(let cadence): beats = 78 + (cadence - 80) * 0.6 + 15 * noise
            case .workout: beats = plan.workoutHeartRate + 10 * noise
            }
            let time = Self.timestamp(dayStart, second)
            if activity != .asleep && random.chance(0.1) {
                let metadata = activity == .sedentary ? Self.motionSedentary : Self.motionActive
                try emitter.append(Slot.heartRate, start: time, end: time, value: Self.rounded(beats),
                                   provenance: ProvenanceIndex.watch, metadata: metadata)
            } else {
                try emitter.append(Slot.heartRate, start: time, end: time, value: Self.rounded(beats),
                                   provenance: ProvenanceIndex.watch)
            }
            second += random.integer(in: 240...360)
        }
    }

    /// The workout's heart rate: every 5 seconds, warming up, holding near the day's workout
    /// rate, then cooling down.
    private func emitWorkoutHeartRate(_ plan: DayPlan, dayStart: Timestamp, random: inout SeededRandom,
                                      emitter: inout BatchEmitter) throws {
        var level = plan.restingHeartRate + 30
        let coolDownStart = plan.workoutEnd - 240
        let warmUpEnd = plan.workoutStart + 300
        var second = plan.workoutStart
        while second < plan.workoutEnd {
            let goal: Double
            if second < warmUpEnd {
                let progress = Double(second - plan.workoutStart) / 300
                goal = plan.restingHeartRate + 30 + (plan.workoutHeartRate - plan.restingHeartRate - 30) * progress
            } else if second >= coolDownStart {
                goal = plan.restingHeartRate + 40
            } else {
                goal = plan.workoutHeartRate
            }
            level += (goal - level) * 0.05 + 1.5 * random.bell()
            let time = Self.timestamp(dayStart, second)
            try emitter.append(Slot.heartRate, start: time, end: time, value: Self.rounded(level),
                               provenance: ProvenanceIndex.watch)
            second += 5
        }
    }

    /// Step counts from the Watch and the iPhone, merged in start order: both record the same
    /// walks and the same pottering about, each in its own pieces, so the source-merged day counts
    /// each step about once.
    private func emitSteps(_ plan: DayPlan, dayStart: Timestamp, random: inout SeededRandom,
                           scratch steps: inout [StepSample], emitter: inout BatchEmitter) throws {
        steps.removeAll(keepingCapacity: true)
        var pottering = plan.pottering
        Self.drawPottering(plan, random: &random, into: &pottering)
        Self.drawWatchSteps(plan, pottering: pottering, random: &random, into: &steps)
        Self.drawPhoneSteps(plan, pottering: pottering, random: &random, into: &steps)
        steps.sort { ($0.start, $0.provenance) < ($1.start, $1.provenance) }
        for sample in steps {
            try emitter.append(Slot.stepCount, start: Self.timestamp(dayStart, sample.start),
                               end: Self.timestamp(dayStart, sample.end), value: Double(sample.count),
                               provenance: sample.provenance)
        }
    }

    /// Short periods of pottering about between the walks, from waking to bedtime: 1–5 minutes
    /// of 6–90 steps, 10–45 minutes apart.
    private static func drawPottering(_ plan: DayPlan, random: inout SeededRandom, into periods: inout [StepSample]) {
        periods.removeAll(keepingCapacity: true)
        var second = plan.wake + random.integer(in: 60...900)
        var boutIndex = 0
        while true {
            let length = random.integer(in: 60...300)
            if second + length > plan.bedtime { return }
            while boutIndex < plan.bouts.count && plan.bouts[boutIndex].end + 60 <= second { boutIndex += 1 }
            if boutIndex < plan.bouts.count && plan.bouts[boutIndex].start - 60 < second + length {
                second = plan.bouts[boutIndex].end + random.integer(in: 300...1800)
                continue
            }
            periods.append(StepSample(start: second, end: second + length, count: random.integer(in: 6...90),
                                      provenance: ProvenanceIndex.watch))
            second += length + random.integer(in: 600...2700)
        }
    }

    /// The Watch's steps: 1–5-minute pieces of every walk and of the workout, and each period of
    /// pottering, except while it charges.
    private static func drawWatchSteps(_ plan: DayPlan, pottering: [StepSample], random: inout SeededRandom,
                                       into steps: inout [StepSample]) {
        for bout in plan.bouts {
            var pieceStart = bout.start
            while pieceStart < bout.end {
                let length = min(random.integer(in: 60...300), bout.end - pieceStart)
                let count = bout.cadence * Double(length) / 60 * (1 + 0.06 * random.bell())
                steps.append(StepSample(start: pieceStart, end: pieceStart + length,
                                        count: max(1, Int(Self.rounded(count))), provenance: ProvenanceIndex.watch))
                pieceStart += length
            }
        }
        for period in pottering where period.end <= plan.chargeStart || period.start >= plan.chargeEnd {
            steps.append(period)
        }
    }

    /// The iPhone's steps: 1–10-minute pieces of the walks it was carried on and most of the
    /// pottering periods, starting up to a minute or so after the Watch's and ending before them
    /// (it is picked up and put down), counting somewhat differently.
    private static func drawPhoneSteps(_ plan: DayPlan, pottering: [StepSample], random: inout SeededRandom,
                                       into steps: inout [StepSample]) {
        for bout in plan.bouts where bout.phoneCarried {
            let windowStart = bout.start + random.integer(in: 0...90)
            let windowEnd = max(bout.end - random.integer(in: 0...90), windowStart + 60)
            let factor = 0.86 + 0.16 * random.unitDouble()
            var pieceStart = windowStart
            while pieceStart < windowEnd {
                let length = min(random.integer(in: 60...600), windowEnd - pieceStart)
                let count = bout.cadence * factor * Double(length) / 60 * (1 + 0.05 * random.bell())
                steps.append(StepSample(start: pieceStart, end: pieceStart + length,
                                        count: max(1, Int(Self.rounded(count))), provenance: ProvenanceIndex.phone))
                pieceStart += length
            }
        }
        for period in pottering where random.chance(0.6) {
            let length = period.end - period.start
            let start = period.start + random.integer(in: 0...(length / 4))
            let end = period.end - random.integer(in: 0...(length / 4))
            let share = Double(end - start) / Double(length) * (0.85 + 0.25 * random.unitDouble())
            steps.append(StepSample(start: start, end: end, count: max(1, Int(Self.rounded(Double(period.count) * share))),
                                    provenance: ProvenanceIndex.phone))
        }
    }

    /// Active energy: consecutive 1-minute Watch samples from waking to bedtime, except while
    /// charging, with three decimals.
    private func emitActiveEnergy(_ plan: DayPlan, dayStart: Timestamp, random: inout SeededRandom,
                                  emitter: inout BatchEmitter) throws {
        var cursor = ActivityCursor()
        var second = plan.wake + random.integer(in: 0...59)
        while second + 60 <= plan.bedtime {
            if second + 60 > plan.chargeStart && second < plan.chargeEnd {
                second = plan.chargeEnd + random.integer(in: 0...59)
                continue
            }
            let kilocalories: Double
            switch cursor.activity(at: second, in: plan) {
            case .asleep, .sedentary:
                let draw = random.unitDouble()
                kilocalories = 0.04 + 0.9 * draw * draw
            case .walking(let cadence):
                kilocalories = 2.6 + (cadence - 90) * 0.05 + 0.8 * random.bell()
            case .workout:
                kilocalories = 10.5 + 3 * random.bell()
            }
            let thousandths = max(1, Self.rounded(kilocalories * 1000))
            try emitter.append(Slot.activeEnergy, start: Self.timestamp(dayStart, second),
                               end: Self.timestamp(dayStart, second + 60), value: thousandths / 1000,
                               provenance: ProvenanceIndex.watch)
            second += 60
        }
    }

    /// Body mass: on most mornings, a reading with one decimal shortly after waking, following
    /// slow seasonal swings.
    private func emitBodyMass(_ plan: DayPlan, day: Int, dayStart: Timestamp, random: inout SeededRandom,
                              emitter: inout BatchEmitter) throws {
        guard random.chance(0.85) else { return }
        let second = plan.wake + random.integer(in: 180...1200)
        let seasonal = 2.2 * sin(2 * Double.pi * Double(day) / 365.25) + 1.1 * sin(2 * Double.pi * Double(day) / 97)
        let kilograms = 74.0 + seasonal + 0.7 * random.bell()
        let time = Self.timestamp(dayStart, second)
        try emitter.append(Slot.bodyMass, start: time, end: time, value: Self.rounded(kilograms * 10) / 10,
                           provenance: ProvenanceIndex.scale)
    }
}

// MARK: - Day plan

/// One step count sample of a day, in seconds from the day's start.
struct StepSample {
    var start: Int
    var end: Int
    var count: Int
    var provenance: Int
}

/// A period of walking, or the workout, in seconds from the day's start.
struct Bout {
    var start: Int
    var end: Int
    /// Steps per minute.
    var cadence: Double
    var phoneCarried: Bool
    var isWorkout: Bool
}

/// What the person is doing at a moment.
private enum Activity: Equatable {
    case asleep
    case sedentary
    case walking(cadence: Double)
    case workout
}

/// The shape of one day: when the person wakes, charges the Watch, works out, walks and sleeps.
/// Seconds from the day's start.
struct DayPlan {
    var wake = 0
    var bedtime = 0
    var chargeStart = 0
    var chargeEnd = 0
    var workoutStart = 0
    var workoutEnd = 0
    var workoutHeartRate = 0.0
    var restingHeartRate = 0.0
    /// Walks and the workout, sorted and not overlapping.
    var bouts: [Bout] = []
    /// Storage for the day's periods of pottering about, reused from day to day.
    var pottering: [StepSample] = []

    /// Draws a new day, reusing the bouts' storage.
    mutating func draw(using random: inout SeededRandom) {
        wake = 23_400 + random.integer(in: 0...5_400)  // 06:30–08:00
        bedtime = 79_200 + random.integer(in: 0...6_300)  // 22:00–23:45
        chargeStart = wake + random.integer(in: 600...1_500)
        chargeEnd = chargeStart + random.integer(in: 1_200...3_000)
        restingHeartRate = 52 + 7 * random.unitDouble()
        let workoutLength = random.integer(in: 1_800...3_600)
        workoutStart = random.integer(in: (chargeEnd + 1_800)...(bedtime - 5_400 - workoutLength))
        workoutEnd = workoutStart + workoutLength
        workoutHeartRate = 132 + 30 * random.unitDouble()
        let workoutCadence = 148 + 24 * random.unitDouble()
        let workoutWithPhone = random.chance(0.5)

        bouts.removeAll(keepingCapacity: true)
        let walkCount = random.integer(in: 4...9)
        for _ in 0..<walkCount {
            let start = random.integer(in: (chargeEnd + 300)...(bedtime - 2_400))
            let length = random.integer(in: 240...1_800)
            let cadence = 92 + 28 * random.unitDouble()
            let phoneCarried = random.chance(0.8)
            bouts.append(Bout(start: start, end: start + length, cadence: cadence, phoneCarried: phoneCarried,
                              isWorkout: false))
        }
        bouts.append(Bout(start: workoutStart, end: workoutEnd, cadence: workoutCadence,
                          phoneCarried: workoutWithPhone, isWorkout: true))
        bouts.sort { $0.start < $1.start }
        // Keep bouts at least two minutes apart, the workout first; nothing within ten minutes of bedtime.
        var kept = 0
        var previousEnd = Int.min / 2
        for index in bouts.indices {
            let bout = bouts[index]
            let clashesWithWorkout = !bout.isWorkout && bout.start < workoutEnd + 300 && bout.end > workoutStart - 300
            if clashesWithWorkout || bout.start < previousEnd + 120 || bout.end > bedtime - 600 { continue }
            bouts[kept] = bout
            kept += 1
            previousEnd = bout.end
        }
        bouts.removeLast(bouts.count - kept)
    }
}

/// Finds the activity at increasing moments of one day, sweeping through its bouts.
private struct ActivityCursor {
    private var index = 0

    /// The activity at `second`; successive calls must not go back in time.
    mutating func activity(at second: Int, in plan: DayPlan) -> Activity {
        if second < plan.wake || second >= plan.bedtime { return .asleep }
        while index < plan.bouts.count && plan.bouts[index].end <= second { index += 1 }
        guard index < plan.bouts.count, plan.bouts[index].start <= second else { return .sedentary }
        let bout = plan.bouts[index]
        return bout.isWorkout ? .workout : .walking(cadence: bout.cadence)
    }
}

// MARK: - Batching

/// Fills one batch per type and sets aside each one that reaches the batch size, enforcing the
/// overall sample limit.
private struct BatchEmitter {
    private let slots: [(type: QuantityType, provenances: [Provenance])]
    private var batches: [QuantitySampleBatch]
    private var ready: [QuantitySampleBatch] = []
    private let batchSize: Int
    /// An empty dictionary built once, so appends without metadata do not build one per row.
    private let noMetadata: [String: String] = [:]
    /// How many more samples may be appended.
    private(set) var remaining: Int

    init(slots: [(QuantityType, [Provenance])], batchSize: Int, limit: Int) {
        self.slots = slots.map { (type: $0.0, provenances: $0.1) }
        self.batchSize = batchSize
        remaining = limit
        batches = []
        for slot in self.slots.indices { batches.append(makeBatch(slot)) }
    }

    private func makeBatch(_ slot: Int) -> QuantitySampleBatch {
        var batch = QuantitySampleBatch(type: slots[slot].type, capacity: min(batchSize, 65_536))
        for provenance in slots[slot].provenances { _ = batch.addProvenance(provenance) }
        return batch
    }

    /// Appends a sample to the slot's batch, unless the limit is reached.
    @inline(__always)
    mutating func append(_ slot: Int, start: Timestamp, end: Timestamp, value: Double, provenance: Int) throws {
        guard remaining > 0 else { return }
        remaining -= 1
        if batches[slot].count >= batchSize { rotate(slot) }
        try batches[slot].append(startTimestamp: start, endTimestamp: end, value: value, provenanceIndex: provenance,
                                 metadata: noMetadata)
    }

    /// Appends a sample with metadata to the slot's batch, unless the limit is reached.
    mutating func append(_ slot: Int, start: Timestamp, end: Timestamp, value: Double, provenance: Int,
                         metadata: [String: String]) throws {
        guard remaining > 0 else { return }
        remaining -= 1
        if batches[slot].count >= batchSize { rotate(slot) }
        try batches[slot].append(startTimestamp: start, endTimestamp: end, value: value, provenanceIndex: provenance,
                                 metadata: metadata)
    }

    private mutating func rotate(_ slot: Int) {
        ready.append(batches[slot])
        batches[slot] = makeBatch(slot)
    }

    /// Hands over the full batches.
    mutating func drain(_ body: (QuantitySampleBatch) throws -> Void) throws {
        guard !ready.isEmpty else { return }
        let handed = ready
        ready.removeAll(keepingCapacity: true)
        for batch in handed { try body(batch) }
    }

    /// Hands over the full batches, then the partly filled ones in slot order.
    mutating func finish(_ body: (QuantitySampleBatch) throws -> Void) throws {
        for slot in batches.indices where batches[slot].count > 0 { rotate(slot) }
        try drain(body)
    }
}
