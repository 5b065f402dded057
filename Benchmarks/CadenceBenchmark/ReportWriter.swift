//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// The machine and the conditions a report was measured under.
struct MachineDescription: Sendable, Codable {
    var activeProcessors: Int
    var physicalMemoryBytes: UInt64
    var operatingSystem: String
    /// `/proc/loadavg` when the run started and ended (other work on the machine skews figures).
    var loadAverageAtStart: String?
    var loadAverageAtEnd: String?

    static func current() -> MachineDescription {
        let info = ProcessInfo.processInfo
        return MachineDescription(activeProcessors: info.activeProcessorCount, physicalMemoryBytes: info.physicalMemory,
                                  operatingSystem: info.operatingSystemVersionString,
                                  loadAverageAtStart: loadAverage(), loadAverageAtEnd: nil)
    }

    /// The first three fields of `/proc/loadavg`, where there is one.
    static func loadAverage() -> String? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }
}

/// Everything one run of `cadence-bench` measured.
struct BenchmarkReport: Sendable, Codable {
    var command: String
    var date: Date
    var seed: UInt64
    var runs: Int
    var machine: MachineDescription
    var results: [BenchmarkResult]
}

/// Renders a report as a table for people and as JSON for machines.
enum ReportWriter {
    // MARK: Table

    /// A fixed-width table: name, measured figure, target, status, median time and a note.
    static func table(_ report: BenchmarkReport) -> String {
        let header = ["benchmark", "measured", "target", "status", "median", "runs (min–max)"]
        var rows: [[String]] = []
        var notes: [String] = []
        for result in report.results {
            let status: String
            switch result.met {
            case .some(true): status = "met"
            case .some(false): status = "NOT MET"
            case .none: status = "—"
            }
            let timing = result.timing
            let median = timing.map { formatSeconds($0.median) } ?? "—"
            let spread = timing.map { "\($0.seconds.count) (\(formatSeconds($0.minimum))–\(formatSeconds($0.maximum)))" } ?? "—"
            rows.append([result.name, formatValue(result.value, kind: result.kind),
                         result.target.map { formatTarget($0, kind: result.kind) } ?? "—",
                         status, median, spread])
            if let note = result.note { notes.append("  \(result.name): \(note)") }
        }
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                return index == 0 ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }
        var text = ""
        let machine = report.machine
        text += "cadence-bench — \(report.command)\n"
        text += "machine: \(machine.activeProcessors) cores, \(machine.physicalMemoryBytes >> 30) GiB, \(machine.operatingSystem)\n"
        text += "load average (1/5/15 min): start \(machine.loadAverageAtStart ?? "?"), end \(machine.loadAverageAtEnd ?? "?")\n"
        text += "seed \(report.seed); each figure is the median of \(report.runs) runs after 1 warm-up unless noted\n\n"
        text += line(header) + "\n"
        text += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n"
        for row in rows { text += line(row) + "\n" }
        let met = report.results.filter { $0.met == true }.count
        let missed = report.results.filter { $0.met == false }.count
        text += "\ntargets: \(met) met, \(missed) not met\n"
        text += "\nnotes:\n" + notes.joined(separator: "\n") + "\n"
        return text
    }

    static func formatValue(_ value: Double, kind: BenchmarkResult.Kind) -> String {
        guard value.isFinite else { return "n/a" }
        switch kind {
        case .throughput: return formatRate(value)
        case .latency: return formatSeconds(value)
        case .size: return String(format: "%.3f B/sample", value)
        case .speedup: return String(format: "%.2f×", value)
        case .memory: return String(format: "%.1f MiB", value / Double(1 << 20))
        }
    }

    /// `≥ 3.0 M samples/s`, `≤ 1.5 B/sample`, `≥ 1.70×`: the bound in the unit of the figure.
    static func formatTarget(_ target: Target, kind: BenchmarkResult.Kind) -> String {
        (target.bound == .atLeast ? "≥ " : "≤ ") + formatValue(target.value, kind: kind)
    }

    /// `1.23 G samples/s`, `456.7 M samples/s`, `3.21 k samples/s`.
    static func formatRate(_ rate: Double) -> String {
        switch rate {
        case 1e9...: return String(format: "%.2f G samples/s", rate / 1e9)
        case 1e6..<1e9: return String(format: "%.1f M samples/s", rate / 1e6)
        case 1e3..<1e6: return String(format: "%.1f k samples/s", rate / 1e3)
        default: return String(format: "%.0f samples/s", rate)
        }
    }

    /// `1.234 s`, `12.3 ms`, `456 µs`.
    static func formatSeconds(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "n/a" }
        switch seconds {
        case 1...: return String(format: "%.3f s", seconds)
        case 1e-3..<1: return String(format: "%.2f ms", seconds * 1e3)
        default: return String(format: "%.1f µs", seconds * 1e6)
        }
    }

    // MARK: JSON

    /// The report as pretty-printed JSON with ISO 8601 dates and sorted keys.
    static func json(_ report: BenchmarkReport) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf",
                                                                       nan: "nan")
        return try encoder.encode(report)
    }
}
