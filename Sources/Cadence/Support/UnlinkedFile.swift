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

/// A temporary file that has no name: unlinked as soon as it is created, it lives as its open
/// descriptor alone, closed when this is released, so neither the end of an import, nor its
/// failure, nor the process dying leaves it behind.
final class UnlinkedFile: Sendable {
    /// The open descriptor: the file's only handle.
    let descriptor: Int32
    /// The path the file had, for errors.
    let path: String

    /// Creates the file in `directory`.
    ///
    /// - Throws: ``CadenceError`` (`io`, or `notFound` for a missing directory) naming the path.
    init(in directory: String) throws(CadenceError) {
        var template = Array((directory.hasSuffix("/") ? directory : directory + "/").utf8CString.dropLast())
        template += Array("cadence-temporary-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard descriptor >= 0 else { throw CadenceError.systemCall("mkstemp", path) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        guard unlink(path) == 0 else {
            let failure = CadenceError.systemCall("unlink", path)
            _ = close(descriptor)
            throw failure
        }
        self.descriptor = descriptor
        self.path = path
    }

    deinit { _ = close(descriptor) }

    /// Appends `bytes`.
    func write(_ bytes: ArraySlice<UInt8>) throws(CadenceError) {
        var done = 0
        while done < bytes.count {
            let result = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress.map { $0 + done }, bytes.count - done) }
            if result < 0 {
                if errno == EINTR { continue }
                throw CadenceError.systemCall("write", path)
            }
            done += result
        }
    }

    /// `count` bytes of the file from `offset`.
    func read(_ count: Int, at offset: Int) throws(CadenceError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var failure: CadenceError?
        bytes.withUnsafeMutableBytes { buffer in
            do throws(CadenceError) { try read(into: buffer, at: offset) } catch { failure = error }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Fills `buffer` from the file at `offset`.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(CadenceError) {
        var done = 0
        while done < buffer.count {
            let result = pread(descriptor, buffer.baseAddress.map { $0 + done }, buffer.count - done, off_t(offset + done))
            if result < 0 {
                if errno == EINTR { continue }
                throw CadenceError.systemCall("read", path)
            }
            if result == 0 { throw CadenceError(.io, "read found the file shorter than written", path: path) }
            done += result
        }
    }

}
