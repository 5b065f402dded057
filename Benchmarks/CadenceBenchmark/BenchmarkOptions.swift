//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// What `cadence-bench` was asked to do, parsed from its command line.
///
///     cadence-bench [--samples 1000000,10000000] [--large] [--huge] [--runs 5] [--json FILE]
///                   [--directory DIR] [--seed N] [--quick] [--only TEXT]
struct BenchmarkOptions: Sendable {
    /// The store sizes to measure, in samples (each profile is generated at each size).
    var sampleCounts: [Int] = [1_000_000, 10_000_000]
    /// Measured runs per figure, after one warm-up run.
    var runs = 5
    /// Where to write the JSON report, if anywhere.
    var jsonPath: String?
    /// The directory the temporary stores are created in (a fresh subdirectory, deleted at the end).
    var directory: String = FileManager.default.temporaryDirectory.path
    /// The generator's seed.
    var seed: UInt64 = 42
    /// When not empty, only figures whose name contains one of these are measured (stores are
    /// still generated and ingested, untimed when no ingest figure is selected; the quantity stores
    /// are skipped when every text starts with `kinds` or `workoutImport`).
    var only: [String] = []
    /// Days of the export the `kinds.…` figures generate and import: three years, or a quarter
    /// with `--quick`.
    var kindsDays = 3 * 365 + 1
    /// Sizes above this are ingested while generating (generation included in the timing) and
    /// measured once, since their batches would not fit in memory comfortably.
    static let inMemoryGenerationLimit = 20_000_000
    /// Sizes above this get the huge suite (see ``isHuge(_:)``).
    static let fullSuiteLimit = 100_000_000
    /// Whether every size gets the huge suite (`--huge`), so that it can be tried at a small size.
    var hugeSuiteForEverySize = false
    /// Where `--write-batch-input` writes the many-user Arrow input (nothing is measured then).
    var batchInputPath: String?
    /// The users and days of that input.
    var batchInputUsers = 20, batchInputDays = 14

    /// Whether `size` is measured with the huge suite: the dense profile alone, ingested while
    /// generating (with the process's peak memory), then its size, open time and the heart-rate
    /// statistics whose cost should not grow with the store (daily, hourly, everything).
    func isHuge(_ size: Int) -> Bool { hugeSuiteForEverySize || size > Self.fullSuiteLimit }

    /// The usage text.
    static let usage = """
        USAGE: cadence-bench [options]

        Measures Cadence's ingest, CSV import (on 1 and 2 cores, up to 20M samples), size on disk,
        open time and query throughput on deterministic synthetic data (a realistic multi-source
        profile and a dense 5-second heart-rate profile), and the whole-process time of `cadence
        stats` when `cadence` was built beside it. With
        --only kinds, it generates a three-year export.zip of every sample kind instead, and
        measures its import, time asleep per night, sleep and workout queries and a route read.
        With --only workoutImport, it measures reading one workout of 1k, 10k and 100k children
        (seconds per child) and the peak memory of 64 workouts sharing one route file.

        OPTIONS:
          --samples N[,N...]  Store sizes in samples; k/M/B suffixes allowed (default: 1M,10M).
                              Sizes above 100M get the huge suite (see --huge).
          --large             Also measure 100M samples (ingest is then timed with generation).
          --huge              Measure 1B samples with the huge suite: the dense profile only,
                              ingested while generating (peak memory reported), then size, open
                              time, and daily, hourly and whole-store heart rate. With --samples,
                              those sizes get the huge suite instead (to try it at a small size).
          --runs N            Measured runs per figure, after one warm-up (default: 5).
          --json FILE         Also write the results as JSON to FILE.
          --directory DIR     Where temporary stores go (default: the system temporary directory).
          --seed N            The generator's seed (default: 42).
          --quick             A smoke run: 200k samples, 3 runs.
          --only TEXT         Measure only the figures whose name contains TEXT (repeatable, or
                              comma-separated), e.g. --only speedup. The kinds.… figures
                              are measured only when selected this way.
          --write-batch-input FILE
                              Write the input cadence batch --input is measured on and exit:
                              20 users' 14 realistic days (seeds 1 to 20) as one Arrow stream
                              with a user column (see Benchmarks/arrow/results.md).
          --users N, --days N The users and days of --write-batch-input.
          -h, --help          Show this text.
        """

