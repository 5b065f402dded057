//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

/// Help text and error reporting: what a person sees when they get something wrong.
@Suite("Command line")
struct CommandLineTests {
    @Test func helpListsEverySubcommand() throws {
        let result = try CadenceBinary.succeed(["--help"])
        for name in ["import", "stats", "samples", "activity", "changes", "delete", "info", "verify", "repair", "compact", "plot",
                     "generate"] {
            #expect(result.standardOutput.contains("\n  \(name) "), "--help does not list \(name)")
        }
    }

    @Test func versionPrints() throws {
        let result = try CadenceBinary.succeed(["--version"])
        #expect(!result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }

    /// Each case is a mistake a person makes; each must fail with exactly one line on stderr that
    /// says what is wrong, and no stack trace.
    @Test(arguments: [
        // An unknown type.
        (["--type", "stepCounts"], "stepCounts"),
        // A month 13.
        (["--type", "stepCount", "--from", "2017-13-01"], "2017-13-01"),
        // A timestamp without an offset.
        (["--type", "stepCount", "--from", "2017-01-01T00:00:00"], "offset"),
        // A unit outside HealthKit's grammar.
        (["--type", "stepCount", "--unit", "parsecs"], "parsecs"),
        // A unit of the wrong dimension.
        (["--type", "stepCount", "--unit", "kg"], "kg"),
        // A statistic the type's style does not allow.
        (["--type", "heartRate", "--options", "sum"], "cumulativeSum"),
        // An unknown statistic.
        (["--type", "stepCount", "--options", "median"], "median"),
        // An unknown time zone.
        (["--type", "stepCount", "--time-zone", "Mars/Olympus"], "Mars/Olympus"),
        // A malformed interval.
        (["--type", "stepCount", "--from", "2017-01-01", "--to", "2017-02-01", "--interval", "3x"], "3x"),
    ])
    func badArgumentsFailWithOneLine(arguments: [String], mentioned: String) throws {
        let store = try Fixtures.hkimportStore.get().store
        let result = try CadenceBinary.run(["stats", "--store", store] + arguments)
        #expect(result.status != 0)
        let message = result.standardError.trimmingCharacters(in: .newlines)
        #expect(!message.isEmpty && !message.contains("\n"), "expected one line, got: \(result.standardError)")
        #expect(message.hasPrefix("Error: "))
        #expect(message.contains(mentioned), "the message should name \(mentioned): \(message)")
        #expect(result.standardOutput.isEmpty)
    }

    /// Usage mistakes caught by the parser are one line too, pointing at the command's help.
    @Test(arguments: [
        (["stats", "--store", "s"], "--type", "cadence stats --help"),
        (["stats", "--store", "s", "--type", "stepCount", "--bogus"], "--bogus", "cadence stats --help"),
        (["import", "--store", "s"], "<file>", "cadence import --help"),
        (["import", "a.csv", "--store", "s", "--jobs", "0"], "--jobs", "cadence import --help"),
        (["frobnicate"], "frobnicate", "cadence --help"),
    ])
    func usageMistakesFailWithOneLine(arguments: [String], mentioned: String, help: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = try CadenceBinary.run(arguments, currentDirectory: directory.url)
        #expect(result.status == 64)
        let message = result.standardError.trimmingCharacters(in: .newlines)
        #expect(!message.isEmpty && !message.contains("\n"), "expected one line, got: \(result.standardError)")
        #expect(message.hasPrefix("Error: ") && message.contains(mentioned) && message.hasSuffix("See '\(help)'."),
                "\(message)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("s")))
    }

    @Test func helpStillPrints() throws {
        let result = try CadenceBinary.succeed(["stats", "--help"])
        #expect(result.standardOutput.contains("USAGE: cadence stats"))
    }

    @Test func missingStoreIsNamed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let missing = directory.path("no-such-store")
        let result = try CadenceBinary.run(["info", "--store", missing])
        #expect(result.status != 0)
        #expect(result.standardError.contains(missing))
        #expect(!FileManager.default.fileExists(atPath: missing), "a read-only command must not create a store")
    }

    @Test func missingImportFileIsNamed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = try CadenceBinary.run(["import", directory.path("absent.csv"), "--store", directory.path("store")])
        #expect(result.status != 0)
        #expect(result.standardError.contains("absent.csv"))
        #expect(result.standardError.trimmingCharacters(in: .newlines).split(separator: "\n").count == 1)
    }
}
