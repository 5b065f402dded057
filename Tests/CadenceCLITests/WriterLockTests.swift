//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation
import Testing

/// A command that writes to a store another process is writing to.
@Suite("Writer lock")
struct WriterLockTests {
    @Test("A second writer is refused naming the holder's pid, or waits with --wait")
    func refusedOrWaits() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("store")
        let holder = try HealthStore.open(at: path)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let sample = try QuantitySample(type: .stepCount, value: 10, start: start, end: start.addingTimeInterval(60),
                                        source: Source(name: "Phone"))
        try holder.save([sample])
        let delete = ["delete", "--store", path, "--uuid", sample.uuid.uuidString]

        let refused = try CadenceBinary.run(delete)
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("pid \(ProcessInfo.processInfo.processIdentifier)"), "\(refused.standardError)")

        let waiting = Task { try await CadenceBinary.runInBackground(delete + ["--wait"]) }
        // The pause only makes it likely that the command is waiting when the lock is released;
        // the outcome does not depend on it.
        try await Task.sleep(for: .milliseconds(300))
        try holder.close()
        let waited = try await waiting.value
        #expect(waited.status == 0, "\(waited.standardError)")
        #expect(waited.standardOutput.contains("Deleted 1 sample."))
    }
}
