//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Cadence
import Foundation

/// The `cadence` command: import Apple Health exports and CSV into a Cadence store, query it the
/// way HealthKit does, export it and plot it.
///
///     cadence import export.zip --store health
///     cadence stats --store health --type stepCount --from 2024-03-01 --to 2024-04-01 --interval 1d
@main
struct CadenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cadence",
        abstract: "Store Apple Health samples (quantities, sleep and other categories, correlations, workouts) and query them the way HealthKit does.",
        discussion: """
            Every command takes --store DIR. Dates are RFC 3339 with an offset \
            (2024-03-10T00:00:00-05:00) or a plain day (2024-03-10, local midnight); types are \
            HealthKit identifiers, long (HKQuantityTypeIdentifierStepCount) or short (stepCount).
            """,
        version: "0.1.0",
        subcommands: [
            ImportCommand.self,
            StatsCommand.self,
            BatchCommand.self,
            SamplesCommand.self,
            SeriesCommand.self,
            WorkoutsCommand.self,
            DocumentsCommand.self,
            ActivityCommand.self,
            ChangesCommand.self,
            DeleteCommand.self,
            InfoCommand.self,
            VerifyCommand.self,
            RepairCommand.self,
            PriorityCommand.self,
            CompactCommand.self,
            UpgradeCommand.self,
            PlotCommand.self,
            GenerateCommand.self,
        ])

    /// Parses the arguments and runs the command; an error is reported as one line on standard
    /// error, never a trace: a ``CadenceError`` (file and line first, when it has them) with exit
    /// code 1, a usage mistake with a pointer to the command's help and exit code 64. Output that
    /// cannot be written ends the command as ``StandardStreams/writeOutput(_:)`` says.
    static func main() {
        StandardStreams.reportClosedPipes()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as CadenceError {
            StandardStreams.writeError("Error: \(error.description)")
            Foundation.exit(ExitCode.failure.rawValue)
        } catch {
            let code = exitCode(for: error)
            let message = message(for: error).split(whereSeparator: \.isNewline).joined(separator: " ")
            // Help and version requests, and deliberate exits, keep the parser's own output.
            guard code != .success, !message.isEmpty else { exit(withError: error) }
            let sentence = message.last.map { ".?!".contains($0) } == true ? message : message + "."
            StandardStreams.writeError("Error: \(sentence) See '\(helpCommand()) --help'.")
            Foundation.exit(code.rawValue)
        }
    }

    /// `cadence`, or `cadence SUBCOMMAND` when the arguments name one.
    private static func helpCommand() -> String {
        let names = configuration.subcommands.compactMap { $0.configuration.commandName }
        guard let first = CommandLine.arguments.dropFirst().first, names.contains(first) else { return "cadence" }
        return "cadence \(first)"
    }
}
