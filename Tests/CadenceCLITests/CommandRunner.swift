//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

/// What one run of the `cadence` binary produced.
struct CommandResult {
    /// The exit status.
    var status: Int32
    /// Everything written to standard output.
    var standardOutput: String
    /// Everything written to standard error.
    var standardError: String

    /// Standard output parsed as a JSON object.
    func jsonObject(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let parsed = try JSONSerialization.jsonObject(with: Data(standardOutput.utf8))
        return try #require(parsed as? [String: Any], "stdout is not a JSON object: \(standardOutput.prefix(500))",
                            sourceLocation: sourceLocation)
    }
}

/// Errors of the test harness itself.
struct HarnessError: Error, CustomStringConvertible {
    var description: String
}

/// Runs the built `cadence` executable as a subprocess, the way people and scripts do.
enum CadenceBinary {
    /// The package's root directory, found from this file's path.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // CadenceCLITests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// The executable: `$CADENCE_BINARY` when set, else `cadence` next to the test bundle (the
    /// build's products directory), else in a `.build*/debug` or `release` directory of the package.
    static let location: Result<URL, HarnessError> = {
        let fileManager = FileManager.default
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment["CADENCE_BINARY"] {
            candidates.append(URL(fileURLWithPath: override))
        }
        if let first = CommandLine.arguments.first {
            // Linux: .build/debug/CadencePackageTests.xctest; macOS: …/CadencePackageTests.xctest/Contents/MacOS/….
            var directory = URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<4 {
                candidates.append(directory.appendingPathComponent("cadence"))
                directory = directory.deletingLastPathComponent()
            }
        }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("cadence"))
        }
        if let entries = try? fileManager.contentsOfDirectory(atPath: packageRoot.path) {
            for entry in entries.sorted() where entry.hasPrefix(".build") {
                for configuration in ["debug", "release"] {
                    candidates.append(packageRoot.appendingPathComponent(entry).appendingPathComponent(configuration)
                        .appendingPathComponent("cadence"))
                }
            }
        }
        for candidate in candidates where fileManager.isExecutableFile(atPath: candidate.path) {
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return .success(candidate)
            }
        }
        return .failure(HarnessError(description: """
            The cadence executable was not found (looked in \(candidates.map(\.path).joined(separator: ", "))). \
            Build it with `swift build`, or set CADENCE_BINARY.
            """))
    }()

    /// Runs `cadence` with `arguments` on a thread of its own and waits for it without blocking
    /// a thread of Swift's cooperative pool: on a two-core machine that pool has two threads, and
    /// two tests each blocking one on a command that waits for the test itself (to release a
    /// store's lock) would leave no thread to release it.
    static func runInBackground(_ arguments: [String]) async throws -> CommandResult {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try run(arguments) }) }
        }
    }

    /// Runs `cadence` with `arguments` and waits for it. `standardInput` is a file to read standard
    /// input from (none by default); with `fileSizeLimit`, no file it writes may grow past that many
    /// 512-byte blocks (`ulimit -f`): a write beyond fails with `EFBIG`, the way a full disk fails
    /// it, at a size the test chooses. With `standardOutput` (`/dev/full`, a pipe nobody reads),
    /// standard output goes there and the result's is empty.
    static func run(_ arguments: [String], currentDirectory: URL? = nil, standardInput: URL? = nil,
                    fileSizeLimit: Int? = nil, standardOutput: FileHandle? = nil) throws -> CommandResult {
        let executable = try location.get()
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let outputURL = scratch.url.appendingPathComponent("stdout")
        let errorURL = scratch.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        let error = try FileHandle(forWritingTo: errorURL)
        defer {
            try? output.close()
            try? error.close()
        }
        let process = Process()
        if let fileSizeLimit {
            // SIGXFSZ ignored (kept across exec), so the write fails instead of killing the process.
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -f \(fileSizeLimit) && trap '' XFSZ && exec \"$0\" \"$@\"", executable.path]
                + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        process.standardOutput = standardOutput ?? output
        process.standardError = error
        process.standardInput = try standardInput.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        // Not `waitUntilExit()`: on Linux it polls the run loop every 50 ms, a lot for a command of a
        // few milliseconds run hundreds of times.
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        exited.wait()
        return CommandResult(
            status: process.terminationStatus,
            standardOutput: (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "")
    }

    /// Runs `cadence` and requires exit status 0, recording stderr otherwise.
    @discardableResult
    static func succeed(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> CommandResult {
        let result = try run(arguments)
        #expect(result.status == 0, "cadence \(arguments.joined(separator: " ")) failed: \(result.standardError)",
                sourceLocation: sourceLocation)
        if result.status != 0 { throw HarnessError(description: "cadence \(arguments.first ?? "") exited \(result.status)") }
        return result
    }
}

/// A fresh directory under the system's temporary directory; call ``remove()`` (in a `defer`)
/// when done.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-cli-tests-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Deletes the directory and everything in it.
    func remove() { try? FileManager.default.removeItem(at: url) }
}
