//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation
import Testing

/// What the data holds never takes over the terminal, and no number is printed as something else.
@Suite("Output of hostile data")
struct OutputEscapingTests {
    @Test("Table output escapes control characters and bidirectional marks from the data")
    func tableEscapes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("store")
        let store = try HealthStore.open(at: path)
        let hostile = "Evil\u{1B}[2J\u{7}\u{202E}txt.exe\u{2066}\u{9B}"
        try store.save([try QuantitySample(type: .heartRate, value: 61, start: Date(timeIntervalSince1970: 1_700_000_000),
                                           end: Date(timeIntervalSince1970: 1_700_000_000), source: Source(name: hostile))])
        try store.close()
        let listed = try CadenceBinary.succeed(["samples", "--store", path, "--type", "heartRate"])
        let unsafe = listed.standardOutput.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || [0x202E, 0x2066].contains($0.value)
        }
        #expect(unsafe.isEmpty)
        #expect(listed.standardOutput.contains("Evil\\u{1B}[2J\\u{7}\\u{202E}txt.exe\\u{2066}\\u{9B}"))
    }

    @Test("import's list of rejected records escapes what it quotes from the file")
    func rejectionEscapes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let csv = directory.path("hostile.csv")
        try """
            type,sourceName,unit,startDate,endDate,value
            stepCount,Phone,count,2024-03-01T10:00:00Z,2024-03-01T10:10:00Z,8\u{1B}]0;owned\u{7}00

            """.write(toFile: csv, atomically: true, encoding: .utf8)
        let result = try CadenceBinary.run(["import", csv, "--store", directory.path("store")])
        #expect(result.standardOutput.contains("rejected"))
        #expect(!result.standardOutput.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }

    @Test("A sum beyond the largest Double is an error naming it, not null or inf", arguments: ["table", "json", "csv"])
    func overflowingSum(format: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try storeWithOverflowingSteps(in: directory)
        let result = try CadenceBinary.run(["stats", "--store", path, "--type", "stepCount", "--format", format])
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("sum") && result.standardError.contains("largest number"))
    }

    @Test("A chart of a sum beyond the largest Double is refused naming the interval, and nothing is written")
    func overflowingSumIsNotPlotted() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try storeWithOverflowingSteps(in: directory)
        let chart = directory.path("steps.svg")
        let result = try CadenceBinary.run([
            "plot", "--store", path, "--type", "stepCount", "--interval", "1d", "--time-zone", "UTC",
            "--from", "2023-11-14T00:00:00Z", "--to", "2023-11-16T00:00:00Z", "--output", chart])
        #expect(result.status == 1)
        #expect(result.standardError.contains("2023-11-14T00:00:00Z") && result.standardError.contains("largest number"))
        #expect(!FileManager.default.fileExists(atPath: chart))
    }

    /// A store holding two step samples whose sum is beyond the largest `Double`, on 2023-11-14 (UTC).
    private func storeWithOverflowingSteps(in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("store")
        let store = try HealthStore.open(at: path)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        try store.save((0..<2).map { index in
            try QuantitySample(type: .stepCount, value: 1.5e308, start: start.addingTimeInterval(Double(index) * 60),
                               end: start.addingTimeInterval(Double(index) * 60 + 30), source: Source(name: "Phone"))
        })
        try store.close()
        return path
    }
}

/// Text from the data or the arguments is escaped wherever it is printed for people, not only in
/// tables: listings, headings and messages on standard error.
@Suite("Escaping outside tables")
struct TerminalEscapingTests {
    /// ESC starting a screen-clearing sequence, BEL, the C1 CSI and NEL, a right-to-left override.
    static let hostile = "Evil\u{1B}[2J\u{7}\u{9B}1m\u{85}\u{202E}"
    /// How ``hostile`` prints.
    static let escaped = "Evil\\u{1B}[2J\\u{7}\\u{9B}1m\\u{85}\\u{202E}"

