//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

/// Every number `stats` prints as CSV or JSON over a generated store is spelled as the output
/// always spelled it: a whole number below 10^15 without a fraction, any other as
/// `Double.description` (the shortest text that reads back as the same value).
@Suite("stats number text on generated data")
struct StatsNumberTextTests {
    /// The earlier spelling of the number a field reads back as.
    static func expectedSpelling(of field: Substring) -> String? {
        guard let value = Double(field) else { return nil }
        return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : value.description
    }

    /// The two days span the change to summer time in Berlin.
    @Test("Five-minute and hourly statistics of heart rate and steps, by source, as CSV and JSON",
          arguments: ["csv", "json"])
    func numbersMatchTheirSpelling(format: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let export = directory.path("export.csv")
        let store = directory.path("store")
        try CadenceBinary.succeed(["generate", "--profile", "realistic", "--days", "2", "--seed", "7",
                                   "--start", "2024-03-30T00:00:00Z", "--format", "csv", "--output", export])
        try CadenceBinary.succeed(["import", export, "--store", store])
        var numbers = 0
        for (type, options, interval) in [("heartRate", "average,minimum,maximum,separateBySource", "5min"),
                                          ("stepCount", "sum,mostRecent,duration,separateBySource", "1h"),
                                          ("bodyMass", "average,minimum,maximum", "1d")] {
            let output = try CadenceBinary.succeed([
                "stats", "--store", store, "--type", type, "--from", "2024-03-29", "--to", "2024-04-02",
                "--interval", interval, "--options", options, "--time-zone", "Europe/Berlin", "--format", format,
            ]).standardOutput
            // Number tokens: CSV fields, or JSON values after a colon (dates and names are quoted).
            let tokens: [Substring] = format == "csv"
                ? output.split(separator: "\n").dropFirst().flatMap { $0.split(separator: ",", omittingEmptySubsequences: true) }
                : output.split(separator: "\n").compactMap { line in
                    guard let colon = line.range(of: "\": ") else { return nil }
                    var value = line[colon.upperBound...]
                    if value.hasSuffix(",") { value = value.dropLast() }
                    return value
                }
            for token in tokens where token.first.map({ $0 == "-" || $0.isNumber }) == true && !token.contains(":") {
                numbers += 1
                #expect(Self.expectedSpelling(of: token) == String(token), "\(type): \(token)")
            }
        }
        #expect(numbers > 1_000)
    }
}
