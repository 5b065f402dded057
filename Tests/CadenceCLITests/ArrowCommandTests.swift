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

    /// `cadence batch --stores --format arrow` holds the CSV output's rows, users in order, with
    /// one or two workers, and a failed user's rows are absent from both.
    @Test func storesDirectoryWritesArrow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let users = try BatchTests.makeUsers(4, in: directory)
        try FileManager.default.createDirectory(atPath: users.store("user-broken"), withIntermediateDirectories: true)
        for jobs in ["1", "2"] {
            let arguments = ["batch", "--stores", users.storesDirectory, "--jobs", jobs] + BatchTests.query
            let csv = try CadenceBinary.run(arguments)
            let expected = csv.standardOutput.split(separator: "\n").dropFirst().map(String.init)
            #expect(expected.count >= 4 * 2 * 2)
            let bytes = try Self.output(arguments + ["--format", "arrow"], status: 1)
            var reader = try ArrowStreamReader(bytes: bytes, path: "output")
            #expect(reader.schema.fields.map(\.type) == [.utf8(large: false), .timestamp(.microsecond, zone: "Europe/Berlin"),
                                                        .timestamp(.microsecond, zone: "Europe/Berlin"), .utf8(large: false),
                                                        .float(bitWidth: 64)])
            var lines: [String] = []
            while let batch = try reader.next() { for row in 0..<batch.count { lines.append(Self.csvLine(batch, row: row)) } }
            #expect(lines == expected)
        }
    }

    /// With every user failed, the stream still has the columns, and no row.
    @Test func storesDirectoryWithoutAStoreWritesTheColumns() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.path("stores/nobody"), withIntermediateDirectories: true)
        let bytes = try Self.output(["batch", "--stores", directory.path("stores"), "--format", "arrow"] + BatchTests.query, status: 1)
        var reader = try ArrowStreamReader(bytes: bytes, path: "output")
        #expect(reader.schema.fields.map(\.name) == ["user", "startDate", "endDate", "source", "sum"])
        #expect(try reader.next() == nil)
    }

    /// `cadence changes --format arrow`: the same samples, deletions and anchor as the JSON page,
    /// for a quantity and a category type, and paging by the anchor in the schema's metadata.
    @Test func changesWritesArrow() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Fixtures.copyOfHKImportStore(in: directory)
        for type in ["bodyMass", "sleepAnalysis"] {
            let json = try CadenceBinary.succeed(["changes", "--store", store, "--type", type]).jsonObject()
            let samples = try #require(json["samples"] as? [[String: Any]])
            #expect(samples.count > 3, "\(type)")
            let page = try Self.changes(["changes", "--store", store, "--type", type, "--format", "arrow"])
            #expect(page.anchor == json["anchor"] as? String)
            #expect(page.hasMore == false)
            #expect(page.rows.map(\.change) == Array(repeating: "added", count: samples.count))
            #expect(page.rows.map(\.uuid) == samples.map { $0["uuid"] as? String })
            #expect(page.batch.schema.fields.map(\.name).prefix(11) == ["change", "type", "sourceName", "unit", "startDate", "endDate",
                                                                       "value", "uuid", "sourceVersion", "device", "creationDate"])
            // The sample columns are what `samples --format arrow` writes for the same samples.
            let listed = try ArrowStreamReader(bytes: try Self.output(["samples", "--store", store, "--type", type, "--format", "arrow"]),
                                               path: "samples")
            #expect(listed.schema.fields.map(\.name) == Array(page.batch.schema.fields.map(\.name).dropFirst()))
            #expect(listed.schema.fields.map(\.type) == Array(page.batch.schema.fields.map(\.type).dropFirst()))
        }
        let first = try Self.changes(["changes", "--store", store, "--type", "bodyMass", "--format", "arrow", "--limit", "15"])
        #expect(first.hasMore == true)
        #expect(first.rows.count == 15)
        let victim = try #require(first.rows.first?.uuid)
        try CadenceBinary.succeed(["delete", "--store", store, "--uuid", victim])
        var anchor = first.anchor
        var rows: [(change: String?, uuid: String?)] = []
        for _ in 0..<5 {
            let page = try Self.changes(["changes", "--store", store, "--type", "bodyMass", "--format", "arrow", "--limit", "15",
                                         "--anchor", anchor ?? ""])
            rows += page.rows
            anchor = page.anchor
            if !page.hasMore { break }
        }
        // 40 body mass samples: 25 after the first page, and the deletion of one of the first 15.
        #expect(rows.filter { $0.change == "added" }.count == 25)
        #expect(rows.filter { $0.change == "deleted" }.map(\.uuid) == [victim])
        let empty = try Self.changes(["changes", "--store", store, "--type", "bodyMass", "--format", "arrow", "--anchor", anchor ?? ""])
        #expect(empty.rows.isEmpty)
        #expect(empty.anchor == anchor)
    }

    @Test func changesOfWorkoutsHaveNoArrowForm() throws {
        let store = try Fixtures.hkimportStore.get().store
        let result = try CadenceBinary.run(["changes", "--store", store, "--type", "workout", "--format", "arrow"])
        #expect(result.status != 0)
        #expect(result.standardError.contains("no Arrow form"))
    }

    /// One page of `changes --format arrow`: its batch, anchor, `hasMore` and each row's change and UUID.
    static func changes(_ arguments: [String]) throws
        -> (batch: ArrowRecordBatch, anchor: String?, hasMore: Bool, rows: [(change: String?, uuid: String?)])
    {
        var reader = try ArrowStreamReader(bytes: try output(arguments), path: "changes")
        let batch = try #require(try reader.next())
        #expect(try reader.next() == nil)
        let change = try #require(batch.schema.index(of: "change")), uuid = try #require(batch.schema.index(of: "uuid"))
        let rows = (0..<batch.count).map { (batch.columns[change].string($0), batch.columns[uuid].string($0)) }
        return (batch, reader.schema.metadata["anchor"], reader.schema.metadata["hasMore"] == "true", rows)
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
    static func output(_ arguments: [String], status: Int32 = 0) throws -> [UInt8] {
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
        #expect(process.terminationStatus == status, "\(arguments)")
        return try [UInt8](Data(contentsOf: url))
    }
}
