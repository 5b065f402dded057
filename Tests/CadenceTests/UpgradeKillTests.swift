//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A process upgrading a copy of the format version 4 fixture (`cadence-crash-child upgrade`) is
/// killed with SIGKILL at random moments of its upgrade, on a real file system.
@Suite("Upgrade killed")
struct UpgradeKillTests {
    /// Runs the child on `path`, killing it `delay` seconds after it announced the upgrade (unless
    /// it ended); returns whether it announced that the upgrade returned, and how long after it
    /// began.
    static func run(_ child: String, on path: String, killingAfter delay: Double?) throws -> (finished: Bool, seconds: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: child)
        process.arguments = ["upgrade", path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var lines = PipeLines(descriptor: output.fileHandleForReading.fileDescriptor)
        let clock = ContinuousClock()
        var began: ContinuousClock.Instant?
        var result = (finished: false, seconds: 0.0)
        reading: while true {
            let (status, read) = lines.read(waiting: 5_000)
            guard status == .data else { break }
            for line in read {
                if line == "upgrading" {
                    began = clock.now
                    if let delay {
                        usleep(UInt32(delay * 1_000_000))
                        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                    }
                }
                if line == "done", let began {
                    let elapsed = began.duration(to: clock.now)
                    result = (true, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
                    break reading
                }
            }
        }
        if process.isRunning && delay != nil { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        if process.terminationReason == .exit { #expect(process.terminationStatus == 0) }
        // What the child wrote before it died is still in the pipe.
        while !result.finished {
            let (status, read) = lines.read(waiting: 0)
            guard status == .data else { break }
            result.finished = read.contains("done")
        }
        return result
    }

    @Test("SIGKILL during an upgrade leaves the old store or the new, answering the same; upgrading again finishes it")
    func killedUpgrade() throws {
        guard let child = CrashTests.childExecutable() else {
            Issue.record("the cadence-crash-child executable is not next to the test bundle")
            return
        }
        let reference = try UpgradeTests.copyOfVersionFourStore()
        defer { try? FileManager.default.removeItem(atPath: reference) }
        let expected = try StoreVersionFourTests.Contents(HealthStore.open(at: reference, options: .readOnly))
        let chunkCount = try UpgradeTests.chunkVersions(reference).count

        // One whole upgrade, timed: the kills fall anywhere in such an upgrade (or just after it).
        let whole = try Self.run(child, on: reference, killingAfter: nil)
        #expect(whole.finished)

        var random = TestRandom(seed: 2_027)
        var outcomes: [Int: Int] = [:]
        for run in 0..<12 {
            let path = try UpgradeTests.copyOfVersionFourStore()
            defer { try? FileManager.default.removeItem(atPath: path) }
            let delay = Double.random(in: 0...(whole.seconds * 1.2), using: &random)
            let finished = try Self.run(child, on: path, killingAfter: delay).finished
            let context = "run \(run), killed \(Int(delay * 1_000_000)) µs into an upgrade of \(Int(whole.seconds * 1_000_000)) µs"
            let store = try HealthStore.open(at: path)
            #expect(store.verify().isEmpty, "\(context): \(store.verify())")
            let outdated = try store.outdatedChunkFiles()
            #expect(outdated == 0 || outdated == chunkCount, "\(context): \(outdated) of \(chunkCount) chunk files outdated")
            if finished { #expect(outdated == 0, "\(context): the upgrade returned") }
            outcomes[outdated, default: 0] += 1
            #expect(try StoreVersionFourTests.Contents(store) == expected, "\(context)")
            try store.upgrade()
            #expect(try StoreVersionFourTests.Contents(store) == expected, "\(context)")
            try store.close()
            #expect(try UpgradeTests.chunkVersions(path).values.allSatisfy { $0 == FormatVersion.current }, "\(context)")
        }
        print("upgrade kill test: an upgrade takes \(Int(whole.seconds * 1_000_000)) µs; stores left with outdated chunk files: \(outcomes)")
    }
}
