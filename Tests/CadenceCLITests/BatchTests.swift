//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `cadence batch` against `cadence stats` run on each user's store one by one.
@Suite("cadence batch")
struct BatchTests {
    /// The daily step query every test runs, with `stats` and with `batch`.
    static let query = ["--type", "stepCount", "--from", "2024-01-01", "--to", "2024-01-03", "--interval", "1d",
                        "--time-zone", "Europe/Berlin", "--options", "sum,separateBySource"]

    /// Users' stores, each imported from its own generated CSV, in `directory/stores`.
    struct Users {
        var names: [String]
        var storesDirectory: String
        var csvFiles: [String]

        func store(_ name: String) -> String { storesDirectory + "/" + name }
    }

    static func makeUsers(_ count: Int, in directory: TemporaryDirectory) throws -> Users {
        let storesDirectory = directory.path("stores")
        var names: [String] = []
        var files: [String] = []
        for index in 0..<count {
            // Names whose order differs from their numbering, and one that needs quoting in CSV.
            let name = index == 1 ? "user, \"two\"" : String(format: "user-%02d", (index * 7) % count)
            let csv = directory.path("samples-\(index).csv")
            try CadenceBinary.succeed(["generate", "--profile", "realistic", "--days", "2", "--seed", "\(index + 1)",
                                       "--format", "csv", "--output", csv])
            try CadenceBinary.succeed(["import", csv, "--store", storesDirectory + "/" + name])
            names.append(name)
            files.append(csv)
        }
        return Users(names: names.sorted(), storesDirectory: storesDirectory, csvFiles: files)
    }

    /// What `batch` must print for `names`: each user's `stats --format csv` lines, the user first.
    static func expectedRows(_ users: Users, names: [String]) throws -> [String] {
        var rows: [String] = []
        for name in names {
            let stats = try CadenceBinary.succeed(["stats", "--store", users.store(name), "--format", "csv"] + query)
            rows += stats.standardOutput.split(separator: "\n").dropFirst().map { csvField(name) + "," + $0 }
        }
        return rows
    }

    static func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    /// `text` as a CSV field, quoted when it holds a comma or a quote.
    static func csvField(_ text: String) -> String {
        text.contains(",") || text.contains("\"") ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }

