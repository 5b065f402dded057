//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

/// `stats --format csv` and `--format json` print, byte for byte, what the formatter before
/// ``RFC3339Writer``, direct number writing and the shortest-digit conversion of its own printed
/// for the same store.
///
/// `Tests/Fixtures/stats-output/samples.csv` holds heart rates two days around three transitions
/// of 2024 (America/St_Johns on 10 March, Europe on 31 March, Australia/Lord_Howe's half hour on
/// 7 April) at whole seconds, milliseconds and microseconds, body masses from 5e-324 to 1e300,
/// step counts from two sources across Europe's transition (sums, per source), sound levels
/// from -1e300 to 1e22 and body temperatures from -273.15 to 1e200 (negative values, both
/// notations, whole numbers past 2^53), and sleep stages from two sources over five nights
/// across Europe's transition (category durations and counts). `queries.txt` asks for five-minute
/// to daily intervals and totals in those zones and in zones with 45-minute (Pacific/Chatham),
/// half-hour and no offset, with every statistic, with and without sources, as CSV, JSON and
/// tables; `expected.txt` is the earlier build's output of each query, after a `$ cadence stats …` line.
@Suite("stats output identity")
struct StatsOutputIdentityTests {
    @Test("every query prints exactly what the earlier formatter printed")
    func unchanged() throws {
        let fixture = CadenceBinary.packageRoot.appendingPathComponent("Tests/Fixtures/stats-output")
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = directory.path("store")
        try CadenceBinary.succeed(["import", fixture.appendingPathComponent("samples.csv").path, "--store", store])
        let queries = try String(contentsOf: fixture.appendingPathComponent("queries.txt"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let expected = try String(contentsOf: fixture.appendingPathComponent("expected.txt"), encoding: .utf8)
        // The output of each query after its heading, split apart so that a difference names its query.
        let expectedOutputs = expected.components(separatedBy: "$ cadence stats ").dropFirst()
        #expect(expectedOutputs.count == queries.count)
        for (query, expectedOutput) in zip(queries, expectedOutputs) {
            let arguments = query.split(separator: " ").map(String.init)
            let result = try CadenceBinary.succeed(["stats", "--store", store] + arguments)
            let output = query + "\n" + result.standardOutput
            #expect(output == expectedOutput, "\(query)")
            if output != expectedOutput {
                let outputLines = output.split(separator: "\n", omittingEmptySubsequences: false)
                let expectedLines = expectedOutput.split(separator: "\n", omittingEmptySubsequences: false)
                if let index = outputLines.indices.first(where: { $0 >= expectedLines.count || outputLines[$0] != expectedLines[$0] }) {
                    Issue.record("line \(index): \(outputLines[index]) instead of \(expectedLines.dropFirst(index).first ?? "nothing")")
                }
            }
        }
    }
}
