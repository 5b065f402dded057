//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation
import Synchronization
import Testing

@testable import cadence

/// The order of the calls that make `cadence batch --output`'s join durable.
@Suite("cadence batch parts durability")
struct BatchPartsDurabilityTests {
    /// Forwards to the real file system, noting renames, directory syncs and removals in order.
    final class RecordingFileSystem: FileSystem {
        let base = POSIXFileSystem()
        let calls = Mutex<[String]>([])

        private func note(_ call: String) { calls.withLock { $0.append(call) } }

        func createDirectory(_ path: String) throws { try base.createDirectory(path) }
        func exists(_ path: String) -> Bool { base.exists(path) }
        func contentsOfDirectory(_ path: String) throws -> [String] { try base.contentsOfDirectory(path) }
        func readFile(_ path: String) throws -> [UInt8] { try base.readFile(path) }
        func fileSize(_ path: String) throws -> Int { try base.fileSize(path) }
        func fileVersion(_ path: String) throws -> FileVersion { try base.fileVersion(path) }
        func writeFile(_ path: String, _ bytes: [UInt8]) throws { try base.writeFile(path, bytes) }
        func openForAppending(_ path: String) throws -> any AppendableFile { try base.openForAppending(path) }
        func truncate(_ path: String, to size: Int) throws { try base.truncate(path, to: size) }
        func lockExclusively(_ path: String, waiting: Bool) throws -> (any FileLock)? {
            try base.lockExclusively(path, waiting: waiting)
        }
        func rename(_ source: String, to destination: String) throws {
            try base.rename(source, to: destination)
            note("rename \((destination as NSString).lastPathComponent)")
        }
        func remove(_ path: String) throws {
            try base.remove(path)
            note("remove \((path as NSString).lastPathComponent)")
        }
        func syncDirectory(_ path: String) throws {
            try base.syncDirectory(path)
            note("sync \((path as NSString).lastPathComponent)")
        }
    }

    /// A power loss after the parts are removed must not lose the joined file: its directory is
    /// synced after the rename and before the first part is removed.
    @Test func joinedFileIsDurableBeforeThePartsGo() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let output = directory.path("out.csv")
        let fileSystem = RecordingFileSystem()
        let parts = try BatchParts(output: output, job: "query", fileSystem: fileSystem)
        let users = [BatchUser(identifier: "a", store: "a"), BatchUser(identifier: "b", store: "b")]
        for user in users { try parts.commit("user,sum\n\(user.identifier),1\n", for: user.identifier) }
        #expect(try parts.join(users, into: output, headerLines: 1) == 2)
        try parts.remove()
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "user,sum\na,1\nb,1\n")
        let calls = fileSystem.calls.withLock { $0 }
        let renamed = try #require(calls.firstIndex(of: "rename out.csv"))
        let synced = try #require(calls[renamed...].firstIndex(of: "sync \(directory.url.lastPathComponent)"))
        let firstRemoval = try #require(calls.firstIndex { $0.hasPrefix("remove ") && $0.hasSuffix(".part") })
        #expect(renamed < synced && synced < firstRemoval, "\(calls)")
    }
}
