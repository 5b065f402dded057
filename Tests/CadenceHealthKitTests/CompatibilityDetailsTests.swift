//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import CadenceHealthKit
import Foundation
import Testing

/// Units, predicates, errors and store opening of the compatibility layer.
@Suite("CadenceHealthKit details")
struct CompatibilityDetailsTests {
    @Test("units convert with HealthKit's constants; a unit outside the grammar converts to nan, never traps")
    func units() {
        let fiveKilometers = HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 5)
        #expect(abs(fiveKilometers.doubleValue(for: .mile()) - 5_000 / 1_609.34) < 1e-9)
        #expect(fiveKilometers.is(compatibleWith: .foot()))
        #expect(!fiveKilometers.is(compatibleWith: .count()))
        #expect(fiveKilometers.doubleValue(for: .count()).isNaN)
        let bpm = HKUnit.count().unitDivided(by: .minute())
        #expect(bpm == HKUnit(from: "count/min"))
        #expect(HKQuantity(unit: bpm, doubleValue: 60).doubleValue(for: HKUnit.count().unitDivided(by: .second())) == 1)
        #expect(HKQuantity(unit: .largeCalorie(), doubleValue: 1).doubleValue(for: .kilocalorie()) == 1)
        #expect(HKQuantity(unit: .pound(), doubleValue: 1).doubleValue(for: .gram()) == 453.592)
        #expect(HKQuantity(unit: .degreeCelsius(), doubleValue: 37).doubleValue(for: .degreeFahrenheit()) - 98.6 < 1e-9)
        let kilogramsPerSquareMeter = HKUnit.gramUnit(with: .kilo).unitDivided(by: HKUnit.meter().unitRaised(toPower: 2))
        #expect(HKQuantity(unit: kilogramsPerSquareMeter, doubleValue: 1).doubleValue(for: HKUnit(from: "g/cm^2")) == 0.1)
        #expect(HKQuantity(unit: HKUnit(from: "furlongs"), doubleValue: 1).doubleValue(for: .meter()).isNaN)
        #expect(HKQuantityType(.stepCount).is(compatibleWith: .count()))
        #expect(HKQuantityType(.heartRate).aggregationStyle == .discreteTemporallyWeighted)
        #expect(HKObjectType.quantityType(forIdentifier: HKQuantityTypeIdentifier("HKQuantityTypeIdentifierNoSuchThing")) == nil)
    }

    @Test("NSCompoundPredicate and, or and not of factory predicates select what the Cadence predicates select")
    func compoundPredicates() async throws {
        let fixture = HealthFixture()
        var random = HealthFixture.Random(state: 12)
        try fixture.saveSteps(&random)
        let healthStore = HKHealthStore(store: fixture.store)
        let from = HealthFixture.date(day: 2, hour: 0)
        let to = HealthFixture.date(day: 6, hour: 0)
        let everything: [HKSample] = try await withCheckedThrowingContinuation { continuation in
            healthStore.execute(HKSampleQuery(sampleType: HKQuantityType(.stepCount), predicate: nil, limit: 0,
                                              sortDescriptors: nil) { _, samples, error in
                if let samples { continuation.resume(returning: samples) } else { continuation.resume(throwing: error ?? CancellationError()) }
            })
        }
        let watch = try #require(everything.map(\.sourceRevision.source).first { $0.name == HealthFixture.watch.name })
        #expect(watch.bundleIdentifier == HealthFixture.watch.bundleIdentifier)
        let big = HKQuery.predicateForQuantitySamples(with: .greaterThanOrEqualTo,
                                                      quantity: HKQuantity(unit: .count(), doubleValue: 400))
        let cases: [(NSPredicate, SamplePredicate)] = [
            (NSCompoundPredicate(andPredicateWithSubpredicates: [
                HKQuery.predicateForSamples(withStart: from, end: to, options: .strictEndDate), big]),
             .samples(start: from, end: to, options: .strictEndDate) && .quantity(.greaterThanOrEqual, Quantity(value: 400, unit: .count))),
            (NSCompoundPredicate(orPredicateWithSubpredicates: [HKQuery.predicateForObjects(from: watch), big]),
             .sources(named: [HealthFixture.watch.name]) || .quantity(.greaterThanOrEqual, Quantity(value: 400, unit: .count))),
            (NSCompoundPredicate(notPredicateWithSubpredicate: HKQuery.predicateForObjects(from: [watch])),
             !.sources(named: [HealthFixture.watch.name])),
        ]
        for (predicate, cadence) in cases {
            let samples: [HKSample] = try await withCheckedThrowingContinuation { continuation in
                healthStore.execute(HKSampleQuery(sampleType: HKQuantityType(.stepCount), predicate: predicate,
                                                  limit: HKObjectQueryNoLimit, sortDescriptors: nil) { _, samples, error in
                    if let samples { continuation.resume(returning: samples) } else { continuation.resume(throwing: error ?? CancellationError()) }
                })
            }
            let expected = try fixture.store.execute(SampleQuery(quantityType: .stepCount, predicate: cadence))
            #expect(samples.map(\.uuid) == expected.map(\.uuid))
            #expect(!samples.isEmpty)
        }
    }

    @Test("what HealthKit raises an exception for is an error in the handler: an option the type does not take, a block predicate, an unknown sort key")
    func errorsReachTheHandler() async throws {
        let healthStore = HKHealthStore(store: HealthStore.inMemory())
        let invalidOption: (any Error)? = await withCheckedContinuation { continuation in
            healthStore.execute(HKStatisticsQuery(quantityType: HKQuantityType(.heartRate), quantitySamplePredicate: nil,
                                                  options: .cumulativeSum) { _, statistics, error in
                continuation.resume(returning: statistics == nil ? error : nil)
            })
        }
        #expect(invalidOption is CadenceError)
        let block = NSPredicate { _, _ in true }
        let unsupported: (any Error)? = await withCheckedContinuation { continuation in
            healthStore.execute(HKSampleQuery(sampleType: HKQuantityType(.stepCount), predicate: block, limit: 0,
                                              sortDescriptors: nil) { _, samples, error in
                continuation.resume(returning: samples == nil ? error : nil)
            })
        }
        #expect((unsupported as? CadenceError)?.code == .invalidArgument)
        let unknownKey: (any Error)? = await withCheckedContinuation { continuation in
            healthStore.execute(HKSampleQuery(sampleType: HKQuantityType(.stepCount), predicate: nil, limit: 0,
                                              sortDescriptors: [NSSortDescriptor(key: "quantity", ascending: true)]) { _, samples, error in
                continuation.resume(returning: samples == nil ? error : nil)
            })
        }
        #expect((unknownKey as? CadenceError)?.code == .invalidArgument)
    }

    @Test("a store opened from a path keeps what HealthKit-style code saves; one that cannot open reports it to each query")
    func storeOpening() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-hk-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let time = Date(timeIntervalSince1970: 1_700_000_000)
        do {
            let healthStore = HKHealthStore(url: directory)
            let weight = HKQuantitySample(type: HKQuantityType(.bodyMass), quantity: HKQuantity(unit: .pound(), doubleValue: 154),
                                          start: time, end: time, metadata: ["HKWasUserEntered": true])
            try await healthStore.save(weight)
            try healthStore.store.close()
        }
        let reopened = try HealthStore.open(at: directory.path)
        let saved = try reopened.execute(SampleQuery(quantityType: .bodyMass))
        #expect(saved.count == 1)
        #expect(abs((saved.first?.value ?? 0) - 154 * 0.453592) < 1e-9)
        #expect(saved.first?.metadata == ["HKWasUserEntered": "1"])
        try reopened.close()

        // A file where the store directory should be: the store cannot open.
        let blocker = directory.appendingPathComponent("not-a-directory")
        try Data("x".utf8).write(to: blocker)
        let broken = HKHealthStore(path: blocker.path)
        let error: (any Error)? = await withCheckedContinuation { continuation in
            broken.execute(HKSampleQuery(sampleType: HKQuantityType(.stepCount), predicate: nil, limit: 0,
                                         sortDescriptors: nil) { _, _, error in continuation.resume(returning: error) })
        }
        #expect(error != nil)
        #expect(HKHealthStore.storePathEnvironmentVariable == "CADENCE_HEALTH_STORE")
        #expect(HKHealthStore.isHealthDataAvailable())
        #expect(HKHealthStore(store: reopened).authorizationStatus(for: HKQuantityType(.stepCount)) == .sharingAuthorized)
    }

    @Test("HKHealthStore() opens the directory CADENCE_HEALTH_STORE names")
    func environmentDefault() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cadence-hk-env-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        setenv(HKHealthStore.storePathEnvironmentVariable, directory.path, 1)
        defer { unsetenv(HKHealthStore.storePathEnvironmentVariable) }
        let healthStore = HKHealthStore()
        let store = try healthStore.store
        #expect(store.path == directory.path)
        try store.close()
    }

    @Test("enumerateStatistics stops when the block sets stop; a query executed twice reports an error the second time")
    func stopAndReuse() async throws {
        let fixture = HealthFixture()
        var random = HealthFixture.Random(state: 16)
        try fixture.saveSteps(&random)
        let healthStore = HKHealthStore(store: fixture.store)
        let (collections, continuation) = AsyncStream.makeStream(of: (HKStatisticsCollection?, String?).self)
        let query = HKStatisticsCollectionQuery(quantityType: HKQuantityType(.stepCount), quantitySamplePredicate: nil,
                                                options: .cumulativeSum, anchorDate: HealthFixture.start,
                                                intervalComponents: DateComponents(hour: 6))
        query.initialResultsHandler = { _, collection, error in continuation.yield((collection, error.map { "\($0)" })) }
        healthStore.execute(query)
        healthStore.execute(query)
        var iterator = collections.makeAsyncIterator()
        let first = try #require(await iterator.next())
        let second = try #require(await iterator.next())
        continuation.finish()
        let collection = try #require(first.0 ?? second.0)
        #expect((first.1 ?? second.1)?.contains("already executed") == true)
        var visited: [Date] = []
        collection.enumerateStatistics(from: HealthFixture.start, to: HealthFixture.date(day: 5, hour: 0)) { statistics, stop in
            visited.append(statistics.startDate)
            if visited.count == 3 { stop.pointee = true }
        }
        #expect(visited == [0, 6, 12].map { HealthFixture.date(day: 0, hour: Double($0)) })
    }

    @Test("an observer query with a predicate notifies only for changes it selects, once for a transaction of several")
    func observerPredicate() async throws {
        let fixture = HealthFixture()
        let healthStore = HKHealthStore(store: fixture.store)
        let (notifications, continuation) = AsyncStream.makeStream(of: Void.self)
        let big = HKQuery.predicateForQuantitySamples(with: .greaterThan, quantity: HKQuantity(unit: .count(), doubleValue: 1_000))
        let query = HKObserverQuery(sampleType: HKQuantityType(.stepCount), predicate: big) { _, done, _ in
            continuation.yield()
            done()
        }
        healthStore.execute(query)
        var iterator = notifications.makeAsyncIterator()
        await iterator.next()
        let time = HealthFixture.date(day: 0, hour: 9)
        try fixture.store.save([QuantitySample(type: .stepCount, value: 10, start: time, end: time, source: HealthFixture.phone)])
        // One transaction, two matching samples: one notification.
        try fixture.store.save([QuantitySample(type: .stepCount, value: 5_000, start: time, end: time, source: HealthFixture.watch),
                                QuantitySample(type: .stepCount, value: 6_000, start: time, end: time, source: HealthFixture.phone)])
        await iterator.next()
        healthStore.stop(query)
        try fixture.store.save([QuantitySample(type: .stepCount, value: 9_000, start: time, end: time, source: HealthFixture.watch)])
        try await Task.sleep(for: .milliseconds(200))
        continuation.finish()
        // Had the small save notified, its notification would still be waiting here.
        #expect(await iterator.next() == nil)
    }

    @Test("device predicates select what Cadence's device predicates select")
    func devicePredicates() async throws {
        let store = HealthStore.inMemory()
        let watch = Device(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardwareVersion: "Watch6,2")
        let phone = Device(name: "iPhone", manufacturer: "Apple Inc.", model: "iPhone", hardwareVersion: "iPhone15,2")
        let time = Date(timeIntervalSince1970: 1_700_000_000)
        var samples: [QuantitySample] = []
        for index in 0..<12 {
            let device: Device? = index.isMultiple(of: 3) ? phone : index.isMultiple(of: 2) ? watch : nil
            let when = time.addingTimeInterval(Double(index) * 60)
            samples.append(try QuantitySample(type: .heartRate, value: Double(60 + index), start: when, end: when,
                                              source: HealthFixture.watch, device: device))
        }
        try store.save(samples)
        let healthStore = HKHealthStore(store: store)
        let watchDevice = HKDevice(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardwareVersion: nil,
                                   firmwareVersion: nil, softwareVersion: nil, localIdentifier: nil, udiDeviceIdentifier: nil)
        let cases: [(NSPredicate, SamplePredicate)] = [
            (HKQuery.predicateForObjects(withDeviceProperty: HKDevicePropertyKeyModel, allowedValues: ["Watch"]),
             .devices(.model, in: ["Watch"])),
            (HKQuery.predicateForObjects(withDeviceProperty: HKDevicePropertyKeyManufacturer, allowedValues: ["Apple Inc."]),
             .devices(.manufacturer, in: ["Apple Inc."])),
            (HKQuery.predicateForObjects(from: [watchDevice]),
             .devices(.name, in: ["Apple Watch"]) && .devices(.manufacturer, in: ["Apple Inc."]) && .devices(.model, in: ["Watch"])),
        ]
        for (predicate, cadence) in cases {
            let samples = try await HKSampleQueryDescriptor(
                predicates: [.quantitySample(type: HKQuantityType(.heartRate), predicate: predicate)],
                sortDescriptors: []).result(for: healthStore)
            let expected = try store.execute(SampleQuery(quantityType: .heartRate, predicate: cadence))
            #expect(samples.map(\.uuid) == expected.map(\.uuid))
            #expect(!samples.isEmpty && samples.count < 12)
        }
        #expect(try store.execute(SampleQuery(quantityType: .heartRate, predicate: .devices(.model, in: ["Watch"]))).count == 4)
    }
}

