//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Cadence
import Foundation

/// `cadence verify`: check every checksum of every chunk file of a store.
///
///     cadence verify --store health
///
/// Prints each damaged file with the reason and exits with status 1 if there is any; a store whose
/// manifest or log is damaged fails to open, which is reported the same way (a damaged log record
/// with the count of records and bytes from it on, which only `repair` cuts). A log that ends in a
/// write a crash cut short is not damage (that save never returned); it is noted.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check the checksums of every file of a store; exit 1 if any is damaged.",
        discussion: """
            The write-ahead log is checked too: a final record cut short by a crash is a save \
            that never returned, noted and not counted as damage; a whole record damaged in place \
            is damage, reported with the records and bytes from it on that `cadence repair` would cut.
            """)

    @OptionGroup var storeOptions: StoreOptions

    @OptionGroup var output: ReportFormatOptions

    func validate() throws {
        try output.validate(in: "verify")
    }

    func run() throws {
        let store: HealthStore
        do {
            store = try storeOptions.openForReading()
        } catch let error as CadenceError where error.code == .corruptFile {
            // A damaged manifest or log record keeps the store from opening: that is the finding.
            try report([error], chunks: 0, unfinishedLogBytes: 0)
            return
        }
        let problems = store.verify()
        let info = try store.info()
        try report(problems, chunks: info.types.reduce(0) { $0 + $1.chunks }, unfinishedLogBytes: info.unfinishedLogBytes)
    }

    /// Writes what was found; throws the exit status 1 when anything is damaged.
    private func report(_ problems: [CadenceError], chunks: Int, unfinishedLogBytes: Int) throws {
        output.write(json: {
            JSONValue.object([
                ("chunks", .integer(chunks)),
                ("unfinishedLogBytes", .integer(unfinishedLogBytes)),
                ("damaged", .array(problems.map { problem in
                    .object([("path", .string(problem.path)), ("reason", .string(problem.message))])
                })),
            ])
        }, table: { output in
            for problem in problems {
                output.writeLine("damaged: \(TerminalText.escaped(problem.description))")
            }
            if unfinishedLogBytes > 0 {
                output.writeLine("note: the log ends in \(unfinishedLogBytes) bytes of a save that a crash cut short "
                                 + "(it never returned); they are dropped when the store is next opened for writing.")
            }
            if problems.isEmpty {
                output.writeLine("OK: \(chunks) chunk file\(chunks == 1 ? "" : "s") verified in \(TerminalText.escaped(storeOptions.store)).")
            }
        })
        if !problems.isEmpty {
            StandardStreams.writeError(
                "Error: \(problems.count) damaged file\(problems.count == 1 ? "" : "s") in \(TerminalText.escaped(storeOptions.store)).")
            throw ExitCode.failure
        }
    }
}
