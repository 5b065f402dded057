//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Whole-process figures of the `cadence` executable over a suite's store, as a person or a script
/// sees them: start-up, opening, the query, formatting and printing (to `/dev/null`), and exit.
///
/// The executable is the one built beside `cadence-bench` (`swift build -c release` builds both);
/// without it these figures are skipped with a note on standard error.
struct CommandLineSuite {
    let storePath: String
    let label: String
    let profile: String
    let storeSamples: Int
    let options: BenchmarkOptions
    let log: (String) -> Void

    /// `cadence` beside this executable, if it was built.
    static var executable: URL? {
        let candidate = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("cadence")
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }

    /// `cadence --version` (start-up alone), then `cadence stats` over the dense store's heart rate,
    /// every five minutes, hourly and daily, as CSV and JSON.
    func run(from: String, to: String) throws -> [BenchmarkResult] {
        guard let executable = Self.executable else {
            log("  no cadence executable beside cadence-bench: whole-process figures skipped (build it with swift build -c release)")
            return []
        }
        var results: [BenchmarkResult] = []
        if options.selects("cli.startup.\(label)") {
            let timing = try measure(executable, ["--version"])
            results.append(BenchmarkResult(name: "cli.startup.\(label)", kind: .latency, profile: profile, storeSamples: 0,
                                           samples: 0, value: timing.median, timing: timing, target: .commandLineStartup,
                                           note: "cadence --version, whole process"))
        }
        // Five-minute intervals print a line per 300 samples of the dense store: mostly output.
        for interval in [(name: "fiveMinute", text: "5min", target: Target?.none),
                         (name: "hourly", text: "1h", target: Target?.some(.commandLineHourly)),
                         (name: "daily", text: "1d", target: Target?.some(.commandLineDaily))] {
            for format in ["csv", "json"] {
                let name = "cli.stats.\(interval.name).\(format).heartRate.\(label)"
                guard options.selects(name) else { continue }
                let arguments = ["stats", "--store", storePath, "--type", "heartRate", "--from", from, "--to", to,
                                 "--interval", interval.text, "--time-zone", "Europe/Berlin", "--format", format]
                var printedRows = 0
                let timing = try measure(executable, arguments) { output in
                    printedRows = output.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
                }
                let wanted: Target? = interval.name == "daily" && format == "csv" ? nil : interval.target
                results.append(BenchmarkResult(
                    name: name, kind: .latency, profile: profile, storeSamples: storeSamples, samples: storeSamples,
                    value: timing.median, timing: timing, target: storeSamples >= 10_000_000 ? wanted : nil,
                    note: "cadence stats --interval \(interval.text) --format \(format) from \(from) to \(to), whole process, "
                        + "output to a pipe (\(printedRows) lines, "
                        + String(format: "%.2f M lines/s)", Double(printedRows) / timing.median / 1e6)))
            }
        }
        return results
    }

    /// Runs the executable `options.runs` times after one warm-up, its output read from a pipe and
    /// discarded (`inspect` sees the last run's output).
    private func measure(_ executable: URL, _ arguments: [String], inspect: ([UInt8]) -> Void = { _ in }) throws -> Timing {
        var lastOutput: [UInt8] = []
        let timing = try Stopwatch.measure(runs: options.runs) { _ in
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            // Not `waitUntilExit()`: on Linux it polls the run loop every 50 ms, which would add up
            // to 50 ms to a process that takes a few.
            let exited = DispatchSemaphore(value: 0)
            process.terminationHandler = { _ in exited.signal() }
            try process.run()
            lastOutput = Array(pipe.fileHandleForReading.readDataToEndOfFile())
            exited.wait()
            guard process.terminationStatus == 0 else {
                throw BenchmarkFailure("cadence \(arguments.joined(separator: " ")) exited with status \(process.terminationStatus)")
            }
        }
        inspect(lastOutput)
        return timing
    }
}