    @Test func storesDirectoryMatchesStatsPerUser() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let users = try Self.makeUsers(5, in: directory)
        let expected = try Self.expectedRows(users, names: users.names)
        #expect(expected.count >= 5 * 2 * 2)
        for jobs in ["1", "2"] {
            let result = try CadenceBinary.succeed(["batch", "--stores", users.storesDirectory, "--jobs", jobs] + Self.query)
            let lines = Self.lines(result.standardOutput)
            #expect(lines.first == "user,startDate,endDate,source,sum")
            #expect(Array(lines.dropFirst()) == expected)
        }
        let json = try CadenceBinary.succeed(["batch", "--stores", users.storesDirectory, "--format", "json"] + Self.query)
        let objects = try Self.lines(json.standardOutput).map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.count == expected.count)
        #expect(objects.compactMap { $0["user"] as? String } == expected.map { row in
            users.names.first { row.hasPrefix($0 + ",") || row.hasPrefix("\"") && $0.contains(",") } ?? ""
        })
    }

    /// `cadence stats --input` and `cadence batch --input` are one mode: both must give each user's
    /// store's rows.
    @Test(arguments: ["batch", "stats"])
    func standardInputMatchesStoresWithoutWritingOne(command: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let users = try Self.makeUsers(3, in: directory)
        // One stream: the import CSV with a user column, grouped by user.
        var stream = ""
        for (index, file) in users.csvFiles.enumerated() {
            let name = try #require(try FileManager.default.contentsOfDirectory(atPath: users.storesDirectory)
                .first { users.store($0) == Self.storeImported(from: index, users: users) })
            let text = try String(contentsOfFile: file, encoding: .utf8)
            for (number, line) in Self.lines(text).enumerated() {
                if number == 0 {
                    if index == 0 { stream += "user," + line + "\n" }
                } else {
                    stream += Self.csvField(name) + "," + line + "\n"
                }
            }
        }
        let input = directory.url.appendingPathComponent("all.csv")
        try stream.write(to: input, atomically: true, encoding: .utf8)
        let result = try CadenceBinary.run([command, "--input", "-"] + Self.query, standardInput: input)
        #expect(result.status == 0, "\(result.standardError)")
        let streamed = Array(Self.lines(result.standardOutput).dropFirst())
        // In stream order, which is the generation order, not the name order.
        let order = (0..<users.csvFiles.count).map { Self.name(imported: $0, users: users) }
        #expect(streamed == (try Self.expectedRows(users, names: order)))
    }

    /// The store imported from the `index`th CSV (the names follow `makeUsers`).
    static func storeImported(from index: Int, users: Users) -> String { users.store(name(imported: index, users: users)) }

    static func name(imported index: Int, users: Users) -> String {
        index == 1 ? "user, \"two\"" : String(format: "user-%02d", (index * 7) % users.names.count)
    }

    /// Look-alike rows (two identical food entries) are distinct samples in the stateless mode as
    /// in a store the same rows were imported into: the totals agree.
    @Test func standardInputKeepsLookAlikeRowsAsAnImportDoes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let header = "type,sourceName,unit,startDate,endDate,value"
        let row = "dietaryEnergyConsumed,Nutrino,kcal,2024-01-01T12:00:00+01:00,2024-01-01T12:00:00+01:00,104.631"
        let csv = directory.path("food.csv")
        try [header, row, row, ""].joined(separator: "\n").write(toFile: csv, atomically: true, encoding: .utf8)
        try CadenceBinary.succeed(["import", csv, "--store", directory.path("store")])
        let query = ["--type", "dietaryEnergyConsumed", "--from", "2024-01-01", "--to", "2024-01-02", "--interval", "1d",
                     "--time-zone", "Europe/Berlin", "--options", "sum"]
        let stored = try CadenceBinary.succeed(["stats", "--store", directory.path("store"), "--format", "csv"] + query)
        let input = directory.url.appendingPathComponent("stream.csv")
        try ["user," + header, "jane," + row, "jane," + row, ""].joined(separator: "\n")
            .write(to: input, atomically: true, encoding: .utf8)
        let streamed = try CadenceBinary.run(["batch", "--input", "-"] + query, standardInput: input)
        #expect(streamed.status == 0, "\(streamed.standardError)")
        let storedRows = Array(Self.lines(stored.standardOutput).dropFirst())
        #expect(storedRows.count == 1 && storedRows.first?.hasSuffix(",209.262") == true, "\(storedRows)")
        #expect(Array(Self.lines(streamed.standardOutput).dropFirst()) == storedRows.map { "jane," + $0 })
    }

    /// Users whose identifiers differ only in Unicode normalisation (`café` precomposed and
    /// decomposed) are two users, with a row each, never one row of their sum.
    @Test(arguments: ["batch", "stats"])
    func usersDifferingInNormalisationAreTwoUsers(command: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let row = ",stepCount,Phone,count,2024-01-01T10:00:00+01:00,2024-01-01T10:05:00+01:00,"
        let input = try Self.userInput(["caf\u{E9}" + row + "100", "cafe\u{301}" + row + "7"], in: directory)
        let query = ["--type", "stepCount", "--from", "2024-01-01", "--to", "2024-01-02", "--interval", "1d",
                     "--time-zone", "Europe/Berlin", "--options", "sum"]
        let result = try CadenceBinary.run([command, "--input", "-"] + query, standardInput: input)
        #expect(result.status == 0, "\(result.standardError)")
        let rows = Array(Self.lines(result.standardOutput).dropFirst())
        #expect(rows.count == 2, "\(rows)")
        #expect(rows.first.map { Array($0.utf8.prefix(5)) == Array("caf\u{E9}".utf8) && $0.hasSuffix(",100") } == true)
        #expect(rows.last.map { Array($0.utf8.prefix(6)) == Array("cafe\u{301}".utf8) && $0.hasSuffix(",7") } == true)
    }

    /// Sources whose names differ only in Unicode normalisation get a row each with
    /// `separateBySource`, and their samples' CSV keeps each name's bytes.
    @Test func sourcesDifferingInNormalisationGetARowEach() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let csv = directory.path("steps.csv")
        try ["type,sourceName,unit,startDate,endDate,value",
             "stepCount,caf\u{E9},count,2024-01-01T10:00:00+01:00,2024-01-01T10:05:00+01:00,100",
             "stepCount,cafe\u{301},count,2024-01-01T11:00:00+01:00,2024-01-01T11:05:00+01:00,7", ""]
            .joined(separator: "\n").write(toFile: csv, atomically: true, encoding: .utf8)
        let store = directory.path("store")
        try CadenceBinary.succeed(["import", csv, "--store", store])
        let query = ["--type", "stepCount", "--from", "2024-01-01", "--to", "2024-01-02", "--interval", "1d",
                     "--time-zone", "Europe/Berlin", "--options", "sum,separateBySource", "--format", "csv"]
        let stats = try CadenceBinary.succeed(["stats", "--store", store] + query)
        let sums = Self.lines(stats.standardOutput).dropFirst().compactMap { $0.split(separator: ",").last.map(String.init) }
        #expect(sums.sorted() == ["100", "107", "7"], "\(stats.standardOutput)")
        let samples = try CadenceBinary.succeed(["samples", "--store", store, "--type", "stepCount", "--format", "csv"])
        let bytes = Array(samples.standardOutput.utf8)
        #expect(bytes.firstRange(of: Array(",caf\u{E9},".utf8)) != nil && bytes.firstRange(of: Array(",cafe\u{301},".utf8)) != nil)
    }

    @Test func statsTakesEitherAStoreOrAnInput() throws {
        let both = try CadenceBinary.run(["stats", "--store", "s", "--input", "-"] + Self.query)
        #expect(both.status != 0 && both.standardError.contains("exactly one of --store and --input"), "\(both.standardError)")
        let table = try CadenceBinary.run(["stats", "--input", "-", "--format", "table"] + Self.query)
        #expect(table.status != 0 && table.standardError.contains("does not print table"), "\(table.standardError)")
    }

    /// `input.csv` in `directory`: a user column and the import columns, then `rows`.
    static func userInput(_ rows: [String], in directory: TemporaryDirectory) throws -> URL {
        let input = directory.url.appendingPathComponent("input.csv")
        try (["user,type,sourceName,unit,startDate,endDate,value"] + rows + [""]).joined(separator: "\n")
            .write(to: input, atomically: true, encoding: .utf8)
        return input
    }

    @Test func standardInputRefusesUsersThatAreNotConsecutive() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let input = try Self.userInput([
            "a,stepCount,Phone,count,2024-01-01T10:00:00Z,2024-01-01T10:10:00Z,100",
            "b,stepCount,Phone,count,2024-01-01T10:00:00Z,2024-01-01T10:10:00Z,200",
            "a,stepCount,Phone,count,2024-01-01T11:00:00Z,2024-01-01T11:10:00Z,300",
        ], in: directory)
        let result = try CadenceBinary.run(["batch", "--input", input.path] + Self.query)
        #expect(result.status == 1)
        #expect(result.standardError == "Error: \(input.path):4: the rows of user 'a' are not consecutive: sort the input by user\n")
    }

    @Test func standardInputReportsAnUnreadableRowByLineAndCountsTheRest() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let input = try Self.userInput([
            "a,stepCount,Phone,count,2024-01-01T10:00:00Z,2024-01-01T10:10:00Z,100",
            "a,stepCount,Phone,count,2024-01-01T11:00:00Z,2024-01-01T11:10:00Z,abc",
            "b,stepCount,Phone,count,2024-01-01T10:00:00Z,2024-01-01T10:10:00Z,200",
        ], in: directory)
        let result = try CadenceBinary.run(["batch", "--input", input.path, "--type", "stepCount", "--from", "2024-01-01",
                                            "--to", "2024-01-02", "--interval", "1d", "--time-zone", "UTC"])
        #expect(result.status == 1)
        #expect(result.standardOutput == """
            user,startDate,endDate,sum
            a,2024-01-01T00:00:00Z,2024-01-02T00:00:00Z,100
            b,2024-01-01T00:00:00Z,2024-01-02T00:00:00Z,200

            """)
        #expect(Self.lines(result.standardError) == [
            "Error: \(input.path):3: user 'a': the value 'abc' is not a finite number",
            "Error: 1 row(s) of \(input.path) could not be read and are not counted.",
        ])
    }

    @Test func damagedAndMissingStoresAreReportedWhileTheRestFinish() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let users = try Self.makeUsers(3, in: directory)
        let damaged = directory.path("damaged")
        try FileManager.default.copyItem(atPath: users.store(users.names[0]), toPath: damaged)
        try Data("not a manifest".utf8).write(to: URL(fileURLWithPath: damaged + "/MANIFEST"))
        let list = directory.path("users.csv")
        let rows = ["user_id,store_path", "\(Self.csvField(users.names[0])),\(Self.csvField("stores/" + users.names[0]))", "ghost,nowhere",
                    "broken,damaged", "\(users.names[2]),\(users.store(users.names[2]))"]
        try rows.joined(separator: "\n").write(toFile: list, atomically: true, encoding: .utf8)
        let output = directory.path("out.csv")
        let failures = directory.path("failures.csv")
        let result = try CadenceBinary.run(["batch", "--list", list, "--output", output, "--failures", failures] + Self.query)
        #expect(result.status == 1)
        let errors = Self.lines(result.standardError)
        #expect(errors.contains { $0.hasPrefix("Error: user 'ghost': \(directory.path("nowhere"))") })
        #expect(errors.contains { $0.hasPrefix("Error: user 'broken': \(damaged)/MANIFEST: ") })
        #expect(errors.last == "Wrote 2 of 4 users to \(output); 2 failed, kept in \(output).parts to retry by running the same command again.")
        let written = Self.lines(try String(contentsOfFile: output, encoding: .utf8))
        #expect(Array(written.dropFirst()) == (try Self.expectedRows(users, names: [users.names[0], users.names[2]])))
        let failed = Self.lines(try String(contentsOfFile: failures, encoding: .utf8))
        #expect(failed.count == 3)
        #expect(failed[1].hasPrefix("ghost,\(directory.path("nowhere")),"))

        // Once the stores are there, the same command runs only the users that failed.
        try FileManager.default.removeItem(atPath: damaged)
        try FileManager.default.copyItem(atPath: users.store(users.names[1]), toPath: damaged)
        try FileManager.default.copyItem(atPath: users.store(users.names[1]), toPath: directory.path("nowhere"))
        let retry = try CadenceBinary.run(["batch", "--list", list, "--output", output] + Self.query)
        #expect(retry.status == 0, "\(retry.standardError)")
        #expect(!FileManager.default.fileExists(atPath: output + ".parts"))
        let second = try Self.expectedRows(users, names: [users.names[1]])
        let all = Self.lines(try String(contentsOfFile: output, encoding: .utf8))
        #expect(all.count == 1 + 4 * second.count)
        #expect(all.filter { $0.hasPrefix("ghost,") }.count == second.count)
    }

    @Test func resumesAfterSIGKILLWithoutRepeatingOrLosingAUser() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let users = try Self.makeUsers(6, in: directory)
        let expected = try Self.expectedRows(users, names: users.names)
        // A store whose manifest is a named pipe: opening it blocks, so the run is killed with the
        // users listed before it committed and the ones after it not started.
        let blocked = users.names[3]
        let kept = directory.path("kept-store")
        try FileManager.default.moveItem(atPath: users.store(blocked), toPath: kept)
        try FileManager.default.createDirectory(atPath: users.store(blocked), withIntermediateDirectories: false)
        #expect(mkfifo(users.store(blocked) + "/MANIFEST", 0o644) == 0)

        let output = directory.path("daily.csv")
        let parts = output + ".parts"
        let process = Process()
        process.executableURL = try CadenceBinary.location.get()
        process.arguments = ["batch", "--stores", users.storesDirectory, "--output", output, "--jobs", "1"] + Self.query
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The three users before the blocked one (in name order) commit their parts, then it waits.
        while ((try? FileManager.default.contentsOfDirectory(atPath: parts)) ?? []).filter({ $0.hasSuffix(".part") }).count < 3 {
            usleep(10_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(!FileManager.default.fileExists(atPath: output))

        // Committed users are not run again: their stores can go, and their rows are still there.
        try FileManager.default.removeItem(atPath: users.store(blocked))
        try FileManager.default.moveItem(atPath: kept, toPath: users.store(blocked))
        for name in users.names.prefix(3) {
            try FileManager.default.removeItem(atPath: users.store(name))
            try FileManager.default.createDirectory(atPath: users.store(name), withIntermediateDirectories: false)
        }
        let resumed = try CadenceBinary.run(["batch", "--stores", users.storesDirectory, "--output", output] + Self.query)
        #expect(resumed.status == 0, "\(resumed.standardError)")
        #expect(resumed.standardError == "Wrote 6 of 6 users to \(output).\n")
        let written = Self.lines(try String(contentsOfFile: output, encoding: .utf8))
        #expect(written.first == "user,startDate,endDate,source,sum")
        #expect(Array(written.dropFirst()) == expected)
        #expect(!FileManager.default.fileExists(atPath: parts))
    }

    @Test func resumingWithOtherOptionsIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let users = try Self.makeUsers(1, in: directory)
        let output = directory.path("out.csv")
        try FileManager.default.createDirectory(atPath: output + ".parts", withIntermediateDirectories: false)
        try Data("type=heartRate\n".utf8).write(to: URL(fileURLWithPath: output + ".parts/job"))
        let result = try CadenceBinary.run(["batch", "--stores", users.storesDirectory, "--output", output] + Self.query)
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("Error: \(output).parts: these parts were computed with other options (type=heartRate)"))
    }

    /// The options are read once, before any store: a mistake in them is one error, not one per user.
    @Test func anOptionThatDoesNotFitIsReportedOnceNotPerUser() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let list = directory.path("users.csv")
        try "a,nowhere-a\nb,nowhere-b\nc,nowhere-c\n".write(toFile: list, atomically: true, encoding: .utf8)
        let result = try CadenceBinary.run(["batch", "--list", list, "--type", "stepCount", "--unit", "km",
                                            "--from", "2024-01-01", "--to", "2024-01-02", "--interval", "1d"])
        #expect(result.status == 1)
        #expect(result.standardError == "Error: The unit \"km\" cannot express stepCount, which is measured in count.\n")
        #expect(result.standardOutput.isEmpty)
    }

    /// A type Cadence does not know is named by each user's samples, so it is looked up per user.
    @Test func anUnknownTypeIsLookedUpInEachUsersSamples() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let input = try Self.userInput([
            "a,HKQuantityTypeIdentifierGlowLevel,Lamp,count,2024-01-01T10:00:00Z,2024-01-01T10:10:00Z,4",
            "a,HKQuantityTypeIdentifierGlowLevel,Lamp,count,2024-01-01T11:00:00Z,2024-01-01T11:10:00Z,6",
            "b,HKQuantityTypeIdentifierGlowLevel,Lamp,count,2024-01-01T10:00:00Z,2024-01-01T10:10:00Z,9",
        ], in: directory)
        let result = try CadenceBinary.run(["batch", "--input", input.path, "--type", "HKQuantityTypeIdentifierGlowLevel",
                                            "--from", "2024-01-01", "--to", "2024-01-02", "--interval", "1d",
                                            "--time-zone", "UTC", "--options", "average,maximum"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == """
            user,startDate,endDate,average,maximum
            a,2024-01-01T00:00:00Z,2024-01-02T00:00:00Z,5,6
            b,2024-01-01T00:00:00Z,2024-01-02T00:00:00Z,9,9

            """)
    }
}
