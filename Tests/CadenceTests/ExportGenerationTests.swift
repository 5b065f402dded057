//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// Exports written by iOS 8 (`source=`, compact dates `20140104084300-0800`, no `creationDate`)
/// import exactly as the later spelling of the same records does.
@Suite("Export generations")
struct ExportGenerationTests {
    /// `Tests/Fixtures/export-generations/<name>` (written for these tests; see its README).
    static func fixture(_ name: String) throws -> String {
        let path = ImportFixtures.repositoryRoot.appendingPathComponent("Tests/Fixtures/export-generations/\(name)").path
        guard FileManager.default.fileExists(atPath: path) else {
            throw ImportFixtures.Missing(description: "the fixture \(name) is missing: expected it at \(path)")
        }
        return path
    }

    /// The compact form of an export date: the separators of its date and time dropped.
    static func compact(_ export: String) -> String {
        String(export.prefix(19).filter(\.isNumber)) + String(export.suffix(5))
    }

    @Test("A compact date is the same instant as its longer spelling, in many zones", arguments: [UInt64(1), 2])
    func compactDatesRoundTrip(seed: UInt64) throws {
        let zones = try ["UTC", "America/Los_Angeles", "Asia/Kathmandu", "Pacific/Kiritimati"].map { try timeZone(named: $0) }
        var random = SeededRandom(seed: seed)
        var parser = ExportTimestampParser()
        for _ in 0..<2_000 {
            // 0002 through 9998, so that every zone's local year has four digits.
            let timestamp = Timestamp(random.next() % 315_474_825_599) * 1_000_000 - 62_104_060_800_000_000
            let export = formatExport(timestamp, timeZone: zones[Int(random.next() % UInt64(zones.count))])
            let compact = Self.compact(export)
            #expect(compact.utf8.count == 19, "\(compact)")
            #expect(try parseExport(compact) == parseExport(export), "\(compact)")
            var copy = compact
            #expect(copy.withUTF8 { parser.parse($0) } == (try parseExport(export)), "\(compact)")
        }
    }

    @Test("The remembered-day parser agrees with parseExport on compact dates, valid or not")
    func compactFastPathAgrees() {
        var random = SeededRandom(seed: 21)
        var parser = ExportTimestampParser()
        var texts = ["20140104084300-0800", "20140104235960+0000", "20140104240000+0000", "20140104086000+0000",
                     "20140104084300+2400", "20140104084300-0060", "20140229084300+0000", "20120229084300+0000",
                     "2014010408430-0800", "201401040843000-0800", "20140104084300 0800", "2014-01-04 08:43:00 -0800"]
        texts += texts.reversed()
        for _ in 0..<20_000 {
            var text = String(format: "2014%02d%02d%02d%02d%02d%@%02d%02d", Int(random.next() % 3) + 1,
                              random.next() % 4 == 0 ? Int(random.next() % 31) + 1 : 4, Int(random.next() % 25),
                              Int(random.next() % 61), Int(random.next() % 62), random.next() % 2 == 0 ? "+" : "-",
                              Int(random.next() % 25), Int(random.next() % 61))
            if random.next() % 40 == 0 {
                var bytes = Array(text.utf8)
                bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(random.next() % 128)
                text = String(decoding: bytes, as: UTF8.self)
            }
            texts.append(text)
        }
        var parsed = 0
        for text in texts {
            var copy = text
            let fast = copy.withUTF8 { parser.parse($0) }
            #expect(fast == (try? parseExport(text)), "\(text)")
            parsed += fast == nil ? 0 : 1
        }
        #expect(parsed > 10_000)
    }

    @Test("A date in neither form is refused with both forms named", arguments: [
        "2014/01/04 08:43:00 -0800",  // slashes
        "20140104 084300 -0800",  // a space inside the compact form
        "201401040843-0800",  // no seconds
        "20141304084300-0800",  // month 13
    ])
    func neitherForm(text: String) {
        let error = #expect(throws: CadenceError.self) { try parseExport(text) }
        #expect(error?.message.contains("yyyy-MM-dd HH:mm:ss ±HHMM or yyyyMMddHHmmss±HHMM") == true, "\(error?.message ?? "")")
    }

