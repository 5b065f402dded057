//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

/// Category samples and correlations through the command line: the <doc:HowCadenceComputes#Category-durations> night imported from an
/// export and measured with `stats`, and `samples` on a category and a correlation type.
@Suite("Category samples on the command line")
struct CategoryCommandTests {
    /// The night of <doc:HowCadenceComputes#Category-durations> as an export: Watch stages, a third-party app, an iPhone in-bed record.
    static let night = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Watch" startDate="2024-05-01 23:00:00 +0000" endDate="2024-05-02 01:00:00 +0000" value="HKCategoryValueSleepAnalysisAsleepCore"/>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Watch" startDate="2024-05-02 01:00:00 +0000" endDate="2024-05-02 02:00:00 +0000" value="HKCategoryValueSleepAnalysisAsleepDeep"/>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="AutoSleep" startDate="2024-05-01 23:30:00 +0000" endDate="2024-05-02 06:30:00 +0000" value="HKCategoryValueSleepAnalysisAsleep"/>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="iPhone" startDate="2024-05-01 22:30:00 +0000" endDate="2024-05-02 07:00:00 +0000" value="HKCategoryValueSleepAnalysisInBed"/>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="iPhone" startDate="2024-05-02 22:30:00 +0000" endDate="2024-05-02 23:00:00 +0000" value="HKCategoryValueSleepAnalysisDreaming"/>
        </HealthData>
        """

    static func importNight(into directory: TemporaryDirectory) throws -> (store: String, summary: [String: Any]) {
        let export = directory.path("export.xml")
        try Data(night.utf8).write(to: URL(fileURLWithPath: export))
        let store = directory.path("store")
        let summary = try CadenceBinary.succeed(["import", export, "--store", store, "--format", "json"]).jsonObject()
        return (store, summary)
    }

    @Test("the How Cadence computes: Category durations vector through cadence stats", arguments: [
        ("asleepCore,asleepDeep,asleepREM,asleepUnspecified", 27_000.0, 3),
        ("inBed", 30_600.0, 1),
        ("asleepDeep", 3_600.0, 1),
    ])
    func vector(values: String, seconds: Double, count: Int) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, summary) = try Self.importNight(into: directory)
        let file = try #require((summary["files"] as? [[String: Any]])?.first)
        #expect(file["imported"] as? Int == 5)
        #expect(file["unknownCategoryValues"] as? [String: Int] == ["sleepAnalysis HKCategoryValueSleepAnalysisDreaming": 1])
        let json = try CadenceBinary.succeed([
            "stats", "--store", store, "--type", "sleepAnalysis", "--values", values, "--interval", "1d",
            "--anchor", "2024-01-01T12:00:00Z", "--from", "2024-05-01T12:00:00Z", "--to", "2024-05-02T12:00:00Z",
            "--priority", "Watch,AutoSleep,iPhone", "--time-zone", "UTC", "--format", "json",
        ]).jsonObject()
        let nights = try #require(json["statistics"] as? [[String: Any]])
        #expect(nights.count == 1)
        #expect(nights.first?["startDate"] as? String == "2024-05-01T12:00:00Z")
        #expect(nights.first?["duration"] as? Double == seconds)
        #expect(nights.first?["count"] as? Int == count)
    }

    @Test("the table prints time asleep per night; unknown values are refused with the type's values")
    func table() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, _) = try Self.importNight(into: directory)
        let base = ["stats", "--store", store, "--type", "HKCategoryTypeIdentifierSleepAnalysis", "--interval", "1d",
                    "--anchor", "2024-01-01T12:00:00Z", "--from", "2024-05-01T12:00:00Z", "--to", "2024-05-02T12:00:00Z",
                    "--priority", "Watch,AutoSleep,iPhone", "--time-zone", "UTC"]
        let table = try CadenceBinary.succeed(base + ["--values", "asleepCore,asleepDeep,asleepREM,asleepUnspecified"]).standardOutput
        #expect(table.contains("7:30:00"))
        let refused = try CadenceBinary.run(base + ["--values", "asleep,dozing"])
        #expect(refused.status != 0)
        #expect(refused.standardError.contains("asleepCore"))
        let noValues = try CadenceBinary.run(base)
        #expect(noValues.status != 0 && noValues.standardError.contains("--values"))
    }

    @Test("the type's own priority list, set with cadence priority, ranks the night's sources")
    func priority() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, _) = try Self.importNight(into: directory)
        let deep = ["stats", "--store", store, "--type", "sleepAnalysis", "--values", "asleepDeep",
                    "--interval", "1d", "--anchor", "2024-01-01T12:00:00Z", "--from", "2024-05-01T12:00:00Z",
                    "--to", "2024-05-02T12:00:00Z", "--time-zone", "UTC", "--format", "json"]
        // By default the Watch (first seen) decides 01:00-02:00: an hour of deep sleep.
        let before = try CadenceBinary.succeed(deep).jsonObject()
        #expect((before["statistics"] as? [[String: Any]])?.first?["duration"] as? Double == 3_600)
        let shown = try CadenceBinary.succeed(["priority", "--store", store, "--type", "sleepAnalysis", "--set",
                                               "AutoSleep, Watch"]).standardOutput
        #expect(shown == "sleepAnalysis: AutoSleep, Watch\n")
        // AutoSleep now decides every instant it covers, and it says only "asleep".
        let after = try CadenceBinary.succeed(deep).jsonObject()
        #expect((after["statistics"] as? [[String: Any]])?.first?["duration"] as? Double == 0)
    }

    @Test("samples lists a category type as a table, CSV and JSON, with value filters")
    func samples() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, _) = try Self.importNight(into: directory)
        let base = ["samples", "--store", store, "--type", "sleepAnalysis", "--time-zone", "UTC"]
        let json = try CadenceBinary.succeed(base + ["--format", "json"]).jsonObject()
        let samples = try #require(json["samples"] as? [[String: Any]])
        #expect(samples.map { $0["valueName"] as? String } == [
            "HKCategoryValueSleepAnalysisInBed", "HKCategoryValueSleepAnalysisAsleepCore",
            "HKCategoryValueSleepAnalysisAsleepUnspecified", "HKCategoryValueSleepAnalysisAsleepDeep",
            "HKCategoryValueSleepAnalysisDreaming",
        ])
        #expect(samples.map { $0["value"] as? Int } == [0, 3, 1, 4, -1])
        let csv = try CadenceBinary.succeed(base + ["--format", "csv", "--values", "asleepDeep"]).standardOutput
        let lines = csv.split(separator: "\n")
        #expect(lines.count == 2 && lines[1].contains("HKCategoryValueSleepAnalysisAsleepDeep"))
        let table = try CadenceBinary.succeed(base + ["--values", "inBed"]).standardOutput
        #expect(table.contains("inBed") && table.contains("iPhone") && !table.contains("Watch"))
    }

    @Test("a category type's CSV re-imports into the same samples, and a second time adds nothing")
    func csvRoundTrip() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (original, _) = try Self.importNight(into: directory)
        let listing = ["samples", "--type", "sleepAnalysis", "--time-zone", "UTC"]
        let csv = directory.path("night.csv")
        try CadenceBinary.succeed(listing + ["--store", original, "--format", "csv"]).standardOutput
            .write(toFile: csv, atomically: true, encoding: .utf8)
        let copy = directory.path("copy")
        for (store, imported) in [(copy, 5), (copy, 0), (original, 0)] {
            let summary = try CadenceBinary.succeed(["import", csv, "--store", store, "--format", "json"]).jsonObject()
            let file = try #require((summary["files"] as? [[String: Any]])?.first)
            #expect(file["imported"] as? Int == imported, "\(store)")
            #expect(file["duplicates"] as? Int == 5 - imported, "\(store)")
            #expect(file["rejected"] as? Int == 0)
        }
        let json = try CadenceBinary.succeed(listing + ["--store", original, "--format", "json"]).standardOutput
        #expect(try CadenceBinary.succeed(listing + ["--store", copy, "--format", "json"]).standardOutput == json)
    }

    @Test("CSV category rows take raw values, short names and short type names")
    func csvValueForms() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (original, _) = try Self.importNight(into: directory)
        // The night again, its values and types written the other ways a person would write them.
        let csv = directory.path("forms.csv")
        try """
            type,sourceName,unit,startDate,endDate,value
            HKCategoryTypeIdentifierSleepAnalysis,Watch,,2024-05-01T23:00:00Z,2024-05-02T01:00:00Z,3
            sleepAnalysis,Watch,,2024-05-02T01:00:00Z,2024-05-02T02:00:00Z,asleepDeep
            sleepAnalysis,AutoSleep,,2024-05-01T23:30:00Z,2024-05-02T06:30:00Z,HKCategoryValueSleepAnalysisAsleep
            HKCategoryTypeIdentifierSleepAnalysis,iPhone,,2024-05-01T22:30:00Z,2024-05-02T07:00:00Z,0
            HKCategoryTypeIdentifierSleepAnalysis,iPhone,,2024-05-02T22:30:00Z,2024-05-02T23:00:00Z,HKCategoryValueSleepAnalysisDreaming