    /// Parses the arguments (without the program name).
    ///
    /// - Returns: `nil` when help was asked for.
    /// - Throws: ``BenchmarkOptionsError`` describing the first bad argument.
    static func parse(_ arguments: [String]) throws -> BenchmarkOptions? {
        var options = BenchmarkOptions()
        var large = false
        var huge = false
        var quick = false
        var explicitSamples = false
        var explicitRuns = false
        var remaining = arguments[...]
        func value(for flag: String) throws -> String {
            guard let next = remaining.popFirst() else { throw BenchmarkOptionsError("\(flag) needs a value") }
            return next
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help":
                return nil
            case "--samples":
                let list = try value(for: argument)
                options.sampleCounts = try list.split(separator: ",").map { try parseCount(String($0)) }
                guard !options.sampleCounts.isEmpty else { throw BenchmarkOptionsError("--samples needs at least one size") }
                explicitSamples = true
            case "--large":
                large = true
            case "--huge":
                huge = true
            case "--runs":
                let text = try value(for: argument)
                guard let runs = Int(text), runs >= 1 else { throw BenchmarkOptionsError("--runs needs a positive integer, not \(text)") }
                options.runs = runs
                explicitRuns = true
            case "--json":
                options.jsonPath = try value(for: argument)
            case "--directory":
                options.directory = try value(for: argument)
            case "--seed":
                let text = try value(for: argument)
                guard let seed = UInt64(text) else { throw BenchmarkOptionsError("--seed needs an unsigned integer, not \(text)") }
                options.seed = seed
            case "--quick":
                quick = true
            case "--write-batch-input":
                options.batchInputPath = try value(for: argument)
            case "--users", "--days":
                let text = try value(for: argument)
                guard let count = Int(text), count >= 1 else { throw BenchmarkOptionsError("\(argument) needs a positive integer, not \(text)") }
                if argument == "--users" { options.batchInputUsers = count } else { options.batchInputDays = count }
            case "--only":
                let parts = try value(for: argument).split(separator: ",").map(String.init)
                guard !parts.isEmpty else { throw BenchmarkOptionsError("--only needs some text") }
                options.only += parts
            default:
                throw BenchmarkOptionsError("unknown argument \(argument)")
            }
        }
        if quick {
            if !explicitSamples { options.sampleCounts = [200_000] }
            if !explicitRuns { options.runs = 3 }
            options.kindsDays = 91
        }
        if large && !options.sampleCounts.contains(100_000_000) { options.sampleCounts.append(100_000_000) }
        if huge {
            // With sizes given (or --quick's), those sizes get the huge suite: a trial run.
            if explicitSamples || quick {
                options.hugeSuiteForEverySize = true
            } else {
                options.sampleCounts = (large ? [100_000_000] : []) + [1_000_000_000]
            }
        }
        return options
    }

    /// Whether the figure called `name` is to be measured (see ``only``).
    func selects(_ name: String) -> Bool {
        only.isEmpty || only.contains { name.contains($0) }
    }

    /// Parses `1000000`, `1M`, `200k`, `1B` or `1_000_000`.
    static func parseCount(_ text: String) throws -> Int {
        var digits = text.replacingOccurrences(of: "_", with: "").lowercased()
        var multiplier = 1
        if digits.hasSuffix("k") {
            multiplier = 1_000
            digits.removeLast()
        } else if digits.hasSuffix("m") {
            multiplier = 1_000_000
            digits.removeLast()
        } else if digits.hasSuffix("b") {
            multiplier = 1_000_000_000
            digits.removeLast()
        }
        guard let count = Int(digits), count > 0, count <= 1_000_000_000 / multiplier else {
            throw BenchmarkOptionsError("a sample count must be a positive integer up to 1,000,000,000, not \(text)")
        }
        return count * multiplier
    }
}

/// A command-line argument that could not be understood.
struct BenchmarkOptionsError: Error, CustomStringConvertible {
    /// What was wrong.
    var description: String

    init(_ description: String) { self.description = description }
}

// MARK: - Labels

/// A short label for a sample count: `200k`, `1M`, `10M`, `1.5M`, `1B`.
func sizeLabel(_ count: Int) -> String {
    if count >= 1_000_000_000 && count % 1_000_000_000 == 0 { return "\(count / 1_000_000_000)B" }
    if count >= 1_000_000 {
        return count % 1_000_000 == 0 ? "\(count / 1_000_000)M" : String(format: "%.1fM", Double(count) / 1e6)
    }
    if count >= 1_000 {
        return count % 1_000 == 0 ? "\(count / 1_000)k" : String(format: "%.1fk", Double(count) / 1e3)
    }
    return "\(count)"
}
