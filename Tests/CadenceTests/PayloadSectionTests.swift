//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// Row payloads (workout routes) kept apart from the columns: the section's round trip, workouts
/// and routes read back from the head, chunks, compacted chunks and a replayed log, chunks split
/// so no section is over its limit, a flush by bytes, and damage to a payload block.
@Suite("Payload sections")
struct PayloadSectionTests {
    /// Random payloads, about one row in three without one, some larger than a block.
    static func randomPayloads(_ random: inout TestRandom, rows: Int) -> [[UInt8]] {
        (0..<rows).map { _ in
            guard Int.random(in: 0..<3, using: &random) > 0 else { return [] }
            return (0..<Int.random(in: 1...3_000, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        }
    }

    @Test("every row's payload reads back, one by one and all at once, whatever the block size",
          arguments: [64, 1_000, PayloadSection.blockSize])
    func roundTrip(blockSize: Int) throws {
        var random = TestRandom(seed: UInt64(blockSize))
        for rows in [0, 1, 7, 200] {
            let payloads = Self.randomPayloads(&random, rows: rows)
            let bytes = try PayloadSection.encode(payloads, blockSize: blockSize, limit: 1 << 20)
            let section = try PayloadSection(bytes: bytes, range: 0..<bytes.count, rowCount: rows, path: "p")
            let expected = payloads.allSatisfy(\.isEmpty) ? [] : payloads
            #expect(try section.allPayloads(rowCount: rows) == expected)
            for row in 0..<rows { #expect(try section.payload(atRow: row) == (payloads[row].isEmpty ? nil : payloads[row])) }
            try section.verify()
            var reader = BinaryReader(bytes + [9], path: "p")
            #expect(try PayloadSection.skip(&reader) == 0..<bytes.count)
        }
    }

    @Test("a payload over the limit a block may hold is refused")
    func payloadOverLimit() {
        let error = expectCadenceError(.invalidArgument) { _ = try PayloadSection.encode([[1, 2, 3]], limit: 2) }
        #expect(error?.message.contains("3 bytes") == true)
    }

    /// Workouts with random routes (some without), in March 2024.
    static func randomWorkouts(_ random: inout TestRandom, count: Int, maxPoints: Int = 400) throws -> [Workout] {
        try (0..<count).map { _ in
            var workout = try WorkoutStorageTests.randomWorkout(&random)
            let points = Int.random(in: 0..<4, using: &random) == 0 ? 0 : Int.random(in: 1...maxPoints, using: &random)
            let start = workout.startDate.timestamp
            workout.routes = points == 0 ? [] : [WorkoutRoute(
                source: workout.source, startDate: workout.startDate, filePath: "/workout-routes/r.gpx",
                locations: LocationSeries((0..<points).map { index in
                    LocationSeries.Location(timestamp: start + Int64(index) * 1_000_000,
                                            latitude: Double.random(in: -90...90, using: &random),
                                            longitude: Double.random(in: -180...180, using: &random),
                                            altitude: 400, speed: Double(index))
                }))]
            return workout
        }
    }

    /// The stored workouts, with and without their routes, ordered by UUID.
    static func read(_ store: HealthStore, routes: Bool) throws -> [Workout] {
        try store.execute(SampleQuery(workoutsMatching: .all, includingRoutes: routes)).sorted { $0.uuid.uuidString < $1.uuid.uuidString }
    }

    static func withoutRoutes(_ workouts: [Workout]) -> [Workout] {
        workouts.map { workout in
            var listed = workout
            listed.routes = []
            return listed
        }
    }

    @Test("workouts and routes read back as saved: in the head, flushed, compacted, after a log replay",
          arguments: [1, 2, 3] as [UInt64])
    func workoutsReadBackFromEveryPlace(seed: UInt64) throws {
        var random = TestRandom(seed: seed)
        let memory = MemoryFileSystem()
        var options = HealthStore.Options()
        options.chunkCapacity = 30
        options.flushThreshold = .max
        options.sectionLimit = 64 * 1024
        var store: HealthStore? = try HealthStore.open(at: "/s", options: options, fileSystem: memory)
        var reference: [UUID: Workout] = [:]
        for round in 0..<4 {
            guard let open = store else { return }
            let saved = try Self.randomWorkouts(&random, count: Int.random(in: 1...50, using: &random))
            try open.save(saved)
            for workout in saved { reference[workout.uuid] = workout }
            switch round {
            case 1: try open.flush()
            case 2:
                let doomed = Array(reference.keys.sorted { $0.uuidString < $1.uuidString }.prefix(10))
                try open.deleteSamples(withUUIDs: doomed)
                for uuid in doomed { reference[uuid] = nil }
                try open.compact(discardingDeletionsBefore: nil)
            default: break
            }
            let expected = reference.values.sorted { $0.uuid.uuidString < $1.uuid.uuidString }
            #expect(try Self.read(open, routes: true) == expected, "round \(round)")
            #expect(try Self.read(open, routes: false) == Self.withoutRoutes(expected), "round \(round)")
            // Reading one workout's routes, and an anchored page of them.
            if let chosen = expected.randomElement(using: &random) {
                #expect(try open.execute(SampleQuery(workoutsMatching: .uuids([chosen.uuid]), includingRoutes: true)) == [chosen])
            }
            let page = try open.execute(AnchoredObjectQuery(workoutsMatching: .all, limit: 7, includingRoutes: true))
            #expect(page.samples.allSatisfy { reference[$0.uuid] == $0 })
        }
        // The last round's saves are in the log only: reopening replays them, payloads and all.
        store = nil
        let reopened = try HealthStore.open(at: "/s", options: options, fileSystem: memory)
        let expected = reference.values.sorted { $0.uuid.uuidString < $1.uuid.uuidString }
        #expect(try Self.read(reopened, routes: true) == expected)
        #expect(reopened.verify().isEmpty)
        try reopened.flush()
        #expect(try Self.read(reopened, routes: true) == expected)
    }

    @Test("a flush cuts rows into more chunks so that no compressed section's input is over the limit")
    func sectionsStayUnderTheLimit() throws {
        var random = TestRandom(seed: 9)
        var options = HealthStore.Options()
        options.sectionLimit = 8 * 1024
        let memory = MemoryFileSystem()
        let store = try HealthStore.open(at: "/s", options: options, fileSystem: memory)
        // Routes of up to 100 points (6.4 KB) fit a block, and the workouts' attributes fit metadata
        // set groups; the detail section of 800 workouts (their UUIDs alone are 12.8 KB) does not.
        let workouts = try Self.randomWorkouts(&random, count: 800, maxPoints: 100)
        try store.save(workouts)
        try store.flush()
        let chunks = try memory.contentsOfDirectory("/s").filter { $0.hasPrefix("chunk-") }
        #expect(chunks.count > 1)
        for name in chunks {
            let file = try ChunkFile(bytes: try memory.readFile("/s/" + name), path: name)
            let columns = try file.decodeAllColumns(readingPayloads: true)
            #expect(ColumnCodec.encodeQueryColumns(columns).count <= options.sectionLimit)
            #expect(ColumnCodec.encodeDetailColumns(columns, metadataSetsApart: true).count <= options.sectionLimit)
            let setGroups = try ChunkBlockTests.Layout(try memory.readFile("/s/" + name)).metadataSetGroupLengths
            #expect(!setGroups.isEmpty && setGroups.allSatisfy { $0 <= options.sectionLimit })
        }
        let expected = workouts.sorted { $0.uuid.uuidString < $1.uuid.uuidString }
        #expect(try Self.read(store, routes: true) == expected)
        // A single row over the limit cannot be cut.
        let columns = try ChunkFile(bytes: try memory.readFile("/s/" + chunks[0]), path: "c").decodeAllColumns()
        expectCadenceError(.invalidArgument) {
            _ = try ChunkFile.encodeSplitting(columns, typeIdentifier: Workout.typeIdentifier, style: .discreteArithmetic,
                                              sectionLimit: 10)
        }
    }

    @Test("a save flushes when the head's bytes pass the threshold, however few its rows")
    func flushByBytes() throws {
        var random = TestRandom(seed: 10)
        var options = HealthStore.Options()
        options.flushByteThreshold = 200 * 1024
        let memory = MemoryFileSystem()
        let store = try HealthStore.open(at: "/s", options: options, fileSystem: memory)
        var saved = 0
        while try memory.contentsOfDirectory("/s").allSatisfy({ !$0.hasPrefix("chunk-") }), saved < 500 {
            try store.save(Self.randomWorkouts(&random, count: 5))
            saved += 5
        }
        // Each workout with a route holds up to 400 points of 64 bytes: far fewer rows than the
        // count threshold fill 200 KiB.
        #expect(saved < 200)
        #expect(try store.info().types.reduce(0) { $0 + $1.unflushedSamples } < saved)
    }

    @Test("a flipped byte in a payload block: listings without routes still read, routes, verify and repair name the file")
    func damagedPayloadBlock() throws {
        var random = TestRandom(seed: 11)
        let memory = MemoryFileSystem()
        let store = try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: memory)
        let workouts = try Self.randomWorkouts(&random, count: 40)
        try store.save(workouts)
        try store.close()
        let name = try #require(try memory.contentsOfDirectory("/s").first { $0.hasPrefix("chunk-") })
        let path = "/s/" + name
        var bytes = try memory.readFile(path)
        // The last byte of the file is in the last payload block's compressed bytes.
        bytes[bytes.count - 1] ^= 0x40
        memory.overwrite(path, with: bytes)

        let reader = try HealthStore.open(at: "/s", options: .readOnly, fileSystem: memory)
        #expect(try Self.read(reader, routes: false) == Self.withoutRoutes(workouts.sorted { $0.uuid.uuidString < $1.uuid.uuidString }))
        let error = expectCadenceError(.corruptFile) { _ = try Self.read(reader, routes: true) }
        #expect(error?.path == path)
        // Read by UUID, a route in the damaged block fails the same way; the workout alone still reads.
        // (The last payload in row order is in the last block.)
        let last = try #require(workouts.filter { !$0.routes.isEmpty }.max { $0.startDate < $1.startDate })
        let byUUID = expectCadenceError(.corruptFile) {
            _ = try reader.execute(SampleQuery(workoutsMatching: .uuids([last.uuid]), includingRoutes: true))
        }
        #expect(byUUID?.path == path)
        #expect(try reader.execute(SampleQuery(workoutsMatching: .uuids([last.uuid]))) == Self.withoutRoutes([last]))
        #expect(reader.verify().map(\.path) == [path])
        try reader.close()

        let report = try HealthStore.repair(at: "/s", fileSystem: memory)
        #expect(report.damage.map(\.path) == [path])
        let repaired = try HealthStore.open(at: "/s", options: .readOnly, fileSystem: memory)
        #expect(repaired.verify().isEmpty)
    }

    @Test("a damaged payload directory is corruptFile naming the file, when a payload is read")
    func damagedDirectory() throws {
        var random = TestRandom(seed: 12)
        var batch = QuantitySampleBatch(type: .series(Workout.typeIdentifier))
        for workout in try Self.randomWorkouts(&random, count: 10) { try batch.append(workout) }
        let encoded = try ChunkFile.encode(batch.columns.sortedByStart(), typeIdentifier: Workout.typeIdentifier,
                                           style: .discreteArithmetic)
        let file = try ChunkFile(bytes: encoded.bytes, path: "c")
        let section = try #require(try file.payloads())
        #expect(!section.rows.isEmpty)
        // The directory's checksum is the payload section's second word: after the detail section.
        let detailEnd = encoded.bytes.count - (try PayloadSection.encode(batch.columns.sortedByStart().payloads,
                                                                         limit: ChunkFile.sectionLimit).count)
        var damaged = encoded.bytes
        damaged[detailEnd + 8] ^= 1
        let error = expectCadenceError(.corruptFile) { _ = try ChunkFile(bytes: damaged, path: "c").payloads() }
        #expect(error?.path == "c")
        // Rows still decode (a listing reads no part of the payload section); a payload does not.
        let columns = try ChunkFile(bytes: damaged, path: "c").decodeAllColumns()
        #expect(columns.count == 10)
        let row = try #require(section.rows.first)
        expectCadenceError(.corruptFile) { _ = try columns.payload(at: row) }
    }
}
