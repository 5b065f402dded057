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
        abstract: "Store Apple Health quantity samples and query them the way HealthKit does.",
        discussion: """
            Every command takes --store DIR. Dates are RFC 3339 with an offset \
            (2024-03-10T00:00:00-05:00) or a plain day (2024-03-10, local midnight); types are \
            HealthKit identifiers, long (HKQuantityTypeIdentifierStepCount) or short (stepCount).
            """,
        version: "0.1.0",
        subcommands: [
            ImportCommand.self,
            StatsCommand.self,
            SamplesCommand.self,
            ChangesCommand.self,
            DeleteCommand.self,
            InfoCommand.self,
            VerifyCommand.self,
            RepairCommand.self,
            PlotCommand.self,
            GenerateCommand.self,
        ])

    /// Parses the arguments and runs the command; a ``CadenceError`` is reported as one line on
    /// standard error (file and line first, when it has them) with exit code 1, never a trace.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as CadenceError {
            StandardStreams.writeError("Error: \(error.description)")
            Foundation.exit(ExitCode.failure.rawValue)
        } catch {
            exit(withError: error)
        }
    }
}
