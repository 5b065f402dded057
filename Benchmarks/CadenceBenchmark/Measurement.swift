//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

// MARK: - Keeping results alive

/// Consumes a value so that the optimizer cannot discard the work that produced it.
@_optimize(none)
func blackHole(_: some Any) {}

// MARK: - Timing

/// The wall-clock durations of the measured runs of one figure.
struct Timing: Sendable, Codable {
    /// Seconds per measured run, in the order they ran (warm-up runs excluded).
    var seconds: [Double]

    /// The median run.
    var median: Double {
        let sorted = seconds.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The fastest run.
    var minimum: Double { seconds.min() ?? .nan }
    /// The slowest run.
    var maximum: Double { seconds.max() ?? .nan }
}

/// Measures wall-clock time with `ContinuousClock`.
enum Stopwatch {
    /// The seconds `body` takes.
    ///
    /// Never inlined: the instruction-count gate (Benchmarks/gate) counts what runs inside it.
    @inline(never)
    static func time(_ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        return seconds(clock.now - start)
    }

    /// Runs `body` `warmUp` times unmeasured, then `runs` times measured; `setUp` runs untimed
    /// before every run (warm-up included) and gets the run's index (warm-up runs first).
    static func measure(runs: Int, warmUp: Int = 1, setUp: (Int) throws -> Void = { _ in },
                        _ body: (Int) throws -> Void) rethrows -> Timing {
        var measured: [Double] = []
        for run in 0..<(warmUp + runs) {
            try setUp(run)
            let elapsed = try time { try body(run) }
            if run >= warmUp { measured.append(elapsed) }
        }
        return Timing(seconds: measured)
    }

    /// A `Duration` in seconds.
    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}

// MARK: - Memory

/// The process's peak resident set size so far, in bytes (`getrusage`; Linux reports KiB).
func peakResidentBytes() -> Int {
    var usage = rusage()
    guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return 0 }
    return usage.ru_maxrss * 1024
}

// MARK: - Results

/// One measured figure: a throughput, a latency, a size or a speed-up, with its target if the
/// project set one.
struct BenchmarkResult: Sendable, Codable {
    /// What the figure is.
    enum Kind: String, Sendable, Codable {
        /// Samples per second (`value`), from the samples involved and the median time.
        case throughput
        /// Seconds (`value`), the median time.
        case latency
        /// Bytes per sample (`value`); no timing.
        case size
        /// Serial median time over parallel median time (`value`).
        case speedup
        /// Bytes (`value`), e.g. the process's peak resident memory; no timing.
        case memory
    }

    /// A stable, dotted name saying what is measured, e.g. `statisticsCollection.daily.heartRate.10M`.
    var name: String
    var kind: Kind
    /// The generator profile of the store (`dense` or `realistic`).
    var profile: String
    /// The store's size in samples (all types).
    var storeSamples: Int
    /// The samples the figure is about (of the queried type; for ingest, all of them).
    var samples: Int
    /// The figure, in the unit of ``kind``.
    var value: Double
    /// The measured runs; for a speed-up, those of the parallel runs.
    var timing: Timing?
    /// For a speed-up, the serial runs.
    var serialTiming: Timing?
    /// The target the project set, if any.
    var target: Target?
    /// Whether the figure meets ``target``.
    var met: Bool? { target?.isMet(by: value) }
    /// Anything a reader needs to read the figure correctly.
    var note: String?

    enum CodingKeys: String, CodingKey {
        case name, kind, profile, storeSamples, samples, value, timing, serialTiming, target, met, note
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(kind, forKey: .kind)
        try container.encode(profile, forKey: .profile)
        try container.encode(storeSamples, forKey: .storeSamples)
        try container.encode(samples, forKey: .samples)
        try container.encode(value, forKey: .value)
        try container.encodeIfPresent(timing, forKey: .timing)
        try container.encodeIfPresent(serialTiming, forKey: .serialTiming)
        try container.encodeIfPresent(target, forKey: .target)
        try container.encodeIfPresent(met, forKey: .met)
        try container.encodeIfPresent(note, forKey: .note)
    }

