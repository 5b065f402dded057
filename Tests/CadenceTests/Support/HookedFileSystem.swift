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
/// the log), make one read fail the way the operating system would (a permission error), or
/// record the order of the calls that make writes durable.
final class HookedFileSystem: FileSystem {
    /// A call the hook sees.
    enum Operation: Sendable, Equatable {
        case readFile, contentsOfDirectory, fileSize
        /// An existence check (what the hook throws is ignored: the check cannot fail).
        case exists
        case writeFile, truncate, rename, remove, syncDirectory
        /// The `fsync` of a file opened for appending.
        case syncFile
    }

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
    func exists(_ path: String) -> Bool {
        try? run(.exists, path)
        return base.exists(path)
    }
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
    /// The base's: a manifest replaced at the same size must still look replaced to a reader.
    func fileVersion(_ path: String) throws -> FileVersion { try base.fileVersion(path) }
    func writeFile(_ path: String, _ bytes: [UInt8]) throws {
        try run(.writeFile, path)
        try base.writeFile(path, bytes)
    }
    func openForAppending(_ path: String) throws -> any AppendableFile {
        HookedAppendableFile(base: try base.openForAppending(path)) { [self] in try run(.syncFile, path) }
    }
    func rename(_ source: String, to destination: String) throws {
        try run(.rename, source)
        try base.rename(source, to: destination)
    }
    func remove(_ path: String) throws {
        try run(.remove, path)
        try base.remove(path)
    }
    func syncDirectory(_ path: String) throws {
        try run(.syncDirectory, path)
        try base.syncDirectory(path)
    }
    func truncate(_ path: String, to size: Int) throws {
        try run(.truncate, path)
        try base.truncate(path, to: size)
    }
    func lockExclusively(_ path: String, waiting: Bool) throws -> (any FileLock)? {
        try base.lockExclusively(path, waiting: waiting)
    }
}

/// An appendable file whose `fsync` runs the hook first.
private final class HookedAppendableFile: AppendableFile, @unchecked Sendable {
    private let base: any AppendableFile
    private let beforeSync: () throws -> Void

    init(base: any AppendableFile, beforeSync: @escaping () throws -> Void) {
        self.base = base
        self.beforeSync = beforeSync
    }

    var size: Int { base.size }
    func append(_ bytes: [UInt8]) throws { try base.append(bytes) }
    func sync() throws {
        try beforeSync()
        try base.sync()
    }
    func close() { base.close() }
}

/// Counts the chunk files read through the file systems it wraps: how many a save or a query had
/// to read.
final class ChunkReadCounter: Sendable {
    private let reads = Mutex(0)

    /// Chunk files read so far.
    var count: Int { reads.withLock { $0 } }

    /// `base`, with every chunk file read through it counted here.
    func counting(_ base: any FileSystem) -> HookedFileSystem {
        HookedFileSystem(wrapping: base) { operation, path in
            if operation == .readFile, Manifest.chunkNumber(String(path.split(separator: "/").last ?? "")) != nil {
                self.reads.withLock { $0 += 1 }
            }
        }
    }
}

extension MemoryFileSystem {
    /// A file system holding a store at `/s` opened with `options`, filled by `fill`, flushed
    /// into chunk files and closed.
    static func flushedStore(options: HealthStore.Options, fill: (HealthStore) throws -> Void) throws -> MemoryFileSystem {
        let memory = MemoryFileSystem()
        let store = try HealthStore.open(at: "/s", options: options, fileSystem: memory)
        try fill(store)
        try store.flush()
        try store.close()
        return memory
    }
}
