//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files kept in memory: the backing of ``HealthStore/inMemory()``, so an in-memory store runs
/// exactly the code of an on-disk one, and a base for fault-injecting tests.
package final class MemoryFileSystem: FileSystem {
    private let files = Mutex<[String: [UInt8]]>([:])
    private let directories = Mutex<Set<String>>(["/", "."])
    private let locks = Mutex<Set<String>>([])
    /// Each file's version, a new one whenever it is written, and the last version handed out.
    private let versions = Mutex<(byPath: [String: Int64], last: Int64)>(([:], 0))

    package init() {}

    private func normalized(_ path: String) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }

    package func createDirectory(_ path: String) throws {
        var prefix = ""
        for component in normalized(path).split(separator: "/", omittingEmptySubsequences: false) {
            prefix = prefix.isEmpty && component.isEmpty ? "/" : (prefix.isEmpty || prefix == "/" ? prefix : prefix + "/") + component
            _ = directories.withLock { $0.insert(prefix) }
        }
    }

    package func exists(_ path: String) -> Bool {
        let path = normalized(path)
        return files.withLock { $0[path] != nil } || directories.withLock { $0.contains(path) }
    }

    package func contentsOfDirectory(_ path: String) throws -> [String] {
        let prefix = normalized(path) == "/" ? "/" : normalized(path) + "/"
        guard directories.withLock({ $0.contains(normalized(path)) }) else {
            throw CadenceError(.notFound, "no such directory", path: path)
        }
        let fileNames = files.withLock { $0.keys.filter { $0.hasPrefix(prefix) } }
        let directoryNames = directories.withLock { $0.filter { $0.hasPrefix(prefix) } }
        return (fileNames + directoryNames).map { String($0.dropFirst(prefix.count)) }
            .filter { !$0.isEmpty && !$0.contains("/") }.sorted()
    }

    package func readFile(_ path: String) throws -> [UInt8] {
        guard let bytes = files.withLock({ $0[normalized(path)] }) else {
            throw CadenceError(.notFound, "open failed: No such file or directory", path: path)
        }
        return bytes
    }

    package func fileSize(_ path: String) throws -> Int { try readFile(path).count }

    package func fileVersion(_ path: String) throws -> FileVersion {
        let size = try fileSize(path)
        return FileVersion(size: size, stamp: [versions.withLock { $0.byPath[normalized(path)] ?? 0 }])
    }

    /// Gives the file at `path` a new version.
    private func changed(_ path: String) {
        versions.withLock { versions in
            versions.last += 1
            versions.byPath[path] = versions.last
        }
    }

    package func writeFile(_ path: String, _ bytes: [UInt8]) throws {
        files.withLock { $0[normalized(path)] = bytes }
        changed(normalized(path))
    }

    package func openForAppending(_ path: String) throws -> any AppendableFile {
        let path = normalized(path)
        files.withLock { if $0[path] == nil { $0[path] = [] } }
        return MemoryAppendableFile(fileSystem: self, path: path)
    }

    fileprivate func append(_ bytes: [UInt8], to path: String) -> Int {
        files.withLock {
            $0[path, default: []].append(contentsOf: bytes)
            return $0[path]?.count ?? 0
        }
    }

    fileprivate func size(of path: String) -> Int { files.withLock { $0[path]?.count ?? 0 } }

    package func rename(_ source: String, to destination: String) throws {
        try files.withLock {
            guard let bytes = $0.removeValue(forKey: normalized(source)) else {
                throw CadenceError(.notFound, "rename failed: No such file or directory", path: source)
            }
            $0[normalized(destination)] = bytes
        }
        versions.withLock { versions in
            versions.byPath[normalized(destination)] = versions.byPath.removeValue(forKey: normalized(source))
        }
    }

    package func remove(_ path: String) throws { _ = files.withLock { $0.removeValue(forKey: normalized(path)) } }

    package func syncDirectory(_ path: String) throws {}

    package func truncate(_ path: String, to size: Int) throws {
        try files.withLock {
            guard var bytes = $0[normalized(path)] else {
                throw CadenceError(.notFound, "truncate failed: No such file or directory", path: path)
            }
            if bytes.count > size { bytes.removeLast(bytes.count - size) }
            $0[normalized(path)] = bytes
        }
    }

    package func lockExclusively(_ path: String, waiting: Bool) throws -> (any FileLock)? {
        let path = normalized(path)
        while !locks.withLock({ $0.insert(path).inserted }) {
            guard waiting else { return nil }
            // Another thread of this process holds it; its release is not signalled, so poll.
            usleep(1_000)
        }
        return MemoryFileLock(fileSystem: self, path: path)
    }

    fileprivate func unlock(_ path: String) { _ = locks.withLock { $0.remove(path) } }

    /// Replaces a file's bytes directly (tests use it to damage files).
    package func overwrite(_ path: String, with bytes: [UInt8]) {
        files.withLock { $0[normalized(path)] = bytes }
        changed(normalized(path))
    }
}

private final class MemoryAppendableFile: AppendableFile {
    private let fileSystem: MemoryFileSystem
    private let path: String

    init(fileSystem: MemoryFileSystem, path: String) {
        self.fileSystem = fileSystem
        self.path = path
    }

    var size: Int { fileSystem.size(of: path) }
    func append(_ bytes: [UInt8]) throws { _ = fileSystem.append(bytes, to: path) }
    func sync() throws {}
    func close() {}
}

private final class MemoryFileLock: FileLock {
    private let fileSystem: MemoryFileSystem
    private let path: String
    private let released = Atomic<Bool>(false)

    init(fileSystem: MemoryFileSystem, path: String) {
        self.fileSystem = fileSystem
        self.path = path
    }

    func unlock() {
        if !released.exchange(true, ordering: .relaxed) { fileSystem.unlock(path) }
    }

    deinit { unlock() }
}
