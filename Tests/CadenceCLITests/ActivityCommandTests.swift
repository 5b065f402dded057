//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

/// Activity summaries through the command line: `cadence activity` over a store imported from a
/// real export, `info` counting them, `delete` and `changes` on the activity summary type.
@Suite("Activity summaries on the command line")
struct ActivityCommandTests {
    /// A store imported from `dogsheep-export.xml`, which holds the summaries of 2016-11-15 and -16.
    static func importedStore(in directory: TemporaryDirectory) throws -> String {
        let export = CadenceBinary.packageRoot.appendingPathComponent("Tests/Fixtures/apple-health/dogsheep-export.xml")
        let store = directory.path("store")
        let imported = try CadenceBinary.succeed(["import", export.path, "--store", store, "--format", "json"]).jsonObject()
        let file = try #require((imported["files"] as? [[String: Any]])?.first)
        #expect(file["activitySummaries"] as? Int == 2)
        #expect(file["activitySummariesImported"] as? Int == 2)
        #expect(file["activitySummariesUpdated"] as? Int == 0)
        return store
    }

    @Test("cadence activity prints each day's rings, value against goal, and marks the closed ones")
    func table() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.importedStore(in: directory)
        let result = try CadenceBinary.succeed(["activity", "--store", store, "--from", "2016-11-01", "--to", "2016-11-30"])
        #expect(result.standardOutput == [
            "Day         Move (kcal)  MoveTime (min)  Exercise (min)  Stand (hours)",
            "----------  -----------  --------------  --------------  -------------",
            "2016-11-15    590/630               -           68/30 *        13/12 *",
            "2016-11-16    324/630               -           39/30 *         9/12  ",
            "* closed ring (value at or above its goal)",
        ].map { $0 + "\n" }.joined())
    }

    @Test("--from and --to are inclusive days; JSON and CSV carry exact values and whether each ring closed")
    func formats() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.importedStore(in: directory)
        let json = try CadenceBinary.succeed(["activity", "--store", store, "--from", "2016-11-16", "--to", "2016-11-16",
                                              "--format", "json"]).jsonObject()
        let summaries = try #require(json["summaries"] as? [[String: Any]])
        #expect(summaries.map { $0["day"] as? String } == ["2016-11-16"])
        let move = try #require(summaries.first?["move"] as? [String: Any])
        #expect(move["value"] as? Double == 323.513 && move["goal"] as? Double == 630 && move["closed"] as? Bool == false)
        let moveTime = try #require(summaries.first?["moveTime"] as? [String: Any])
        #expect(moveTime["value"] is NSNull && moveTime["closed"] is NSNull)
        let csv = try CadenceBinary.succeed(["activity", "--store", store, "--to", "2016-11-15", "--format", "csv"])
        #expect(csv.standardOutput == """
            day,move,moveGoal,moveClosed,moveTime,moveTimeGoal,moveTimeClosed,exercise,exerciseGoal,exerciseClosed,stand,standGoal,standClosed
            2016-11-15,590.252,630,no,,,,68,30,yes,13,12,yes

            """)
        let empty = try CadenceBinary.succeed(["activity", "--store", store, "--from", "2016-11-17", "--format", "json"])
        #expect(try #require(empty.jsonObject()["summaries"] as? [Any]).isEmpty)
    }

    @Test("cadence activity refuses a day that is not yyyy-MM-dd and a range that ends before it starts", arguments: [
        (["--from", "2016-11-31"], "--from"),
        (["--to", "2016-11-15T00:00:00Z"], "--to"),
        (["--from", "2016-11-16", "--to", "2016-11-15"], "must not be after"),
    ])
    func refused(arguments: [String], mention: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.importedStore(in: directory)
        let result = try CadenceBinary.run(["activity", "--store", store] + arguments)
        #expect(result.status != 0)
        #expect(result.standardError.contains(mention), "\(result.standardError)")
    }

    @Test("info counts the summaries; delete removes a day's and changes reports it")
    func infoDeleteChanges() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.importedStore(in: directory)
        let info = try CadenceBinary.succeed(["info", "--store", store, "--format", "json"]).jsonObject()
        let types = try #require(info["types"] as? [[String: Any]])
        let row = try #require(types.first { $0["kind"] as? String == "activitySummary" })
        #expect(row["type"] as? String == "HKActivitySummaryTypeIdentifier" && row["samples"] as? Int == 2)
        // The table gives the first and last days themselves, whatever the zone dates print in.
        let table = try CadenceBinary.succeed(["info", "--store", store, "--time-zone", "America/Los_Angeles"]).standardOutput
        let line = try #require(table.split(separator: "\n").first { $0.hasPrefix("activitySummary ") })
        #expect(line.contains("  2016-11-15  2016-11-16  "), "\(line)")
        let before = try CadenceBinary.succeed(["changes", "--store", store, "--type", "activitySummary"]).jsonObject()
        let listed = try #require(before["samples"] as? [[String: Any]])
        #expect(listed.map { $0["day"] as? String } == ["2016-11-15", "2016-11-16"])
        let deleted = try CadenceBinary.succeed(["delete", "--store", store, "--type", "activitySummary",
                                                 "--from", "2016-11-16", "--to", "2016-11-17"])
        #expect(deleted.standardOutput == "Deleted 1 sample.\n")
        let after = try CadenceBinary.succeed(["changes", "--store", store, "--type", "activitySummary",
                                               "--anchor", try #require(before["anchor"] as? String)]).jsonObject()
        #expect((after["deletedObjects"] as? [[String: Any]])?.map { $0["uuid"] as? String } == [listed[1]["uuid"] as? String])
        let left = try CadenceBinary.succeed(["activity", "--store", store, "--format", "json"]).jsonObject()
        #expect((left["summaries"] as? [[String: Any]])?.map { $0["day"] as? String } == ["2016-11-15"])
    }
}
