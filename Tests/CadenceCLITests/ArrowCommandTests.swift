//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation
import Testing

/// Arrow in and out of the CLI: `--input` reads pyarrow's and Polars' streams and files into the
/// same rows as the CSV of the same samples, `--format arrow` writes what the CSV says, and a
/// store's samples written as Arrow import back sample for sample.
@Suite("cadence and Arrow")
struct ArrowCommandTests {
    static func fixture(_ name: String) -> String {
        CadenceBinary.packageRoot.appendingPathComponent("Tests/Fixtures/arrow/\(name)").path
    }

    /// Steps per hour across midnight in Berlin, by source; and heart rate statistics in total.
    static let queries = [
        ["--type", "stepCount", "--from", "2024-01-01", "--to", "2024-01-04", "--interval", "1h",
         "--time-zone", "Europe/Berlin", "--options", "sum,separateBySource"],
        ["--type", "HKQuantityTypeIdentifierHeartRate", "--from", "2024-01-01", "--to", "2024-01-04",
         "--options", "average,minimum,maximum,mostRecent"],
    ]

    @Test(arguments: ["pyarrow-dictionary.arrows", "pyarrow-plain.arrow", "pyarrow-text-dates.arrows",
                      "polars.arrow", "polars-categorical.arrows"])
    func arrowInputGivesTheCSVRows(name: String) throws {
        for query in Self.queries {
            let csv = try CadenceBinary.succeed(["batch", "--input", Self.fixture("samples.csv")] + query)
            #expect(csv.standardOutput.split(separator: "\n").count > 3)
            let arrow = try CadenceBinary.succeed(["batch", "--input", Self.fixture(name)] + query)
            #expect(arrow.standardOutput == csv.standardOutput)
            let piped = try CadenceBinary.run(["stats", "--input", "-"] + query,
                                              standardInput: URL(fileURLWithPath: Self.fixture(name)))
            #expect(piped.standardOutput == csv.standardOutput, "\(piped.standardError)")
        }
    }

    @Test func emptyStreamGivesNoRows() throws {
        let result = try CadenceBinary.succeed(["batch", "--input", Self.fixture("pyarrow-empty.arrows")] + Self.queries[0])
        #expect(result.standardOutput == "")
        let bytes = try Self.output(["batch", "--input", Self.fixture("pyarrow-empty.arrows"), "--format", "arrow"] + Self.queries[0])
        var reader = try ArrowStreamReader(bytes: bytes, path: "output")
        #expect(reader.schema.fields.map(\.name) == ["user", "startDate", "endDate", "source", "sum"])
        #expect(try reader.next() == nil)
    }

    /// `--format arrow` holds the CSV output's rows: the same users, instants and numbers.
    @Test func arrowOutputHoldsTheCSVRows() throws {
        for query in Self.queries {
            let csv = try CadenceBinary.succeed(["batch", "--input", Self.fixture("samples.csv")] + query)
            let expected = csv.standardOutput.split(separator: "\n").dropFirst().map(String.init)
            let bytes = try Self.output(["batch", "--input", Self.fixture("pyarrow-dictionary.arrows"), "--format", "arrow"] + query)
            var reader = try ArrowStreamReader(bytes: bytes, path: "output")
            var lines: [String] = []
            while let batch = try reader.next() {
                for row in 0..<batch.count { lines.append(Self.csvLine(batch, row: row)) }
            }
            #expect(lines == expected)
        }
    }

    /// A store's samples as Arrow, imported into a new store, are equal sample for sample.
    @Test func samplesRoundTripThroughArrow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let csv = directory.path("samples.csv")
        try CadenceBinary.succeed(["generate", "--profile", "realistic", "--days", "2", "--seed", "4", "--format", "csv",
                                   "--output", csv])
        // Category samples too, whose value is a name: two nights of sleep stages.
        let sleep = ["2024-01-01T23:10:00.25Z,2024-01-02T01:40:00Z,HKCategoryValueSleepAnalysisAsleepCore",
                     "2024-01-02T01:40:00Z,2024-01-02T02:05:00Z,HKCategoryValueSleepAnalysisAsleepREM"]
            .map { "HKCategoryTypeIdentifierSleepAnalysis,Alex’s Apple Watch,,\($0),10.1,,\n" }.joined()
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: csv))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(sleep.utf8))
        try handle.close()
        try CadenceBinary.succeed(["import", csv, "--store", directory.path("a")])
        let types = ["stepCount", "heartRate", "bodyMass", "sleepAnalysis"]
        for type in types {
            let arrow = directory.path("\(type).arrow")
            try Data(try Self.output(["samples", "--store", directory.path("a"), "--type", type, "--format", "arrow"]))
                .write(to: URL(fileURLWithPath: arrow))
            try CadenceBinary.succeed(["import", arrow, "--store", directory.path("b")])
        }
        for type in types {
            let before = try CadenceBinary.succeed(["samples", "--store", directory.path("a"), "--type", type, "--format", "csv"])
            let after = try CadenceBinary.succeed(["samples", "--store", directory.path("b"), "--type", type, "--format", "csv"])
            #expect(before.standardOutput.split(separator: "\n").count >= 3, "\(type)")
            #expect(after.standardOutput == before.standardOutput, "\(type)")
        }
    }

    /// `cadence stats --store --format arrow`: one row per interval, no user column.
    @Test func statsFromAStoreWritesArrow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try CadenceBinary.succeed(["import", Self.fixture("pyarrow-plain.arrow"), "--store", directory.path("s")])
        let query = Self.queries[0]
        let csv = try CadenceBinary.succeed(["stats", "--store", directory.path("s"), "--format", "csv"] + query)
        let bytes = try Self.output(["stats", "--store", directory.path("s"), "--format", "arrow"] + query)
        var reader = try ArrowStreamReader(bytes: bytes, path: "output")
        var lines: [String] = []
        while let batch = try reader.next() { for row in 0..<batch.count { lines.append(Self.csvLine(batch, row: row)) } }
        #expect(lines == csv.standardOutput.split(separator: "\n").dropFirst().map(String.init))
    }

    // MARK: Helpers

    /// A row as `cadence` prints it in CSV: RFC 3339 dates in the column's zone, shortest numbers.
    static func csvLine(_ batch: ArrowRecordBatch, row: Int) -> String {
        batch.columns.map { column -> String in
            switch column.field.type {
            case .utf8:
                let text = column.string(row) ?? ""
                return text.contains(",") || text.contains("\"") ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
            case .timestamp(_, let zone):
                return column.timestamp(row).map { formatRFC3339($0, timeZone: TimeZone(identifier: zone ?? "UTC") ?? .gmt) } ?? ""
            default:
                guard let value = column.double(row) else { return "" }
                return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
            }
        }.joined(separator: ",")
    }

    /// What `cadence arguments` writes to standard output, as bytes (the runner reads it as text).
    static func output(_ arguments: [String]) throws -> [UInt8] {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.url.appendingPathComponent("out")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let output = try FileHandle(forWritingTo: url)
        defer { try? output.close() }
        let process = Process()
        process.executableURL = try CadenceBinary.location.get()
        process.arguments = arguments
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        exited.wait()
        #expect(process.terminationStatus == 0, "\(arguments)")
        return try [UInt8](Data(contentsOf: url))
    }
}
