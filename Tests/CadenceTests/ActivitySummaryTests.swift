//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// Activity summaries (see How Cadence computes, Activity summaries): one per day, replaced by a
/// summary of the same day with other values, queried by inclusive day ranges, followed by
/// anchored queries, and imported from exports.
@Suite("Activity summaries")
struct ActivitySummaryTests {
    // MARK: Against a reference

    /// The store's rules written out over a dictionary by day: a summary identical to its day's is
    /// unchanged, one whose UUID was deleted (or replaced) before is kept deleted, any other is
    /// saved and replaces its day's.
    struct Reference {
        var byDay: [ActivityDay: ActivitySummary] = [:]
        var deleted: Set<UUID> = []

        mutating func save(_ summaries: [ActivitySummary]) -> SaveSummary {
            var lastOfDay: [ActivityDay: ActivitySummary] = [:]
            for summary in summaries { lastOfDay[summary.day] = summary }
            var result = SaveSummary()
            for summary in lastOfDay.values {
                if byDay[summary.day] == summary {
                    result.duplicates += 1
                } else if deleted.contains(summary.uuid) {
                    result.keptDeleted += 1
                } else {
                    if let old = byDay[summary.day] {
                        deleted.insert(old.uuid)
                        result.replaced += 1
                    }
                    byDay[summary.day] = summary
                    result.saved += 1
                }
            }
            return result
        }

        mutating func delete(from first: ActivityDay, through last: ActivityDay) -> Int {
            let days = byDay.keys.filter { $0 >= first && $0 <= last }
            for day in days { deleted.insert(byDay.removeValue(forKey: day)!.uuid) }
            return days.count
        }

        func summaries(from first: ActivityDay, through last: ActivityDay) -> [ActivitySummary] {
            byDay.values.filter { $0.day >= first && $0.day <= last }.sorted { $0.day < $1.day }
        }
    }

    /// A summary of one of 60 days from 2024-02-10 (across the leap day), each value from a few,
    /// or missing, so that identical summaries recur.
    static func randomSummary(_ random: inout SeededRandom) -> ActivitySummary {
        let base = try! ActivityDay("2024-02-10")
        let day = ActivityDay(dayNumber: base.dayNumber + Int64(random.integer(in: 0...59)))!
        func value(_ choices: [Double]) -> Double? {
            let index = random.integer(in: 0...choices.count)
            return index == choices.count ? nil : choices[index]
        }
        return ActivitySummary(
            day: day, activeEnergyBurned: value([350, 612.5]), activeEnergyBurnedGoal: value([500]),
            appleMoveTime: value([20]), appleMoveTimeGoal: value([30]), appleExerciseTime: value([12, 45]),
            appleExerciseTimeGoal: value([30]), appleStandHours: value([8, 13]), appleStandHoursGoal: value([12]))
    }

