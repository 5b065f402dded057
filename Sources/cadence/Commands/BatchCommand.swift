//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Cadence
import Dispatch
import Foundation
import Synchronization

/// `cadence batch`: one statistics query over the stores of many users, as one tidy table.
///
///     cadence batch --stores users/ --output daily.csv --type stepCount \
///         --from 2024-01-01 --to 2025-01-01 --interval 1d --time-zone Europe/Berlin
///     generate-samples | cadence batch --input - --type stepCount --from 2024-01-01 --to 2025-01-01 --interval 1d
struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Compute the same statistics for many users: one row per user and interval.",
        discussion: """
            Users come from --stores DIR (each subdirectory is a store named for its user), from \
            --list FILE (CSV rows user_id,store_path; - reads standard input), or, without any store, \
            from --input FILE (- for standard input): samples in the import CSV's columns plus a user \
            column, the rows of each user consecutive (sorted by user). --input reads one user at a \
            time into memory and writes that user's rows as soon as the user ends, so one process \
            serves a whole partition of a batch engine.

            The query takes the options of cadence stats. The output is one tidy table: the user \
            column, then the columns of cadence stats --format csv (a row per interval, and per source \
            with separateBySource), as CSV, as JSON lines (--format json, one object per row) or as \
            one Arrow IPC stream (--format arrow, to standard output: statistics as float64 columns, \
            dates as timestamps in the query's time zone). \
            Parquet is not written: no maintained Parquet writer is available to Swift here; the \
            Spark integration writes Parquet.

            Stores are queried on every core (--jobs), one store open per worker. A store that is \
            missing or damaged is reported on standard error with its path and the reason (and in \
            --failures FILE as CSV user,store,reason), the other users still run, and the exit status \
            is 1.

            With --output FILE the run is resumable: each user's rows are committed to FILE.parts/ \
            (written aside, synced, renamed: a part is whole or absent), and a run started again with \
            the same options, after a kill or a failure, skips the users already committed and \
            repeats none. Once every user is done the parts are joined in user order into FILE and \
            FILE.parts/ is removed; while users fail it is kept, so the next run retries only them. \
            Without --output, rows go to standard output in user order and nothing is kept.
            """)

    @Option(help: ArgumentHelp("A directory whose subdirectories are the users' stores.", valueName: "dir"))
    var stores: String?

    @Option(help: ArgumentHelp("A CSV file of user_id,store_path rows (- for standard input).", valueName: "file"))
    var list: String?

    @OptionGroup var samples: SampleInputOptions

    @OptionGroup var query: StatisticsQueryOptions

    @Option(help: ArgumentHelp("The output format: csv, json for JSON lines, or arrow (an Arrow IPC stream, to standard output).", valueName: "format"))
    var format: OutputFormat = .csv

    @Option(help: ArgumentHelp("The file to write, resumably (default: standard output, not resumable).",
                               valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("A CSV file to write the failed users to: user,store,reason.", valueName: "file"))
    var failures: String?

    @Option(help: ArgumentHelp("The stores queried at once, each on one core (default: one per core).", valueName: "n"))
    var jobs: Int?

    func validate() throws {
        try format.require([.csv, .json, .arrow], in: "batch")
        if format == .arrow && output != nil {
            throw ValidationError("--format arrow streams to standard output; --output (resumable) writes csv or json.")
        }
        guard [stores, list, samples.input].compactMap({ $0 }).count == 1 else {
            throw ValidationError("Give exactly one of --stores, --list and --input.")
        }
        if let jobs, jobs < 1 { throw ValidationError("--jobs needs at least 1, not \(jobs).") }
        if samples.input != nil && output != nil {
            throw ValidationError("--input streams to standard output; --output (resumable) is for --stores and --list.")
        }
    }

    func run() throws {
        FreedMemoryReuse.enable()
        if let input = samples.input {
            return try userRows.writeStatistics(ofSamplesIn: input, userColumn: samples.userColumn,
                                                request: try StatisticsRequest(query, store: nil))
        }
        let users = try stores.map { try BatchUser.stores(in: $0) } ?? list.map { try BatchUser.list(at: $0) } ?? []
        let run = BatchRun(command: self, request: try StatisticsRequest(query, store: nil), users: users)
        let failed = try output.map { try run.resumable(into: $0) } ?? run.streaming()
        if !failed.isEmpty {
            try failures.map { try writeFailures(failed, to: $0) }
            throw ExitCode.failure
        }
    }

    /// How users' rows are written.
    var userRows: UserRowsOutput { UserRowsOutput(format: format) }

    /// What `--output` parts must agree on to be resumed.
    var job: String {
        let source = stores.map { "stores=\($0)" } ?? list.map { "list=\($0)" } ?? ""
        return [source, "format=\(format.rawValue)", "type=\(query.type)", "from=\(query.filter.from ?? "")",
                "to=\(query.filter.to ?? "")", "strictStart=\(query.filter.strictStart)",
                "strictEnd=\(query.filter.strictEnd)", "source=\(query.filter.sources.joined(separator: ","))",
                "timeZone=\(query.filter.timeZone ?? TimeZone.current.identifier)", "interval=\(query.interval ?? "")",
                "anchor=\(query.anchor ?? "")", "options=\(query.options ?? "")", "priority=\(query.priority ?? "")",
                "unit=\(query.unit ?? "")"].joined(separator: "\n") + "\n"
    }

    private func writeFailures(_ failed: [BatchRun.Failure], to path: String) throws {
        var text = CSVOutput.line(["user", "store", "reason"])
        for failure in failed { text += CSVOutput.line([failure.user.identifier, failure.user.store, failure.reason]) }
        try POSIXFileSystem().writeFile(path, Array(text.utf8))
    }
}
