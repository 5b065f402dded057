//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real file system, through POSIX calls; every failing call becomes a ``CadenceError`` with
/// the path and the system's reason.
package struct POSIXFileSystem: FileSystem {
    package init() {}

    /// The digits of the widest process id (a 32-bit one) in a lock file.
    static let lockHolderWidth = 10

    /// Each directory it makes is made durable by an `fsync` of its parent: otherwise a power
    /// loss could leave a store's files in a directory that no longer has a name.
    package func createDirectory(_ path: String) throws {
        try Self.createComponents(of: path, make: { directory in
            if mkdir(directory, 0o755) == 0 { return true }
            guard errno == EEXIST else { throw CadenceError.systemCall("mkdir", directory) }
            return false
        }, sync: syncDirectory)
    }

    /// Creates each component of `path` in turn with `make` (which returns false when it exists
    /// already) and, after each one it created, syncs its parent with `sync`, so that the new entry
    /// survives a power loss before anything is written inside it.
    static func createComponents(of path: String, make: (String) throws -> Bool, sync: (String) throws -> Void) throws {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            let parent = prefix.isEmpty ? "/" : prefix
            prefix += "/" + component
            if try make(prefix) { try sync(parent) }
        }
    }

    package func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    package func contentsOfDirectory(_ path: String) throws -> [String] {
        guard let directory = opendir(path) else { throw CadenceError.systemCall("opendir", path) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    package func readFile(_ path: String) throws -> [UInt8] { try readBytes(path, upTo: nil) }

    package func readPrefix(_ path: String, count: Int) throws -> [UInt8] { try readBytes(path, upTo: count) }

    /// The file's bytes, or its first `limit` of them.
    private func readBytes(_ path: String, upTo limit: Int?) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CadenceError.systemCall("open", path) }
        defer { _ = Glibc.close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw CadenceError.systemCall("stat", path) }
        let size = min(Int(status.st_size), limit ?? .max)
        // Read into uninitialised storage: zeroing a chunk file's bytes first cost as much as the copy.
        return try [UInt8](unsafeUninitializedCapacity: size) { buffer, done in
            while done < size, let base = buffer.baseAddress {
                let result = read(descriptor, base + done, size - done)
                if result < 0 {
                    if errno == EINTR { continue }
                    throw CadenceError.systemCall("read", path)
                }
                if result == 0 { break }
                done += result
            }
        }
    }

    package func fileSize(_ path: String) throws -> Int {
        var status = stat()
        guard stat(path, &status) == 0 else { throw CadenceError.systemCall("stat", path) }
        return Int(status.st_size)
    }

    package func fileVersion(_ path: String) throws -> FileVersion {
        var status = stat()
        guard stat(path, &status) == 0 else { throw CadenceError.systemCall("stat", path) }
        // A replaced file has a new inode; the change time tells apart even an inode number reused.
        return FileVersion(size: Int(status.st_size), stamp: [
            Int64(status.st_dev), Int64(bitPattern: UInt64(status.st_ino)),
            Int64(status.st_ctim.tv_sec), Int64(status.st_ctim.tv_nsec),
        ])
    }

    package func writeFile(_ path: String, _ bytes: [UInt8]) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CadenceError.systemCall("open", path) }
        defer { _ = Glibc.close(descriptor) }
        try Self.writeAll(descriptor, bytes, path: path)
        guard fsync(descriptor) == 0 else { throw CadenceError.systemCall("fsync", path) }
    }

    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], path: String) throws {
        var done = 0
        while done < bytes.count {
            let result = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + done, bytes.count - done) }
            if result < 0 {
                if errno == EINTR { continue }
                throw CadenceError.systemCall("write", path)
            }
            done += result
        }
    }

    package func openForAppending(_ path: String) throws -> any AppendableFile {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CadenceError.systemCall("open", path) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            _ = Glibc.close(descriptor)
            throw CadenceError.systemCall("stat", path)
        }
        return POSIXAppendableFile(descriptor: descriptor, path: path, size: Int(status.st_size))
    }

    package func rename(_ source: String, to destination: String) throws {
        guard Glibc.rename(source, destination) == 0 else { throw CadenceError.systemCall("rename to \(destination)", source) }
    }

    package func remove(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else { throw CadenceError.systemCall("unlink", path) }
    }

    package func syncDirectory(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CadenceError.systemCall("open", path) }
        defer { _ = Glibc.close(descriptor) }
        guard fsync(descriptor) == 0 else { throw CadenceError.systemCall("fsync", path) }
    }

    package func truncate(_ path: String, to size: Int) throws {
        guard Glibc.truncate(path, off_t(size)) == 0 else { throw CadenceError.systemCall("truncate", path) }
    }

    package func lockExclusively(_ path: String, waiting: Bool) throws -> (any FileLock)? {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CadenceError.systemCall("open", path) }
        while flock(descriptor, waiting ? LOCK_EX : LOCK_EX | LOCK_NB) != 0 {
            let number = errno
            if number == EINTR { continue }
            _ = Glibc.close(descriptor)
            if number == EWOULDBLOCK { return nil }
            throw CadenceError.systemCall("flock", path, number)
        }
        // The holder's id, for the error of the next process that tries (not synced: it only
        // matters while this process lives). Right-aligned in a fixed width, so it overwrites
        // the last holder's without truncating the file (a journaled metadata change).
        let digits = "\(getpid())"
        let pid = Array((String(repeating: " ", count: max(0, Self.lockHolderWidth - digits.count)) + digits + "\n").utf8)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, pid.count, 0) }
        return POSIXFileLock(descriptor: descriptor)
    }
}

/// An append-only descriptor; `size` is tracked by the writer, which is serialised by the store.
final class POSIXAppendableFile: AppendableFile, @unchecked Sendable {
    private let descriptor: Int32
    private let path: String
    private(set) var size: Int
    private var isClosed = false

    init(descriptor: Int32, path: String, size: Int) {
        self.descriptor = descriptor
        self.path = path
        self.size = size
    }

    func append(_ bytes: [UInt8]) throws {
        try POSIXFileSystem.writeAll(descriptor, bytes, path: path)
        size += bytes.count
    }

    func sync() throws {
        guard fdatasync(descriptor) == 0 else { throw CadenceError.systemCall("fsync", path) }
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = Glibc.close(descriptor)
    }

    deinit { close() }
}

final class POSIXFileLock: FileLock, @unchecked Sendable {
    private var descriptor: Int32

    init(descriptor: Int32) { self.descriptor = descriptor }

    func unlock() {
        guard descriptor >= 0 else { return }
        _ = flock(descriptor, LOCK_UN)
        _ = Glibc.close(descriptor)
        descriptor = -1
    }

    deinit { unlock() }
}
