//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation
import Testing

/// A command whose change is saved in the log but whose closing flush fails says so apart from
/// a failure, with its own exit status.
@Suite("Flush failure after a commit")
struct FlushFailureTests {
    /// 8 KB: room for a small log record and chunk, not for the type's chunk list (which a flush rewrites).
    static let fileSizeLimit = 16

    /// A store whose one type's chunk list (hundreds of small chunks) outgrows ``fileSizeLimit``,
    /// with an empty log.
    static func storeWithLargeChunkList(at path: String) throws {
        var options = HealthStore.Options()
        options.chunkCapacity = 10
        let store = try HealthStore.open(at: path, options: options)
        let start = Date(timeIntervalSince1970: 1_600_000_000)
        try store.save((0..<3_000).map { index in
            try QuantitySample(type: .stepCount, value: Double(index % 90 + 1), start: start.addingTimeInterval(Double(index) * 60),
                               end: start.addingTimeInterval(Double(index) * 60 + 30), source: Source(name: "Watch"))
        })
        try store.close()
        let list = try #require(try FileManager.default.contentsOfDirectory(atPath: path).first { $0.hasPrefix("list-") })
        let size = try FileManager.default.attributesOfItem(atPath: path + "/" + list)[.size] as? Int ?? 0
        try #require(size > 2 * fileSizeLimit * 512)
    }

    @Test("import and delete exit 75, keep their output, and the change is there when the store is next read")
    func committedButNotFlushed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = directory.path("store")
        try Self.storeWithLargeChunkList(at: store)
        let csv = directory.path("new.csv")
        try """
            type,sourceName,unit,startDate,endDate,value,uuid
            stepCount,Phone,count,2025-03-01T10:00:00Z,2025-03-01T10:10:00Z,800,6A1F0C8E-2D4B-4C51-9B7E-3F2A1D0C9B8A
            stepCount,Phone,count,2025-03-01T11:00:00Z,2025-03-01T11:10:00Z,900,7B2E1D9F-3E5C-4D62-8C8F-4A3B2E1D0C9B

            """.write(toFile: csv, atomically: true, encoding: .utf8)

        let imported = try CadenceBinary.run(["import", csv, "--store", store], fileSizeLimit: Self.fileSizeLimit)
        #expect(imported.status == 75, "stderr: \(imported.standardError)")
        #expect(imported.standardOutput.contains("imported"))
        #expect(imported.standardError.contains("saved in the store's log"))
        #expect(imported.standardError.split(separator: "\n").count == 1)
        let listed = try CadenceBinary.succeed(["samples", "--store", store, "--type", "stepCount", "--from", "2025-01-01",
                                                "--format", "json"])
        #expect(listed.standardOutput.contains("6A1F0C8E-2D4B-4C51-9B7E-3F2A1D0C9B8A"))

        let deleted = try CadenceBinary.run(["delete", "--store", store, "--uuid", "6A1F0C8E-2D4B-4C51-9B7E-3F2A1D0C9B8A"],
                                            fileSizeLimit: Self.fileSizeLimit)
        #expect(deleted.status == 75, "stderr: \(deleted.standardError)")
        #expect(deleted.standardOutput.contains("Deleted 1 sample."))
        let left = try CadenceBinary.succeed(["samples", "--store", store, "--type", "stepCount", "--from", "2025-01-01",
                                              "--format", "json"])
        #expect(!left.standardOutput.contains("6A1F0C8E-2D4B-4C51-9B7E-3F2A1D0C9B8A"))
        #expect(left.standardOutput.contains("7B2E1D9F-3E5C-4D62-8C8F-4A3B2E1D0C9B"))
        _ = try CadenceBinary.succeed(["verify", "--store", store])
    }

    @Test("The exit statuses are in the help of the commands that change a store", arguments: ["import", "delete"])
    func documented(command: String) throws {
        let help = try CadenceBinary.succeed([command, "--help"])
        #expect(help.standardOutput.contains("75"))
    }
}
