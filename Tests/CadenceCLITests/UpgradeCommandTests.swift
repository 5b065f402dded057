//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation
import Testing

/// `cadence upgrade` on a copy of the format version 4 fixture store, and `cadence info` telling
/// that it is needed.
@Suite("upgrade")
struct UpgradeCommandTests {
    /// A copy of `Tests/Fixtures/store-version-4/store` at `store` in `directory`.
    static func versionFourStore(in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("store")
        try FileManager.default.copyItem(
            atPath: CadenceBinary.packageRoot.appendingPathComponent("Tests/Fixtures/store-version-4/store").path, toPath: path)
        return path
    }

    /// The store's chunk and chunk list files with their bytes.
    static func dataFiles(_ path: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: path) where name.hasSuffix(".cdc") || name.hasSuffix(".cdl") {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: path + "/" + name))
        }
        return files
    }

    @Test("info counts the old chunk files, upgrade rewrites them, and a second upgrade has nothing to do")
    func upgradesAndReports() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try Self.versionFourStore(in: directory)
        let chunkFiles = try Self.dataFiles(path).keys.filter { $0.hasSuffix(".cdc") }.count
        let samples = try CadenceBinary.succeed(["samples", "--store", path, "--type", "stepCount", "--format", "json"]).standardOutput

        let info = try CadenceBinary.succeed(["info", "--store", path, "--format", "json"]).jsonObject()
        #expect((info["totals"] as? [String: Any])?["outdatedChunks"] as? Int == chunkFiles)
        let infoTable = try CadenceBinary.succeed(["info", "--store", path]).standardOutput
        #expect(infoTable.contains("\(chunkFiles) of \(chunkFiles) chunk files are of an older format version"), "\(infoTable)")
        #expect(infoTable.contains("`cadence upgrade`"))

        let upgraded = try CadenceBinary.succeed(["upgrade", "--store", path, "--format", "json"]).jsonObject()
        #expect(upgraded["formatVersion"] as? Int == HealthStore.formatVersion)
        #expect(upgraded["chunks"] as? Int == chunkFiles)
        let types = try #require(upgraded["types"] as? [[String: Any]])
        #expect(types.contains { $0["type"] as? String == "HKQuantityTypeIdentifierStepCount" && ($0["chunks"] as? Int ?? 0) > 0 })
        #expect(types.reduce(0) { $0 + ($1["bytesAfter"] as? Int ?? 0) } == upgraded["bytesAfter"] as? Int)

        let after = try CadenceBinary.succeed(["info", "--store", path, "--format", "json"]).jsonObject()
        #expect((after["totals"] as? [String: Any])?["outdatedChunks"] as? Int == 0)
        #expect(!(try CadenceBinary.succeed(["info", "--store", path]).standardOutput.contains("cadence upgrade")))
        try CadenceBinary.succeed(["verify", "--store", path])
        #expect(try CadenceBinary.succeed(["samples", "--store", path, "--type", "stepCount", "--format", "json"]).standardOutput
            == samples)

        let files = try Self.dataFiles(path)
        let again = try CadenceBinary.succeed(["upgrade", "--store", path])
        #expect(again.standardOutput.contains("Nothing to upgrade"), "\(again.standardOutput)")
        #expect(try Self.dataFiles(path) == files)
    }

    @Test("The table lists each type's rewritten chunk files and bytes")
    func table() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try Self.versionFourStore(in: directory)
        let output = try CadenceBinary.succeed(["upgrade", "--store", path]).standardOutput
        #expect(output.contains("HKQuantityTypeIdentifierStepCount"), "\(output)")
        #expect(output.contains("Upgraded") && output.contains("to format version \(HealthStore.formatVersion)"), "\(output)")
    }

    @Test("A damaged store is refused with exit status 1 and the advice to verify and repair; its files are left as they were")
    func refusesDamage() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try Self.versionFourStore(in: directory)
        let damaged = try #require(try Self.dataFiles(path).keys.filter { $0.hasSuffix(".cdc") }.sorted().first)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path + "/" + damaged))
        bytes[bytes.count - 3] ^= 0x5A
        try bytes.write(to: URL(fileURLWithPath: path + "/" + damaged))
        let files = try Self.dataFiles(path)

        let refused = try CadenceBinary.run(["upgrade", "--store", path])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains(damaged), "\(refused.standardError)")
        #expect(refused.standardError.contains("cadence verify") && refused.standardError.contains("cadence repair"))
        #expect(try Self.dataFiles(path) == files)
    }

    @Test("Another writer: refused naming its pid, or awaited with --wait; a missing store and a bad format are refused")
    func busyMissingAndUsage() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try Self.versionFourStore(in: directory)
        let holder = try HealthStore.open(at: path)
        let refused = try CadenceBinary.run(["upgrade", "--store", path])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("pid \(ProcessInfo.processInfo.processIdentifier)"), "\(refused.standardError)")

        let waiting = Task { try await CadenceBinary.runInBackground(["upgrade", "--store", path, "--wait", "--format", "json"]) }
        // The pause only makes it likely that the command is waiting when the lock is released.
        try await Task.sleep(for: .milliseconds(300))
        try holder.close()
        let waited = try await waiting.value
        #expect(waited.status == 0, "\(waited.standardError)")
        #expect((try waited.jsonObject()["chunks"] as? Int ?? 0) > 0)

        let missing = try CadenceBinary.run(["upgrade", "--store", directory.path("nothing")])
        #expect(missing.status == 1 && missing.standardError.contains("there is no store here"), "\(missing.standardError)")
        #expect(!FileManager.default.fileExists(atPath: directory.path("nothing")))
        let usage = try CadenceBinary.run(["upgrade", "--store", path, "--format", "csv"])
        #expect(usage.status == 64, "\(usage.standardError)")
    }
}
