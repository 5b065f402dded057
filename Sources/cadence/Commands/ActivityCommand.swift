//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Cadence
import Foundation

/// `cadence activity`: the stored activity summaries (Activity rings) of a range of days.
///
///     cadence activity --store health --from 2024-01-01 --to 2024-01-31
struct ActivityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activity",
        abstract: "List each day's Activity rings: move, move time, exercise and stand, value against goal.",
        discussion: """
            Days are calendar days without a time zone, as the export writes them; --from and \
            --to are both inclusive. Energy is in kilocalories, move and exercise time in \
            minutes, stand in hours. A ring is closed when its value reaches its goal.
            """)

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: ArgumentHelp("The first day listed, inclusive (2024-01-01).", valueName: "day"))
    var from: String?

    @Option(help: ArgumentHelp("The last day listed, inclusive (2024-01-31).", valueName: "day"))
    var to: String?

    @Option(help: ArgumentHelp("The output format: table, csv or json.", valueName: "format"))
    var format: OutputFormat = .table

    func validate() throws {
        try format.require([.table, .csv, .json], in: "activity")
    }

    func run() throws {
        let first = try from.map { try ArgumentValues.day($0, option: "--from") }
        let last = try to.map { try ArgumentValues.day($0, option: "--to") }
        if let first, let last, last < first {
            throw CadenceError(.invalidArgument, "--from (\(first)) must not be after --to (\(last)).")
        }
        let store = try storeOptions.openForReading()
        let summaries = try store.execute(ActivitySummaryQuery(from: first, through: last))
        var output = StandardOutput()
        ActivityOutput.write(summaries, format: format, into: &output)
        output.flush()
    }
}
