//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser

/// The `--format table|json` option of the commands that report on a store, and the writing of
/// their report in it.
struct ReportFormatOptions: ParsableArguments {
    @Option(help: "The output format: table (lines for people) or json (one document).")
    var format: OutputFormat = .table

    /// Checks that the format is table or json, naming `command` in the error as every command does.
    func validate(in command: String) throws {
        try format.require([.table, .json], in: command)
    }

    /// Writes the report to standard output: `json()` as one line, or the lines `table` writes.
    func write(json: () -> JSONValue, table: (inout StandardOutput) -> Void) {
        var output = StandardOutput()
        switch format {
        case .json: output.writeLine(json().serialized())
        default: table(&output)
        }
        output.flush()
    }
}
