//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Cadence
import Foundation

/// `cadence stats`: statistics over a date range, in calendar intervals or as one total.
///
///     cadence stats --store health --type stepCount --from 2024-03-01 --to 2024-04-01 --interval 1d
///     generate-samples | cadence stats --input - --type stepCount --from 2024-03-01 --to 2024-04-01 --interval 1d
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Compute statistics of a quantity type, per calendar interval or in total.",
        discussion: """
            With --interval, every interval that intersects [--from, --to) is listed in order, empty \
            ones included (their values are null). Without it, one statistic covers every selected \
            sample. Sums merge overlapping sources so that a walk recorded by a phone and a watch \
            counts once (see How Cadence computes, Merging sources).

            Instead of a store, --input FILE (- for standard input) reads samples in the import \
            CSV's columns plus a user column (--user-column), the rows of each user consecutive \
            (sorted by user), and writes each user's rows as soon as the user ends, a user column \
            first, as CSV or JSON lines — the same table as cadence batch --input. One user's samples \
            are held at a time and no store is written, so one process serves a whole partition of a \
            batch engine. Rows that cannot be read are reported with their line and user and make \
            the exit status 1.
            """)

    @Option(help: ArgumentHelp("The store's directory.", valueName: "dir"))
    var store: String?

    /// Accepted as the writing commands accept it, as ``StoreOptions`` does; a reader never waits.
    @Flag(help: .hidden)
    var wait = false

    @OptionGroup var samples: SampleInputOptions

    @OptionGroup var query: StatisticsQueryOptions

    @Option(help: ArgumentHelp("The output format: table, csv, json or arrow (default: table); with --input csv "
                               + "(default), json, as JSON lines, or arrow.", valueName: "format"))
    var format: OutputFormat?

    func validate() throws {
        guard (store == nil) != (samples.input == nil) else { throw ValidationError("Give exactly one of --store and --input.") }
        if samples.input != nil, let format { try format.require([.csv, .json, .arrow], in: "stats --input") }
    }

    func run() throws {
        guard let store else {
            FreedMemoryReuse.enable()
            let output = UserRowsOutput(format: format ?? .csv)
            return try output.writeStatistics(ofSamplesIn: samples.input ?? "-", userColumn: samples.userColumn,
                                              request: try StatisticsRequest(query, store: nil))
        }
        let healthStore = try HealthStore.open(at: store, options: .readOnly)
        let report = try StatisticsRequest(query, store: healthStore).report(in: healthStore)
        // Rows are written as they are formatted, in large pieces.
        var text = OutputText.streamingToStandardOutput()
        switch format ?? .table {
        case .json:
            report.writeJSON(to: &text)
            text.append(byte: UInt8(ascii: "\n"))
        case .csv: report.writeCSV(to: &text)
        case .table: report.writeTable(to: &text)
        case .arrow:
            var table = ArrowStatisticsTable(like: report, hasUser: false)
            table.append(report, user: nil)
            var writer = try ArrowOutput.standardOutputWriter(schema: table.schema)
            try writer.write(table.takeBatch())
            return try writer.finish()
        }
        text.writeRemainder()
    }
}
