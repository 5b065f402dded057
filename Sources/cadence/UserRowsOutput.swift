//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Cadence
import Foundation

/// The tidy table of many users' statistics: a user column first, then the columns of
/// `cadence stats --format csv`, as CSV or as JSON lines (one object per row).
struct UserRowsOutput {
    /// `.csv` or `.json` (JSON lines).
    let format: OutputFormat

    /// The rows of one user's report.
    func rows(of report: StatisticsReport, user: String) -> String {
        switch format {
        case .json: report.jsonLines(leadingMembers: [("user", .string(user))])
        default: report.csvRows(leadingFields: [user])
        }
    }

    /// The CSV header line for `report`'s rows; empty for JSON lines.
    func header(of report: StatisticsReport) -> String {
        format == .json ? "" : report.csvHeader(leadingColumns: ["user"])
    }

    /// Reads samples in the import CSV's columns plus a user column, the rows of each user
    /// consecutive, from `input` (`-` for standard input) and writes each user's rows of `query` as
    /// soon as the user ends, holding one user's samples at a time and writing no store.
    ///
    /// - Throws: What reading throws (a missing header or column, users not consecutive);
    ///   `ExitCode.failure` after the whole input when rows could not be read (each reported on
    ///   standard error with its line and user, and not counted).
    func writeStatistics(ofSamplesIn input: String, userColumn: String, query: StatisticsQueryOptions) throws {
        let name = input == "-" ? "<stdin>" : input
        let source: FileHandle
        if input == "-" {
            source = FileHandle.standardInput
        } else {
            guard let file = FileHandle(forReadingAtPath: input) else {
                throw CadenceError(.notFound, "the input cannot be opened", path: input)
            }
            source = file
        }
        var output = StandardOutput()
        var wroteHeader = false
        var rejected = 0
        // An Arrow stream or file is told from CSV by its first bytes, which are then read again.
        var prefix = source.readData(ofLength: 8)
        let isArrow = ArrowStreamReader.looksLikeArrow(Array(prefix))
        let read: (UnsafeMutableRawBufferPointer) throws -> Int = { buffer in
            let data = prefix.isEmpty ? source.readData(ofLength: buffer.count) : prefix
            prefix = Data()
            data.copyBytes(to: buffer)
            return data.count
        }
        let handleUser = { (user: String, store: HealthStore, summary: ImportSummary) throws in
            for rejection in summary.rejections {
                StandardStreams.writeError("Error: \(name):\(rejection.line): user '\(user)': \(rejection.reason)")
            }
            rejected += summary.rejected
            let report = try query.report(for: store)
            if !wroteHeader { output.write(header(of: report)) }
            wroteHeader = true
            output.write(rows(of: report, user: user))
        }
        if isArrow {
            try UserPartitionedArrowReader(userColumn: userColumn, name: name).read(from: read, body: handleUser)
        } else {
            try UserPartitionedCSVReader(userColumn: userColumn, name: name).read(from: read, body: handleUser)
        }
        output.flush()
        if rejected > 0 {
            StandardStreams.writeError("Error: \(rejected) row(s) of \(name) could not be read and are not counted.")
            throw ExitCode.failure
        }
    }
}

/// The `--input FILE` and `--user-column NAME` options of the commands that compute statistics
/// straight from samples, without a store.
struct SampleInputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Samples as import CSV with a user column, grouped by user (- for standard input).",
                               valueName: "file"))
    var input: String?

    @Option(help: ArgumentHelp("The user column of --input.", valueName: "name"))
    var userColumn = "user"
}
