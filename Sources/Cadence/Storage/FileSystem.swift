//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The thin layer every file operation of the store goes through.
///
/// ``POSIXFileSystem`` is the real one; ``MemoryFileSystem`` backs in-memory stores with the
/// same code paths, and tests wrap either to inject faults (short writes, `EIO`, `ENOSPC`, a
/// failed `fsync`). Every method throws ``CadenceError`` with code ``CadenceError/Code/io`` (or
/// ``CadenceError/Code/notFound``) naming the path.
package protocol FileSystem: Sendable {
    /// Creates a directory and its parents, each made durable (its parent directory synced);
    /// succeeds if it exists.
    func createDirectory(_ path: String) throws
    /// Whether a file or directory exists.
    func exists(_ path: String) -> Bool
    /// The names of the entries in a directory.
    func contentsOfDirectory(_ path: String) throws -> [String]
    /// The whole content of a file.
    func readFile(_ path: String) throws -> [UInt8]
    /// The first `count` bytes of a file (fewer when it is shorter): a file's header, without
    /// reading the rest.
    func readPrefix(_ path: String, count: Int) throws -> [UInt8]
    /// A file's size in bytes (a `stat`, nothing read); ``CadenceError/Code/notFound`` when it is missing.
    func fileSize(_ path: String) throws -> Int
    /// What tells this version of a file from another (a `stat`, nothing read): a file replaced by
    /// a rename differs even at the same size. ``CadenceError/Code/notFound`` when it is missing.
    func fileVersion(_ path: String) throws -> FileVersion
    /// Creates (or truncates) a file, writes `bytes` and syncs it to stable storage.
    func writeFile(_ path: String, _ bytes: [UInt8]) throws
    /// Opens a file for appending, creating it if needed.
    func openForAppending(_ path: String) throws -> any AppendableFile
    /// Renames a file atomically, replacing `destination`.
    func rename(_ source: String, to destination: String) throws
    /// Removes a file; succeeds if it does not exist.
    func remove(_ path: String) throws
    /// Syncs a directory so that creations, renames and removals in it are durable.
    func syncDirectory(_ path: String) throws
    /// Shortens a file to `size` bytes.
    func truncate(_ path: String, to size: Int) throws
    /// Takes the store's exclusive writer lock, or returns `nil` when another process holds it;
    /// with `waiting`, blocks until the holder releases it. The lock lasts as long as the
    /// returned object (and the process: the system releases it when the process dies), and the
    /// file then holds the process's id, for the error another process gets.
    func lockExclusively(_ path: String, waiting: Bool) throws -> (any FileLock)?
}

/// A file open for appending (the write-ahead log).
package protocol AppendableFile: AnyObject, Sendable {
    /// The file's size in bytes, including what was appended.
    var size: Int { get }
    /// Appends all of `bytes`, or throws.
    func append(_ bytes: [UInt8]) throws
    /// Flushes appended bytes to stable storage (`fsync`). A failure is fatal to the writer.
    func sync() throws
    /// Closes the file.
    func close()
}

/// A held lock; released when closed or deinitialised.
package protocol FileLock: AnyObject, Sendable {
    func unlock()
}

extension FileSystem {
    /// Replaces `path` atomically: write a temporary file, sync it, rename it over `path`, then
    /// sync the directory. A crash leaves either the old or the new content, never a mix.
    package func replaceFile(_ path: String, _ bytes: [UInt8]) throws {
        let temporary = path + ".tmp"
        try writeFile(temporary, bytes)
        try rename(temporary, to: path)
        try syncDirectory(directoryName(of: path))
    }
}

/// The directory part of a path ("." when there is none).
package func directoryName(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
}

/// One version of a file as a `stat` sees it: its size and what else the file system gives to
/// tell a replaced file from the one before (inode and change time on POSIX).
package struct FileVersion: Equatable, Sendable {
    package var size: Int
    package var stamp: [Int64]

    package init(size: Int, stamp: [Int64] = []) {
        self.size = size
        self.stamp = stamp
    }
}

extension FileSystem {
    /// Reads the whole file and keeps its first bytes, for file systems that hold files in memory.
    package func readPrefix(_ path: String, count: Int) throws -> [UInt8] { Array(try readFile(path).prefix(count)) }

    /// The size alone, for file systems that can tell nothing more.
    package func fileVersion(_ path: String) throws -> FileVersion { FileVersion(size: try fileSize(path)) }
}
