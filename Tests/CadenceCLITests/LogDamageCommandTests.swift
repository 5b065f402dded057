//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation
import Testing

/// `verify`, `repair` and the writing commands on a damaged log, and what they leave behind.
@Suite("Log damage through the commands")
struct LogDamageCommandTests {
    /// The store's log segments that hold bytes.
    static func logs(_ store: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: store).filter { $0.hasSuffix(".log") }.sorted()
            .map { store + "/" + $0 }
            .filter { (try FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int ?? 0) > 0 }
    }

    @Test("A flipped bit in the length of the first of two saves left in the log: verify exits 1 counting both, a writer refuses, repair cuts and counts them")
    func damagedLength() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = directory.path("store")
        try FlushFailureTests.storeWithLargeChunkList(at: store)
        // Two saves whose flush fails stay in the log.
        for (day, value) in [(1, 80), (2, 100)] {
            let csv = directory.path("day\(day).csv")
            try """
                type,sourceName,unit,startDate,endDate,value
                stepCount,Phone,count,2025-03-0\(day)T10:00:00Z,2025-03-0\(day)T10:10:00Z,\(value)

                """.write(toFile: csv, atomically: true, encoding: .utf8)
            let imported = try CadenceBinary.run(["import", csv, "--store", store], fileSizeLimit: FlushFailureTests.fileSizeLimit)
            try #require(imported.status == 75, "stderr: \(imported.standardError)")
        }
        let log = try #require(try Self.logs(store).only)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: log)))
        bytes[4] ^= 0x02  // bit 1 of the first record's length
        try Data(bytes).write(to: URL(fileURLWithPath: log))

        let verified = try CadenceBinary.run(["verify", "--store", store])
        #expect(verified.status == 1)
        #expect(verified.standardOutput.contains("damaged") && verified.standardOutput.contains("2 records"),
                "stdout: \(verified.standardOutput)")
        #expect(!verified.standardOutput.contains("crash cut short"))
        let json = try CadenceBinary.run(["verify", "--store", store, "--format", "json"]).jsonObject()
        #expect((json["damaged"] as? [Any])?.count == 1)

        let csv = directory.path("day3.csv")
        try """
            type,sourceName,unit,startDate,endDate,value
            stepCount,Phone,count,2025-03-03T10:00:00Z,2025-03-03T10:10:00Z,50

            """.write(toFile: csv, atomically: true, encoding: .utf8)
        for arguments in [["import", csv], ["delete", "--type", "stepCount", "--from", "2025-03-01", "--to", "2025-03-02"]] {
            let refused = try CadenceBinary.run(arguments + ["--store", store])
            #expect(refused.status == 1 && refused.standardError.contains("repair"), "stderr: \(refused.standardError)")
            #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: log))) == bytes, "\(arguments[0]) cut the log")
        }

        let repaired = try CadenceBinary.succeed(["repair", "--store", store])
        #expect(repaired.standardOutput.contains("2 log records lost"), "stdout: \(repaired.standardOutput)")
        _ = try CadenceBinary.succeed(["verify", "--store", store])
        _ = try CadenceBinary.succeed(["import", csv, "--store", store])
    }

    @Test("repair of a directory that is not a store, or an empty one, leaves nothing behind", arguments: [true, false])
    func repairLeavesNothing(empty: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let target = directory.path("target")
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        if !empty { try "notes".write(toFile: target + "/notes.txt", atomically: true, encoding: .utf8) }
        let repaired = try CadenceBinary.run(["repair", "--store", target])
        #expect(repaired.status == 1, "stderr: \(repaired.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: target) == (empty ? [] : ["notes.txt"]))
    }

    @Test("An import whose log append fails for lack of room exits 1 and does not say its samples are saved")
    func logAppendFails() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = directory.path("store")
        let small = directory.path("small.csv")
        try """
            type,sourceName,unit,startDate,endDate,value
            stepCount,Phone,count,2025-03-01T10:00:00Z,2025-03-01T10:10:00Z,80

            """.write(toFile: small, atomically: true, encoding: .utf8)
        _ = try CadenceBinary.succeed(["import", small, "--store", store])
        // Random UUIDs do not compress: the save's log record is far over the file size limit.
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        let rows = (0..<3_000).map { index in
            let from = start.addingTimeInterval(Double(index) * 60)
            return "stepCount,Phone,count,\(from.ISO8601Format()),\(from.addingTimeInterval(30).ISO8601Format()),\(index % 50 + 1),\(UUID())"
        }
        let large = directory.path("large.csv")
        try ("type,sourceName,unit,startDate,endDate,value,uuid\n" + rows.joined(separator: "\n") + "\n")
            .write(toFile: large, atomically: true, encoding: .utf8)

        let imported = try CadenceBinary.run(["import", large, "--store", store], fileSizeLimit: FlushFailureTests.fileSizeLimit)
        #expect(imported.status == 1, "stderr: \(imported.standardError)")
        #expect(!imported.standardError.contains("saved in the store's log"), "stderr: \(imported.standardError)")
        let listed = try CadenceBinary.succeed(["samples", "--store", store, "--type", "stepCount", "--from", "2025-01-01",
                                                "--format", "json"])
        #expect(!listed.standardOutput.contains(rows[0].suffix(36)))
        _ = try CadenceBinary.succeed(["verify", "--store", store])
    }
}

extension Array {
    /// The one element, or `nil` when there are none or several.
    fileprivate var only: Element? { count == 1 ? first : nil }
}
