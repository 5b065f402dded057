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
    /// `.csv`, `.json` (JSON lines) or `.arrow` (an Arrow stream).
    let format: OutputFormat

    /// The rows of one user's report.
    func rows(of report: StatisticsReport, user: String) -> String {
        switch format {
        case .json: report.jsonLines(leadingMembers: [("user", .string(user))])
        default: report.csvRows(leadingFields: [user])
        }
    }

    /// The CSV header (empty for JSON lines) and the rows of one user's report.
    func rendered(_ report: StatisticsReport, user: BatchUser) -> (header: String, body: String) {
        (header(of: report), rows(of: report, user: user.identifier))
    }

    /// The CSV header line for `report`'s rows; empty for JSON lines.
    func header(of report: StatisticsReport) -> String {
        format == .json ? "" : report.csvHeader(leadingColumns: ["user"])
    }

    /// Reads samples in the import CSV's columns plus a user column, as CSV or as an Arrow stream
    /// or file (told apart by the first bytes), the rows of each user consecutive, from `input`
    /// (`-` for standard input) and writes each user's rows of `request` as soon as the user ends,
    /// holding one user's samples at a time and writing no store.
    ///
    /// - Throws: What reading throws (a missing header or column, users not consecutive);
    ///   `ExitCode.failure` after the whole input when rows could not be read (each reported on
    ///   standard error with its line and user, and not counted).
    func writeStatistics(ofSamplesIn input: String, userColumn: String, request: StatisticsRequest) throws {
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
        var arrow = ArrowStatisticsStream()
        var wroteHeader = false
        var rejected = 0
        // An Arrow stream or file is told from CSV by its first bytes, which are then read again.
        var prefix = source.readData(ofLength: 8)
        let isArrow = ArrowStreamReader.looksLikeArrow(Array(prefix))
        let readInput: (UnsafeMutableRawBufferPointer) throws -> Int = { buffer in
            guard prefix.isEmpty else {
                let count = min(prefix.count, buffer.count)
                prefix.prefix(count).copyBytes(to: buffer)
                prefix = Data(prefix.dropFirst(count))
                return count
            }
            // Straight into the reader's buffer: a large input is not copied through a `Data` first.
            while true {
                let count = read(source.fileDescriptor, buffer.baseAddress, buffer.count)
                if count >= 0 { return count }
                guard errno == EINTR else {
                    throw CadenceError(.io, "the input cannot be read: \(String(cString: strerror(errno)))", path: name)
                }
            }
        }
        let writeUser = { (user: String, summary: ImportSummary, report: () throws -> StatisticsReport) throws in
            for rejection in summary.rejections {
                StandardStreams.writeError("Error: \(name):\(rejection.line): user '\(user)': \(rejection.reason)")
            }
            rejected += summary.rejected
            let report = try report()
            if format == .arrow { return try arrow.append(report, user: user) }
            if !wroteHeader { output.write(header(of: report)) }
            wroteHeader = true
            output.write(rows(of: report, user: user))
        }
        let handleUser = { (user: String, store: HealthStore, summary: ImportSummary) throws in
            try writeUser(user, summary) { try request.report(in: store) }
        }
        let arrowReader = UserPartitionedArrowReader(userColumn: userColumn, name: name)
        if isArrow, let type = request.knownQuantityType {
            // Only the type's samples are read into columns, and the query runs on them: no store.
            try arrowReader.read(from: readInput, keeping: type) { user, snapshot, summary in
                try writeUser(user, summary) { try request.report(in: snapshot) }
            }
        } else if isArrow {
            try arrowReader.read(from: readInput, body: handleUser)
        } else {
            try UserPartitionedCSVReader(userColumn: userColumn, name: name).read(from: readInput, body: handleUser)
        }
        output.flush()
        if format == .arrow {
            // With no user at all the stream still has the columns: those of a query on no samples.
            try arrow.finish(emptyReport: { try request.report(in: HealthStore.inMemory()) })
        }
        if rejected > 0 {
            StandardStreams.writeError("Error: \(rejected) row(s) of \(name) could not be read and are not counted.")
            throw ExitCode.failure
        }
    }
}

/// The `--input FILE` and `--user-column NAME` options of the commands that compute statistics
/// straight from samples, without a store.
struct SampleInputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Samples as import CSV or an Arrow stream, with a user column, grouped by user (- for standard input).",
                               valueName: "file"))
    var input: String?

    @Option(help: ArgumentHelp("The user column of --input.", valueName: "name"))
    var userColumn = "user"
}

/// Users' statistics rows as one Arrow stream on standard output: the schema with the first
/// user's report, then a record batch whenever enough rows have gathered.
struct ArrowStatisticsStream {
    private var table: ArrowStatisticsTable?
    private var writer: ArrowStreamWriter?

    /// Rows gathered before a batch is written: few batches for the reader, bounded memory for us.
    private static let batchRows = 1 << 16

    mutating func append(_ report: StatisticsReport, user: String) throws {
        if table == nil {
            let table = ArrowStatisticsTable(like: report, hasUser: true)
            writer = try ArrowOutput.standardOutputWriter(schema: table.schema)
            self.table = table
        }
        table?.append(report, user: user)
        if let count = table?.count, count >= Self.batchRows { try flush() }
    }

    /// Writes the rows gathered and ends the stream; with no report appended, writes the schema
    /// of `emptyReport` first.
    mutating func finish(emptyReport: () throws -> StatisticsReport) throws {
        if table == nil {
            let table = ArrowStatisticsTable(like: try emptyReport(), hasUser: true)
            writer = try ArrowOutput.standardOutputWriter(schema: table.schema)
            self.table = table
        }
        try flush()
        try writer?.finish()
    }

    private mutating func flush() throws {
        guard let count = table?.count, count > 0, let batch = table?.takeBatch() else { return }
        try writer?.write(batch)
    }
}
