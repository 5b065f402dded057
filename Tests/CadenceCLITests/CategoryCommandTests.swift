//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

/// Category samples and correlations through the command line: the SPEC §14 night imported from an
/// export and measured with `stats`, and `samples` on a category and a correlation type.
@Suite("Category samples on the command line")
struct CategoryCommandTests {
    /// The night of SPEC §14 as an export: Watch stages, a third-party app, an iPhone in-bed record.
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

    @Test("the SPEC §14 vector through cadence stats", arguments: [
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
}
