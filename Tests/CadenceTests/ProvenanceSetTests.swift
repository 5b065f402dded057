//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Testing
@testable import Cadence

/// ``ProvenanceSet`` against a sorted `Set<UInt32>`, on both sides of its inline capacity.
@Suite("Provenance sets")
struct ProvenanceSetTests {
    @Test("building, union and equality agree with a set, inline and spilled")
    func againstSet() {
        var random = TestRandom(seed: 17)
        for _ in 0..<2_000 {
            let left = Set((0..<Int.random(in: 0...7, using: &random)).map { _ in UInt32.random(in: 0...9, using: &random) })
            let right = Set((0..<Int.random(in: 0...7, using: &random)).map { _ in UInt32.random(in: 0...9, using: &random) })
            let a = ProvenanceSet(ascending: left.sorted())
            let b = ProvenanceSet(ascending: right.sorted())
            #expect(Array(a) == left.sorted() && a.count == left.count)
            #expect(Array(a.union(b)) == left.union(right).sorted())
            #expect(a.union(b) == b.union(a))
            #expect((a == b) == (left == right))
            #expect((a.hashValue == b.hashValue) || left != right)
            #expect(a.union(b) == ProvenanceSet(ascending: left.union(right).sorted()))
        }
        let literal: ProvenanceSet = [7, 3, 3, 9, 1, 5, 2]
        #expect(Array(literal) == [1, 2, 3, 5, 7, 9])
    }

    @Test("a stored summary with many provenances reads back equal, and out-of-order numbers are damage")
    func storedSummary() throws {
        var summary = SampleSummary()
        summary.statistics.count = 3
        summary.statistics.earliestStart = 10
        summary.maximumStart = 20
        summary.provenances = [1, 4, 6, 8, 11, 12]
        var writer = BinaryWriter()
        summary.write(to: &writer)
        var reader = BinaryReader(writer.bytes, path: "summary")
        #expect(try SampleSummary(from: &reader) == summary)

        summary.provenances = [1, 4]
        writer = BinaryWriter()
        summary.write(to: &writer)
        var bytes = writer.bytes
        // The two provenance numbers are the last varints but one (before the user-entered count).
        let provenances = bytes.count - 3
        #expect(bytes[provenances] == 1 && bytes[provenances + 1] == 4)
        bytes.swapAt(provenances, provenances + 1)
        var damaged = BinaryReader(bytes, path: "summary")
        #expect(throws: CadenceError.self) { try SampleSummary(from: &damaged) }
    }
}
