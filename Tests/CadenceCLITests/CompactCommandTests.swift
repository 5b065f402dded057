//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation
import Testing

/// `cadence compact` takes deleted samples out of the chunk files.
@Suite("compact")
struct CompactCommandTests {
    @Test("compact shrinks the chunk files after deletes, keeping the deletions unless told to forget them")
    func compacts() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("store")
        let store = try HealthStore.open(at: path)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let samples = try (0..<2_000).map { index in
            try QuantitySample(type: .stepCount, value: Double(index % 700 + 1), start: start.addingTimeInterval(Double(index) * 60),
                               end: start.addingTimeInterval(Double(index) * 60 + 30), source: Source(name: "Phone"))
        }
        try store.save(samples)
        try store.close()
        // A tenth deleted: below the automatic threshold.
        let deletion = try CadenceBinary.succeed(["delete", "--store", path, "--type", "stepCount", "--format", "json", "--to",
                                                  formatRFC3339(start.addingTimeInterval(200 * 60).timestamp, timeZone: .gmt)])
        let deleted = try #require(try deletion.jsonObject()["deleted"] as? Int)
        try #require((150...250).contains(deleted))
        let compacted = try CadenceBinary.succeed(["compact", "--store", path, "--format", "json"]).jsonObject()
        let before = try #require(compacted["chunkBytesBefore"] as? Int)
        let after = try #require(compacted["chunkBytesAfter"] as? Int)
        #expect(after < before)
        #expect(compacted["deletedObjects"] as? Int == deleted)
        let info = try CadenceBinary.succeed(["info", "--store", path, "--format", "json"]).jsonObject()
        #expect((info["totals"] as? [String: Any])?["samples"] as? Int == samples.count - deleted)
        let forgotten = try CadenceBinary.succeed(["compact", "--store", path, "--forget-deletions", "--format", "json"])
            .jsonObject()
        #expect(forgotten["deletedObjects"] as? Int == 0)
        _ = try CadenceBinary.succeed(["verify", "--store", path])
    }

    /// A re-import keeps deleted samples deleted; --restore-deleted brings them back.
    @Test func reimportKeepsDeletionsUnlessRestoring() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let csv = directory.path("steps.csv")
        try ["type,sourceName,unit,startDate,endDate,value",
             "stepCount,Phone,count,2024-01-01T10:00:00Z,2024-01-01T10:05:00Z,100",
             "stepCount,Phone,count,2024-01-01T11:00:00Z,2024-01-01T11:05:00Z,7", ""]
            .joined(separator: "\n").write(toFile: csv, atomically: true, encoding: .utf8)
        let store = directory.path("store")
        try CadenceBinary.succeed(["import", csv, "--store", store])
        try CadenceBinary.succeed(["delete", "--store", store, "--type", "stepCount", "--to", "2024-01-01T10:30:00Z"])
        let again = try CadenceBinary.succeed(["import", csv, "--store", store, "--format", "json"]).jsonObject()
        let file = try #require((again["files"] as? [[String: Any]])?.first)
        #expect(file["imported"] as? Int == 0 && file["keptDeleted"] as? Int == 1, "\(file)")
        let restored = try CadenceBinary.succeed(["import", csv, "--store", store, "--restore-deleted", "--format", "json"])
            .jsonObject()
        #expect((restored["files"] as? [[String: Any]])?.first?["imported"] as? Int == 1)
    }
}