    @Test("A record whose date is in neither form is rejected with its line; the others import")
    func neitherFormInAnExport() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("export.xml").path
        try ImportFixtures.export("""
             <Record type="HKQuantityTypeIdentifierStepCount" source="Phone" unit="count" startDate="20140104084300-0800" endDate="20140104085100-0800" value="5"/>
             <Record type="HKQuantityTypeIdentifierStepCount" source="Phone" unit="count" startDate="2014/01/04 08:43:00 -0800" endDate="20140104085100-0800" value="6"/>
            """).write(toFile: path, atomically: true, encoding: .utf8)
        let summary = try HealthDataImporter(store: HealthStore.inMemory()).importFile(atPath: path)
        #expect(summary.imported == 1 && summary.rejected == 1)
        let rejection = try #require(summary.rejections.first)
        #expect(rejection.line == 5, "\(rejection)")
        #expect(rejection.reason.contains("2014/01/04 08:43:00 -0800") && rejection.reason.contains("yyyyMMddHHmmss±HHMM"),
                "\(rejection)")
    }

    @Test("An iOS 8 workout, its source in source= and its dates compact, imports like a later one")
    func workoutOfBothGenerations() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var workouts: [[Workout]] = []
        for (source, start, end) in [("source", "20140104084300-0800", "20140104091300-0800"),
                                     ("sourceName", "2014-01-04 08:43:00 -0800", "2014-01-04 09:13:00 -0800")] {
            let path = directory.appendingPathComponent("export-\(source).xml").path
            try ImportFixtures.export("""
                 <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" \
                totalDistance="5" totalDistanceUnit="km" \(source)="Phone" startDate="\(start)" endDate="\(end)"/>
                """).write(toFile: path, atomically: true, encoding: .utf8)
            let store = HealthStore.inMemory()
            let summary = try HealthDataImporter(store: store).importFile(atPath: path)
            #expect(summary.rejected == 0 && summary.workouts == 1 && !summary.failed, "\(summary.rejections)")
            workouts.append(try store.execute(SampleQuery(workoutsMatching: .all)))
        }
        #expect(workouts[0].count == 1)
        #expect(workouts[0].map(\.uuid) == workouts[1].map(\.uuid))
        #expect(workouts[0].first?.source.name == "Phone")
        #expect(workouts[0].first?.startDate == workouts[1].first?.startDate)
    }

    /// What a store holds: every sample's identity and attributes, and per type its count and daily sums.
    struct Contents: Equatable {
        var samples: [String] = []
        var counts: [String: Int] = [:]
        var dailySums: [String: [Double]] = [:]
    }

    static func importContents(_ name: String) throws -> (ImportSummary, Contents) {
        let store = HealthStore.inMemory()
        let summary = try HealthDataImporter(store: store, parallelism: 1).importFile(atPath: try fixture(name))
        var contents = Contents()
        let calendar = try TimeTestSupport.calendar("America/Los_Angeles")
        let anchor = Date(timestamp: try parseRFC3339("2014-01-01T00:00:00-08:00"))
        for info in try store.info().types {
            contents.counts[info.identifier] = info.samples
            guard info.kind == .quantity else {
                let type = CategoryType(identifier: info.identifier)
                for sample in try store.execute(SampleQuery(categoryType: type)) {
                    contents.samples.append("\(sample.uuid) \(info.identifier) \(sample.source.name) \(sample.startDate) "
                                            + "\(sample.endDate) \(sample.value) \(sample.creationDate.map { "\($0)" } ?? "-")")
                }
                continue
            }
            let type = try #require(QuantityType.known(info.identifier) ?? store.snapshotType(info.identifier))
            for sample in try store.execute(SampleQuery(quantityType: type)) {
                contents.samples.append("\(sample.uuid) \(info.identifier) \(sample.source.name) \(sample.startDate) "
                                        + "\(sample.endDate) \(sample.value) \(sample.creationDate.map { "\($0)" } ?? "-")")
            }
            guard type.aggregationStyle == .cumulative else { continue }
            let days = try store.execute(StatisticsCollectionQuery(quantityType: type, options: .cumulativeSum, anchorDate: anchor,
                                                                   intervalComponents: .days(1), calendar: calendar))
            contents.dailySums[info.identifier] = days.statistics().map { $0.sumQuantity()?.value ?? 0 }
        }
        contents.samples.sort()
        return (summary, contents)
    }

    @Test("An iOS 8 export and its modern twin import the same samples, totals and identities")
    func generationsImportAlike() throws {
        let (old, oldContents) = try Self.importContents("ios8-export.xml")
        let (modern, modernContents) = try Self.importContents("modern-export.xml")
        #expect(old.rejected == 0, "\(old.rejections)")
        #expect(old.imported == 20 && modern.imported == 20)
        #expect(old.duplicates == modern.duplicates && old.otherRecords == modern.otherRecords)
        #expect(oldContents == modernContents)
        #expect(oldContents.counts["HKQuantityTypeIdentifierStepCount"] == 7)
        #expect(oldContents.counts["HKCategoryTypeIdentifierSleepAnalysis"] == 2)
        // 412 + 388 + 1,506 + 120 × 5/10 on the 4th; the rest of that walk, two look-alikes and 905 at -0500 on the 5th.
        #expect(oldContents.dailySums["HKQuantityTypeIdentifierStepCount"] == [2_366, 2_245])
    }
}