    init(name: String, kind: Kind, profile: String, storeSamples: Int, samples: Int, value: Double,
         timing: Timing? = nil, serialTiming: Timing? = nil, target: Target? = nil, note: String? = nil) {
        self.name = name
        self.kind = kind
        self.profile = profile
        self.storeSamples = storeSamples
        self.samples = samples
        self.value = value
        self.timing = timing
        self.serialTiming = serialTiming
        self.target = target
        self.note = note
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try container.decode(String.self, forKey: .name),
                  kind: try container.decode(Kind.self, forKey: .kind),
                  profile: try container.decode(String.self, forKey: .profile),
                  storeSamples: try container.decode(Int.self, forKey: .storeSamples),
                  samples: try container.decode(Int.self, forKey: .samples),
                  value: try container.decode(Double.self, forKey: .value),
                  timing: try container.decodeIfPresent(Timing.self, forKey: .timing),
                  serialTiming: try container.decodeIfPresent(Timing.self, forKey: .serialTiming),
                  target: try container.decodeIfPresent(Target.self, forKey: .target),
                  note: try container.decodeIfPresent(String.self, forKey: .note))
    }
}

/// A target the project set: the figure must be at least or at most a value.
struct Target: Sendable, Codable {
    /// The direction of the bound.
    enum Bound: String, Sendable, Codable {
        case atLeast
        case atMost
    }

    var bound: Bound
    var value: Double
    /// Which of the project's goals the target states, e.g. `storage goal`.
    var source: String

    /// Whether `measured` satisfies the target.
    func isMet(by measured: Double) -> Bool {
        guard measured.isFinite else { return false }
        switch bound {
        case .atLeast: return measured >= value
        case .atMost: return measured <= value
        }
    }

    // MARK: The project's goals

    /// Ingest into the durable on-disk store.
    static let ingest = Target(bound: .atLeast, value: 3e6, source: "storage goal")
    /// Bytes per sample on realistic multi-source data.
    static let realisticBytesPerSample = Target(bound: .atMost, value: 3, source: "storage goal")
    /// Bytes per sample on a regular 5-second heart-rate series.
    static let denseBytesPerSample = Target(bound: .atMost, value: 1.5, source: "storage goal")
    /// Daily heart-rate statistics over 10 M samples.
    static let dailyHeartRate = Target(bound: .atLeast, value: 1e9, source: "query goal")
    /// Hourly heart-rate statistics over 10 M samples.
    static let hourlyHeartRate = Target(bound: .atLeast, value: 3e8, source: "query goal")
    /// `concurrentPerform` speed-up on 2 cores for queries that must decompress.
    static let parallelSpeedup = Target(bound: .atLeast, value: 1.7, source: "query goal")
    /// Ingest while generating a billion samples.
    static let hugeIngest = Target(bound: .atLeast, value: 4e6, source: "scale goal")
    /// The process's peak resident memory while ingesting a billion samples.
    static let hugeIngestMemory = Target(bound: .atMost, value: Double(1 << 30), source: "scale goal")
    /// Opening a store, at any size.
    static let storeOpen = Target(bound: .atMost, value: 0.002, source: "scale goal")
    /// Hourly heart rate over 100 M samples in at most 40 ms.
    static let hourlyHeartRateAt100M = Target(bound: .atLeast, value: 100e6 / 0.040, source: "scale goal: ≤ 40 ms")
    /// Five-minute heart rate over 100 M samples in at most 150 ms.
    static let fiveMinuteHeartRateAt100M = Target(bound: .atLeast, value: 100e6 / 0.150, source: "scale goal: ≤ 150 ms")
    /// Daily heart rate over a billion samples in at most 100 ms.
    static let dailyHeartRateAt1B = Target(bound: .atLeast, value: 1e9 / 0.100, source: "scale goal: ≤ 100 ms")
    /// Hourly heart rate over a billion samples in at most 300 ms.
    static let hourlyHeartRateAt1B = Target(bound: .atLeast, value: 1e9 / 0.300, source: "scale goal: ≤ 300 ms")
    /// `cadence --version`, the command line's start-up.
    static let commandLineStartup = Target(bound: .atMost, value: 0.010, source: "scale goal")
    /// `cadence stats` over 10 M samples, hourly, whole process.
    static let commandLineHourly = Target(bound: .atMost, value: 0.040, source: "scale goal")
    /// `cadence stats` over 10 M samples, daily, whole process.
    static let commandLineDaily = Target(bound: .atMost, value: 0.020, source: "scale goal")
    /// Importing a CSV file on two cores, rows stored per second.
    static let csvImport = Target(bound: .atLeast, value: 4e6, source: "scale goal")
    /// Statistics rows formatted as CSV per second, in memory.
    static let statisticsCSVFormatting = Target(bound: .atLeast, value: 5e6, source: "output path goal")
}
