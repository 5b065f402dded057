//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// Importing the suite's data as CSV (the columns `cadence import` reads, as `cadence generate
/// --format csv` writes them) into a new durable store, on one core and on two: rows stored per second.
///
/// The file is generated once, untimed, and deleted afterwards. Each run starts from an empty store
/// and includes reading, parsing, validation, the saves and the closing flush, as `cadence import`
/// does; there is no warm-up, since every run is long and the file is in the page cache after
/// generation.
extension ProfileSuite {
    /// The cores each CSV import figure reads the file on.
    static let csvImportJobCounts = [1, 2]

    private var csvPath: String { workDirectory + "/\(profile.rawValue)-\(label).csv" }
    private var csvStorePath: String { workDirectory + "/\(profile.rawValue)-\(label)-csv.cadence" }

    /// The name of the CSV import figure read on `jobs` cores.
    private func csvImportName(jobs: Int) -> String { "import.csv.\(profile.rawValue).jobs\(jobs).\(label)" }

    /// Generates the CSV and imports it at each selected core count; nothing for sizes above
    /// ``BenchmarkOptions/inMemoryGenerationLimit`` (the file would take gigabytes of disk) or
    /// measured with the huge suite.
    func measureCSVImport() throws -> [BenchmarkResult] {
        let selected = Self.csvImportJobCounts.filter { options.selects(csvImportName(jobs: $0)) }
        guard !selected.isEmpty, size <= BenchmarkOptions.inMemoryGenerationLimit, !options.isHuge(size) else { return [] }
        defer {
            try? FileManager.default.removeItem(atPath: csvPath)
            try? FileManager.default.removeItem(atPath: csvStorePath)
        }
        log("  writing \(label) \(profile.rawValue) samples as CSV")
        let data = SyntheticHealthData(profile: profile, seed: options.seed, size: .samples(size))
        let rows = try SyntheticExportWriter.export(data, format: .csv, to: csvPath)
        let fileBytes = (try FileManager.default.attributesOfItem(atPath: csvPath)[.size] as? NSNumber)?.intValue ?? 0
        return try selected.map { try measureCSVImport(jobs: $0, rows: rows, fileBytes: fileBytes) }
    }

    /// Imports the file `runs` times on `jobs` cores, each into a new store.
    private func measureCSVImport(jobs: Int, rows: Int, fileBytes: Int) throws -> BenchmarkResult {
        log("  CSV import on \(jobs) core\(jobs == 1 ? "" : "s"): \(options.runs) runs")
        var summary: ImportSummary?
        let timing = try Stopwatch.measure(runs: options.runs, warmUp: 0, setUp: { _ in
            try? FileManager.default.removeItem(atPath: csvStorePath)
        }) { _ in
            let store = try HealthStore.open(at: csvStorePath)
            summary = try HealthDataImporter(store: store, parallelism: jobs).importFile(atPath: csvPath)
            try store.close()
        }
        guard let summary, summary.rejected == 0, summary.imported == rows else {
            throw BenchmarkFailure("the generated CSV of \(rows) rows did not import cleanly: \(String(describing: summary))")
        }
        return BenchmarkResult(
            name: csvImportName(jobs: jobs), kind: .throughput, profile: profile.rawValue, storeSamples: rows, samples: rows,
            value: Double(rows) / timing.median, timing: timing, target: jobs == 2 && size >= 1_000_000 ? .csvImport : nil,
            note: "rows stored per second: HealthDataImporter (parallelism \(jobs)) on \(rows) rows, "
                + String(format: "%.0f MB", Double(fileBytes) / 1e6)
                + " of CSV (read, parse, validate, saves, close) into a new durable store; no warm-up")
    }
}
