//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// An upgrade of the format version 4 fixture loses power at each of its file-system calls.
extension PowerLossTests {
    /// The version 4 fixture store, all of it durable, in a memory file system at ``path``.
    static func versionFourDisk() throws -> MemoryFileSystem {
        let disk = MemoryFileSystem()
        try disk.createDirectory(path)
        let fixture = StoreVersionFourTests.fixture.appendingPathComponent("store").path
        for name in try POSIXFileSystem().contentsOfDirectory(fixture) {
            disk.overwrite(path + "/" + name, with: try POSIXFileSystem().readFile(fixture + "/" + name))
        }
        return disk
    }

    /// Opens the store (moving its manifest to the current version), upgrades it and closes it.
    static func upgrade(on fileSystem: any FileSystem) throws {
        let store = try HealthStore.open(at: path, options: options, fileSystem: fileSystem)
        try store.upgrade()
        try store.close()
    }

    @Test("An upgrade loses power at each of its file-system calls: the store left is the old or the new (routes moved into payloads or not), answering the same")
    func upgradeAtEveryCall() throws {
        let disk = try Self.versionFourDisk()
        let expected = try StoreVersionFourTests.Contents(HealthStore.open(at: Self.path, options: .readOnly, fileSystem: disk))
        let chunkCount = try UpgradeTests.chunkVersions(Self.path, fileSystem: disk).count
        try #require(chunkCount > 1)
        let dryRun = try PowerLossFileSystem(restoring: disk, crashAt: nil)
        try Self.upgrade(on: dryRun)
        let calls = dryRun.callCount
        try #require(calls > 20)
        var outdatedSeen: Set<Int> = []
        for call in 1...calls {
            let fileSystem = try PowerLossFileSystem(restoring: disk, crashAt: call)
            #expect(throws: PowerLossFileSystem.PowerLoss.self) { try Self.upgrade(on: fileSystem) }
            for image in 0..<2 {
                var choice = PowerLossFileSystem.Choice(anySubset: image == 1, random: TestRandom(seed: UInt64(call * 7 + image)))
                let after = try fileSystem.image(choosing: &choice)
                let context = "power lost at call \(call) of \(calls) of an upgrade, image \(image)"
                let store = try HealthStore.open(at: Self.path, options: Self.options, fileSystem: after)
                #expect(store.verify().isEmpty, "\(context): \(store.verify())")
                // One manifest install commits the whole upgrade: never a mix of old and new files.
                let outdated = try store.outdatedChunkFiles()
                #expect(outdated == 0 || outdated == chunkCount, "\(context): \(outdated) of \(chunkCount) chunk files outdated")
                outdatedSeen.insert(outdated)
                // The upgrade moves the workouts' routes into payloads with the rest, or not at all.
                let routesInText = try UpgradeRouteTests.rowsWithRoutesInText(store)
                #expect(outdated == 0 ? routesInText == 0 : routesInText > 0, "\(context): \(routesInText) rows keep routes in text")
                #expect(try StoreVersionFourTests.Contents(store) == expected, "\(context)")
                // Upgrading what the power loss left finishes the job, removing the unfinished upgrade's files.
                try store.upgrade()
                #expect(try UpgradeTests.chunkVersions(Self.path, fileSystem: after).count == chunkCount, "\(context)")
                #expect(try store.outdatedChunkFiles() == 0, "\(context)")
                #expect(try UpgradeRouteTests.rowsWithRoutesInText(store) == 0, "\(context)")
                #expect(try StoreVersionFourTests.Contents(store) == expected, "\(context)")
                try store.close()
            }
        }
        #expect(outdatedSeen == [0, chunkCount])
        print("power-loss: an upgrade of \(chunkCount) chunk files: \(calls) crash points, each checked on 2 disk images")
    }
}
