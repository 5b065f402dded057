//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// Quantity series samples (<doc:HowCadenceComputes#Quantity-series>): building, storing,
/// statistics over entries, the series query, deletion and durability.
@Suite("Quantity series")
struct QuantitySeriesTests {
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        return calendar
    }()

    /// The worked example's step series: 13:55–13:56 = 90, then one step a minute until 14:05.
    static func stepSeries(source: String = "Watch") throws -> QuantitySeriesSample {
        let start = date("2024-05-01T13:55:00Z")
        var builder = try QuantitySeriesSampleBuilder(type: .stepCount, start: start, end: start.addingTimeInterval(600))
        // Inserted out of order on purpose.
        for minute in (1..<10).reversed() {
            try builder.insert(Quantity(value: 1, unit: .count),
                               dateInterval: DateInterval(start: start.addingTimeInterval(Double(minute) * 60), duration: 60))
        }
        try builder.insert(Quantity(value: 90, unit: .count), dateInterval: DateInterval(start: start, duration: 60))
        return try builder.finishSeries(source: Source(name: source))
    }

    static func hourlySums(_ store: HealthStore) throws -> [Double] {
        let query = try StatisticsCollectionQuery(
            quantityType: .stepCount, options: .cumulativeSum, anchorDate: date("2024-05-01T00:00:00Z"),
            intervalComponents: .hours(1), calendar: utc)
        return try store.execute(query).statistics().map { $0.sumQuantity()?.value ?? -1 }
    }

    @Test("A step series puts each minute in its own hour (94, 5); a plain sample is prorated (49.5, 49.5)")
    func workedExampleHourlySums() throws {
        let series = try Self.stepSeries()
        #expect(series.sample.count == 10)
        #expect(series.sample.sumQuantity?.value == 99)
        let seriesStore = HealthStore.inMemory()
        try seriesStore.save(series)
        let sums = try Self.hourlySums(seriesStore)
        #expect(sums.count == 2 && nearlyEqual(sums[0], 94) && nearlyEqual(sums[1], 5))

        let plainStore = HealthStore.inMemory()
        try plainStore.save([try QuantitySample(type: .stepCount, value: 99, start: date("2024-05-01T13:55:00Z"),
                                                end: date("2024-05-01T14:05:00Z"), source: Source(name: "Watch"))])
        let plain = try Self.hourlySums(plainStore)
        #expect(plain.count == 2 && nearlyEqual(plain[0], 49.5) && nearlyEqual(plain[1], 49.5))
    }

    @Test("The series query groups entries by owner with orderByQuantitySampleStartDate, else merges them by start")
    func workedExampleSeriesQueryOrder() throws {
        let store = HealthStore.inMemory()
        let series = try Self.stepSeries()
        let plain = try QuantitySample(type: .stepCount, value: 20, start: date("2024-05-01T13:50:00Z"),
                                       end: date("2024-05-01T13:58:00Z"), source: Source(name: "Phone"))
        try store.save(series)
        try store.save([plain])

        let grouped = try store.execute(QuantitySeriesSampleQuery(quantityType: .stepCount, includeSample: true,
                                                                  orderByQuantitySampleStartDate: true))
        #expect(grouped.count == 11)
        #expect(grouped.first?.sample?.uuid == plain.uuid && grouped.first?.quantity.value == 20)
        #expect(grouped.dropFirst().map(\.sample?.uuid) == Array(repeating: series.sample.uuid, count: 10))
        #expect(grouped.dropFirst().map(\.dateInterval) == series.entries.map(\.dateInterval))
        #expect(grouped.dropFirst().map(\.quantity.value) == [90, 1, 1, 1, 1, 1, 1, 1, 1, 1])

        let merged = try store.execute(QuantitySeriesSampleQuery(quantityType: .stepCount))
        #expect(merged.map(\.dateInterval.start) == ([plain.startDate] + series.entries.map(\.dateInterval.start)))
        #expect(merged.allSatisfy { $0.sample == nil })
        // Here the plain sample starts first in both orders; move it after the series' first entry.
        let later = try QuantitySample(type: .stepCount, value: 5, start: date("2024-05-01T13:57:30Z"),
                                       end: date("2024-05-01T13:57:30Z"), source: Source(name: "Phone"))
        try store.save([later])
        let starts = try store.execute(QuantitySeriesSampleQuery(quantityType: .stepCount)).map(\.dateInterval.start)
        #expect(starts == starts.sorted() && starts.count == 12)
        let owners = try store.execute(QuantitySeriesSampleQuery(quantityType: .stepCount, includeSample: true,
                                                                 orderByQuantitySampleStartDate: true)).map { $0.sample?.uuid }
        #expect(owners == [plain.uuid] + Array(repeating: series.sample.uuid, count: 10) + [later.uuid])
    }

    @Test("The builder refuses overlapping cumulative entries naming the overlap, and entries outside the series")
    func builderRefusals() throws {
        let start = date("2024-05-01T10:00:00Z")
        var steps = try QuantitySeriesSampleBuilder(type: .stepCount, start: start, end: start.addingTimeInterval(600))
        try steps.insert(Quantity(value: 5, unit: .count), dateInterval: DateInterval(start: start.addingTimeInterval(60), duration: 120))
        try steps.insert(Quantity(value: 5, unit: .count), dateInterval: DateInterval(start: start, duration: 120))
        let overlap = expectCadenceError(.invalidArgument) { _ = try steps.finishSeries(source: Source(name: "Watch")) }
        #expect(overlap?.message.contains("overlap") == true)
        #expect(overlap?.message.contains("\(start)") == true)
        _ = expectCadenceError(.invalidArgument) {
            try steps.insert(Quantity(value: 1, unit: .count), dateInterval: DateInterval(start: start.addingTimeInterval(590), duration: 20))
        }
        _ = expectCadenceError(.incompatibleUnits) {
            try steps.insert(Quantity(value: 1, unit: .meter), dateInterval: DateInterval(start: start, duration: 1))
        }
        _ = expectCadenceError(.invalidArgument) {
            _ = try QuantitySeriesSampleBuilder(type: .heartRate, start: start, end: start).finishSeries(source: Source(name: "Watch"))
        }
    }

    @Test("A discrete series keeps its average, extremes and latest-start entry, through the store")
    func discreteOwnerValues() throws {
        let start = date("2024-05-01T10:00:00Z")
        var builder = try QuantitySeriesSampleBuilder(type: .heartRate, start: start, end: start.addingTimeInterval(300))
        // Overlapping and instant entries are allowed for a discrete type.
        for (offset, value) in [(0.0, 60.0), (30, 90), (30, 75), (120, 66)] {
            try builder.insert(Quantity(value: value, unit: .countPerMinute),
                               dateInterval: DateInterval(start: start.addingTimeInterval(offset), duration: offset == 30 ? 60 : 0))
        }
        let series = try builder.finishSeries(source: Source(name: "Watch"), metadata: ["note": "rest"])
        let store = HealthStore.inMemory()
        try store.save(series)
        let listed = try store.execute(SampleQuery(quantityType: .heartRate))
        #expect(listed == [series.sample])
        let owner = try #require(listed.first)
        #expect(owner.count == 4 && owner.metadata == ["note": "rest"])
        #expect(owner.averageQuantity?.value == 291.0 / 4)
        #expect(owner.minimumQuantity?.value == 60 && owner.maximumQuantity?.value == 90)
        #expect(owner.mostRecentQuantity?.value == 66)
        #expect(owner.mostRecentQuantityDateInterval == DateInterval(start: start.addingTimeInterval(120), duration: 0))
        #expect(owner.sumQuantity == nil)
    }

    @Test("Sample and anchored queries list owners, never entries; deleting the owner deletes its entries")
    func ownersListedAndDeleted() throws {
        let store = HealthStore.inMemory()
        let first = try store.execute(AnchoredObjectQuery(quantityType: .stepCount))
        let series = try Self.stepSeries()
        try store.save(series)
        #expect(store.quantityTypes == [.stepCount])
        let inserted = try store.execute(AnchoredObjectQuery(quantityType: .stepCount, anchor: first.anchor))
        #expect(inserted.samples.map(\.uuid) == [series.sample.uuid] && inserted.samples.first?.count == 10)
        #expect(inserted.deletedObjects.isEmpty)

        let again = try store.save(series)
        #expect(again.saved == 0 && again.duplicates == 11)
        #expect(try store.execute(SampleQuery(quantityType: .stepCount)).count == 1)

        #expect(try store.deleteSamples(withUUIDs: [series.sample.uuid]) == 11)
        let deleted = try store.execute(AnchoredObjectQuery(quantityType: .stepCount, anchor: inserted.anchor))
        #expect(deleted.samples.isEmpty && deleted.deletedObjects.map(\.uuid) == [series.sample.uuid])
        #expect(try Self.hourlySums(store).isEmpty)
        #expect(try store.execute(QuantitySeriesSampleQuery(quantityType: .stepCount)).isEmpty)
    }

    @Test("Deleting by predicate judges owners by their own dates and takes their entries along")
    func deleteByPredicate() throws {
        let store = HealthStore.inMemory()
        let series = try Self.stepSeries()
        let plain = try QuantitySample(type: .stepCount, value: 20, start: date("2024-05-01T14:02:00Z"),
                                       end: date("2024-05-01T14:03:00Z"), source: Source(name: "Phone"))
        try store.save(series)
        try store.save([plain])
        // Only the owner (13:55–14:05) ends after 14:04; its entries before 14:04 go with it.
        let predicate = SamplePredicate.samples(start: date("2024-05-01T14:04:00Z"), end: nil)
        #expect(try store.deleteSamples(of: .stepCount, matching: predicate) == 11)
        #expect(try store.execute(SampleQuery(quantityType: .stepCount)) == [plain])
        #expect(try Self.hourlySums(store) == [20])
    }

    @Test("Flush, reopen and compaction keep entries and their owner links")
    func flushReopenCompact() throws {
        let memory = MemoryFileSystem()
        var options = HealthStore.Options()
        options.chunkCapacity = 4
        let series = try Self.stepSeries()
        let other = try QuantitySample(type: .stepCount, value: 3, start: date("2024-05-01T12:00:00Z"),
                                       end: date("2024-05-01T12:01:00Z"), source: Source(name: "Phone"))
        let before: [QuantitySeriesSampleQuery.Entry]
        do {
            let store = try HealthStore.open(at: "/s", options: options, fileSystem: memory)
            try store.save(series)
            try store.save([other])
            before = try store.execute(QuantitySeriesSampleQuery(quantityType: .stepCount, includeSample: true))
            try store.flush()
            try store.close()
        }
        let reopened = try HealthStore.open(at: "/s", options: options, fileSystem: memory)
        #expect(try reopened.execute(QuantitySeriesSampleQuery(quantityType: .stepCount, includeSample: true)) == before)
        try reopened.deleteSamples(withUUIDs: [other.uuid])
        try reopened.compact()
        let compacted = try reopened.execute(QuantitySeriesSampleQuery(quantityType: .stepCount, includeSample: true))
        #expect(compacted == Array(before.dropFirst()))
        #expect(try Self.hourlySums(reopened) == [94, 5])
        #expect(reopened.verify().isEmpty)
    }

    @Test("A series save is one log record: replayed whole after a crash, absent whole when its append was torn")
    func crashReplay() throws {
        let memory = MemoryFileSystem()
        let series = try Self.stepSeries()
        do {
            let store = try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: memory)
            try store.save(series)
        }
        let log = "/s/" + (try #require(try memory.contentsOfDirectory("/s").first { $0.hasSuffix(".log") }))
        let bytes = try memory.readFile(log)
        let replayed = try HealthStore.open(at: "/s", options: .readOnly, fileSystem: memory)
        #expect(try replayed.execute(SampleQuery(quantityType: .stepCount)) == [series.sample])
        #expect(try Self.hourlySums(replayed) == [94, 5])

        memory.overwrite(log, with: Array(bytes.dropLast(7)))
        let torn = try HealthStore.open(at: "/s", options: .readOnly, fileSystem: memory)
        #expect(try torn.execute(SampleQuery(quantityType: .stepCount)).isEmpty)
        #expect(try Self.hourlySums(torn).isEmpty)
    }

    @Test("A flipped bit in an owner chunk is reported by verify naming the file, never read as data")
    func ownerChunkBitFlip() throws {
        let memory = MemoryFileSystem()
        do {
            let store = try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: memory)
            try store.save(try Self.stepSeries())
            try store.flush()
            try store.close()
        }
        let store = try HealthStore.open(at: "/s", options: .readOnly, fileSystem: memory)
        let owners = try #require(store.snapshot().types[QuantitySeriesStorage.ownerSeries(of: .stepCount).identifier])
        let path = try #require(owners.chunks.first?.path)
        var bytes = try memory.readFile(path)
        bytes[bytes.count / 2] ^= 0x10
        memory.overwrite(path, with: bytes)
        let problems = store.verify()
        #expect(problems.count == 1 && problems.first?.path == path)
        _ = expectCadenceError(.corruptFile) { _ = try store.execute(SampleQuery(quantityType: .stepCount)) }
    }

    @Test("Listed entries share their owner by reference: an entry is far smaller than a sample, whether asked for or not")
    func entriesShareTheirOwner() throws {
        let store = HealthStore.inMemory()
        let series = try Self.stepSeries()
        try store.save(series)
        #expect(MemoryLayout<QuantitySeriesSampleQuery.Entry>.size <= MemoryLayout<QuantitySample>.size / 2)
        let entries = try store.execute(QuantitySeriesSampleQuery(quantityType: .stepCount, includeSample: true))
        #expect(entries.count == 10 && entries.allSatisfy { $0.sample == series.sample })
        #expect(try store.execute(QuantitySeriesSampleQuery(quantityType: .stepCount)).allSatisfy { $0.sample == nil })
    }

    @Test("Info counts a series sample once under its type, with its entries, and lists no owners' series")
    func infoFoldsOwners() throws {
        let store = HealthStore.inMemory()
        try store.save(try Self.stepSeries())
        try store.save([try QuantitySample(type: .stepCount, value: 3, start: date("2024-05-02T10:00:00Z"),
                                           end: date("2024-05-02T10:01:00Z"), source: Source(name: "Phone"))])
        let info = try store.info()
        #expect(info.types.map(\.identifier) == [QuantityType.stepCount.identifier])
        #expect(info.types.first.map { [$0.samples, $0.seriesSamples, $0.seriesEntries] } == [2, 1, 10])
        #expect(info.types.first?.sources == ["Phone", "Watch"] && info.totalSamples == 2)
    }
}