            """.write(toFile: csv, atomically: true, encoding: .utf8)
        let store = directory.path("forms")
        try CadenceBinary.succeed(["import", csv, "--store", store])
        // Derived identities agree too: the original's import adds nothing new.
        func samples(_ store: String) throws -> [[String: String]] {
            let json = try CadenceBinary.succeed(["samples", "--store", store, "--type", "sleepAnalysis", "--format", "json",
                                                  "--time-zone", "UTC"]).jsonObject()
            return (json["samples"] as? [[String: Any]] ?? []).map { sample in
                sample.compactMapValues { "\($0)" }.filter { ["startDate", "endDate", "value", "valueName", "sourceName"].contains($0.key) }
            }
        }
        #expect(try samples(store) == samples(original))
        #expect(try samples(store).count == 5)
    }

    @Test("stats --input measures category durations from an exported CSV as the store does", arguments: [
        "asleepCore,asleepDeep,asleepREM,asleepUnspecified", "inBed", "asleepDeep",
    ])
    func statsFromInput(values: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (store, _) = try Self.importNight(into: directory)
        let exported = try CadenceBinary.succeed(["samples", "--store", store, "--type", "sleepAnalysis", "--format", "csv"])
            .standardOutput.split(separator: "\n")
        let input = directory.path("users.csv")
        try (["user," + (exported.first ?? "")] + exported.dropFirst().map { "night," + $0 }).joined(separator: "\n")
            .write(toFile: input, atomically: true, encoding: .utf8)
        let query = ["--type", "sleepAnalysis", "--values", values, "--interval", "1d", "--anchor", "2024-01-01T12:00:00Z",
                     "--from", "2024-05-01T12:00:00Z", "--to", "2024-05-02T12:00:00Z", "--priority", "Watch,AutoSleep,iPhone",
                     "--time-zone", "UTC", "--format", "json"]
        let fromStore = try #require(try CadenceBinary.succeed(["stats", "--store", store] + query).jsonObject()["statistics"]
            as? [[String: Any]])
        let streamed = try CadenceBinary.succeed(["stats", "--input", input] + query).standardOutput.split(separator: "\n")
        let rows = try streamed.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(rows.count == fromStore.count && !rows.isEmpty)
        for (row, night) in zip(rows, fromStore) {
            #expect(row["user"] as? String == "night")
            #expect(row["duration"] as? Double == night["duration"] as? Double)
            #expect(row["count"] as? Int == night["count"] as? Int)
            #expect((row["duration"] as? Double ?? 0) > 0)
        }
    }

    @Test("the real export's food correlations list with their members")
    func correlations() throws {
        let store = try Fixtures.hkimportStore.get().store
        let json = try CadenceBinary.succeed(["samples", "--store", store, "--type", "food", "--format", "json"]).jsonObject()
        let food = try #require(json["samples"] as? [[String: Any]])
        #expect(food.count == 34)
        let members = food.map { ($0["objects"] as? [[String: Any]])?.count ?? 0 }
        #expect(members.allSatisfy { $0 > 0 } && members.reduce(0, +) == 162)
        let sleep = try CadenceBinary.succeed(["samples", "--store", store, "--type", "sleepAnalysis", "--format", "json"])
            .jsonObject()
        #expect((sleep["samples"] as? [[String: Any]])?.count == 121)
    }

    @Test("--member keeps the food correlations whose energy members all reach 500 kcal, and rejects bad conditions")
    func memberConditions() throws {
        let store = try Fixtures.hkimportStore.get().store
        func food(_ extra: [String]) throws -> [[String: Any]] {
            let json = try CadenceBinary.succeed(["samples", "--store", store, "--type", "food", "--format", "json"] + extra)
                .jsonObject()
            return try #require(json["samples"] as? [[String: Any]])
        }
        // The three rules read directly off the full listing.
        let energy = "HKQuantityTypeIdentifierDietaryEnergyConsumed"
        let expected = try food([]).filter { correlation in
            let members = (correlation["objects"] as? [[String: Any]] ?? []).filter { $0["type"] as? String == energy }
            return !members.isEmpty && members.allSatisfy { ($0["value"] as? Double ?? 0) >= 500 }
        }
        let listed = try food(["--member", "dietaryEnergyConsumed>=500kcal"])
        #expect(!listed.isEmpty && listed.count < 34)
        #expect(listed.map { $0["uuid"] as? String } == expected.map { $0["uuid"] as? String })
        #expect(try food(["--member", "dietaryEnergyConsumed>=500000cal", "--limit", "1"]).map { $0["uuid"] as? String }
            == expected.prefix(1).map { $0["uuid"] as? String })

        let wrongUnit = try CadenceBinary.run(["samples", "--store", store, "--type", "food", "--member", "dietaryEnergyConsumed>=5km"])
        #expect(wrongUnit.status != 0 && wrongUnit.standardError.contains("--member"))
        let wrongType = try CadenceBinary.run(["samples", "--store", store, "--type", "stepCount", "--member", "dietaryProtein"])
        #expect(wrongType.status != 0 && wrongType.standardError.contains("correlation types"))
    }

    /// `samples --format csv` of a correlation type re-imports as its help says: its members, as
    /// quantity samples with their UUIDs and values.
    @Test func correlationCSVReimportsItsMembers() throws {
        let store = try Fixtures.hkimportStore.get().store
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let csv = try CadenceBinary.succeed(["samples", "--store", store, "--type", "food", "--format", "csv"])
        let file = directory.path("food.csv")
        try csv.standardOutput.write(toFile: file, atomically: true, encoding: .utf8)
        let copy = directory.path("copy")
        let imported = try CadenceBinary.succeed(["import", file, "--store", copy, "--strict", "--format", "json"]).jsonObject()
        let totals = try #require(imported["totals"] as? [String: Any])
        #expect((totals["imported"] as? Int ?? 0) + (totals["duplicates"] as? Int ?? 0) == 162, "\(totals)")
        #expect(totals["rejected"] as? Int == 0, "\(totals)")
        // Every member, by UUID, with the value it has in the original store.
        let original = try CadenceBinary.succeed(["samples", "--store", store, "--type", "food", "--format", "json"]).jsonObject()
        let members = try #require(original["samples"] as? [[String: Any]]).flatMap { $0["objects"] as? [[String: Any]] ?? [] }
        var byType: [String: [String: Double]] = [:]
        for member in members {
            byType[member["type"] as? String ?? "", default: [:]][member["uuid"] as? String ?? ""] = member["value"] as? Double
        }
        for (type, values) in byType {
            let copied = try CadenceBinary.succeed(["samples", "--store", copy, "--type", type, "--format", "json"]).jsonObject()
            let samples = try #require(copied["samples"] as? [[String: Any]])
            #expect(Dictionary(samples.map { ($0["uuid"] as? String ?? "", $0["value"] as? Double) },
                               uniquingKeysWith: { first, _ in first }) == values, "\(type)")
        }
    }
}
