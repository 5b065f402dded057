//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// A store kept from an earlier format version, and the version it was written in.
struct EarlierVersionStore: Sendable, CustomTestStringConvertible {
    var version: UInt16

    /// Version 4: query columns one LZ4 block per chunk, one deletions file, no device addresses.
    static let four = EarlierVersionStore(version: 4)
    /// Version 5 as first released: one deletions file for every type, the first query block
    /// directory layout, no hour summaries.
    static let five = EarlierVersionStore(version: 5)

    /// `Tests/Fixtures/store-version-<version>`: the store, its `export.xml` and a README.
    var directory: URL { ImportFixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/store-version-\(version)") }

    var testDescription: String { "version \(version)" }

    /// What the store kept of contents imported today: before version 5, device descriptions
    /// without their object address (the fixtures' devices are all on quantity samples).
    func kept(_ contents: StoreVersionFourTests.Contents) -> StoreVersionFourTests.Contents {
        version < 5 ? StoreVersionFourTests.asVersionFourKept(contents) : contents
    }
}

/// Stores written by earlier format versions (`Tests/Fixtures/store-version-4` and `-5`) against
/// a store that imports the same export today: every kind of sample reads back equal, before and
/// after the old store is opened for writing and after its chunk files are upgraded.
@Suite("Stores of earlier format versions")
struct StoreVersionFourTests {
    /// The version 4 fixture's directory.
    static let fixture = EarlierVersionStore.four.directory
    /// The sample the fixtures' retained deletion removed (the second step count).
    static let deletedUUID = UUID(uuidString: "BBDDD412-9BF2-816C-8698-BAD87DF8360A")

    /// Everything a store answers for the fixture's kinds, sorted by UUID so that the order of
    /// equal start dates does not matter.
    struct Contents: Equatable {
        var quantities: [String: [QuantitySample]] = [:]
        var categories: [String: [CategorySample]] = [:]
        var correlations: [String: [Correlation]] = [:]
        var workouts: [Workout] = []

        init(_ store: HealthStore) throws {
            for type in store.quantityTypes {
                quantities[type.identifier] = try store.execute(SampleQuery(quantityType: type)).sorted { $0.uuid.uuidString < $1.uuid.uuidString }
            }
            for type in store.categoryTypes {
                categories[type.identifier] = try store.execute(SampleQuery(categoryType: type)).sorted { $0.uuid.uuidString < $1.uuid.uuidString }
            }
            for type in store.correlationTypes {
                correlations[type.identifier] = try store.execute(SampleQuery(correlationType: type)).sorted { $0.uuid.uuidString < $1.uuid.uuidString }
            }
            workouts = try store.execute(SampleQuery(workoutsMatching: .all, includingRoutes: true)).sorted { $0.uuid.uuidString < $1.uuid.uuidString }
        }
    }