    /// The scalars in `text` that would act on a terminal (a line break ends a line, as it should).
    static func unsafe(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || (0x2028...0x202E).contains($0.value)
        }
    }

    @Test("priority lists source names and stored type names escaped")
    func priorityListing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("store")
        let store = try HealthStore.open(at: path)
        try store.setSourcePriority([Self.hostile, "Phone"])
        try store.setSourcePriority([Self.hostile], for: .unknown("HKQuantityTypeIdentifier" + Self.hostile, unit: .count))
        try store.close()
        let listed = try CadenceBinary.succeed(["priority", "--store", path])
        #expect(Self.unsafe(listed.standardOutput).isEmpty)
        #expect(listed.standardOutput.contains("store-wide: \(Self.escaped), Phone\n"))
        #expect(listed.standardOutput.contains("HKQuantityTypeIdentifier\(Self.escaped): \(Self.escaped)\n"))
    }

    @Test("stats prints a stored type's name escaped in its heading")
    func statsHeading() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("store")
        let type = QuantityType.unknown("HKQuantityTypeIdentifier" + Self.hostile, unit: .count)
        let store = try HealthStore.open(at: path)
        try store.save([try QuantitySample(type: type, value: 3, start: Date(timeIntervalSince1970: 1_704_103_200),
                                           end: Date(timeIntervalSince1970: 1_704_103_260), source: Source(name: "Phone"))])
        try store.close()
        let result = try CadenceBinary.succeed(["stats", "--store", path, "--type", type.identifier, "--time-zone", "UTC"])
        #expect(Self.unsafe(result.standardOutput).isEmpty)
        let heading = try #require(result.standardOutput.split(separator: "\n").first)
        #expect(heading.contains("\\u{1B}[2J\\u{7}\\u{9B}1m\\u{85}\\u{202E} in count, times in UTC"))
    }

    @Test("stats --input and batch --input quote user ids and values escaped in their errors",
          arguments: ["stats", "batch"])
    func userInputErrors(command: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let input = directory.path("samples.csv")
        try """
            user,type,sourceName,unit,startDate,endDate,value
            \(Self.hostile),stepCount,Phone,count,2024-01-01T09:00:00Z,2024-01-01T09:10:00Z,40
            \(Self.hostile),stepCount,Phone,count,2024-01-01T10:00:00Z,2024-01-01T10:10:00Z,12\(Self.hostile)

            """.write(toFile: input, atomically: true, encoding: .utf8)
        let result = try CadenceBinary.run([command, "--input", input, "--type", "stepCount", "--from", "2024-01-01",
                                            "--to", "2024-01-02", "--interval", "1d", "--time-zone", "UTC"])
        #expect(result.status == 1)
        #expect(Self.unsafe(result.standardError).isEmpty)
        #expect(result.standardError.contains("user '\(Self.escaped)'"))
        // The CSV rows keep the user id byte for byte.
        #expect(result.standardOutput.contains(Self.hostile + ","))
    }

    @Test("batch names a failed user escaped")
    func batchFailure() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let list = directory.path("users.csv")
        try "\(Self.hostile),nowhere\n".write(toFile: list, atomically: true, encoding: .utf8)
        let result = try CadenceBinary.run(["batch", "--list", list, "--type", "stepCount", "--from", "2024-01-01",
                                            "--to", "2024-01-02", "--interval", "1d", "--time-zone", "UTC"])
        #expect(result.status == 1)
        #expect(Self.unsafe(result.standardError).isEmpty)
        #expect(result.standardError.hasPrefix("Error: user '\(Self.escaped)': "))
    }

    @Test("Errors echo arguments escaped: a value, an option name, a path", arguments: [
        // A value read by Cadence.
        ["stats", "--store", "STORE", "--type", hostile],
        // An option the parser does not know.
        ["info", "--store", "STORE", "--" + hostile],
        // A store path that is not there.
        ["info", "--store", "STORE/" + hostile],
    ])
    func argumentErrors(arguments: [String]) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("store")
        try HealthStore.open(at: path).close()
        let result = try CadenceBinary.run(arguments.map { $0.replacingOccurrences(of: "STORE", with: path) })
        #expect(result.status != 0)
        #expect(Self.unsafe(result.standardError).isEmpty)
        // (The parser's messages are joined into one line first: there NEL has become a space.)
        #expect(result.standardError.contains("Evil\\u{1B}[2J\\u{7}\\u{9B}1m"))
    }

    @Test("info, verify, repair and compact print a store path escaped", arguments: ["info", "verify", "repair", "compact"])
    func storePath(command: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path(Self.hostile)
        try HealthStore.open(at: path).close()
        let result = try CadenceBinary.succeed([command, "--store", path])
        #expect(Self.unsafe(result.standardOutput).isEmpty)
        #expect(result.standardOutput.contains(Self.escaped))
    }
}
