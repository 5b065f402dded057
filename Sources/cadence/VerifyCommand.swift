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
/// manifest or log is damaged fails to open, which is reported the same way.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check the checksums of every file of a store; exit 1 if any is damaged.")

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "The output format: table (one line per damaged file) or json.")
    var format: OutputFormat = .table

    func validate() throws {
        try format.require([.table, .json], in: "verify")
    }

    func run() throws {
        let store = try storeOptions.openForReading()
        let problems = store.verify()
        let chunks = try store.info().types.reduce(0) { $0 + $1.chunks }
        var output = StandardOutput()
        switch format {
        case .json:
            let document = JSONValue.object([
                ("chunks", .integer(chunks)),
                ("damaged", .array(problems.map { problem in
                    .object([("path", .string(problem.path)), ("reason", .string(problem.message))])
                })),
            ])
            output.writeLine(document.serialized())
        default:
            for problem in problems {
                output.writeLine("damaged: \(problem.description)")
            }
            if problems.isEmpty {
                output.writeLine("OK: \(chunks) chunk file\(chunks == 1 ? "" : "s") verified in \(storeOptions.store).")
            }
        }
        output.flush()
        if !problems.isEmpty {
            StandardStreams.writeError(
                "Error: \(problems.count) damaged file\(problems.count == 1 ? "" : "s") in \(storeOptions.store).")
            throw ExitCode.failure
        }
    }
}
