//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// The child process of the crash test (Tests/CadenceTests/CrashTests.swift), the writer of
// the multi-process tests (`serve`, below) and of the upgrade kill test (`upgrade`, below). As
// the crash child, it opens the store at `argv[1]` and, driven by the seed `argv[2]` (the run
// number), saves, deletes, flushes and compacts until it is killed with SIGKILL. Every step is
// announced on standard output before it starts and acknowledged after it returned, with one
// unbuffered `write(2)` per line:
//
//     opening
//     opened
//     begin <step> save <batch> <size>
//     begin <step> delete <batch>
//     begin <step> resave <batch>      (an acknowledged batch again: all duplicates)
//     begin <step> flush | compact
//     done <step>
//
// A batch's samples are a function of (run, batch, index) that the test recomputes (see
// `CrashBatch` there): keep the two in step.

import Cadence
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes one line to standard output in a single system call, so it is in the pipe once the
/// call returns, whatever happens to the process next.
func announce(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    var done = 0
    while done < bytes.count {
        let result = bytes.withUnsafeBytes { write(1, $0.baseAddress.map { $0 + done }, bytes.count - done) }
        if result < 0 && errno == EINTR { continue }
        guard result > 0 else { exit(4) }
        done += result
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data(("cadence-crash-child: " + message + "\n").utf8))
    exit(3)
}

/// The UUID of sample `index` of batch `batch` in run `run`.
func crashUUID(run: Int, batch: Int, index: Int) -> UUID {
    func hex(_ value: Int, _ width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    guard let uuid = UUID(uuidString: "\(hex(run, 8))-\(hex(batch, 4))-4000-8000-\(hex(index, 12))") else {
        fail("cannot form the UUID of run \(run) batch \(batch) index \(index)")
    }
    return uuid
}

/// The samples of one batch.
func crashBatch(run: Int, batch: Int, size: Int) throws -> [QuantitySample] {
    let types: [QuantityType] = [.stepCount, .heartRate, .activeEnergyBurned]
    return try (0..<size).map { index in
        let start = Date(timeIntervalSince1970: Double(1_700_000_000 + run * 10_000_000 + batch * 1_000 + index * 10))
        return try QuantitySample(uuid: crashUUID(run: run, batch: batch, index: index), type: types[(batch + index) % 3],
                                  value: Double((batch * 31 + index * 7) % 200 + 1), start: start,
                                  end: start.addingTimeInterval(5), source: Source(name: "Crash child"))
    }
}

/// `serve STORE [wait]`: the writer of the multi-process tests (MultiProcessTests.swift). It
/// announces `opening`, opens the store for writing (waiting for the lock with `wait`), announces `opened <pid>`, then
/// runs the commands read from standard input, one a line, acknowledging each after it returned:
///
///     save <batch> <size>    → saved <batch>
///     delete <batch> <size>  → deleted <batch>
///     flush                  → flushed
///     exit                   (closes the store and exits 0; so does the end of input)
func serve(_ path: String, waiting: Bool) -> Never {
    var options = HealthStore.Options()
    options.waitForWriter = waiting
    announce("opening")
    do {
        let store = try HealthStore.open(at: path, options: options)
        announce("opened \(getpid())")
        while let line = readLine() {
            let words = line.split(separator: " ").map(String.init)
            switch (words.first, words.count) {
            case ("save", 3):
                guard let batch = Int(words[1]), let size = Int(words[2]) else { fail("bad command: \(line)") }
                try store.save(try crashBatch(run: 0, batch: batch, size: size))
                announce("saved \(batch)")
            case ("delete", 3):
                guard let batch = Int(words[1]), let size = Int(words[2]) else { fail("bad command: \(line)") }
                try store.deleteSamples(withUUIDs: (0..<size).map { crashUUID(run: 0, batch: batch, index: $0) })
                announce("deleted \(batch)")
            case ("flush", 1):
                try store.flush()
                announce("flushed")
            case ("exit", 1):
                try store.close()
                exit(0)
            default:
                fail("bad command: \(line)")
            }
        }
        try store.close()
        exit(0)
    } catch {
        fail("\(error)")
    }
}

/// `upgrade STORE`: the child of the upgrade kill test (UpgradeKillTests.swift). Opens the store for
/// writing, upgrades it and closes it, announcing `upgrading` before the upgrade and `done` after
/// it returned; the test kills it in between.
func upgrade(_ path: String) -> Never {
    do {
        let store = try HealthStore.open(at: path)
        announce("upgrading")
        try store.upgrade()
        announce("done")
        try store.close()
        exit(0)
    } catch {
        fail("\(error)")
    }
}

let arguments = CommandLine.arguments
if arguments.count == 3 && arguments[1] == "upgrade" { upgrade(arguments[2]) }
if arguments.count >= 3 && arguments[1] == "serve" { serve(arguments[2], waiting: arguments.count > 3 && arguments[3] == "wait") }
guard arguments.count == 3, let run = Int(arguments[2]) else {
    fail("usage: cadence-crash-child STORE RUN, cadence-crash-child serve STORE [wait], or cadence-crash-child upgrade STORE")
}
var options = HealthStore.Options()
options.flushThreshold = 300
options.chunkCapacity = 100

do {
    announce("opening")
    let store = try HealthStore.open(at: arguments[1], options: options)
    announce("opened")
    // A xorshift generator seeded by the run: the schedule is the same every time a run is replayed.
    var state = UInt64(truncatingIfNeeded: run) &* 0x9E37_79B9_7F4A_7C15 | 1
    func next(_ bound: Int) -> Int {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Int(state % UInt64(bound))
    }
    var live: [Int: Int] = [:]  // batch → size
    var nextBatch = 0
    // Runs until killed.
    for step in 0... {
        let choice = next(100)
        if choice < 68 || live.isEmpty {
            let size = 1 + next(60)
            let batch = nextBatch
            nextBatch += 1
            let samples = try crashBatch(run: run, batch: batch, size: size)
            announce("begin \(step) save \(batch) \(size)")
            try store.save(samples)
            live[batch] = size
        } else if choice < 72 {
            let batch = live.keys.sorted()[next(live.count)]
            announce("begin \(step) resave \(batch)")
            let summary = try store.save(try crashBatch(run: run, batch: batch, size: live[batch] ?? 0))
            guard summary.saved == 0 && summary.duplicates == live[batch] else {
                fail("saving batch \(batch) again stored \(summary.saved) samples and skipped \(summary.duplicates)")
            }
        } else if choice < 82 {
            let batch = live.keys.sorted()[next(live.count)]
            let size = live[batch] ?? 0
            announce("begin \(step) delete \(batch)")
            let deleted = try store.deleteSamples(withUUIDs: (0..<size).map { crashUUID(run: run, batch: batch, index: $0) })
            guard deleted == size else { fail("deleting batch \(batch) removed \(deleted) of \(size) samples") }
            live[batch] = nil
        } else if choice < 93 {
            announce("begin \(step) flush")
            try store.flush()
        } else {
            announce("begin \(step) compact")
            try store.compact()
        }
        announce("done \(step)")
    }
} catch {
    fail("\(error)")
}
