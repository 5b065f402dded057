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
