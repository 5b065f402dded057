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
/// manifest or log is damaged fails to open, which is reported the same way. A log that ends in a
/// write a crash cut short is not damage (that save never returned); it is noted.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check the checksums of every file of a store; exit 1 if any is damaged.",
        discussion: """
            The end of the write-ahead log is checked too: a final record cut short by a crash is \
            a save that never returned, noted and not counted as damage; a final record damaged \
            in place is damage.
            """)

    @OptionGroup var storeOptions: StoreOptions

    @OptionGroup var output: ReportFormatOptions

    func validate() throws {
        try output.validate(in: "verify")
    }

    func run() throws {
        let store = try storeOptions.openForReading()
        let problems = store.verify()
        let info = try store.info()
        let chunks = info.types.reduce(0) { $0 + $1.chunks }
        output.write(json: {
            JSONValue.object([
                ("chunks", .integer(chunks)),
                ("unfinishedLogBytes", .integer(info.unfinishedLogBytes)),
                ("damaged", .array(problems.map { problem in
                    .object([("path", .string(problem.path)), ("reason", .string(problem.message))])
                })),
            ])
        }, table: { output in
            for problem in problems {
                output.writeLine("damaged: \(problem.description)")
            }
            if info.unfinishedLogBytes > 0 {
                output.writeLine("note: the log ends in \(info.unfinishedLogBytes) bytes of a save that a crash cut short "
                                 + "(it never returned); they are dropped when the store is next opened for writing.")
            }
            if problems.isEmpty {
                output.writeLine("OK: \(chunks) chunk file\(chunks == 1 ? "" : "s") verified in \(storeOptions.store).")
            }
        })
        if !problems.isEmpty {
            StandardStreams.writeError(
                "Error: \(problems.count) damaged file\(problems.count == 1 ? "" : "s") in \(storeOptions.store).")
            throw ExitCode.failure
        }
    }
}