    @Test("Random saves, replacements and deletions, then random inclusive day ranges, match a dictionary by day",
          arguments: [1, 2, 3] as [UInt64])
    func againstReference(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var options = HealthStore.Options()
        options.chunkCapacity = 16
        let store = HealthStore.inMemory(options: options)
        var reference = Reference()
        let first = try ActivityDay("2024-02-05")
        func randomDay() -> ActivityDay { ActivityDay(dayNumber: first.dayNumber + Int64(random.integer(in: 0...70)))! }
        for round in 0..<40 {
            switch random.integer(in: 0...9) {
            case 0:
                let (a, b) = (randomDay(), randomDay())
                let deleted = try store.deleteActivitySummaries(from: min(a, b), through: max(a, b))
                #expect(deleted == reference.delete(from: min(a, b), through: max(a, b)), "round \(round)")
            case 1:
                try store.flush()
            default:
                let summaries = (0..<random.integer(in: 1...12)).map { _ in Self.randomSummary(&random) }
                #expect(try store.save(summaries) == reference.save(summaries), "round \(round)")
            }
            for _ in 0..<3 {
                let (a, b) = (randomDay(), randomDay())
                let range = (min(a, b), max(a, b))
                #expect(try store.execute(ActivitySummaryQuery(from: range.0, through: range.1))
                        == reference.summaries(from: range.0, through: range.1), "round \(round) \(range)")
            }
        }
        let all = try store.execute(ActivitySummaryQuery())
        #expect(all == reference.byDay.values.sorted { $0.day < $1.day })
        #expect(!all.isEmpty)
        // A range whose end is before its start lists nothing.
        #expect(try store.execute(ActivitySummaryQuery(from: first.next, through: first)).isEmpty)
    }

    // MARK: Anchored queries

    @Test("An anchored query sees an insert, a replacement (the old summary deleted, then the new one) and a deletion")
    func anchored() throws {
        let store = HealthStore.inMemory()
        let day = try ActivityDay("2024-03-10")
        let first = ActivitySummary(day: day, activeEnergyBurned: 300, activeEnergyBurnedGoal: 500)
        var changed = first
        changed.activeEnergyBurned = 520
        let start = try store.execute(AnchoredObjectQuery(activitySummariesFrom: nil, through: nil)).anchor

        try store.save([first])
        let inserted = try store.execute(AnchoredObjectQuery(activitySummariesFrom: nil, through: nil, anchor: start))
        #expect(inserted.samples == [first] && inserted.deletedObjects.isEmpty)

        #expect(try store.save([first]) == SaveSummary(duplicates: 1))
        let summary = try store.save([changed])
        #expect(summary == SaveSummary(saved: 1, replaced: 1))
        #expect(changed.uuid != first.uuid)
        let replaced = try store.execute(AnchoredObjectQuery(activitySummariesFrom: nil, through: nil, anchor: inserted.anchor))
        #expect(replaced.samples == [changed])
        #expect(replaced.deletedObjects.map(\.uuid) == [first.uuid])
        // The deletion comes first in the change sequence: a page of one holds it alone.
        let firstItem = try store.execute(AnchoredObjectQuery(activitySummariesFrom: nil, through: nil,
                                                              anchor: inserted.anchor, limit: 1))
        #expect(firstItem.samples.isEmpty && firstItem.deletedObjects.map(\.uuid) == [first.uuid] && firstItem.hasMore)
        // Another day's range does not see it.
        let elsewhere = try store.execute(AnchoredObjectQuery(activitySummariesFrom: day.next, through: nil,
                                                              anchor: inserted.anchor))
        #expect(elsewhere.samples.isEmpty)

        #expect(try store.deleteActivitySummaries(from: day, through: day) == 1)
        let deleted = try store.execute(AnchoredObjectQuery(activitySummariesFrom: nil, through: nil, anchor: replaced.anchor))
        #expect(deleted.samples.isEmpty && deleted.deletedObjects.map(\.uuid) == [changed.uuid])
        #expect(try store.execute(ActivitySummaryQuery()).isEmpty)
    }

    // MARK: Cost of a save

    @Test("A save reads only the chunks holding its days: none for days before every stored one, one for a day inside a chunk")
    func saveReadsOnlyItsDays() throws {
        var options = HealthStore.Options()
        options.chunkCapacity = 16
        let first = try ActivityDay("2024-01-01")
        func summary(_ offset: Int64, energy: Double) -> ActivitySummary {
            ActivitySummary(day: ActivityDay(dayNumber: first.dayNumber + offset)!, activeEnergyBurned: energy)
        }
        let stored = (0..<160).map { summary(100 + $0, energy: 300) }
        let memory = try MemoryFileSystem.flushedStore(options: options) { try $0.save(stored) }
        let chunkReads = ChunkReadCounter()
        let store = try HealthStore.open(at: "/s", options: options, fileSystem: chunkReads.counting(memory))
        // Earlier days than every stored one: no stored summary can be repeated or replaced.
        let earlier = (0..<20).map { summary($0, energy: 200) }
        #expect(try store.save(earlier) == SaveSummary(saved: 20))
        #expect(chunkReads.count == 0)
        // A day in the middle of the second chunk, repeated and then replaced.
        #expect(try store.save([stored[24]]) == SaveSummary(duplicates: 1))
        #expect(try store.save([summary(124, energy: 410)]) == SaveSummary(saved: 1, replaced: 1))
        #expect(chunkReads.count == 1)
        var expected = earlier + stored
        expected[20 + 24] = summary(124, energy: 410)
        #expect(try store.execute(ActivitySummaryQuery()) == expected)
        try store.close()
    }

    // MARK: Durability

    @Test("A replacement replays from the log after a crash, verify passes, and the store survives repair")
    func replayVerifyRepair() throws {
        let path = StoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var random = SeededRandom(seed: 9)
        var reference = Reference()
        do {
            // Left without closing, as after a crash: the last saves are only in the log.
            let store = try HealthStore.open(at: path)
            let flushed = (0..<40).map { _ in Self.randomSummary(&random) }
            #expect(try store.save(flushed) == reference.save(flushed))
            try store.flush()
            let logged = (0..<40).map { _ in Self.randomSummary(&random) }
            let result = try store.save(logged)
            #expect(result == reference.save(logged))
            #expect(result.replaced > 0)
        }
        let expected = reference.byDay.values.sorted { $0.day < $1.day }
        let reopened = try HealthStore.open(at: path, options: .readOnly)
        #expect(try reopened.execute(ActivitySummaryQuery()) == expected)
        #expect(reopened.verify().isEmpty)
        #expect(try HealthStore.repair(at: path).wasIntact)
        let repaired = try HealthStore.open(at: path)
        #expect(try repaired.execute(ActivitySummaryQuery()) == expected)
        try repaired.flush()
        #expect(repaired.verify().isEmpty)
        #expect(try repaired.execute(ActivitySummaryQuery()) == expected)
        #expect(try repaired.info().types.map(\.kind) == [.activitySummary])
        try repaired.close()
    }

    @Test("A reader following the writing process sees a replacement as one change: the old summary gone, the new one there")
    func readerCatchesUp() throws {
        let path = StoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try HealthStore.open(at: path)
        let day = try ActivityDay("2024-06-01")
        let first = ActivitySummary(day: day, appleExerciseTime: 12, appleExerciseTimeGoal: 30)
        var second = first
        second.appleExerciseTime = 44
        try writer.save([first])
        let reader = try HealthStore.open(at: path, options: .readOnly)
        let anchor = try reader.execute(AnchoredObjectQuery(activitySummariesFrom: day, through: day)).anchor
        try writer.save([second])
        try reader.refresh()
        #expect(try reader.execute(ActivitySummaryQuery(from: day, through: day)) == [second])
        let changes = try reader.execute(AnchoredObjectQuery(activitySummariesFrom: day, through: day, anchor: anchor))
        #expect(changes.samples == [second] && changes.deletedObjects.map(\.uuid) == [first.uuid])
        try writer.close()
    }

    @Test("A replace log record reads back as its deletion then its save; a flipped byte in it is damage, never data")
    func replaceRecord() throws {
        let summary = ActivitySummary(day: try ActivityDay("2024-05-01"), appleStandHours: 9, appleStandHoursGoal: 12)
        var batch = QuantitySampleBatch(type: .series(ActivitySummary.typeIdentifier))
        try batch.append(summary)
        var columns = batch.columns
        columns.sequence[0] = 8
        let tombstone = Tombstone(typeIdentifier: ActivitySummary.typeIdentifier, uuid: UUID(), sampleSequence: 3,
                                  deletionSequence: 7, syncIdentifier: nil, syncVersion: nil)
        let entry = LogEntry.replace([tombstone], newProvenances: [(0, ActivitySummary.provenance)],
                                     batches: [(batch.quantityType, columns)])
        let decoded = try LogEntry(decoding: entry.encode(), path: "wal")
        let parts = decoded.parts
        try #require(parts.count == 2)
        guard case .delete(let tombstones) = parts[0], case .save(let provenances, let batches) = parts[1] else {
            Issue.record("the parts of \(decoded) are not a deletion and a save")
            return
        }
        #expect(tombstones == [tombstone])
        #expect(provenances.map(\.provenance) == [ActivitySummary.provenance])
        #expect(batches.map(\.columns.count) == [1] && batches.first?.columns.sequence == [8])
        #expect(batches.first?.columns.metadata(at: 0) == summary.storedAttributes)

        let record = try WriteAheadLog.record(entry)
        #expect(WriteAheadLog.readSegment(record, path: "wal").entries.count == 1)
        for offset in [2, 9, WriteAheadLog.headerSize + 1, record.count - 1] {
            var damaged = record + (try WriteAheadLog.record(.delete([])))
            damaged[offset] ^= 0x10
            let segment = WriteAheadLog.readSegment(damaged, path: "wal")
            guard case .damaged = segment.ending else {
                Issue.record("a flip at byte \(offset) reads as \(segment.ending)")
                continue
            }
            #expect(segment.entries.isEmpty)
        }
    }

    // MARK: Importing

    /// The `<ActivitySummary>` elements of an export, read with a regular expression rather
    /// than Cadence's reader: each as its attributes.
    static func summaryElements(in path: String) throws -> [[String: String]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let element = try Regex(#"<ActivitySummary\s([^>]*)/>"#)
        let attribute = try Regex(#"(\w+)="([^"]*)""#)
        return text.matches(of: element).map { match in
            let body = String(match.output[1].substring ?? "")
            return Dictionary(body.matches(of: attribute).map {
                (String($0.output[1].substring ?? ""), String($0.output[2].substring ?? ""))
            }, uniquingKeysWith: { first, _ in first })
        }
    }

    @Test("The summaries of two real exports import with their values; importing again adds nothing",
          arguments: ["dogsheep-export.xml", "tdda-export6s3sample.xml"])
    func fixtures(name: String) throws {
        let path = try ImportFixtures.appleHealthFile(name)
        let elements = try Self.summaryElements(in: path)
        try #require(!elements.isEmpty)
        let store = HealthStore.inMemory()
        let importer = HealthDataImporter(store: store, parallelism: 1)
        let summary = try importer.importFile(atPath: path)
        #expect(summary.activitySummaries == elements.count)
        #expect(summary.activitySummariesImported == elements.count)
        #expect(summary.rejected == 0)
        let stored = try store.execute(ActivitySummaryQuery())
        #expect(stored.count == elements.count)
        for (element, summary) in zip(elements, stored) {
            #expect(summary.day.description == element["dateComponents"])
            // These exports write energy in kilocalories.
            #expect(element["activeEnergyBurnedUnit"] == "kcal")
            let expected: [(String, Double?)] = [
                ("activeEnergyBurned", summary.activeEnergyBurned), ("activeEnergyBurnedGoal", summary.activeEnergyBurnedGoal),
                ("appleMoveTime", summary.appleMoveTime), ("appleMoveTimeGoal", summary.appleMoveTimeGoal),
                ("appleExerciseTime", summary.appleExerciseTime), ("appleExerciseTimeGoal", summary.appleExerciseTimeGoal),
                ("appleStandHours", summary.appleStandHours), ("appleStandHoursGoal", summary.appleStandHoursGoal),
            ]
            for (name, value) in expected { #expect(value == element[name].flatMap(Double.init), "\(name)") }
        }
        let sequence = store.snapshot().lastSequence
        let again = try importer.importFile(atPath: path)
        #expect(again.activitySummariesImported == 0 && again.activitySummariesUpdated == 0)
        #expect(again.activitySummariesUnchanged == elements.count)
        #expect(store.snapshot().lastSequence == sequence)
    }

    /// Writes an export holding `summaries` (the attributes of each tag) and returns its path.
    static func export(_ summaries: [String], in directory: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/export-\(UUID().uuidString).xml"
        let body = summaries.map { " <ActivitySummary \($0)/>" }.joined(separator: "\n")
        try "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n\(body)\n</HealthData>\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("A later export replaces a day's summary (reported as updated); kJ become kcal; missing attributes stay nil")
    func laterExport() throws {
        let directory = StoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = HealthStore.inMemory()
        let importer = HealthDataImporter(store: store, parallelism: 1)
        let earlier = try Self.export([
            #"dateComponents="2024-01-01" activeEnergyBurned="300" activeEnergyBurnedGoal="400" activeEnergyBurnedUnit="kcal""#,
            #"dateComponents="2024-01-02" appleStandHours="10" appleStandHoursGoal="12""#,
        ], in: directory)
        #expect(try importer.importFile(atPath: earlier).activitySummariesImported == 2)
        let later = try Self.export([
            #"dateComponents="2024-01-01" activeEnergyBurned="1464.4" activeEnergyBurnedGoal="1673.6" activeEnergyBurnedUnit="kJ""#,
            #"dateComponents="2024-01-02" appleStandHours="10" appleStandHoursGoal="12""#,
            #"dateComponents="2024-01-03" appleExerciseTime="31" appleExerciseTimeGoal="30""#,
        ], in: directory)
        let summary = try importer.importFile(atPath: later)
        #expect(summary.activitySummariesImported == 1)
        #expect(summary.activitySummariesUpdated == 1)
        #expect(summary.activitySummariesUnchanged == 1)
        let stored = try store.execute(ActivitySummaryQuery(from: try ActivityDay("2024-01-01"), through: try ActivityDay("2024-01-03")))
        #expect(stored.map(\.day.description) == ["2024-01-01", "2024-01-02", "2024-01-03"])
        #expect(abs((stored[0].activeEnergyBurned ?? 0) - 350) < 1e-9)
        #expect(abs((stored[0].activeEnergyBurnedGoal ?? 0) - 400) < 1e-9)
        #expect(stored[0].isClosed(.move) == false && stored[0].isClosed(.stand) == nil)
        #expect(stored[1].activeEnergyBurned == nil && stored[1].isClosed(.stand) == false)
        #expect(stored[2].isClosed(.exercise) == true && stored[2].appleMoveTime == nil)
    }

    @Test("Malformed summaries are reported with their line and reason; the rest imports", arguments: [
        (#"dateComponents="2024-02-30" activeEnergyBurned="1""#, "dateComponents"),
        (#"activeEnergyBurned="1""#, "no dateComponents"),
        (#"dateComponents="2024-01-05" appleExerciseTime="lots""#, "appleExerciseTime 'lots' is not a number"),
        (#"dateComponents="2024-01-05" activeEnergyBurned="1" activeEnergyBurnedUnit="km""#, "activeEnergyBurnedUnit 'km'"),
        (#"dateComponents="2024-01-05" activeEnergyBurned="1" activeEnergyBurnedUnit="furlong""#, "activeEnergyBurnedUnit"),
        (#"dateComponents="2024-01-05" appleStandHours="nan""#, "appleStandHours"),
    ])
    func malformed(attributes: String, reason: String) throws {
        let directory = StoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = HealthStore.inMemory()
        let path = try Self.export([#"dateComponents="2024-01-01" appleStandHours="3""#, attributes], in: directory)
        let summary = try HealthDataImporter(store: store, parallelism: 1).importFile(atPath: path)
        #expect(summary.activitySummariesImported == 1)
        #expect(summary.rejected == 1)
        let rejection = try #require(summary.rejections.first)
        #expect(rejection.line == 4)
        #expect(rejection.reason.contains("<ActivitySummary>") && rejection.reason.contains(reason), "\(rejection.reason)")
        #expect(!summary.failed)
        #expect(try store.execute(ActivitySummaryQuery()).map(\.day.description) == ["2024-01-01"])
    }

    @Test("An export of summaries alone that damage cuts short keeps and reports the summaries read before it")
    func damagedAfterSummaries() throws {
        let directory = StoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = HealthStore.inMemory()
        let whole = try Self.export([#"dateComponents="2024-01-01" appleStandHours="3""#,
                                     #"dateComponents="2024-01-02" appleStandHours="4""#], in: directory)
        // The end tag on line 5 closes nothing that is open: reading stops there.
        let path = whole.replacingOccurrences(of: ".xml", with: "-damaged.xml")
        try (try String(contentsOfFile: whole, encoding: .utf8)).replacingOccurrences(of: "</HealthData>", with: "</Record>\n</HealthData>")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let summary = try HealthDataImporter(store: store, parallelism: 1).importFile(atPath: path)
        #expect(summary.stoppedAt?.line == 5)
        #expect(summary.failed)
        #expect(summary.activitySummaries == 2 && summary.activitySummariesImported == 2)
        #expect(try store.execute(ActivitySummaryQuery()).map(\.day.description) == ["2024-01-01", "2024-01-02"])
    }

    @Test("Days parse only as yyyy-MM-dd calendar days, and order as the calendar does")
    func days() throws {
        #expect(try ActivityDay("2024-02-29").next.description == "2024-03-01")
        #expect(try ActivityDay("2024-03-01").previous.description == "2024-02-29")
        #expect(try ActivityDay("0999-12-31") < ActivityDay("1000-01-01"))
        for text in ["2023-02-29", "2024-13-01", "2024-1-01", "24-01-01", "2024-01-01T00:00", "", "+024-01-01"] {
            #expect(throws: CadenceError.self, "\(text)") { try ActivityDay(text) }
        }
        let day = try ActivityDay("1969-12-31")
        #expect(ActivityDay(timestamp: day.startTimestamp) == day && ActivityDay(timestamp: day.endTimestamp - 1) == day)
        let decoded = try JSONDecoder().decode([ActivityDay].self, from: JSONEncoder().encode([day]))
        #expect(decoded == [day])
    }
}
