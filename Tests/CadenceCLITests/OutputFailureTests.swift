//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation
import Testing

/// Output that cannot be written is never taken for output written: the command fails and says
/// why, except when the reader has gone away (`| head`), which ends it quietly.
@Suite("Output that cannot be written")
struct OutputFailureTests {
    /// A command that prints to standard output, with its arguments.
    enum Command: String, CaseIterable, CustomTestStringConvertible {
        case samples, stats, statsInput, changes, info, priority, batch, batchInput

        var testDescription: String { rawValue }

        /// The arguments, for the stores in `fixture`.
        func arguments(_ fixture: Fixture) -> [String] {
            let query = ["--type", "stepCount", "--from", "2024-01-01", "--to", "2024-01-03", "--interval", "1d",
                         "--time-zone", "UTC"]
            return switch self {
            case .samples: ["samples", "--store", fixture.store, "--type", "stepCount", "--format", "csv"]
            case .stats: ["stats", "--store", fixture.store] + query
            case .statsInput: ["stats", "--input", fixture.input] + query
            case .changes: ["changes", "--store", fixture.store, "--type", "stepCount"]
            case .info: ["info", "--store", fixture.store]
            case .priority: ["priority", "--store", fixture.store]
            case .batch: ["batch", "--stores", fixture.stores] + query
            case .batchInput: ["batch", "--input", fixture.input] + query
            }
        }
    }

    /// A directory of one user's store (`jane`, a few hundred step samples) and the same samples
    /// as CSV with a user column.
    struct Fixture {
        var stores: String
        var store: String { stores + "/jane" }
        var input: String

        init(in directory: TemporaryDirectory) throws {
            stores = directory.path("stores")
            input = directory.path("samples.csv")
            let start = Date(timeIntervalSince1970: 1_704_103_200)  // 2024-01-01T10:00:00Z
            let samples = try (0..<300).map { index in
                try QuantitySample(type: .stepCount, value: Double(index + 1), start: start.addingTimeInterval(Double(index) * 60),
                                   end: start.addingTimeInterval(Double(index) * 60 + 30), source: Source(name: "Phone"))
            }
            let store = try HealthStore.open(at: stores + "/jane")
            try store.save(samples)
            try store.close()
            var csv = "user,type,sourceName,unit,startDate,endDate,value\n"
            for sample in samples {
                csv += "jane,stepCount,Phone,count,\(formatRFC3339(sample.startDate.timestamp, timeZone: .gmt)),"
                    + "\(formatRFC3339(sample.endDate.timestamp, timeZone: .gmt)),\(Int(sample.quantity.value))\n"
            }
            try csv.write(toFile: input, atomically: true, encoding: .utf8)
        }
    }

    @Test("A full device (ENOSPC) ends the command with status 1 and the reason on standard error",
          arguments: Command.allCases)
    func fullDevice(command: Command) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fixture = try Fixture(in: directory)
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        defer { try? full.close() }
        let result = try CadenceBinary.run(command.arguments(fixture), standardOutput: full)
        #expect(result.status == 1)
        #expect(result.standardError == "Error: <stdout>: the output cannot be written: No space left on device.\n")
    }

    @Test("Any other write error (EFBIG past a file size limit) ends the command with status 1 and the reason")
    func fileTooLarge() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fixture = try Fixture(in: directory)
        // Each prints more than the one 512-byte block allowed: 300 samples, or 1,440 minutes.
        for arguments in [Command.samples.arguments(fixture),
                          ["batch", "--input", fixture.input, "--type", "stepCount", "--from", "2024-01-01",
                           "--to", "2024-01-02", "--interval", "1min", "--time-zone", "UTC"]] {
            let result = try CadenceBinary.run(arguments, fileSizeLimit: 1)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.standardError == "Error: <stdout>: the output cannot be written: File too large.\n")
        }
    }

    @Test("A pipe whose reader has gone away ends the command quietly with status 0", arguments: Command.allCases)
    func closedPipe(command: Command) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fixture = try Fixture(in: directory)
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        defer { try? pipe.fileHandleForWriting.close() }
        let result = try CadenceBinary.run(command.arguments(fixture), standardOutput: pipe.fileHandleForWriting)
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
    }
}
