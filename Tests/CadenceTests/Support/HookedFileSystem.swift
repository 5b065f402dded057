//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Synchronization
@testable import Cadence

/// A ``FileSystem`` that forwards every call to another one after running a hook, so a test can
/// act between two steps of a reader (a writer's flush between reading the manifest and listing
/// the log) or make one read fail the way the operating system would (a permission error).
final class HookedFileSystem: FileSystem {
    /// A read-side call the hook sees.
    enum Operation: Sendable { case readFile, contentsOfDirectory, fileSize }

    let base: any FileSystem
    private let hook: Mutex<(@Sendable (Operation, String) throws -> Void)?>

    /// Wraps `base`; `hook` runs before every read-side call and may throw in its place.
    init(wrapping base: any FileSystem, hook: @escaping @Sendable (Operation, String) throws -> Void) {
        self.base = base
        self.hook = Mutex(hook)
    }

    /// Stops calling the hook.
    func removeHook() { hook.withLock { $0 = nil } }

    private func run(_ operation: Operation, _ path: String) throws {
        try hook.withLock { $0 }?(operation, path)
    }

    func createDirectory(_ path: String) throws { try base.createDirectory(path) }
    func exists(_ path: String) -> Bool { base.exists(path) }
    func contentsOfDirectory(_ path: String) throws -> [String] {
        try run(.contentsOfDirectory, path)
        return try base.contentsOfDirectory(path)
    }
    func readFile(_ path: String) throws -> [UInt8] {
        try run(.readFile, path)
        return try base.readFile(path)
    }
    func fileSize(_ path: String) throws -> Int {
        try run(.fileSize, path)
        return try base.fileSize(path)
    }
    func writeFile(_ path: String, _ bytes: [UInt8]) throws { try base.writeFile(path, bytes) }
    func openForAppending(_ path: String) throws -> any AppendableFile { try base.openForAppending(path) }
    func rename(_ source: String, to destination: String) throws { try base.rename(source, to: destination) }
    func remove(_ path: String) throws { try base.remove(path) }
    func syncDirectory(_ path: String) throws { try base.syncDirectory(path) }
    func truncate(_ path: String, to size: Int) throws { try base.truncate(path, to: size) }
    func lockExclusively(_ path: String, waiting: Bool) throws -> (any FileLock)? {
        try base.lockExclusively(path, waiting: waiting)
    }
}
