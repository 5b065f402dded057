//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Synchronization
@testable import Cadence

/// A file system that loses power. It keeps what an `fsync` made durable apart from what is
/// only in the (simulated) page cache: a file's bytes since its last sync, and a directory's
/// creations, renames and removals since the directory's last sync. At a chosen call the power
/// goes: that call and every later one throw ``PowerLoss``, and ``image(choosing:)`` then builds
/// what a disk could hold afterwards, as the ALICE model allows — each unsynced file keeps its
/// synced bytes, all its bytes, or (for appends) a prefix cut at a 512-byte sector; each
/// directory keeps its synced entries plus some of the operations since (in order, any subset,
/// so a later one may persist without an earlier one).
final class PowerLossFileSystem: FileSystem, @unchecked Sendable {
    /// The power went out.
    struct PowerLoss: Error, CustomStringConvertible {
        var call: Int
        var description: String { "power lost at file-system call \(call)" }
    }

    /// A file's bytes: on disk, and as the process sees them.
    final class Inode {
        var durable: [UInt8] = []
        var current: [UInt8] = []
        /// Whether `current` is `durable` plus appended bytes (else a rewrite or truncation).
        var onlyAppended = true
    }

    enum Entry {
        case file(Inode)
        case directory
    }

    enum DirectoryOperation {
        case link(String, Entry)
        case unlink(String)
        case rename(String, String)
    }

    final class Directory {
        var current: [String: Entry] = [:]
        var durable: [String: Entry] = [:]
        var pending: [DirectoryOperation] = []
    }

    /// How much of the unsynced state an image keeps.
    struct Choice {
        /// Directory operations: a subset (any, in order), else a prefix (as a journal keeps them).
        var anySubset: Bool
        var random: TestRandom
    }

    private let lock = Mutex(())
    private var directories: [String: Directory] = ["/": Directory()]
    private var calls = 0
    private let crashAt: Int?
    private(set) var crashed = false

    /// A file system that loses power at mutating call number `crashAt` (1-based), or never.
    init(crashAt: Int? = nil) {
        self.crashAt = crashAt
    }

    /// A file system holding what `disk` holds, all of it durable (the disk after a power loss,
    /// for the recovery to lose power in turn).
    convenience init(restoring disk: MemoryFileSystem, crashAt: Int?) throws {
        self.init(crashAt: crashAt)
        func copy(_ path: String) throws {
            let directory = Directory()
            directories[path] = directory
            for name in try disk.contentsOfDirectory(path) {
                let child = (path == "/" ? "" : path) + "/" + name
                if let bytes = try? disk.readFile(child) {
                    let file = Inode()
                    file.current = bytes
                    file.durable = bytes
                    directory.current[name] = .file(file)
                } else {
                    directory.current[name] = .directory
                    try copy(child)
                }
            }
            directory.durable = directory.current
        }
        try copy("/")
    }

    /// The mutating calls made (the crash points a run offers).
    var callCount: Int { lock.withLock { _ in calls } }

    // MARK: Paths

