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

/// The samples the crash child saves: (run, batch, index) → sample. Must match
/// `crashUUID` and `crashBatch` in Tests/CadenceCrashChild/main.swift.
enum CrashBatch {
    static let types: [QuantityType] = [.stepCount, .heartRate, .activeEnergyBurned]

    /// The run, batch and index a child's sample UUID encodes.
    static func key(of uuid: UUID) -> (run: Int, batch: Int, index: Int)? {
        let parts = uuid.uuidString.split(separator: "-")
        guard parts.count == 5, parts[2] == "4000", parts[3] == "8000", let run = Int(parts[0], radix: 16),
              let batch = Int(parts[1], radix: 16), let index = Int(parts[4], radix: 16) else { return nil }
        return (run, batch, index)
    }

    /// Whether `sample` is exactly what the child saved as sample `index` of `batch` in `run`.
    static func matches(_ sample: QuantitySample, run: Int, batch: Int, index: Int) -> Bool {
        let start = Date(timeIntervalSince1970: Double(1_700_000_000 + run * 10_000_000 + batch * 1_000 + index * 10))
        return sample.quantityType == types[(batch + index) % 3] && sample.value == Double((batch * 31 + index * 7) % 200 + 1)
            && sample.startDate == start && sample.endDate == start.addingTimeInterval(5)
            && sample.source.name == "Crash child"
    }
}

#if canImport(Glibc)
private let systemRead = Glibc.read
#elseif canImport(Darwin)
private let systemRead = Darwin.read
#endif

/// Lines from a pipe, read with `poll(2)` so the reader can keep to deadlines.
struct PipeLines {
    enum Status { case data, idle, end }

    let descriptor: Int32
    private var pending: [UInt8] = []

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// Waits up to `milliseconds` for bytes and returns the complete lines read.
    mutating func read(waiting milliseconds: Int32) -> (status: Status, lines: [String]) {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, max(0, milliseconds)) > 0 else { return (.idle, []) }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return (count < 0 && errno == EINTR ? .idle : .end, []) }
        pending += chunk[0..<count]
        var lines: [String] = []
        while let newline = pending.firstIndex(of: 10) {
            lines.append(String(decoding: pending[..<newline], as: UTF8.self))
            pending.removeSubrange(...newline)
        }
        return (.data, lines)
    }
}

/// A child process saves, deletes, flushes and compacts on a real store and is killed with
/// SIGKILL at random moments; after every kill the store must open, hold every acknowledged
/// change, and hold every unacknowledged change either whole or not at all.
@Suite("Crash safety")
struct CrashTests {
    /// A batch's fate as the parent knows it from the child's announcements.
    struct Batch {
        enum State { case present, absent, either }
        var size: Int
        var state: State
    }

    struct BatchKey: Hashable {
        var run: Int
        var batch: Int
    }

