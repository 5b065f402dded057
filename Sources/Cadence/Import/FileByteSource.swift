//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file opened read-only, read with `read(2)` and `pread(2)` into caller-owned buffers.
///
/// The import readers use it to stream a file in blocks of bounded size. Errors become
/// ``CadenceError``s that name the file: ``CadenceError/Code/notFound`` when it does not
/// exist, ``CadenceError/Code/io`` for anything else the system refuses.
final class FileByteSource {
    /// The file, as given.
    let path: String
    /// Its size in bytes when it was opened.
    let size: Int64
    /// The open descriptor.
    private let descriptor: Int32

    /// Opens a regular file for reading.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - regularOnly: Whether anything but a regular file is refused: a FIFO, device or socket
    ///     (which could block or never end) fails at once, before a read or a wait for a writer,
    ///     and a symbolic link as the last component is not followed.
    /// - Throws: ``CadenceError`` with ``CadenceError/Code/notFound`` or ``CadenceError/Code/io``;
    ///   with `regularOnly`, ``CadenceError/Code/hostileInput`` for a file that is not regular.
    init(path: String, regularOnly: Bool = false) throws {
        self.path = path
        // O_NONBLOCK makes opening a FIFO return at once instead of waiting for a writer.
        let opened = open(path, O_RDONLY | O_CLOEXEC | (regularOnly ? O_NONBLOCK | O_NOFOLLOW : 0))
        guard opened >= 0 else { throw Self.error(errno, "cannot open it", path: path) }
        var status = stat()
        guard fstat(opened, &status) == 0 else {
            let code = errno
            close(opened)
            throw Self.error(code, "cannot read its size", path: path)
        }
        let kind = status.st_mode & S_IFMT
        guard kind != S_IFDIR else {
            close(opened)
            throw CadenceError(.io, "is a directory, not a file", path: path)
        }
        guard !regularOnly || kind == S_IFREG else {
            close(opened)
            throw CadenceError(.hostileInput, "is \(Self.describe(kind)), not a regular file", path: path)
        }
        descriptor = opened
        size = Int64(status.st_size)
    }

    deinit {
        close(descriptor)
    }

    /// Reads the next bytes of the file into `buffer`.
    ///
    /// - Parameter buffer: Where to put them.
    /// - Returns: How many bytes were read; `0` at the end of the file.
    /// - Throws: ``CadenceError`` with ``CadenceError/Code/io``.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        while true {
            let count = systemRead(descriptor, base, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw Self.error(errno, "cannot read it", path: path) }
        }
    }

    /// Fills `buffer` with the bytes at `offset`.
    ///
    /// - Parameters:
    ///   - buffer: Where to put them; it is filled completely.
    ///   - offset: Where in the file to read.
    /// - Throws: ``CadenceError`` with ``CadenceError/Code/malformedInput`` if the file ends
    ///   first (it is truncated), ``CadenceError/Code/io`` if the system refuses.
    func readExactly(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws {
        guard let base = buffer.baseAddress else { return }
        var done = 0
        while done < buffer.count {
            let count = pread(descriptor, base + done, buffer.count - done, off_t(offset + Int64(done)))
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.error(errno, "cannot read it", path: path)
            }
            if count == 0 {
                throw CadenceError(
                    .malformedInput, "ends before offset \(offset + Int64(buffer.count)): it is truncated",
                    path: path)
            }
            done += count
        }
    }

    /// Reads `count` bytes at `offset`.
    ///
    /// - Throws: As ``readExactly(into:at:)``.
    func bytes(count: Int, at offset: Int64) throws -> [UInt8] {
        var result = [UInt8](repeating: 0, count: count)
        try result.withUnsafeMutableBytes { try readExactly(into: $0, at: offset) }
        return result
    }

    /// `read(2)`, named apart from ``read(into:)``.
    private func systemRead(_ descriptor: Int32, _ base: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        return Glibc.read(descriptor, base, count)
        #elseif canImport(Musl)
        return Musl.read(descriptor, base, count)
        #else
        return Darwin.read(descriptor, base, count)
        #endif
    }

    /// What a file of the kind `kind` (`st_mode & S_IFMT`) is, in words.
    private static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }

    /// An error for a failed system call.
    private static func error(_ code: Int32, _ what: String, path: String) -> CadenceError {
        let reason = String(cString: strerror(code))
        if code == ENOENT || code == ENOTDIR {
            return CadenceError(.notFound, "does not exist", path: path)
        }
        return CadenceError(.io, "\(what): \(reason)", path: path)
    }
}