    /// A fixture's source, imported today into a new store, with the fixture's deletion made.
    static func reference(of fixture: URL = fixture) throws -> Contents {
        let export = StoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: export) }
        let routes = export + "/apple_health_export/workout-routes"
        try FileManager.default.createDirectory(atPath: routes, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixture.appendingPathComponent("export.xml").path,
                                         toPath: export + "/apple_health_export/export.xml")
        let route = "route_2024-05-01_7.07am.gpx"
        try FileManager.default.copyItem(
            atPath: ImportFixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/routes/" + route).path,
            toPath: routes + "/" + route)
        let store = HealthStore.inMemory()
        let summary = try HealthDataImporter(store: store, parallelism: 1)
            .importFile(atPath: export + "/apple_health_export/export.xml")
        #expect(!summary.failed)
        let deleted = try #require(deletedUUID)
        #expect(try store.deleteSamples(withUUIDs: [deleted]) == 1)
        return try Contents(store)
    }

    /// What version 4 kept of these contents: device descriptions without their object address
    /// (the fixture's devices are all on quantity samples).
    static func asVersionFourKept(_ contents: Contents) -> Contents {
        var kept = contents
        kept.quantities = contents.quantities.mapValues { samples in
            samples.map { sample in
                var sample = sample
                sample.device = sample.device?.splittingObjectAddress.device
                return sample
            }
        }
        return kept
    }

    static func manifestVersion(_ path: String) throws -> UInt16 {
        let bytes = try POSIXFileSystem().readFile(path + "/MANIFEST")
        return try FormatVersion.readHeader(bytes, magic: Manifest.magic, kind: "store manifest", path: path).version
    }

    @Test("reads back what importing its source today reads back, once opened for writing and once upgraded",
          arguments: [EarlierVersionStore.four, .five])
    func earlierStoreAnswersAsToday(_ old: EarlierVersionStore) throws {
        let path = StoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileManager.default.copyItem(atPath: old.directory.appendingPathComponent("store").path, toPath: path)
        #expect(try Self.manifestVersion(path) == old.version)
        #expect(try UpgradeTests.chunkVersions(path).values.allSatisfy { $0 == old.version })
        let reference = try Self.reference(of: old.directory)
        #expect(reference.workouts.first?.routes.first?.locations.count == 15)
        let steps = "HKQuantityTypeIdentifierStepCount"
        #expect(reference.quantities[steps]?.compactMap(\.device?.rawDescription) == [
            "<<HKDevice: 0x282e86490>, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone15,2, software:17.4>"])
        let expected = old.kept(reference)
        if old.version < 5 {
            // Version 4 kept the step count's device without its object address, and it reads so.
            #expect(expected.quantities[steps]?.compactMap(\.device?.rawDescription) == [
                "<<HKDevice>, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone15,2, software:17.4>"])
        }
        let deleted = try #require(Self.deletedUUID)
        #expect(expected.quantities[steps]?.contains { $0.uuid == deleted } == false)

        let reader = try HealthStore.open(at: path, options: .readOnly)
        #expect(reader.verify().isEmpty)
        #expect(try Contents(reader) == expected)
        #expect(try Self.deletedObjects(reader, steps) == [deleted])

        // The first writable open moves the store to the current version: its one deletions file
        // becomes a file per type.
        let writer = try HealthStore.open(at: path)
        try writer.close()
        #expect(try Self.manifestVersion(path) == FormatVersion.current)
        let manifest = try Manifest(decoding: POSIXFileSystem().readFile(path + "/MANIFEST"), path: path + "/MANIFEST",
                                    fileSystem: POSIXFileSystem())
        #expect(manifest.types.filter { $0.deletions.file != nil }.map(\.type.identifier) == [steps])
        let moved = try HealthStore.open(at: path, options: .readOnly)
        #expect(moved.verify().isEmpty)
        #expect(try Contents(moved) == expected)
        #expect(try Self.deletedObjects(moved, steps) == [deleted])

        // Importing the source again adds nothing (identity never depended on the address), keeps
        // the device as stored, and does not bring the deleted sample back.
        let again = try HealthStore.open(at: path)
        let summary = try HealthDataImporter(store: again, parallelism: 1)
            .importFile(atPath: old.directory.appendingPathComponent("export.xml").path)
        #expect(summary.imported == 0 && summary.duplicates > 0)
        #expect(try Contents(again) == expected)

        // Upgrading rewrites every chunk file in the current version; nothing else changes.
        #expect(try again.outdatedChunkFiles() > 0)
        let report = try again.upgrade()
        #expect(report.chunks > 0 && report.formatVersion == HealthStore.formatVersion)
        #expect(try Contents(again) == expected)
        try again.close()
        #expect(try UpgradeTests.chunkVersions(path).values.allSatisfy { $0 == FormatVersion.current })
        let upgraded = try HealthStore.open(at: path, options: .readOnly)
        #expect(upgraded.verify().isEmpty)
        #expect(try upgraded.outdatedChunkFiles() == 0)
        #expect(try Contents(upgraded) == expected)
        #expect(try Self.deletedObjects(upgraded, steps) == [deleted])
    }

    /// The deleted objects an anchored query from the start reports for a quantity type.
    static func deletedObjects(_ store: HealthStore, _ identifier: String) throws -> [UUID] {
        let type = try #require(store.quantityTypes.first { $0.identifier == identifier })
        return try store.execute(AnchoredObjectQuery(quantityType: type)).deletedObjects.map(\.uuid)
    }
}
