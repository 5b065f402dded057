//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered text output to standard output, flushed in large writes.
///
///     var output = StandardOutput()
///     output.writeLine("hello")
///     output.flush()
///
/// Commands that print many rows (`samples --format csv`) gather them here instead of calling
/// `print` per row; the buffer is written whenever it passes a megabyte, and by ``flush()``.
/// Output that cannot be written ends the command, as ``StandardStreams/writeOutput(_:)`` says.
struct StandardOutput {
    private var buffer: [UInt8] = []
    private let threshold = 1 << 20

    /// Appends text.
    mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= threshold { flush() }
    }

    /// Appends text and a newline.
    mutating func writeLine(_ text: String = "") {
        write(text)
        write("\n")
    }

    /// Writes everything buffered so far.
    mutating func flush() {
        StandardStreams.writeOutput(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Direct, unbuffered access to the process's standard streams.
enum StandardStreams {
    /// Writes a line for people to standard error, with its control characters escaped (see
    /// ``TerminalText``): messages quote arguments, user ids and values from the data.
    static func writeError(_ line: String) {
        _ = write(Array((TerminalText.escaped(line) + "\n").utf8), to: STDERR_FILENO)
    }

    /// Writes text to standard error without a newline (for progress bars that redraw a line),
    /// as it is: the caller escapes what it quotes.
    static func writeErrorText(_ text: String) {
        _ = write(Array(text.utf8), to: STDERR_FILENO)
    }

    /// Whether standard error is a terminal, so that a progress bar may be drawn on it.
    static var isErrorTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Makes a write to a closed pipe fail with `EPIPE` instead of killing the process, so that
    /// ``writeOutput(_:)`` tells it from the other failures.
    static func reportClosedPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Writes all of `bytes` to standard output, or ends the command: when the reader has gone
    /// away (`EPIPE`, as under `| head`), quietly with status 0, as there is nobody left to tell;
    /// on any other failure (`ENOSPC`, `EIO`, …) with status 1 and the reason on standard error,
    /// so that output lost is never taken for output written.
    static func writeOutput(_ bytes: [UInt8]) {
        guard let failure = write(bytes, to: STDOUT_FILENO) else { return }
        if failure == EPIPE { Foundation.exit(0) }
        let reason = String(cString: strerror(failure))
        writeError("Error: <stdout>: the output cannot be written: \(reason).")
        Foundation.exit(1)
    }

    /// Writes all of `bytes` to a file descriptor, retrying after interruptions.
    ///
    /// - Returns: `nil` once everything is written, else the `errno` of the write that failed.
    private static func write(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBytes { raw -> Int32? in
            guard var pointer = raw.baseAddress else { return nil }
            var remaining = raw.count
            while remaining > 0 {
                let written = systemWrite(descriptor, pointer, remaining)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                remaining -= written
                pointer += written
            }
            return nil
        }
    }
}

/// The C library's `write(2)`, named apart from `StandardStreams.write(_:to:)`.
private func systemWrite(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, pointer, count)
    #elseif canImport(Musl)
    Musl.write(descriptor, pointer, count)
    #else
    Darwin.write(descriptor, pointer, count)
    #endif
}
