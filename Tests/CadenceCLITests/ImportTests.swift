//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
import ZIPFoundation

/// `cadence import` of a real Apple Health export and of CSV, end to end.
@Suite("Import")
struct ImportTests {
    /// The per-type sample counts `info` reports match the export, counted independently.
    @Test func exportImportsEveryQuantityRecordOnce() throws {
        let imported = try Fixtures.hkimportStore.get()
        let expected = try Fixtures.expectedCounts(of: try Fixtures.hkimportExport.get())
        #expect(expected.records["HKQuantityTypeIdentifierStepCount"] == 3_980)
        #expect(expected.samples["HKQuantityTypeIdentifierStepCount"] == 3_980)
        #expect(expected.samples["HKQuantityTypeIdentifierHeartRate"] == 2_177)

        // The import summary: every record imported, look-alikes too; nothing is a duplicate.
        let summary = try CommandResult(status: 0, standardOutput: imported.importOutput, standardError: "").jsonObject()
        let files = try #require(summary["files"] as? [[String: Any]])
        let file = try #require(files.first)
        let distinct = expected.samples.values.reduce(0, +)
        let records = expected.records.values.reduce(0, +)
        #expect(file["imported"] as? Int == distinct)
        #expect(records == distinct)
        #expect(file["duplicates"] as? Int == 0)
        #expect(file["rejected"] as? Int == 0)
        #expect(file["workouts"] as? Int == 61)
        #expect(file["correlations"] as? Int == 34)
        // Sleep, mindful sessions, food correlations and workouts are stored too (How Cadence computes: Categories, workouts and correlations).
        #expect(expected.samples["HKCategoryTypeIdentifierSleepAnalysis"] == 121)
        #expect(expected.samples["HKCategoryTypeIdentifierMindfulSession"] == 4)
        #expect(expected.samples["HKCorrelationTypeIdentifierFood"] == 34)
        #expect(expected.samples["HKWorkoutTypeIdentifier"] == 61)
        #expect((file["unknownCategoryValues"] as? [String: Int])?.isEmpty == true)

        let info = try CadenceBinary.succeed(["info", "--store", imported.store, "--format", "json"]).jsonObject()
        let types = try #require(info["types"] as? [[String: Any]])
        var stored: [String: Int] = [:]
        for type in types {
            stored[type["type"] as? String ?? ""] = type["samples"] as? Int
        }
        #expect(stored == expected.samples)
        let totals = try #require(info["totals"] as? [String: Any])
        #expect(totals["samples"] as? Int == distinct)
        let steps = try #require(types.first { $0["type"] as? String == "HKQuantityTypeIdentifierStepCount" })
        #expect((steps["sources"] as? [String])?.contains("Jonathan’s iPhone") == true)
        #expect(steps["firstStart"] as? String != nil && steps["chunks"] as? Int ?? 0 >= 1)
        #expect(steps["bytesOnDisk"] as? Int ?? 0 > 0)
    }

    /// An `export.zip` laid out as the Health app writes it imports the same samples as its
    /// `export.xml`, read from the archive: nothing is unpacked beside it.
    @Test func zipImportsLikeItsExport() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let export = try Fixtures.hkimportExport.get()
        let xml = try Data(contentsOf: export)
        let zip = directory.url.appendingPathComponent("export.zip")
        let archive = try Archive(url: zip, accessMode: .create)
        // export_cda.xml is imported too, as one CDA document.
        let cda = try Data(contentsOf: URL(fileURLWithPath: DocumentsCommandTests.fixture("cda/Sample.xml")))
        for (path, data) in [("apple_health_export/export_cda.xml", cda),
                             ("apple_health_export/export.xml", xml)] {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count),
                                 compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        let store = directory.path("store")
        let result = try CadenceBinary.succeed(["import", zip.path, "--store", store, "--format", "json"]).jsonObject()
        let file = try #require((result["files"] as? [[String: Any]])?.first)
        let reference = try CommandResult(status: 0, standardOutput: Fixtures.hkimportStore.get().importOutput,
                                          standardError: "").jsonObject()
        let referenceFile = try #require((reference["files"] as? [[String: Any]])?.first)
        for key in ["duplicates", "rejected", "workouts", "correlations"] {
            #expect(file[key] as? Int == referenceFile[key] as? Int, "\(key)")
        }
        #expect(file["imported"] as? Int == (referenceFile["imported"] as? Int ?? 0) + 1)
        #expect(file["documents"] as? Int == 1)
        #expect(file["imported"] as? Int ?? 0 > 0)