    /// The crash child next to the test bundle, in the build products directory.
    static func childExecutable() -> String? {
        var directories: [URL] = []
        if let executable = Bundle.main.executableURL { directories.append(executable.deletingLastPathComponent()) }
        directories += Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        directories.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        for directory in directories {
            let path = directory.appendingPathComponent("cadence-crash-child").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Opens the store as the next user would and checks it against `batches`, resolving
    /// `.either` to what it finds (what a recovered store holds must never change afterwards).
    static func check(_ path: String, _ batches: inout [BatchKey: Batch], readOnly: Bool, context: String) throws {
        var options = HealthStore.Options()
        options.readOnly = readOnly
        let store: HealthStore
        do {
            store = try HealthStore.open(at: path, options: options)
        } catch {
            Issue.record("\(context): the store does not open: \(error)")
            return
        }
        var found: [BatchKey: Int] = [:]
        var uuids = Set<UUID>()
        var rows = 0
        for type in CrashBatch.types {
            let samples = try store.execute(SampleQuery(quantityType: type))
            rows += samples.count
            for sample in samples {
                uuids.insert(sample.uuid)
                guard let key = CrashBatch.key(of: sample.uuid),
                      CrashBatch.matches(sample, run: key.run, batch: key.batch, index: key.index) else {
                    Issue.record("\(context): a sample the child never saved: \(sample)")
                    continue
                }
                found[BatchKey(run: key.run, batch: key.batch), default: 0] += 1
            }
            let values = samples.map(\.value)
            if type.aggregationStyle.isDiscrete {
                let statistics = try store.execute(StatisticsQuery(quantityType: type, options: [.discreteMin, .discreteMax]))
                #expect(statistics.minimumQuantity()?.value == values.min() && statistics.maximumQuantity()?.value == values.max(),
                        "\(context): \(type.identifier) statistics disagree with the samples")
            } else {
                let statistics = try store.execute(StatisticsQuery(quantityType: type, options: .cumulativeSum))
                #expect(nearlyEqual(statistics.sumQuantity()?.value, values.isEmpty ? nil : values.reduce(0, +)),
                        "\(context): \(type.identifier) statistics disagree with the samples")
            }
        }
        #expect(rows == uuids.count, "\(context): \(rows - uuids.count) samples are stored twice")
        for key in found.keys where batches[key] == nil { Issue.record("\(context): batch \(key) was never begun") }
        for (key, batch) in batches {
            let count = found[key] ?? 0
            switch batch.state {
            case .present: #expect(count == batch.size, "\(context): acknowledged batch \(key) has \(count) of \(batch.size)")
            case .absent: #expect(count == 0, "\(context): batch \(key) should be absent but has \(count)")
            case .either:
                #expect(count == 0 || count == batch.size, "\(context): unacknowledged batch \(key) is half there (\(count) of \(batch.size))")
                batches[key]?.state = count == 0 ? .absent : .present
            }
        }
        #expect(store.verify().isEmpty, "\(context): \(store.verify())")
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    @Test("SIGKILL at random moments, and during saves, deletes, flushes and compactions, loses no acknowledged change")
    func killedChild() throws {
        guard let child = Self.childExecutable() else {
            Issue.record("the cadence-crash-child executable is not next to the test bundle")
            return
        }
        let root = StoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let clock = ContinuousClock()
        var random = TestRandom(seed: 2_026)
        var batches: [BatchKey: Batch] = [:]
        var path = ""
        /// Seconds a step of each kind took, as seen from here (updated as the children run).
        var durations: [String: Double] = ["save": 0.005, "delete": 0.005, "flush": 0.03, "compact": 0.1]
        var killedDuring: [String: Int] = [:]
        var secondsToOpen = 0.05
        let kills = 63
        let targets = ["anything", "open", "flush", "compact", "save", "delete", "resave"]
        for run in 0..<kills {
            if run % 10 == 0 {
                // A fresh store every ten kills keeps compactions (which rewrite everything) short.
                path = root + "/store-\(run / 10)"
                batches = [:]
            }
            let target = targets[run % targets.count]
            let process = Process()
            process.executableURL = URL(fileURLWithPath: child)
            process.arguments = [path, String(run)]
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            var lines = PipeLines(descriptor: output.fileHandleForReading.fileDescriptor)
            var opening: ContinuousClock.Instant?
            var opened = false
            var inFlight: (step: String, kind: String, batch: BatchKey?, began: ContinuousClock.Instant)?
            func handle(_ line: String) {
                let words = line.split(separator: " ").map(String.init)
                switch words.first {
                case "opening": opening = clock.now
                case "opened":
                    opened = true
                    if let opening { secondsToOpen = 0.7 * secondsToOpen + 0.3 * Self.seconds(clock.now - opening) }
                case "begin" where words.count >= 3:
                    var key: BatchKey?
                    if words.count >= 4, let number = Int(words[3]) { key = BatchKey(run: run, batch: number) }
                    if let key, words[2] == "save", words.count == 5, let size = Int(words[4]) {
                        batches[key] = Batch(size: size, state: .either)
                    } else if let key, words[2] == "delete" {
                        batches[key]?.state = .either
                    }
                    inFlight = (words[1], words[2], key, clock.now)
                case "done" where words.count == 2:
                    guard let step = inFlight, step.step == words[1] else {
                        Issue.record("run \(run): unexpected '\(line)'")
                        return
                    }
                    if let key = step.batch, step.kind == "save" || step.kind == "delete" {
                        batches[key]?.state = step.kind == "save" ? .present : .absent
                    }
                    let seconds = Self.seconds(clock.now - step.began)
                    durations[step.kind] = 0.7 * (durations[step.kind] ?? seconds) + 0.3 * seconds
                    inFlight = nil
                default:
                    Issue.record("run \(run): unexpected '\(line)'")
                }
            }
            let launched = clock.now
            let giveUp = launched + .seconds(5)
            var killAt: ContinuousClock.Instant? = switch target {
            case "anything": launched + .microseconds(Int.random(in: 0...400_000, using: &random))
            default: nil
            }
            var ended = false
            while !ended {
                let deadline = min(killAt ?? giveUp, giveUp)
                let remaining = clock.now.duration(to: deadline)
                if remaining <= .zero { break }
                if remaining < .milliseconds(2) {
                    // Sleep the last stretch precisely rather than in poll's whole milliseconds.
                    usleep(UInt32(max(0, remaining.components.attoseconds / 1_000_000_000_000)))
                    break
                }
                let (status, read) = lines.read(waiting: Int32(remaining.components.seconds * 1_000
                                                               + remaining.components.attoseconds / 1_000_000_000_000_000))
                ended = status == .end
                for line in read {
                    handle(line)
                    if killAt == nil, target == "open", line == "opening" {
                        killAt = clock.now + .microseconds(Int.random(in: 0...Int(secondsToOpen * 1_000_000), using: &random))
                    }
                    if killAt == nil, let step = inFlight, step.kind == target {
                        let window = Int((durations[target] ?? 0.01) * 1_000_000)
                        killAt = clock.now + .microseconds(Int.random(in: 0...max(1, window), using: &random))
                    }
                }
            }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            // The pipe keeps whatever the child wrote before it died: every acknowledgement counts.
            while true {
                let (status, read) = lines.read(waiting: 0)
                for line in read { handle(line) }
                if status != .data { break }
            }
            if process.terminationReason != .uncaughtSignal || process.terminationStatus != SIGKILL {
                var errorLines = PipeLines(descriptor: errors.fileHandleForReading.fileDescriptor)
                let message = errorLines.read(waiting: 100).lines.joined(separator: " ")
                Issue.record("run \(run): the child exited by itself (\(process.terminationStatus)): \(message)")
            }
            let phase = opening == nil ? "start-up" : !opened ? "open" : inFlight?.kind ?? "between steps"
            killedDuring[phase, default: 0] += 1
            try Self.check(path, &batches, readOnly: run % 2 == 1, context: "run \(run), killed during \(phase)")
        }
        let acknowledged = batches.values.filter { $0.state == .present }.count
        print("crash test: \(kills) kills, by phase \(killedDuring.sorted { $0.key < $1.key }); last store holds \(acknowledged) batches")
        #expect(killedDuring.values.reduce(0, +) == kills)
        #expect((killedDuring["flush"] ?? 0) + (killedDuring["compact"] ?? 0) >= 3, "\(killedDuring)")
        #expect((killedDuring["save"] ?? 0) >= 3, "\(killedDuring)")
        #expect((killedDuring["open"] ?? 0) >= 1, "\(killedDuring)")
    }
}
