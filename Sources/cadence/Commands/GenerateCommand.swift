//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Cadence
import Foundation

/// `cadence generate`: write deterministic synthetic health data, the same the benchmark uses.
///
///     cadence generate --profile realistic --days 365 --seed 7 --format export-xml --output export.xml
///     cadence generate --profile realistic --days 365 --seed 7 --format export-zip --output export.zip
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write deterministic synthetic health data as CSV, an Apple Health export.xml or export.zip.",
        discussion: """
            The realistic profile holds Apple Watch heart rate with workout bursts, overlapping iPhone \
            and Watch steps, active energy and body mass (about 1,900 samples a day); the dense profile \
            holds heart rate every 5 seconds (17,280 samples a day). The same seed gives the same file. \
            export-zip writes what the Health app shares, with a modern export's other kinds beside the \
            quantities: Watch sleep stages, a sleep app's nights and the iPhone's time in bed, mindful \
            sessions, symptoms, blood pressure and food correlations, and a daily run with events, \
            statistics and a GPX route.
            """)

    /// The file formats `generate` writes.
    enum FileFormat: String, ExpressibleByArgument, CaseIterable {
        case csv
        case exportXML = "export-xml"
        case exportZIP = "export-zip"
    }

    @Option(help: "The kind of data: realistic or dense.")
    var profile: String = SyntheticProfile.realistic.rawValue

    @Option(help: ArgumentHelp("How many days to generate.", valueName: "n"))
    var days: Int?

    @Option(help: ArgumentHelp("How many samples to generate, all types together.", valueName: "n"))
    var samples: Int?

    @Option(help: ArgumentHelp("The seed; the same seed gives the same data.", valueName: "n"))
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("The start of the first day (default: 2024-01-01T00:00:00Z).", valueName: "date"))
    var start: String?

    @Option(help: """
        The file format: csv (cadence import's columns), export-xml (Apple Health's export.xml, quantities \
        only) or export-zip (Apple Health's export.zip, every kind of a modern export).
        """)
    var format: FileFormat = .csv

    @Option(help: ArgumentHelp("The file to write (replaced if it exists).", valueName: "file"))
    var output: String

    func validate() throws {
        guard SyntheticProfile(rawValue: profile) != nil else {
            let names = SyntheticProfile.allCases.map(\.rawValue).joined(separator: " or ")
            throw ValidationError("Unknown --profile \"\(profile)\": use \(names).")
        }
        switch (days, samples) {
        case (nil, nil), (.some, .some):
            throw ValidationError("Give exactly one of --days and --samples.")
        case (.some(let count), nil):
            guard count > 0 && count <= SyntheticHealthData.maximumDays else {
                throw ValidationError("--days must be between 1 and \(SyntheticHealthData.maximumDays).")
            }
        case (nil, .some(let count)):
            guard count > 0 && count <= SyntheticHealthData.maximumSamples else {
                throw ValidationError("--samples must be between 1 and \(SyntheticHealthData.maximumSamples).")
            }
        }
    }

    func run() throws {
        let kind = SyntheticProfile(rawValue: profile) ?? .realistic
        let size: SyntheticHealthData.Size = days.map { .days($0) } ?? .samples(samples ?? 0)
        let startDate = try start.map { try ArgumentValues.date($0, option: "--start", timeZone: TimeZone.current) }
            ?? SyntheticHealthData.defaultStartDate
        let data = SyntheticHealthData(profile: kind, seed: seed, startDate: startDate, size: size)
        let rows: Int
        switch format {
        case .csv: rows = try SyntheticExportWriter.export(data, format: .csv, to: output)
        case .exportXML: rows = try SyntheticExportWriter.export(data, format: .xml, to: output)
        case .exportZIP: rows = try SyntheticExportWriter.exportArchive(data, to: output)
        }
        var console = StandardOutput()
        console.writeLine("Wrote \(rows) samples (\(kind.rawValue), seed \(seed)) to \(TerminalText.escaped(output)).")
        console.flush()
    }
}
