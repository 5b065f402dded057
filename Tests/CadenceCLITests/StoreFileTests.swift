//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `verify`, `plot`, `info` and `generate`: the commands that read or write whole files.
@Suite("Store files")
struct StoreFileTests {
    @Test func verifyPassesOnAHealthyStore() throws {
        let store = try Fixtures.hkimportStore.get().store
        let result = try CadenceBinary.succeed(["verify", "--store", store])
        #expect(result.standardOutput.hasPrefix("OK: "))
    }

    /// One flipped byte in a chunk file: `verify` names the file and exits non-zero.
    @Test func verifyNamesADamagedChunk() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Fixtures.copyOfHKImportStore(in: directory)
        // The largest file other than the manifest and the logs is a chunk file (StepCount's).
        let fileManager = FileManager.default
        let files = try #require(fileManager.enumerator(atPath: store)?.allObjects as? [String])
        let candidates = files.filter { name in
            let last = (name as NSString).lastPathComponent
            var isDirectory: ObjCBool = false
            return fileManager.fileExists(atPath: store + "/" + name, isDirectory: &isDirectory) && !isDirectory.boolValue
                && last != "MANIFEST" && !last.hasSuffix(".log") && !last.hasPrefix(".") && !last.lowercased().contains("lock")
        }
        let sizes = candidates.map { ($0, (try? fileManager.attributesOfItem(atPath: store + "/" + $0)[.size] as? Int) ?? 0) }
        let (chunk, size) = try #require(sizes.max { $0.1 < $1.1 }, "no chunk file in \(files)")
        let path = store + "/" + chunk
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[size / 2] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let result = try CadenceBinary.run(["verify", "--store", store])
        #expect(result.status != 0)
        #expect(result.standardOutput.contains((chunk as NSString).lastPathComponent), "\(result.standardOutput)")
        #expect(!result.standardError.isEmpty)

        let json = try CadenceBinary.run(["verify", "--store", store, "--format", "json"])
        #expect(json.status != 0)
        let damaged = try #require(try json.jsonObject()["damaged"] as? [[String: Any]])
        #expect(damaged.count == 1)
        #expect((damaged.first?["path"] as? String)?.hasSuffix((chunk as NSString).lastPathComponent) == true)
    }

    @Test(arguments: [
        // Cumulative: bars, weekly over three months.
        ("stepCount", "1w", "2017-03-01", "2017-06-01", "<rect"),
        // Discrete: a min–max band and an average line, daily over October (the heart rate month).
        ("heartRate", "1d", "2017-10-01", "2017-11-01", "<polygon"),
    ])
    func plotWritesAnSVG(type: String, interval: String, from: String, to: String, mark: String) throws {
        let store = try Fixtures.hkimportStore.get().store
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let output = directory.path("\(type).svg")
        try CadenceBinary.succeed([
            "plot", "--store", store, "--type", type, "--from", from, "--to", to,
            "--interval", interval, "--time-zone", "Etc/GMT-2", "--output", output,
        ])
        let svg = try String(contentsOfFile: output, encoding: .utf8)
        #expect(svg.contains("<svg"))
        #expect(svg.contains("</svg>"))
        #expect(svg.contains(mark))
        #expect(svg.contains(String(from.prefix(7))))
        // Well-formed XML, so that any browser opens it.
        #expect(XMLParser(data: Data(svg.utf8)).parse())
    }

    @Test func infoTableListsTypesAndTotals() throws {
        let store = try Fixtures.hkimportStore.get().store
        let table = try CadenceBinary.succeed(["info", "--store", store]).standardOutput
        #expect(table.contains("stepCount"))
        #expect(table.contains("3980"))
        #expect(table.contains("total"))
    }

    @Test("info shows each type's kind, and a unit for quantity types only")
    func infoShowsKinds() throws {
        let store = try Fixtures.hkimportStore.get().store
        let json = try CadenceBinary.succeed(["info", "--store", store, "--format", "json"]).jsonObject()
        let types = try #require(json["types"] as? [[String: Any]])
        // The kind by the identifier's prefix, written out here.
        func kind(_ identifier: String) -> String {
            if identifier.hasPrefix("HKCategoryTypeIdentifier") { return "category" }
            if identifier.hasPrefix("HKCorrelationTypeIdentifier") { return "correlation" }
            if identifier == "HKWorkoutTypeIdentifier" { return "workout" }
            return "quantity"
        }
        for type in types {
            let identifier = type["type"] as? String ?? ""
            #expect(type["kind"] as? String == kind(identifier), "\(identifier)")
            #expect((type["unit"] is NSNull) == (kind(identifier) != "quantity"), "\(identifier)")
        }
        #expect(Set(types.compactMap { $0["kind"] as? String }) == ["quantity", "category", "correlation", "workout"])
        // The table: type, kind, unit ("-" for none), samples.
        let rows = try CadenceBinary.succeed(["info", "--store", store]).standardOutput.split(separator: "\n")
            .map { $0.split(separator: " ").map(String.init) }
        let table = Dictionary(rows.compactMap { $0.count > 4 ? ($0[0], Array($0[1...3])) : nil }, uniquingKeysWith: { first, _ in first })
        let counts = try Fixtures.expectedCounts(of: Fixtures.hkimportExport.get()).samples
        func count(_ identifier: String) -> String { String(counts[identifier] ?? -1) }
        #expect(table["workout"] == ["workout", "-", count("HKWorkoutTypeIdentifier")])
        #expect(table["sleepAnalysis"] == ["category", "-", count("HKCategoryTypeIdentifierSleepAnalysis")])
        #expect(table["food"] == ["correlation", "-", count("HKCorrelationTypeIdentifierFood")])
        #expect(table["stepCount"] == ["quantity", "count", count("HKQuantityTypeIdentifierStepCount")])
    }

    /// The same seed gives the same file, and the file imports.
    @Test func generateIsDeterministicAndImports() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = directory.path("first.csv")
        let second = directory.path("second.csv")
        for output in [first, second] {
            try CadenceBinary.succeed(["generate", "--profile", "realistic", "--days", "2", "--seed", "42",
                                       "--format", "csv", "--output", output])
        }
        #expect(FileManager.default.contentsEqual(atPath: first, andPath: second))
        let xml = directory.path("export.xml")
        try CadenceBinary.succeed(["generate", "--profile", "realistic", "--days", "2", "--seed", "42",
                                   "--format", "export-xml", "--output", xml])

        let fromCSV = try CadenceBinary.succeed(["import", first, "--store", directory.path("csv-store"), "--format", "json"])
            .jsonObject()
        let fromXML = try CadenceBinary.succeed(["import", xml, "--store", directory.path("xml-store"), "--format", "json"])
            .jsonObject()
        let imported = (fromCSV["totals"] as? [String: Any])?["imported"] as? Int ?? 0
        #expect(imported > 2_000)
        #expect((fromXML["totals"] as? [String: Any])?["imported"] as? Int == imported)

        let dense = directory.path("dense.csv")
        try CadenceBinary.succeed(["generate", "--profile", "dense", "--samples", "1000", "--seed", "1",
                                   "--output", dense])
        let lines = try String(contentsOfFile: dense, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1_001)
    }
}
