//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// `cadence-bench`: measures Cadence on deterministic synthetic data and prints a table (and,
/// with `--json`, writes the same figures for machines).
///
///     swift run -c release cadence-bench [--samples 1M,10M] [--large] [--huge] [--runs 5] [--json FILE]
@main
struct CadenceBenchmark {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            guard let options = try BenchmarkOptions.parse(arguments) else {
                print(BenchmarkOptions.usage)
                return
            }
            if let path = options.batchInputPath {
                let count = try UserSamplesArrowInput.write(users: options.batchInputUsers, days: options.batchInputDays, to: path)
                standardError("wrote \(count) samples of \(options.batchInputUsers) users to \(path)")
                return
            }
            try run(options, command: (["cadence-bench"] + arguments).joined(separator: " "))
        } catch let error as BenchmarkOptionsError {
            standardError("error: \(error)\n\n\(BenchmarkOptions.usage)")
            exit(64)
        } catch {
            standardError("error: \(error)")
            exit(1)
        }
    }

    // MARK: Running

    static func run(_ options: BenchmarkOptions, command: String) throws {
        let fileManager = FileManager.default
        let workDirectory = options.directory + "/cadence-bench-\(ProcessInfo.processInfo.processIdentifier)"
        try fileManager.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
        defer { try? fileManager.removeItem(atPath: workDirectory) }

        var report = BenchmarkReport(command: command, date: Date(), seed: options.seed, runs: options.runs,
                                     machine: .current(), results: [])
        // `--only kinds…` or `--only workoutImport…` alone needs no quantity store: skip generating
        // and ingesting them.
        let quantityFigures = options.only.isEmpty || options.only.contains {
            !$0.hasPrefix(KindsSuite.family) && !$0.hasPrefix(WorkoutImportSuite.family) && !$0.hasPrefix(SeriesSuite.family)
        }
        for size in options.sampleCounts where quantityFigures {
            // The huge suite is about heart rate: the dense profile alone.
            for profile in options.isHuge(size) ? [SyntheticProfile.dense] : [.dense, .realistic] {
                standardError("\(profile.rawValue) profile, \(sizeLabel(size)) samples")
                let suite = ProfileSuite(profile: profile, size: size, options: options, workDirectory: workDirectory,
                                         log: standardError)
                report.results += try suite.run()
            }
        }
        let kinds = KindsSuite(options: options, workDirectory: workDirectory, log: standardError)
        if kinds.isSelected { report.results += try kinds.run() }
        let workouts = WorkoutImportSuite(options: options, workDirectory: workDirectory, log: standardError)
        if workouts.isSelected { report.results += try workouts.run() }
        let series = SeriesSuite(options: options, workDirectory: workDirectory, log: standardError)
        if series.isSelected { report.results += try series.run() }
        report.machine.loadAverageAtEnd = MachineDescription.loadAverage()

        FileHandle.standardOutput.write(Data((ReportWriter.table(report) + "\n").utf8))
        if let path = options.jsonPath {
            try ReportWriter.json(report).write(to: URL(fileURLWithPath: path))
            standardError("wrote \(path)")
        }
    }

    // MARK: Output

    /// Writes a progress line to standard error, keeping standard output for the table.
    @Sendable
    static func standardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
