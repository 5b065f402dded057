//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// A lookup by UUID reads a chunk's UUID column alone to pass over the chunks that do not hold
/// the UUIDs, and answers as a full decode does.
@Suite("Lookups by UUID")
struct UUIDLookupTests {
    /// Random sorted columns, every row with an explicit UUID unless `everyRow` is false,
    /// metadata large enough that the detail section is far longer than its UUID column (some
    /// rows sharing theirs), and a payload in about one row in three.
    static func columns(count: Int, seed: UInt64, everyRow: Bool = true) -> SampleColumns {
        var random = TestRandom(seed: seed)
        var columns = SampleColumns()
        var start: Int64 = 1_700_000_000_000_000
        for row in 0..<count {
            start += Int64.random(in: 0...3_600_000_000, using: &random)
            let uuid = UUID(high: UInt64.random(in: 0...UInt64.max, using: &random), low: UInt64.random(in: 0...UInt64.max, using: &random))
            columns.append(start: start, end: start + 60_000_000, value: Double(row), provenance: 0, sequence: Int64(row),
                           uuid: everyRow || row % 7 != 3 ? uuid : nil,
                           metadata: ["note": String(repeating: "\(row % 50)-", count: Int.random(in: 0...40, using: &random))],
                           payload: row % 3 == 0 ? [UInt8(row & 0xFF), 7, UInt8(truncatingIfNeeded: row >> 8)] : [])
        }
        return columns.sortedByStart()
    }

    @Test("The rows found from the UUID column are those whose UUID is asked for", arguments: [UInt64(1), 2, 3, 4, 5])
    func findsTheRows(seed: UInt64) throws {
        var random = TestRandom(seed: seed &* 17)
        let columns = Self.columns(count: Int.random(in: 1...3_000, using: &random), seed: seed)
        let file = try ChunkFile(bytes: ChunkBlockTests.encode(columns), path: "chunk")
        let wanted = (0..<Int.random(in: 0...6, using: &random)).map { _ in Int.random(in: 0..<columns.count, using: &random) }
        let asked = Set(wanted.compactMap { columns.explicitUUID(at: $0) } + [UUID()])
        let naive = (0..<columns.count).filter { columns.explicitUUID(at: $0).map(asked.contains) == true }
        #expect(try file.rows(withExplicitUUIDsIn: asked) == naive)
        #expect(try file.rows(withExplicitUUIDsIn: [UUID()]) == [])
        // Decoded alone, the rows are what decoding every row gives for them, payloads included.
        let found = try #require(try file.decodeRows(withExplicitUUIDsIn: asked))
        let all = try file.decodeAllColumns()
        #expect(try (0..<found.count).map { try Row(found, $0) } == naive.map { try Row(all, $0) })
        #expect(try file.decodeRows(withExplicitUUIDsIn: [UUID()])?.isEmpty == true)
    }

    /// Every field of a row, for comparing rows of different columns.
    struct Row: Equatable {
        var start, end, sequence: Int64
        var value: Double
        var provenance: UInt32
        var flags: UInt8
        var uuid: UUID?
        var creation: Int64?
        var metadata: [String: String]
        var occurrence: UInt32
        var deviceAddress: UInt64
        var payload: [UInt8]?

        init(_ columns: SampleColumns, _ row: Int) throws {
            (start, end, sequence, value) = (columns.start[row], columns.end[row], columns.sequence[row], columns.value[row])
            (provenance, flags, uuid) = (columns.provenance[row], columns.flags(at: row), columns.explicitUUID(at: row))
            (creation, metadata, occurrence) = (columns.creation(at: row), columns.metadata(at: row), columns.occurrence(at: row))
            (deviceAddress, payload) = (columns.deviceAddress(at: row), try columns.payload(at: row))
        }
    }

    @Test("A chunk with a row without an explicit UUID is left to the full decode")
    func derivedUUIDs() throws {
        let columns = Self.columns(count: 500, seed: 9, everyRow: false)
        let file = try ChunkFile(bytes: ChunkBlockTests.encode(columns), path: "chunk")
        #expect(try file.rows(withExplicitUUIDsIn: [UUID()]) == nil)
    }

    @Test("A damaged detail section fails the lookup, naming the file")
    func damagedDetails() throws {
        let columns = Self.columns(count: 2_000, seed: 10)
        var bytes = try ChunkBlockTests.encode(columns)
        let detail = try ChunkBlockTests.Layout(bytes).detail
        bytes[detail.upperBound - 5] ^= 0x08
        let file = try ChunkFile(bytes: bytes, path: "chunk-damaged")
        let error = expectCadenceError(.corruptFile) { _ = try file.rows(withExplicitUUIDsIn: [UUID()]) }
        #expect(error?.path == "chunk-damaged")
    }

