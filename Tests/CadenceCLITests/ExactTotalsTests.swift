//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

/// Totals on the real export that need every record kept (look-alikes are distinct objects), and
/// the per-type source priority lists, through the command line.
@Suite("Exact totals and source priority")
struct ExactTotalsTests {
    /// Dietary energy per +02:00 day, summed by hand from the file's top-level records (all
    /// Nutrino, none crossing midnight): 2017-11-05 holds 104.631 + 104.631 (two "Bananas" logged
    /// minutes apart, identical but for their creation dates and food correlations) and two more,
    /// 346.9344 kcal in all; 2017-11-11 holds five records, 2433 kcal.
    @Test(arguments: [("2017-11-05", "2017-11-06", 346.9344), ("2017-11-11", "2017-11-12", 2_433)])
    func dietaryEnergyDays(from: String, to: String, expected: Double) throws {
        let store = try Fixtures.hkimportStore.get().store
        let json = try CadenceBinary.succeed([
            "stats", "--store", store, "--type", "dietaryEnergyConsumed", "--from", "\(from)T00:00:00+02:00",
            "--to", "\(to)T00:00:00+02:00", "--interval", "1d", "--anchor", "2000-01-01T00:00:00+02:00",
            "--time-zone", "Etc/GMT-2", "--format", "json",
        ]).jsonObject()
        let days = try #require(json["statistics"] as? [[String: Any]])
        #expect(days.count == 1)
        let sum = try #require(days.first?["sum"] as? Double)
        #expect(abs(sum - expected) < 1e-6, "\(from): \(sum)")
    }

    @Test func reimportAddsNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Fixtures.copyOfHKImportStore(in: directory)
        let export = try Fixtures.hkimportExport.get()
        let summary = try CadenceBinary.succeed(["import", export.path, "--store", store, "--format", "json"]).jsonObject()
        let file = try #require((summary["files"] as? [[String: Any]])?.first)
        #expect(file["imported"] as? Int == 0)
        #expect(file["duplicates"] as? Int == 11_034)  // 10,973 samples and 61 workouts
    }

    @Test func priorityListsAreShownAndSet() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Fixtures.copyOfHKImportStore(in: directory)
        let steps = ["stats", "--store", store, "--type", "stepCount", "--format", "json"]
        let before = try #require(try CadenceBinary.succeed(steps).jsonObject()["statistics"] as? [[String: Any]])

        let shown = try CadenceBinary.succeed(["priority", "--store", store, "--type", "stepCount", "--set",
                                               "Connect, Jonathan’s iPhone"]).standardOutput
        #expect(shown == "stepCount: Connect, Jonathan’s iPhone\n")
        let after = try #require(try CadenceBinary.succeed(steps).jsonObject()["statistics"] as? [[String: Any]])
        #expect(before.first?["sum"] as? Double != after.first?["sum"] as? Double, "the type's order changes the merged total")

        _ = try CadenceBinary.succeed(["priority", "--store", store, "--set", "lark"])
        let listed = try CadenceBinary.succeed(["priority", "--store", store, "--format", "json"]).standardOutput
        let all = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
        let scopes = all.compactMap { $0["scope"] as? String }
        #expect(scopes == ["store-wide", "stepCount"])
        #expect(all.first?["sources"] as? [String] == ["lark"])

        let distance = try CadenceBinary.succeed(["priority", "--store", store, "--type", "distanceWalkingRunning"]).standardOutput
        #expect(distance == "distanceWalkingRunning: lark (store-wide list)\n")

        _ = try CadenceBinary.succeed(["priority", "--store", store, "--type", "stepCount", "--clear"])
        let cleared = try CadenceBinary.succeed(["priority", "--store", store, "--type", "stepCount"]).standardOutput
        #expect(cleared == "stepCount: lark (store-wide list)\n")

        let refused = try CadenceBinary.run(["priority", "--store", store, "--clear"])
        #expect(refused.status == 64 && refused.standardError.contains("--clear needs --type"))
    }
}
