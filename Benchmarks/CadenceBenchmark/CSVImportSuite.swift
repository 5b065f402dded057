//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// Importing one profile's data as CSV (the columns `cadence import` reads, as `cadence generate
/// --format csv` writes them) into a new durable store, on one core and on two: rows stored per second.
///
/// The file is generated once, untimed, and deleted afterwards. Each run starts from an empty store
/// and includes reading, parsing, validation, the saves and the closing flush, as `cadence import`
/// does; there is no warm-up, since every run is long and the file is in the page cache after
/// generation.
struct CSVImportSuite {
    let profile: SyntheticProfile
    let size: Int
    let options: BenchmarkOptions
    /// The directory the file and the store are created in (created and deleted by the caller).
    let workDirectory: String
    let log: (String) -> Void

    /// The cores each figure reads the file on.
    static let jobCounts = [1, 2]
    /// Sizes above this are not measured: the file would take gigabytes of disk.
    static let sizeLimit = BenchmarkOptions.inMemoryGenerationLimit

    private var label: String { sizeLabel(size) }
    private var csvPath: String { workDirectory + "/\(profile.rawValue)-\(label).csv" }
    private var storePath: String { workDirectory + "/\(profile.rawValue)-\(label)-csv.cadence" }

    /// The name of the figure read on `jobs` cores.
    func figureName(jobs: Int) -> String { "import.csv.\(profile.rawValue).jobs\(jobs).\(label)" }

    /// Whether any of this suite's figures is selected, the size is small enough to write as CSV, and
    /// it is not measured with the huge suite.
    var isSelected: Bool {
        size <= Self.sizeLimit && !options.isHuge(size) && Self.jobCounts.contains { options.selects(figureName(jobs: $0)) }
    }

    /// Generates the CSV and imports it at each selected core count.
    func run() throws -> [BenchmarkResult] {
        guard isSelected else { return [] }
        defer {
            try? FileManager.default.removeItem(atPath: csvPath)
            try? FileManager.default.removeItem(atPath: storePath)
        }
        log("  writing \(label) \(profile.rawValue) samples as CSV")
        let data = SyntheticHealthData(profile: profile, seed: options.seed, size: .samples(size))
        let rows = try SyntheticExportWriter.export(data, format: .csv, to: csvPath)
        let fileBytes = (try FileManager.default.attributesOfItem(atPath: csvPath)[.size] as? NSNumber)?.intValue ?? 0
        var results: [BenchmarkResult] = []
        for jobs in Self.jobCounts where options.selects(figureName(jobs: jobs)) {
            results.append(try measureImport(jobs: jobs, rows: rows, fileBytes: fileBytes))
        }
        return results
    }

    /// Imports the file `runs` times on `jobs` cores, each into a new store.
    private func measureImport(jobs: Int, rows: Int, fileBytes: Int) throws -> BenchmarkResult {
        log("  CSV import on \(jobs) core\(jobs == 1 ? "" : "s"): \(options.runs) runs")
        var summary: ImportSummary?
        let timing = try Stopwatch.measure(runs: options.runs, warmUp: 0, setUp: { _ in
            try? FileManager.default.removeItem(atPath: storePath)
        }) { _ in
            let store = try HealthStore.open(at: storePath)
            summary = try HealthDataImporter(store: store, parallelism: jobs).importFile(atPath: csvPath)
            try store.close()
        }
        guard let summary, summary.rejected == 0, summary.imported == rows else {
            throw BenchmarkFailure("the generated CSV of \(rows) rows did not import cleanly: \(String(describing: summary))")
        }
        return BenchmarkResult(
            name: figureName(jobs: jobs), kind: .throughput, profile: profile.rawValue, storeSamples: rows, samples: rows,
            value: Double(rows) / timing.median, timing: timing, target: jobs == 2 && size >= 1_000_000 ? .csvImport : nil,
            note: "rows stored per second: HealthDataImporter (parallelism \(jobs)) on \(rows) rows, "
                + String(format: "%.0f MB", Double(fileBytes) / 1e6)
                + " of CSV (read, parse, validate, saves, close) into a new durable store; no warm-up")
    }
}
