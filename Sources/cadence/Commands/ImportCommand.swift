//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Cadence
import Foundation

/// `cadence import`: import Apple Health exports (`export.zip`, `export.xml`) and CSV files.
///
///     cadence import ~/Downloads/export.zip --store health
///
/// Importing is idempotent: a record the store already has (same UUID, or the same type, source,
/// dates and value for records without one) is skipped and counted as a duplicate.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import Apple Health exports (export.zip, export.xml) and CSV files into a store.",
        discussion: """
            Zips are read in place, never unpacked to disk; memory stays bounded whatever the size. \
            A file (export or CSV) is read on every core (--jobs to use fewer, e.g. when several \
            imports run at once). Display units are converted to canonical ones; exports of every \
            generation are read (iOS 8's source= and 20140104084300-0800 dates too). A record that \
            cannot be read is counted and reported with its line number, and the rest of the file \
            still imports; with --strict such a record fails its file and leaves the store as it was \
            (later files are then not imported). A file fails when every record was rejected, or \
            when damage (a truncated file) stops the reading: what was read before it stays \
            imported, and the summary counts it per kind with the line where reading stopped. When \
            no file stored anything, a store folder the import created is removed again. CSV \
            columns: type,sourceName,unit,startDate,endDate,value required; \
            uuid,sourceVersion,device,creationDate optional; metadata:KEY for metadata; rows \
            naming the same sample UUID (and type) in a sample column are the entries of one series \
            sample, whose dates are sampleStartDate,sampleEndDate or else the entries' span (as \
            cadence series --format csv writes them). Samples \
            deleted from the store (cadence delete) stay deleted when a file holding them is \
            imported again, unless --restore-deleted is given.

            \(CommittedClose.help)
            """)

    @Argument(help: ArgumentHelp("The files to import (.zip, .xml or .csv).", valueName: "file"))
    var files: [String]

    @OptionGroup var storeOptions: WritableStoreOptions

    @Flag(help: "Fail a file on its first bad record, leaving the store exactly as before.")
    var strict = false

    @Flag(help: "Store again the samples of these files that were deleted from the store.")
    var restoreDeleted = false

    @Option(help: "The summary's format: table or json.")
    var format: OutputFormat = .table

    @Option(help: ArgumentHelp("The cores to read a file on (default: all of them).", valueName: "n"))
    var jobs: Int?

    /// How many rejected records the text summary lists with their reasons.
    static let listedRejections = 5

    func validate() throws {
        try format.require([.table, .json], in: "import")
        guard !files.isEmpty else { throw ValidationError("Give at least one file to import.") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs needs at least 1, not \(jobs).") }
    }

    func run() throws {
        // The first folder of the store's path that is missing now: opening creates it, and it is
        // removed again if nothing gets stored in it.
        let createdFolder = Self.firstMissingFolder(of: storeOptions.store)
        let store = try storeOptions.openForWriting()
        var summaries: [ImportSummary] = []
        var failures: [CadenceError] = []
        for file in files {
            let bar = ProgressBar(label: (file as NSString).lastPathComponent)
            var importer = HealthDataImporter(store: store, strict: strict,
                                              parallelism: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                                              progress: { bar.update($0) })
            importer.restoresDeleted = restoreDeleted
            do {
                let summary = try importer.importFile(atPath: file)
                bar.finish()
                summaries.append(summary)
                guard let failure = Self.failure(of: summary) else { continue }
                failures.append(failure)
            } catch let error as CadenceError {
                bar.finish()
                failures.append(error.path == nil ? CadenceError(error.code, error.message, path: file, line: error.line) : error)
            }
            StandardStreams.writeError("Error: \(failures[failures.count - 1].description)")
            if strict { break }
        }
        let flushFailure = CommittedClose.close(store)
        if let createdFolder, !failures.isEmpty, flushFailure == nil, summaries.allSatisfy({ $0.imported == 0 }) {
            // Every file failed before storing anything: leave no empty store behind.
            try? FileManager.default.removeItem(atPath: createdFolder)
        }

        var output = StandardOutput()
        switch format {
        case .json: output.writeLine(Self.json(summaries, failures: failures).serialized())
        default: output.write(Self.text(summaries))
        }
        output.flush()
        if let flushFailure {
            let status = CommittedClose.report(flushFailure, after: "what was imported")
            // A file that failed to import outranks it: the status is then 1.
            if failures.isEmpty { throw status }
        }
        if !failures.isEmpty { throw ExitCode.failure }
    }

    /// The first folder along `path` (the folder itself included) that does not exist, if any.
    static func firstMissingFolder(of path: String) -> String? {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") where component != "." {
            prefix += component
            if !FileManager.default.fileExists(atPath: prefix) { return prefix }
            prefix += "/"
        }
        return nil
    }

    /// The error a failed import is reported with (see ``ImportSummary/failed``), or nil when it
    /// did not fail.
    static func failure(of summary: ImportSummary) -> CadenceError? {
        let committed = "\(NumberText.grouped(summary.imported)) sample(s) imported before it are kept"
        if let damage = summary.stoppedAt {
            return CadenceError(.malformedInput, "\(damage.reason); reading stopped there, and the "
                                + committed, path: summary.file, line: damage.line)
        }
        guard summary.rejectedEveryRecord else { return nil }
        let first = summary.rejections.first.map { "; the first, at line \($0.line): \($0.reason)" } ?? ""
        return CadenceError(.malformedInput, "every record was rejected (\(NumberText.grouped(summary.rejected))), "
                            + "so nothing was imported\(first)", path: summary.file)
    }

    // MARK: Output

    /// The kinds of sample an import stores, with the names the summary gives them.
    static let kindNames: [(kind: SampleKind, name: String)] = [
        (.quantity, "quantity samples"), (.category, "category samples"), (.correlation, "correlations"),
        (.workout, "workouts"), (.document, "documents"), (.clinicalRecord, "clinical records"),
    ]

    /// Samples imported of each kind, as a JSON object with every kind.
    private static func kinds(_ counts: [SampleKind: Int]) -> JSONValue {
        .object(kindNames.map { ($0.kind.rawValue, .integer(counts[$0.kind] ?? 0)) })
    }

    /// Rejections or route issues as JSON objects of their line and reason.
    private static func issues(_ issues: [ImportSummary.Rejection]) -> JSONValue {
        .array(issues.map { .object([("line", .integer($0.line)), ("reason", .string($0.reason))]) })
    }

    static func json(_ summaries: [ImportSummary], failures: [CadenceError]) -> JSONValue {
        .object([
            ("files", .array(summaries.map { summary in
                .object([
                    ("file", .string(summary.file)),
                    ("imported", .integer(summary.imported)),
                    ("importedByKind", kinds(summary.importedByKind)),
                    ("failed", .bool(summary.failed)),
                    ("stoppedAt", summary.stoppedAt.map { .object([("line", .integer($0.line)), ("reason", .string($0.reason))]) }
                        ?? .null),
                    ("duplicates", .integer(summary.duplicates)),
                    ("keptDeleted", .integer(summary.keptDeleted)),
                    ("rejected", .integer(summary.rejected)),
                    ("rejections", issues(summary.rejections)),
                    ("unknownTypes", .object(summary.unknownTypes.sorted { $0.key < $1.key }.map { ($0.key, .integer($0.value)) })),
                    ("unknownCategoryValues", .object(summary.unknownCategoryValues.sorted { $0.key < $1.key }
                        .map { ($0.key, .integer($0.value)) })),
                    ("otherRecords", .integer(summary.otherRecords)),
                    ("correlationRecords", .integer(summary.correlationRecords)),
                    ("correlations", .integer(summary.correlations)),
                    ("workouts", .integer(summary.workouts)),
                    ("documents", .integer(summary.documents)),
                    ("clinicalRecords", .integer(summary.clinicalRecords)),
                    ("workoutRoutes", .integer(summary.workoutRoutes)),
                    ("routeIssues", issues(summary.routeIssues)),
                    ("activitySummaries", .integer(summary.activitySummaries)),
                    ("activitySummariesImported", .integer(summary.activitySummariesImported)),
                    ("activitySummariesUpdated", .integer(summary.activitySummariesUpdated)),
                    ("activitySummariesUnchanged", .integer(summary.activitySummariesUnchanged)),
                    ("bytesRead", .integer(summary.bytesRead)),
                ])
            })),
            ("totals", .object([
                ("imported", .integer(summaries.reduce(0) { $0 + $1.imported })),
                ("importedByKind", kinds(summaries.reduce(into: [SampleKind: Int]()) { total, summary in
                    total.merge(summary.importedByKind, uniquingKeysWith: +)
                })),
                ("duplicates", .integer(summaries.reduce(0) { $0 + $1.duplicates })),
                ("rejected", .integer(summaries.reduce(0) { $0 + $1.rejected })),
            ])),
            ("errors", .array(failures.map { failure in
                .object([
                    ("file", .string(failure.path)),
                    ("line", failure.line.map { .integer($0) } ?? .null),
                    ("message", .string(failure.message)),
                ])
            })),
        ])
    }

    static func text(_ summaries: [ImportSummary]) -> String {
        var text = ""
        for summary in summaries {
            text += "\(TerminalText.escaped(summary.file))\n"
            // A list under the file name, without a header.
            var table = TableRenderer(columns: [.init("Records"), .init("Count", alignment: .right)])
            table.showsHeader = false
            table.append(["  imported", NumberText.grouped(summary.imported)])
            for (kind, name) in kindNames where summary.importedByKind[kind, default: 0] > 0 {
                table.append(["    " + name, NumberText.grouped(summary.importedByKind[kind, default: 0])])
            }
            table.append(["  duplicates skipped", NumberText.grouped(summary.duplicates)])
            table.append(["  rejected", NumberText.grouped(summary.rejected)])
            for (type, count) in summary.unknownTypes.sorted(by: { $0.key < $1.key }) {
                table.append(["  unknown type \(TerminalText.escaped(type)) (stored)", NumberText.grouped(count)])
            }
            for (value, count) in summary.unknownCategoryValues.sorted(by: { $0.key < $1.key }) {
                table.append(["  unknown value \(TerminalText.escaped(value)) (stored)", NumberText.grouped(count)])
            }
            let counted: [(String, Int)] = [
                ("deleted from the store (kept deleted)", summary.keptDeleted),
                ("other records (not stored)", summary.otherRecords),
                ("records inside correlations (imported at top level)", summary.correlationRecords),
                ("correlations", summary.correlations),
                ("workouts", summary.workouts),
                ("CDA documents read", summary.documents),
                ("clinical records read (FHIR)", summary.clinicalRecords),
                ("workout route files read", summary.workoutRoutes),
                ("route problems", summary.routeIssueCount),
                ("activity summaries imported", summary.activitySummariesImported),
                ("activity summaries updated", summary.activitySummariesUpdated),
                ("activity summaries unchanged", summary.activitySummariesUnchanged),
            ]
            for (name, count) in counted where count > 0 {
                table.append(["  " + name, NumberText.grouped(count)])
            }
            text += table.render()
            for rejection in summary.rejections.prefix(listedRejections) {
                // The reason quotes the file's data: escaped like a table cell.
                text += "  rejected \(TerminalText.escaped(summary.file)):\(rejection.line): \(TerminalText.escaped(rejection.reason))\n"
            }
            for issue in summary.routeIssues.prefix(listedRejections) {
                text += "  route \(TerminalText.escaped(summary.file)):\(issue.line): \(TerminalText.escaped(issue.reason))\n"
            }
            if summary.rejected > listedRejections {
                text += "  … and \(summary.rejected - min(listedRejections, summary.rejections.count)) more rejected records\n"
            }
            if let damage = summary.stoppedAt {
                text += "  FAILED: reading stopped at \(TerminalText.escaped(summary.file)):\(damage.line): "
                    + "\(TerminalText.escaped(damage.reason)); the counts above are what was imported before it\n"
            } else if summary.rejectedEveryRecord {
                text += "  FAILED: every record was rejected, so nothing was imported\n"
            }
        }
        if summaries.count > 1 {
            let imported = summaries.reduce(0) { $0 + $1.imported }
            let duplicates = summaries.reduce(0) { $0 + $1.duplicates }
            let rejected = summaries.reduce(0) { $0 + $1.rejected }
            text += "Total: \(NumberText.grouped(imported)) imported, \(NumberText.grouped(duplicates)) duplicates skipped, \(NumberText.grouped(rejected)) rejected\n"
        }
        return text
    }
}
