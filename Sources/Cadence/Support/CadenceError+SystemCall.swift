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

extension CadenceError {
    /// The error of a failed system call `operation` on `path`: not found for `ENOENT`, else an
    /// I/O error, with the system's reason for `number` (by default the current `errno`).
    static func systemCall(_ operation: String, _ path: String, _ number: Int32 = errno) -> CadenceError {
        let reason = String(cString: strerror(number))
        return CadenceError(number == ENOENT ? .notFound : .io, "\(operation) failed: \(reason)", path: path)
    }
}