    @Test("Workouts by UUID, with their routes, over many chunks answer as the full listing does")
    func workoutsByUUID() throws {
        let store = HealthStore.inMemory(chunkCapacity: 7, flushThreshold: 1_000)
        var random = TestRandom(seed: 77)
        var saved: [Workout] = []
        for _ in 0..<5 {
            let workouts = try PayloadSectionTests.randomWorkouts(&random, count: 9, maxPoints: 50)
            try store.save(workouts)
            try store.flush()
            saved += workouts
        }
        #expect(try #require(store.snapshot().types[Workout.typeIdentifier]).chunks.count > 3)
        let all = try store.execute(SampleQuery(workoutsMatching: .all, includingRoutes: true))
        for workout in saved where Bool.random(using: &random) {
            let found = try store.execute(SampleQuery(workoutsMatching: .uuids([workout.uuid]), includingRoutes: true))
            #expect(found == all.filter { $0.uuid == workout.uuid })
            #expect(found.first?.routes == workout.routes)
        }
        let several = Set(saved.prefix(20).map(\.uuid))
        let found = try store.execute(SampleQuery(workoutsMatching: .uuids(several), includingRoutes: true))
        #expect(Set(found.map(\.uuid)) == several)
        #expect(try store.execute(SampleQuery(workoutsMatching: .uuids([UUID()]))).isEmpty)
    }

    @Test("Workouts read by UUID, with their routes, are those saved: several chunks, the head, deletions, limits",
          arguments: [UInt64(21), 22, 23])
    func workoutsByUUIDMatchTheSaved(seed: UInt64) throws {
        var random = TestRandom(seed: seed)
        let store = HealthStore.inMemory(chunkCapacity: 6, flushThreshold: 1_000)
        // In save order: the naive reference breaks ties of start by it.
        var saved: [Workout] = []
        for round in 0..<6 {
            let workouts = try PayloadSectionTests.randomWorkouts(&random, count: Int.random(in: 1...12, using: &random),
                                                                  maxPoints: 60)
            try store.save(workouts)
            saved += workouts
            // The last rounds stay in the head, unflushed.
            if round < 4 { try store.flush() }
            if Bool.random(using: &random), let doomed = saved.randomElement(using: &random) {
                try store.deleteSamples(withUUIDs: [doomed.uuid])
                saved.removeAll { $0.uuid == doomed.uuid }
            }
        }
        #expect(try #require(store.snapshot().types[Workout.typeIdentifier]).chunks.count > 3)
        let deleted = Set(try store.execute(AnchoredObjectQuery(workoutsMatching: .all)).deletedObjects.map(\.uuid))
        for _ in 0..<30 {
            var asked = Set(saved.filter { _ in Int.random(in: 0..<6, using: &random) == 0 }.map(\.uuid))
            // Unknown and deleted UUIDs find nothing.
            if Bool.random(using: &random) { asked.insert(UUID(high: random.next(), low: random.next(), version: 4)) }
            if Bool.random(using: &random), let gone = deleted.randomElement(using: &random) { asked.insert(gone) }
            let ascending = Bool.random(using: &random)
            let limit = Int.random(in: 0...4, using: &random)
            let expected = saved.enumerated().filter { asked.contains($0.element.uuid) }.sorted { left, right in
                left.element.startDate != right.element.startDate
                    ? (ascending == (left.element.startDate < right.element.startDate))
                    : left.offset < right.offset
            }.map(\.element)
            let found = try store.execute(SampleQuery(workoutsMatching: .uuids(asked), limit: limit,
                                                      sortDescriptors: [.startDate(ascending: ascending)],
                                                      includingRoutes: true))
            #expect(found == Array(limit > 0 ? expected.prefix(limit) : expected[...]))
            let listed = try store.execute(SampleQuery(workoutsMatching: .uuids(asked),
                                                       sortDescriptors: [.startDate(ascending: ascending)]))
            #expect(listed == PayloadSectionTests.withoutRoutes(expected))
            let page = try store.execute(AnchoredObjectQuery(workoutsMatching: .uuids(asked), includingRoutes: true))
            #expect(Set(page.samples) == Set(expected))
            let merged = try store.execute(MergedSampleQuery([SampleQuery(workoutsMatching: .uuids(asked), includingRoutes: true)]))
            #expect(Set(merged) == Set(expected))
        }
    }
}