/// The identifier constants of CadenceHealthKit are written out by hand from the Cadence type
/// tables; this keeps them from drifting apart.
@Suite("CadenceHealthKit identifier constants")
struct IdentifierConstantsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `public static let` names and raw identifiers declared in a source file.
    static func constants(in path: String, prefix: String) throws -> [String: String] {
        let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        var found: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard let let_ = words.firstIndex(of: "let"), words.count > let_ + 1, line.contains("public static let"),
                  let quote = line.range(of: "\"") else { continue }
            let rest = line[quote.upperBound...]
            guard let end = rest.firstIndex(of: "\"") else { continue }
            let raw = String(rest[..<end])
            found[String(words[let_ + 1])] = raw.hasPrefix("HK") ? raw : prefix + raw
        }
        return found
    }

    @Test("every quantity and category type of the Cadence tables has an HK identifier constant of the same name and value")
    func constantsMatchTheTables() throws {
        let hk = try Self.constants(in: "Sources/CadenceHealthKit/HKTypeIdentifier+Constants.swift", prefix: "")
        let quantities = try Self.constants(in: "Sources/Cadence/Model/QuantityType+Members.swift",
                                            prefix: QuantityType.identifierPrefix)
        let categories = try Self.constants(in: "Sources/Cadence/Model/CategoryType+Members.swift",
                                            prefix: CategoryType.identifierPrefix)
        #expect(quantities.count == QuantityType.allKnown.count)
        #expect(categories.count > 60)
        let cadence = quantities.merging(categories) { first, _ in first }
        #expect(hk == cadence)
        for (name, identifier) in quantities {
            #expect(HKObjectType.quantityType(forIdentifier: HKQuantityTypeIdentifier(rawValue: identifier))?.identifier == identifier, "\(name)")
        }
        for (name, identifier) in categories {
            #expect(HKObjectType.categoryType(forIdentifier: HKCategoryTypeIdentifier(rawValue: identifier))?.identifier == identifier, "\(name)")
        }
    }
}
