//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// Selecting rows copies them column by column, and gives exactly the columns that appending the
/// same rows one by one gives: a chunk's bytes do not depend on how its rows were gathered.
@Suite("Selecting rows of sample columns")
struct SampleColumnsSelectingTests {
    /// Random columns: each optional column present or not, metadata sets with repeats and an
    /// empty one (as a decoded chunk may hold), indexes out of the sets' range.
    static func columns(_ random: inout TestRandom) -> SampleColumns {
        var columns = SampleColumns()
        let count = Int(random.next() % 60) + 1
        let present = random.next()
        let sets: [[String: String]] = [["a": "1"], ["b": "2", "c": "3"], ["a": "1"], [:]]
        columns.start = (0..<count).map { _ in Int64(random.next() % 1_000) }
        columns.end = columns.start.map { $0 + Int64(random.next() % 10) }
        columns.value = (0..<count).map { _ in Double(random.next() % 100) }
        columns.provenance = (0..<count).map { _ in UInt32(random.next() % 4) }
        columns.sequence = (0..<count).map { Int64($0 + 1) }
        // Sparse values, so that some selections hold none.
        func sparse<T>(_ bit: Int, _ absent: T, _ make: (inout TestRandom) -> T) -> [T] {
            guard present & (1 << bit) != 0 else { return [] }
            return (0..<count).map { _ in random.next() % 5 == 0 ? make(&random) : absent }
        }
        columns.flags = sparse(0, 0) { _ in SampleFlags.userEntered }
        columns.explicitUUIDs = sparse(1, nil) { random in UUID(high: random.next(), low: random.next(), version: 4) }
        columns.creation = sparse(2, SampleColumns.absent) { random in Int64(random.next() % 1_000) }
        columns.occurrence = sparse(3, 0) { random in UInt32(random.next() % 3 + 1) }
        columns.deviceAddress = sparse(4, 0) { random in random.next() | 1 }
        columns.payloads = sparse(5, []) { random in [UInt8(random.next() % 256), 7] }
        if present & (1 << 6) != 0 {
            columns.metadataSets = sets
            columns.metadataIndex = sparse(7, 0) { random in Int32(random.next() % 6) }
            if columns.metadataIndex.isEmpty { columns.metadataIndex = (0..<count).map { _ in Int32(random.next() % 5) } }
        }
        return columns
    }

    /// The rows appended one by one: the reference.
    static func appendingOneByOne(_ columns: SampleColumns, _ rows: [Int]) -> SampleColumns {
        var result = SampleColumns()
        for row in rows {
            result.append(start: columns.start[row], end: columns.end[row], value: columns.value[row],
                          provenance: columns.provenance[row], sequence: columns.sequence[row],
                          flags: columns.flags(at: row), uuid: columns.explicitUUID(at: row),
                          creation: columns.creation(at: row), metadata: columns.metadata(at: row),
                          occurrence: columns.occurrence(at: row), deviceAddress: columns.deviceAddress(at: row),
                          payload: columns.payloads.isEmpty ? [] : columns.payloads[row])
        }
        return result
    }

    @Test("selected rows equal the rows appended one by one, column for column and byte for byte")
    func selectingMatchesAppending() {
        var random = TestRandom(seed: 31)
        for _ in 0..<500 {
            let columns = Self.columns(&random)
            let rows: [Int] = switch random.next() % 3 {
            case 0: Array(0..<columns.count)
            case 1: (0..<columns.count).filter { _ in random.next() % 3 == 0 }
            default: (0..<columns.count).map { _ in Int(random.next() % UInt64(columns.count)) }
            }
            let selected = columns.selecting(rows)
            let expected = Self.appendingOneByOne(columns, rows)
            #expect(selected.start == expected.start && selected.end == expected.end && selected.value == expected.value)
            #expect(selected.provenance == expected.provenance && selected.sequence == expected.sequence)
            #expect(selected.flags == expected.flags && selected.explicitUUIDs == expected.explicitUUIDs)
            #expect(selected.creation == expected.creation && selected.occurrence == expected.occurrence)
            #expect(selected.deviceAddress == expected.deviceAddress && selected.payloads == expected.payloads)
            #expect(selected.metadataIndex == expected.metadataIndex && selected.metadataSets == expected.metadataSets)
            #expect(ColumnCodec.encodeQueryColumns(selected) == ColumnCodec.encodeQueryColumns(expected))
            #expect(ColumnCodec.encodeDetailColumns(selected) == ColumnCodec.encodeDetailColumns(expected))
            // Appending a set the selection holds finds it (the lookup is in step).
            if let set = selected.metadataSets.first {
                var appended = selected
                appended.append(start: 0, end: 0, value: 0, provenance: 0, metadata: set)
                #expect(appended.metadataSets.count == selected.metadataSets.count && appended.metadataIndex.last == 1)
            }
        }
    }
}
