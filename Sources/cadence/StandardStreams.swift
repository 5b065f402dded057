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
        StandardStreams.write(buffer, to: STDOUT_FILENO)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Direct, unbuffered access to the process's standard streams.
enum StandardStreams {
    /// Writes a line for people to standard error, with its control characters escaped (see
    /// ``TerminalText``): messages quote arguments, user ids and values from the data.
    static func writeError(_ line: String) {
        write(Array((TerminalText.escaped(line) + "\n").utf8), to: STDERR_FILENO)
    }

    /// Writes text to standard error without a newline (for progress bars that redraw a line),
    /// as it is: the caller escapes what it quotes.
    static func writeErrorText(_ text: String) {
        write(Array(text.utf8), to: STDERR_FILENO)
    }

    /// Whether standard error is a terminal, so that a progress bar may be drawn on it.
    static var isErrorTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Writes all of `bytes` to a file descriptor, retrying after interruptions; gives up quietly
    /// when the reader has gone away (a closed pipe), as there is nobody left to tell.
    static func write(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { raw in
            guard var pointer = raw.baseAddress else { return }
            var remaining = raw.count
            while remaining > 0 {
                let written = systemWrite(descriptor, pointer, remaining)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                remaining -= written
                pointer += written
            }
        }
    }
}

/// The C library's `write(2)`, named apart from ``StandardStreams/write(_:to:)``.
private func systemWrite(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, pointer, count)
    #elseif canImport(Musl)
    Musl.write(descriptor, pointer, count)
    #else
    Darwin.write(descriptor, pointer, count)
    #endif
}