        let listing = ["samples", "--type", "heartRate", "--format", "csv", "--time-zone", "UTC"]
        let fromZip = try CadenceBinary.succeed(listing + ["--store", store]).standardOutput
        let fromXML = try CadenceBinary.succeed(listing + ["--store", Fixtures.hkimportStore.get().store]).standardOutput
        #expect(fromZip == fromXML)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        #expect(left == ["export.zip", "store"])
    }

    /// `--jobs 1` reads on one core and imports the same; `--jobs 0` is a usage mistake.
    @Test func jobsOptionImportsTheSameAndIsChecked() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let export = try Fixtures.hkimportExport.get()
        let store = directory.path("one-core")
        let result = try CadenceBinary.succeed(["import", export.path, "--store", store, "--jobs", "1", "--format", "json"])
            .jsonObject()
        let totals = try #require(result["totals"] as? [String: Any])
        let reference = try CadenceBinary.succeed(["info", "--store", Fixtures.hkimportStore.get().store, "--format", "json"])
            .jsonObject()
        #expect(totals["imported"] as? Int == (reference["totals"] as? [String: Any])?["samples"] as? Int)
        let refused = try CadenceBinary.run(["import", export.path, "--store", directory.path("never"), "--jobs", "0"])
        #expect(refused.status != 0)
        #expect(refused.standardError.contains("--jobs"))
        #expect(!FileManager.default.fileExists(atPath: directory.path("never")))
    }

    /// Importing the same export again adds nothing.
    @Test func reimportAddsNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Fixtures.copyOfHKImportStore(in: directory)
        let export = try Fixtures.hkimportExport.get()
        let before = try CadenceBinary.succeed(["info", "--store", store, "--format", "json"]).jsonObject()
        let result = try CadenceBinary.succeed(["import", export.path, "--store", store, "--format", "json"]).jsonObject()
        let totals = try #require(result["totals"] as? [String: Any])
        #expect(totals["imported"] as? Int == 0)
        let after = try CadenceBinary.succeed(["info", "--store", store, "--format", "json"]).jsonObject()
        #expect((before["totals"] as? [String: Any])?["samples"] as? Int == (after["totals"] as? [String: Any])?["samples"] as? Int)
        #expect(before["lastSequence"] as? Int == after["lastSequence"] as? Int)
    }

    /// `samples --format csv` re-imports losslessly: the new store lists the same samples and
    /// computes the same statistics.
    @Test(arguments: [
        // Cumulative, with device strings and overlapping sources.
        "stepCount",
        // Discrete, with metadata and six sources.
        "bodyMass",
    ])
    func csvRoundTrip(type: String) throws {
        let original = try Fixtures.hkimportStore.get().store
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let csv = try CadenceBinary.succeed(["samples", "--store", original, "--type", type, "--format", "csv"])
        let csvPath = directory.path("\(type).csv")
        try csv.standardOutput.write(toFile: csvPath, atomically: true, encoding: .utf8)
        let copy = directory.path("copy")
        let imported = try CadenceBinary.succeed(["import", csvPath, "--store", copy, "--format", "json"]).jsonObject()
        #expect((imported["totals"] as? [String: Any])?["rejected"] as? Int == 0)

        // Same samples, field for field (UUIDs, dates, values, devices, metadata).
        let listing = ["samples", "--type", type, "--format", "json", "--time-zone", "UTC"]
        let before = try CadenceBinary.succeed(listing + ["--store", original]).standardOutput
        let after = try CadenceBinary.succeed(listing + ["--store", copy]).standardOutput
        #expect(before == after)

        // Same daily statistics. Sources are listed in priority order explicitly, since without a
        // list the merge ranks unlisted sources by their first appearance in each store.
        let info = try CadenceBinary.succeed(["info", "--store", original, "--format", "json"]).jsonObject()
        let types = info["types"] as? [[String: Any]] ?? []
        let identifier = "HKQuantityTypeIdentifier" + type.prefix(1).uppercased() + type.dropFirst()
        let sources = types.first { $0["type"] as? String == identifier }?["sources"] as? [String] ?? []
        #expect(!sources.isEmpty)
        let stats = ["stats", "--type", type, "--from", "2017-01-01T00:00:00+02:00", "--to", "2017-12-01T00:00:00+02:00",
                     "--interval", "1w", "--time-zone", "Etc/GMT-2", "--format", "json",
                     "--priority", sources.joined(separator: ",")]
        let statsBefore = try CadenceBinary.succeed(stats + ["--store", original]).jsonObject()
        let statsAfter = try CadenceBinary.succeed(stats + ["--store", copy]).jsonObject()
        let rowsBefore = statsBefore["statistics"] as? [[String: Any]] ?? []
        let rowsAfter = statsAfter["statistics"] as? [[String: Any]] ?? []
        #expect(rowsBefore.count == rowsAfter.count && rowsBefore.count > 40)
        for (left, right) in zip(rowsBefore, rowsAfter) {
            #expect(left["startDate"] as? String == right["startDate"] as? String)
            for key in ["sum", "average", "minimum", "maximum"] {
                let a = left[key] as? Double
                let b = right[key] as? Double
                #expect((a == nil) == (b == nil), "\(key) of \(left["startDate"] ?? "")")
                if let a, let b {
                    // Sums may add in another order; allow for rounding only.
                    #expect(abs(a - b) <= 1e-9 * max(1, abs(a)), "\(key) of \(left["startDate"] ?? ""): \(a) vs \(b)")
                }
            }
        }
    }

    /// The CSV written by the tests below; line 3 has a month 13.
    static let csvWithBadRow = """
        type,sourceName,unit,startDate,endDate,value,metadata:HKWasUserEntered
        HKQuantityTypeIdentifierBodyMass,Scale,lb,2024-03-01T08:00:00Z,2024-03-01T08:00:00Z,154.3234,1
        HKQuantityTypeIdentifierBodyMass,Scale,kg,2024-13-02T08:00:00Z,2024-03-02T08:00:00Z,70.1,
        stepCount,Phone,count,2024-03-01T10:00:00+01:00,2024-03-01T10:10:00+01:00,800,

        """

    @Test func malformedRowIsCountedWithItsLine() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let csv = directory.path("bad.csv")
        try Self.csvWithBadRow.write(toFile: csv, atomically: true, encoding: .utf8)
        let store = directory.path("store")

        let json = try CadenceBinary.succeed(["import", csv, "--store", store, "--format", "json"]).jsonObject()
        let file = try #require((json["files"] as? [[String: Any]])?.first)
        #expect(file["imported"] as? Int == 2)
        #expect(file["rejected"] as? Int == 1)
        let rejection = try #require((file["rejections"] as? [[String: Any]])?.first)
        #expect(rejection["line"] as? Int == 3)

        // The text summary names the file and the line.
        let again = directory.path("store-text")
        let text = try CadenceBinary.succeed(["import", csv, "--store", again])
        #expect(text.standardOutput.contains("bad.csv:3:"), "\(text.standardOutput)")

        // The pounds were converted to kilograms (1 lb = 0.453592 kg); the metadata column came along.
        let samples = try CadenceBinary.succeed(["samples", "--store", store, "--type", "bodyMass", "--format", "json"]).jsonObject()
        let sample = try #require((samples["samples"] as? [[String: Any]])?.first)
        #expect(abs((sample["value"] as? Double ?? 0) - 154.3234 * 0.453592) < 1e-9)
        #expect((sample["metadata"] as? [String: String])?["HKWasUserEntered"] == "1")
    }

    @Test func strictImportFailsAndLeavesTheStoreAsItWas() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let good = directory.path("good.csv")
        try """
            type,sourceName,unit,startDate,endDate,value
            stepCount,Phone,count,2024-02-01T10:00:00Z,2024-02-01T10:10:00Z,500

            """.write(toFile: good, atomically: true, encoding: .utf8)
        let bad = directory.path("bad.csv")
        try Self.csvWithBadRow.write(toFile: bad, atomically: true, encoding: .utf8)
        let store = directory.path("store")
        try CadenceBinary.succeed(["import", good, "--store", store])
        let before = try CadenceBinary.succeed(["changes", "--store", store, "--type", "stepCount"]).standardOutput

        let result = try CadenceBinary.run(["import", bad, "--store", store, "--strict"])
        #expect(result.status != 0)
        let message = result.standardError.trimmingCharacters(in: .newlines)
        #expect(!message.contains("\n"))
        #expect(message.contains("bad.csv:3"), "\(message)")

        let after = try CadenceBinary.succeed(["changes", "--store", store, "--type", "stepCount"]).standardOutput
        #expect(before == after)
        let mass = try CadenceBinary.succeed(["samples", "--store", store, "--type", "bodyMass", "--format", "json"]).jsonObject()
        #expect((mass["samples"] as? [Any])?.isEmpty == true)
    }
}
