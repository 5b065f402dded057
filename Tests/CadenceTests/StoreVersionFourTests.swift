//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// A store written by format version 4 (`Tests/Fixtures/store-version-4`) against a store that
/// imports the same export today: every kind of sample reads back equal, before and after the old
/// store is opened for writing.
@Suite("A format version 4 store")
struct StoreVersionFourTests {
    static let fixture = ImportFixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/store-version-4")

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

    /// The fixture's source, imported today into a new store, with the fixture's deletion made.
    static func reference() throws -> Contents {
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
        let deleted = try #require(UUID(uuidString: "BBDDD412-9BF2-816C-8698-BAD87DF8360A"))
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

    @Test("reads back what importing its source today reads back, and still does once opened for writing")
    func versionFourStoreAnswersAsToday() throws {
        let path = StoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileManager.default.copyItem(atPath: Self.fixture.appendingPathComponent("store").path, toPath: path)
        #expect(try Self.manifestVersion(path) == 4)
        let reference = try Self.reference()
        #expect(reference.workouts.first?.routes.first?.locations.count == 15)
        // Version 4 kept the step count's device without its object address, and it reads so.
        let steps = "HKQuantityTypeIdentifierStepCount"
        #expect(reference.quantities[steps]?.compactMap(\.device?.rawDescription) == [
            "<<HKDevice: 0x282e86490>, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone15,2, software:17.4>"])
        let expected = Self.asVersionFourKept(reference)
        #expect(expected.quantities[steps]?.compactMap(\.device?.rawDescription) == [
            "<<HKDevice>, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone15,2, software:17.4>"])

        let old = try HealthStore.open(at: path, options: .readOnly)
        #expect(old.verify().isEmpty)
        #expect(try Contents(old) == expected)

        let writer = try HealthStore.open(at: path)
        try writer.close()
        #expect(try Self.manifestVersion(path) == FormatVersion.current)
        let moved = try HealthStore.open(at: path, options: .readOnly)
        #expect(moved.verify().isEmpty)
        #expect(try Contents(moved) == expected)

        // Importing the source again adds nothing (identity never depended on the address) and
        // keeps the device as stored.
        let again = try HealthStore.open(at: path)
        let summary = try HealthDataImporter(store: again, parallelism: 1)
            .importFile(atPath: Self.fixture.appendingPathComponent("export.xml").path)
        #expect(summary.imported == 0 && summary.duplicates > 0)
        #expect(try Contents(again) == expected)
        try again.close()
    }
}
