//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// A store touches only the files it created, by their exact names.
@Suite("Store directory")
struct StoreDirectoryTests {
    static func names(_ path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    @Test("Each directory a new store's path creates is made durable: its parent is synced after it is made")
    func createdDirectoriesAreSynced() throws {
        for (path, existing, synced) in [
            ("/data/users/jane", ["/data"], ["/data", "/data/users"]),
            ("stores/jane", [], [".", "./stores"]),
            ("/data", ["/data"], []),
        ] {
            var made: [String] = []
            var syncs: [String] = []
            try POSIXFileSystem.createComponents(of: path, make: { directory in
                guard !existing.contains(directory) else { return false }
                made.append(directory)
                return true
            }, sync: { syncs.append($0) })
            #expect(syncs == synced, "\(path): created \(made)")
        }
    }

    @Test("A directory of someone else's files is refused before anything is created in it, and nothing is deleted",
          arguments: [["notes.tmp"], ["draft.tmp", "MANIFEST.tmp"], ["photo.jpg"]])
    func foreignDirectory(files: [String]) throws {
        let path = StoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for name in files { try Data("keep me".utf8).write(to: URL(fileURLWithPath: path + "/" + name)) }
        let error = #expect(throws: CadenceError.self) { _ = try HealthStore.open(at: path) }
        #expect(error?.path == path)
        #expect(try Self.names(path) == files.sorted())
    }

    @Test("A store keeps files it did not create (temporary-looking or chunk-like names too), and removes its own orphans")
    func unknownFilesInAStore() throws {
        let path = StoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try HealthStore.open(at: path).close()
        let foreign = ["backup.tmp", "chunk-notes.txt", "chunk-12.cdc", "wal-notes.txt"]
        for name in foreign { try Data("keep me".utf8).write(to: URL(fileURLWithPath: path + "/" + name)) }
        // An unlisted chunk with Cadence's exact name is a leftover of a crash before its manifest.
        let orphan = Manifest.chunkFileName(99)
        try Data("orphan".utf8).write(to: URL(fileURLWithPath: path + "/" + orphan))
        let store = try HealthStore.open(at: path)
        try store.save(try StoreTests.randomSamples(count: 50, seed: 4))
        try store.close()
        let names = try Self.names(path)
        #expect(Set(foreign).isSubset(of: names))
        #expect(!names.contains(orphan))
    }

    @Test("A second writable open in the same process is refused as this process's, not as another process's")
    func secondWriterInProcess() throws {
        let path = StoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = try HealthStore.open(at: path)
        let error = #expect(throws: CadenceError.self) { _ = try HealthStore.open(at: path) }
        #expect(error?.code == .storeLocked)
        #expect(error?.message == "this store is already open for writing in this process")
        // Reading beside the writer still works, and the lock goes with the first store.
        var readOnly = HealthStore.Options()
        readOnly.readOnly = true
        _ = try HealthStore.open(at: path, options: readOnly)
        try first.close()
        try HealthStore.open(at: path).close()
    }
}
