//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// Rewriting a format version 4 store (an upgrade, a compaction) moves each workout's routes out
/// of its row's attributes into its payload, leaving the rows as importing the same export today
/// writes them.
@Suite("Routes of a version 4 store")
struct UpgradeRouteTests {
    /// A workout row as storage holds it: its metadata (the attributes among it) and its payload.
    struct StoredRow: Equatable {
        var metadata: [String: String]
        var payload: [UInt8]
    }

    /// Every workout row of `store` by UUID.
    static func workoutRows(_ store: HealthStore) throws -> [UUID: StoredRow] {
        let snapshot = store.snapshot()
        guard let type = snapshot.types[Workout.typeIdentifier] else { return [:] }
        let identity = SampleIdentity(type: Workout.typeIdentifier, provenances: snapshot.provenances)
        var rows: [UUID: StoredRow] = [:]
        try StoredSample.forEachRow(of: type, details: true) { columns, row in
            rows[identity.uuid(of: columns, row: row, metadataDigests: nil)] =
                StoredRow(metadata: columns.metadata(at: row), payload: try columns.payload(at: row) ?? [])
        }
        return rows
    }

    /// How many workout rows keep routes inside their attributes (format version 4's way).
    static func rowsWithRoutesInText(_ store: HealthStore) throws -> Int {
        try workoutRows(store).values.filter { row in
            guard let text = row.metadata[KindAttributes.workout] else { return false }
            return try WorkoutAttributes.head(of: text).version == WorkoutAttributes.versionWithRoutes
        }.count
    }

    /// The fixture's export imported today, flushed, as rows.
    static func importedRows() throws -> [UUID: StoredRow] {
        let export = StoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: export) }
        let routes = export + "/apple_health_export/workout-routes"
        try FileManager.default.createDirectory(atPath: routes, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: StoreVersionFourTests.fixture.appendingPathComponent("export.xml").path,
                                         toPath: export + "/apple_health_export/export.xml")
        let route = "route_2024-05-01_7.07am.gpx"
        try FileManager.default.copyItem(
            atPath: ImportFixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/routes/" + route).path,
            toPath: routes + "/" + route)
        let store = HealthStore.inMemory()
        #expect(try !HealthDataImporter(store: store, parallelism: 1).importFile(atPath: export + "/apple_health_export/export.xml").failed)
        try store.flush()
        return try workoutRows(store)
    }

    /// Checks that `store`'s workout rows are those an import writes today, their routes in
    /// payloads, and that its workouts and routes read back as `expected`.
    static func expectRoutesInPayloads(_ store: HealthStore, expected: [Workout]) throws {
        let rows = try workoutRows(store)
        #expect(try rowsWithRoutesInText(store) == 0)
        #expect(rows.values.contains { !$0.payload.isEmpty })
        // The rows a deletion hides are not listed; every other is as imported.
        let imported = try importedRows()
        #expect(!rows.isEmpty && rows.count >= imported.count - 1)
        for (uuid, row) in rows { #expect(imported[uuid] == row, "workout \(uuid)") }
        let workouts = try store.execute(SampleQuery(workoutsMatching: .all, includingRoutes: true))
        #expect(workouts.sorted { $0.uuid.uuidString < $1.uuid.uuidString } == expected)
        for workout in expected where !workout.routes.isEmpty {
            let found = try store.execute(SampleQuery(workoutsMatching: .uuids([workout.uuid]), includingRoutes: true))
            #expect(found.first?.routes == workout.routes)
        }
    }

    /// The fixture's workouts with their routes, sorted by UUID, as the version 4 store reads them.
    static func versionFourWorkouts(_ path: String) throws -> [Workout] {
        let store = try HealthStore.open(at: path, options: .readOnly)
        let workouts = try store.execute(SampleQuery(workoutsMatching: .all, includingRoutes: true))
        #expect(try rowsWithRoutesInText(store) > 0, "the fixture keeps a route in a row's text")
        #expect(workouts.contains { !$0.routes.isEmpty })
        return workouts.sorted { $0.uuid.uuidString < $1.uuid.uuidString }
    }

    @Test("After an upgrade a version 4 workout's routes are its payload, read back the same, as an import writes them")
    func upgradeMovesRoutes() throws {
        let path = try UpgradeTests.copyOfVersionFourStore()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let expected = try Self.versionFourWorkouts(path)
        let store = try HealthStore.open(at: path)
        try store.upgrade()
        try Self.expectRoutesInPayloads(store, expected: expected)
        try store.close()
        try Self.expectRoutesInPayloads(try HealthStore.open(at: path, options: .readOnly), expected: expected)
    }

    @Test("After a compaction a version 4 workout's routes are its payload, read back the same")
    func compactionMovesRoutes() throws {
        let path = try UpgradeTests.copyOfVersionFourStore()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let expected = try Self.versionFourWorkouts(path)
        let store = try HealthStore.open(at: path)
        try store.compact()
        try Self.expectRoutesInPayloads(store, expected: expected)
        try store.close()
    }

    @Test("Listing upgraded workouts reads no route: with every payload block damaged it still answers, and a route read fails naming the file")
    func listingReadsNoRoute() throws {
        let path = try UpgradeTests.copyOfVersionFourStore()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let expected = try Self.versionFourWorkouts(path)
        do {
            let store = try HealthStore.open(at: path)
            try store.upgrade()
            try store.close()
        }
        let reader = try HealthStore.open(at: path, options: .readOnly)
        let chunks = try #require(reader.snapshot().types[Workout.typeIdentifier]).chunks
        var damaged: [String] = []
        for chunk in chunks {
            let file = try chunk.file()
            guard let section = try file.payloads(), section.blockCount > 0 else { continue }
            var bytes = try POSIXFileSystem().readFile(chunk.path)
            // The last byte of the file is the last payload block's.
            bytes[bytes.count - 1] ^= 0x20
            try Data(bytes).write(to: URL(fileURLWithPath: chunk.path))
            damaged.append(chunk.path)
        }
        try #require(!damaged.isEmpty)
        let store = try HealthStore.open(at: path, options: .readOnly)
        let listed = try store.execute(SampleQuery(workoutsMatching: .all))
        #expect(listed.count == expected.count)
        #expect(listed.allSatisfy { $0.routes.isEmpty })
        let error = expectCadenceError(.corruptFile) {
            _ = try store.execute(SampleQuery(workoutsMatching: .all, includingRoutes: true))
        }
        #expect(error.map { damaged.contains($0.path ?? "") } == true)
    }
}