    private static func split(_ path: String) -> (directory: String, name: String) {
        (directoryName(of: path), String(path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...]))
    }

    private func entry(_ path: String) -> Entry? {
        let (directory, name) = Self.split(path)
        return directories[directory]?.current[name]
    }

    private func inode(_ path: String) throws -> Inode {
        guard case .file(let inode)? = entry(path) else {
            throw CadenceError(.notFound, "open failed: No such file or directory", path: path)
        }
        return inode
    }

    private func directory(_ path: String) throws -> Directory {
        guard let directory = directories[path] else {
            throw CadenceError(.notFound, "opendir failed: No such file or directory", path: path)
        }
        return directory
    }

    /// Counts a mutating call; throws when the power is (or goes) out.
    private func step() throws {
        if crashed { throw PowerLoss(call: calls) }
        calls += 1
        if calls == crashAt {
            crashed = true
            throw PowerLoss(call: calls)
        }
    }

    private func checkPower() throws {
        if crashed { throw PowerLoss(call: calls) }
    }

    private func link(_ path: String, _ entry: Entry) throws {
        let (directoryPath, name) = Self.split(path)
        let directory = try directory(directoryPath)
        directory.current[name] = entry
        directory.pending.append(.link(name, entry))
    }

    // MARK: FileSystem

    func createDirectory(_ path: String) throws {
        try lock.withLock { _ in
            var prefix = ""
            for component in path.split(separator: "/") {
                let parent = prefix.isEmpty ? "/" : prefix
                prefix += "/" + component
                guard directories[prefix] == nil else { continue }
                try step()
                try link(prefix, .directory)
                directories[prefix] = Directory()
                // As the real one does: the parent is synced, a crash point of its own.
                try step()
                let synced = try directory(parent)
                synced.durable = synced.current
                synced.pending = []
            }
        }
    }

    func exists(_ path: String) -> Bool {
        lock.withLock { _ in !crashed && (entry(path) != nil || path == "/") }
    }

    func contentsOfDirectory(_ path: String) throws -> [String] {
        try lock.withLock { _ in
            try checkPower()
            return try directory(path).current.keys.sorted()
        }
    }

    func readFile(_ path: String) throws -> [UInt8] {
        try lock.withLock { _ in
            try checkPower()
            return try inode(path).current
        }
    }

    func fileSize(_ path: String) throws -> Int { try readFile(path).count }

    func writeFile(_ path: String, _ bytes: [UInt8]) throws {
        try lock.withLock { _ in
            try step()
            let file: Inode
            if case .file(let existing)? = entry(path) {
                file = existing
            } else {
                file = Inode()
                try link(path, .file(file))
            }
            file.current = bytes
            file.onlyAppended = file.current.starts(with: file.durable)
            // The write is done; the fsync that ends `writeFile` is a crash point of its own.
            try step()
            file.durable = bytes
            file.onlyAppended = true
        }
    }

    func openForAppending(_ path: String) throws -> any AppendableFile {
        try lock.withLock { _ in
            try step()
            if case .file(let existing)? = entry(path) { return PowerLossAppendableFile(fileSystem: self, inode: existing) }
            let file = Inode()
            try link(path, .file(file))
            return PowerLossAppendableFile(fileSystem: self, inode: file)
        }
    }

    fileprivate func append(_ bytes: [UInt8], to file: Inode) throws {
        try lock.withLock { _ in
            try step()
            file.current += bytes
        }
    }

    fileprivate func sync(_ file: Inode) throws {
        try lock.withLock { _ in
            try step()
            file.durable = file.current
            file.onlyAppended = true
        }
    }

    fileprivate func size(of file: Inode) -> Int { lock.withLock { _ in file.current.count } }

    func rename(_ source: String, to destination: String) throws {
        try lock.withLock { _ in
            try step()
            let (directoryPath, from) = Self.split(source)
            let to = Self.split(destination).name
            let directory = try directory(directoryPath)
            guard let moved = directory.current[from] else {
                throw CadenceError(.notFound, "rename failed: No such file or directory", path: source)
            }
            directory.current[to] = moved
            directory.current[from] = nil
            directory.pending.append(.rename(from, to))
        }
    }

    func remove(_ path: String) throws {
        try lock.withLock { _ in
            try step()
            let (directoryPath, name) = Self.split(path)
            let directory = try directory(directoryPath)
            guard directory.current.removeValue(forKey: name) != nil else { return }
            directory.pending.append(.unlink(name))
        }
    }

    func syncDirectory(_ path: String) throws {
        try lock.withLock { _ in
            try step()
            let directory = try directory(path)
            directory.durable = directory.current
            directory.pending = []
        }
    }

    func truncate(_ path: String, to size: Int) throws {
        try lock.withLock { _ in
            try step()
            let file = try inode(path)
            if file.current.count > size { file.current.removeLast(file.current.count - size) }
            file.onlyAppended = file.current.starts(with: file.durable) && file.current.count >= file.durable.count
        }
    }

    func lockExclusively(_ path: String, waiting: Bool) throws -> (any FileLock)? {
        try lock.withLock { _ in try checkPower() }
        return PowerLossLock()
    }

    /// Appends bytes to a file and makes them durable at once, without counting a call: damage
    /// done to the disk from outside, for repair to find.
    func damage(_ path: String, appending bytes: [UInt8]) throws {
        try lock.withLock { _ in
            let file = try inode(path)
            file.current += bytes
            file.durable = file.current
        }
    }

    // MARK: After the power loss

    /// What the disk holds after the power went out, as a fresh memory file system: each
    /// unsynced file and directory resolved by `choice`.
    func image(choosing choice: inout Choice) throws -> MemoryFileSystem {
        try lock.withLock { _ in
            let image = MemoryFileSystem()
            var contents: [ObjectIdentifier: [UInt8]] = [:]
            func bytes(of file: Inode) -> [UInt8] {
                if let chosen = contents[ObjectIdentifier(file)] { return chosen }
                var chosen = file.durable
                if file.current != file.durable {
                    switch Int.random(in: 0..<3, using: &choice.random) {
                    case 0: chosen = file.durable
                    case 1: chosen = file.current
                    default:
                        if file.onlyAppended {
                            // A prefix ending at a sector boundary of the file, or at its end.
                            let boundaries = stride(from: (file.durable.count / 512 + 1) * 512, to: file.current.count, by: 512)
                            let cut = ([file.durable.count] + Array(boundaries)).randomElement(using: &choice.random) ?? file.durable.count
                            chosen = Array(file.current.prefix(cut))
                        } else {
                            chosen = file.current
                        }
                    }
                }
                contents[ObjectIdentifier(file)] = chosen
                return chosen
            }
            func restore(_ path: String) throws {
                guard let directory = directories[path] else { return }
                var entries = directory.durable
                let kept: [DirectoryOperation]
                if choice.anySubset {
                    kept = directory.pending.filter { _ in Bool.random(using: &choice.random) }
                } else {
                    kept = Array(directory.pending.prefix(Int.random(in: 0...directory.pending.count, using: &choice.random)))
                }
                for operation in kept {
                    switch operation {
                    case .link(let name, let entry): entries[name] = entry
                    case .unlink(let name): entries[name] = nil
                    case .rename(let from, let to):
                        if let moved = entries[from] {
                            entries[to] = moved
                            entries[from] = nil
                        }
                    }
                }
                for (name, entry) in entries {
                    let child = (path == "/" ? "" : path) + "/" + name
                    switch entry {
                    case .directory:
                        try image.createDirectory(child)
                        try restore(child)
                    case .file(let file):
                        image.overwrite(child, with: bytes(of: file))
                    }
                }
            }
            try restore("/")
            return image
        }
    }
}

private final class PowerLossAppendableFile: AppendableFile, @unchecked Sendable {
    private let fileSystem: PowerLossFileSystem
    private let inode: PowerLossFileSystem.Inode

    init(fileSystem: PowerLossFileSystem, inode: PowerLossFileSystem.Inode) {
        self.fileSystem = fileSystem
        self.inode = inode
    }

    var size: Int { fileSystem.size(of: inode) }
    func append(_ bytes: [UInt8]) throws { try fileSystem.append(bytes, to: inode) }
    func sync() throws { try fileSystem.sync(inode) }
    func close() {}
}

private final class PowerLossLock: FileLock, @unchecked Sendable {
    func unlock() {}
}
