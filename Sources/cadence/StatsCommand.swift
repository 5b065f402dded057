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
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Compute statistics of a quantity type, per calendar interval or in total.",
        discussion: """
            With --interval, every interval that intersects [--from, --to) is listed in order, empty \
            ones included (their values are null). Without it, one statistic covers every selected \
            sample. Sums merge overlapping sources so that a walk recorded by a phone and a watch \
            counts once (SPEC §5).
            """)

    @OptionGroup var storeOptions: StoreOptions

    @OptionGroup var query: StatisticsQueryOptions

    @Option(help: ArgumentHelp("The output format: table, csv or json.", valueName: "format"))
    var format: OutputFormat = .table

    func run() throws {
        let report = try query.report(for: try storeOptions.openForReading())
        var text = OutputText()
        switch format {
        case .json:
            report.writeJSON(to: &text)
            text.append(byte: UInt8(ascii: "\n"))
        case .csv: report.writeCSV(to: &text)
        case .table: text.append(report.table())
        }
        StandardStreams.write(text.bytes, to: STDOUT_FILENO)
    }
}
