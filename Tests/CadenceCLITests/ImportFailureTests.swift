//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
import ZIPFoundation

/// `cadence import` tells the truth about imports that fail: every record rejected, a file cut
/// short by damage, a file that cannot be read at all.
@Suite("Import failures")
struct ImportFailureTests {
    /// Per kind, the samples `info` shows in a store.
    static func storedByKind(_ store: String) throws -> [String: Int] {
        let info = try CadenceBinary.succeed(["info", "--store", store, "--format", "json"]).jsonObject()
        var byKind: [String: Int] = [:]
        for type in try #require(info["types"] as? [[String: Any]]) {
            byKind[type["kind"] as? String ?? "?", default: 0] += type["samples"] as? Int ?? 0
        }
        return byKind
    }

    /// The one file entry of an import's JSON summary.
    static func fileEntry(_ result: CommandResult) throws -> [String: Any] {
        try #require((result.jsonObject()["files"] as? [[String: Any]])?.first)
    }

    /// An `export.xml` of `count` step records whose unit is not a unit.
    static func exportWithBadUnits(_ count: Int) -> String {
        let records = (0..<count).map { index in
            #" <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="furlongs" "#
                + #"startDate="2024-01-01 08:0\#(index):00 +0000" endDate="2024-01-01 08:0\#(index):30 +0000" value="5"/>"#
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
            + records.joined(separator: "\n") + "\n</HealthData>\n"
    }

    @Test("An import whose every record is rejected fails, and leaves no new store behind")
    func everyRecordRejected() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let export = directory.path("export.xml")
        try Self.exportWithBadUnits(3).write(toFile: export, atomically: true, encoding: .utf8)
        let store = directory.path("store")
        let result = try CadenceBinary.run(["import", export, "--store", store, "--format", "json"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("every record was rejected"), "\(result.standardError)")
        let file = try Self.fileEntry(result)
        #expect(file["failed"] as? Bool == true && file["rejected"] as? Int == 3 && file["imported"] as? Int == 0)
        #expect(!FileManager.default.fileExists(atPath: store))

        let table = try CadenceBinary.run(["import", export, "--store", store])
        #expect(table.status == 1)
        #expect(table.standardOutput.contains("FAILED: every record was rejected"), "\(table.standardOutput)")
    }

    @Test("A store that existed before a failed import is kept")
    func existingStoreIsKept() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let good = directory.path("good.xml")
        try Self.exportWithBadUnits(2).replacingOccurrences(of: "furlongs", with: "count")
            .write(toFile: good, atomically: true, encoding: .utf8)
        let bad = directory.path("bad.xml")
        try Self.exportWithBadUnits(2).write(toFile: bad, atomically: true, encoding: .utf8)
        let store = directory.path("store")
        _ = try CadenceBinary.succeed(["import", good, "--store", store])
        for file in [bad, directory.path("missing.xml")] {
            #expect(try CadenceBinary.run(["import", file, "--store", store]).status == 1)
            #expect(try Self.storedByKind(store) == ["quantity": 2])
        }
        // An empty store made by hand is not this import's to remove either.
        let empty = directory.path("empty-store")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
        #expect(try CadenceBinary.run(["import", bad, "--store", empty]).status == 1)
        #expect(FileManager.default.fileExists(atPath: empty))
    }

    @Test("An import that fails before storing anything leaves no empty store", arguments: ["utf16", "zip", "missing"])
    func failureBeforeStoring(kind: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file: String
        switch kind {
        case "utf16":
            file = directory.path("export.xml")
            var bytes: [UInt8] = [0xFF, 0xFE]
            for unit in Self.exportWithBadUnits(1).replacingOccurrences(of: "furlongs", with: "count").utf16 {
                bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            }
            try Data(bytes).write(to: URL(fileURLWithPath: file))
        case "zip":
            let whole = directory.url.appendingPathComponent("whole.zip")
            let archive = try Archive(url: whole, accessMode: .create)
            let xml = try Data(contentsOf: try Fixtures.hkimportExport.get())
            try archive.addEntry(with: "apple_health_export/export.xml", type: .file, uncompressedSize: Int64(xml.count),
                                 compressionMethod: .deflate) { position, size in
                xml.subdata(in: Int(position)..<Int(position) + size)
            }
            let bytes = try Data(contentsOf: whole)
            file = directory.path("export.zip")
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: file))
        default:
            file = directory.path("no-such-export.xml")
        }
        // In a folder that does not exist yet either: all of what the import made goes.
        let store = directory.path("new/folder/store")
        let result = try CadenceBinary.run(["import", file, "--store", store])
        #expect(result.status == 1)
        #expect(result.standardError.contains("Error: "), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("new")))
    }

    /// Imports `file` into a new store in JSON, then checks that the report counts, per kind and in
    /// total, exactly what `info` shows, and says where reading stopped.
    static func expectReportMatchesStore(_ file: String, in directory: TemporaryDirectory, name: String) throws {
        let store = directory.path("store-\(name)")
        let result = try CadenceBinary.run(["import", file, "--store", store, "--format", "json"])
        #expect(result.status == 1, "\(name)")
        let entry = try Self.fileEntry(result)
        let stored = try Self.storedByKind(store)
        let imported = try #require(entry["imported"] as? Int)
        #expect(imported > 1_000, "\(name): \(imported) imported before the damage")
        #expect(imported == stored.values.reduce(0, +), "\(name)")
        let byKind = try #require(entry["importedByKind"] as? [String: Int])
        #expect(byKind.filter { $0.value > 0 } == stored.filter { $0.value > 0 }, "\(name)")
        #expect(entry["failed"] as? Bool == true)
        let stoppedAt = try #require(entry["stoppedAt"] as? [String: Any])
        #expect(stoppedAt["line"] as? Int ?? 0 > 1_000, "\(name): \(stoppedAt)")
        let totals = try #require(result.jsonObject()["totals"] as? [String: Any])
        #expect(totals["imported"] as? Int == imported)
        let errors = try #require(result.jsonObject()["errors"] as? [[String: Any]])
        #expect(errors.count == 1 && errors.first?["line"] as? Int == stoppedAt["line"] as? Int)

        // The table says the same.
        let tableStore = directory.path("table-store-\(name)")
        let table = try CadenceBinary.run(["import", file, "--store", tableStore])
        #expect(table.status == 1)
        #expect(table.standardOutput.contains("FAILED: reading stopped at"), "\(table.standardOutput)")
        #expect(table.standardOutput.contains(" quantity samples "), "\(table.standardOutput)")
        let digits = String(imported)
        let grouped = digits.enumerated().map { index, digit in
            (index > 0 && (digits.count - index) % 3 == 0 ? "," : "") + String(digit)
        }.joined()
        #expect(table.standardOutput.contains(grouped), "\(table.standardOutput)")
        #expect(table.standardError.contains("sample(s) imported before it are kept"), "\(table.standardError)")
    }

    @Test("A truncated export.xml reports exactly what was committed before the damage, and where")
    func truncatedExport() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let xml = try Data(contentsOf: try Fixtures.hkimportExport.get())
        let cut = directory.path("export.xml")
        try xml.prefix(xml.count * 3 / 5).write(to: URL(fileURLWithPath: cut))
        try Self.expectReportMatchesStore(cut, in: directory, name: "xml")
    }

    @Test("A zip whose export is damaged partway reports exactly what was committed before the damage, or nothing")
    func damagedZip() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let xml = try Data(contentsOf: try Fixtures.hkimportExport.get())
        // A zip holding a truncated export.xml.
        let truncated = directory.url.appendingPathComponent("truncated.zip")
        let cutXML = xml.prefix(xml.count * 3 / 5)
        let archive = try Archive(url: truncated, accessMode: .create)
        try archive.addEntry(with: "apple_health_export/export.xml", type: .file, uncompressedSize: Int64(cutXML.count),
                             compressionMethod: .deflate) { position, size in
            cutXML.subdata(in: Int(position)..<Int(position) + size)
        }
        try Self.expectReportMatchesStore(truncated.path, in: directory, name: "truncated-zip")

        // A whole export.xml whose compressed bytes are damaged partway: it inflates short, which
        // shows only at its end, before the reading (a window of segments behind) stored anything.
        let whole = directory.url.appendingPathComponent("whole.zip")
        let wholeArchive = try Archive(url: whole, accessMode: .create)
        try wholeArchive.addEntry(with: "apple_health_export/export.xml", type: .file, uncompressedSize: Int64(xml.count),
                                  compressionMethod: .deflate) { position, size in
            xml.subdata(in: Int(position)..<Int(position) + size)
        }
        var bytes = [UInt8](try Data(contentsOf: whole))
        let damage = bytes.count * 3 / 4
        for offset in damage..<damage + 400 { bytes[offset] ^= 0x5A }
        let corrupt = directory.path("corrupt.zip")
        try Data(bytes).write(to: URL(fileURLWithPath: corrupt))
        let store = directory.path("store-corrupt")
        let result = try CadenceBinary.run(["import", corrupt, "--store", store, "--format", "json"])
        #expect(result.status == 1)
        #expect((try result.jsonObject()["files"] as? [[String: Any]])?.isEmpty == true)
        let errors = try #require(try result.jsonObject()["errors"] as? [[String: Any]])
        #expect(errors.count == 1 && errors.first?["line"] is NSNull, "\(errors)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }
}
