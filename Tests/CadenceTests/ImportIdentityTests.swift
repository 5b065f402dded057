//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import Cadence

/// The identity of imported records (<doc:HowCadenceComputes#Identity>): every attribute plus an occurrence number, so
/// look-alike records all stay and a re-import adds nothing.
@Suite("Identity of imported records")
struct ImportIdentityTests {
    /// Imports `text` written as `name` into `store`.
    static func importText(_ text: String, name: String = "export.xml", into store: HealthStore,
                           parallelism: Int = 1) throws -> ImportSummary {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try HealthDataImporter(store: store, parallelism: parallelism).importFile(atPath: path)
    }

    /// A dietary energy record, as Nutrino writes them.
    static func food(_ value: String, at time: String, created: String, extra: String = "") -> String {
        #" <Record type="HKQuantityTypeIdentifierDietaryEnergyConsumed" sourceName="Nutrino" unit="kcal" "#
            + #"creationDate="2017-11-05 \#(created) +0200" startDate="2017-11-05 \#(time) +0200" "#
            + #"endDate="2017-11-05 \#(time) +0200" value="\#(value)"\#(extra)/>"#
    }

    static func dietaryEnergy() throws -> QuantityType { try #require(QuantityType.known("dietaryEnergyConsumed")) }

    static func samples(_ store: HealthStore) throws -> [QuantitySample] {
        try store.execute(SampleQuery(quantityType: try dietaryEnergy()))
    }

    @Test("Look-alike records all stay; a re-import adds nothing; a later export adds only what is new")
    func lookAlikesStay() throws {
        let twice = [
            Self.food("104.631", at: "12:00:00", created: "12:01:00"),
            Self.food("104.631", at: "12:00:00", created: "12:01:00"),  // the same object logged twice
            Self.food("104.631", at: "12:00:00", created: "12:09:00"),  // differs by its creation date only
        ]
        let store = HealthStore.inMemory()
        let first = try Self.importText(ImportFixtures.export(twice.joined(separator: "\n")), into: store)
        #expect(first.imported == 3 && first.duplicates == 0)
        #expect(Set(try Self.samples(store).map(\.uuid)).count == 3)

        let again = try Self.importText(ImportFixtures.export(twice.joined(separator: "\n")), into: store)
        #expect(again.imported == 0 && again.duplicates == 3)

        // A later export holds the same records and one more look-alike.
        let later = try Self.importText(ImportFixtures.export((twice + [twice[0]]).joined(separator: "\n")), into: store)
        #expect(later.imported == 1 && later.duplicates == 3)
        #expect(try Self.samples(store).count == 4)
    }

    @Test("Every attribute tells records apart: version, device, metadata, creation date, value")
    func everyAttributeCounts() throws {
        let base = Self.food("10", at: "08:00:00", created: "08:00:30")
        let variants = [
            base,
            base.replacingOccurrences(of: #"sourceName="Nutrino""#, with: #"sourceName="Nutrino" sourceVersion="2""#),
            base.replacingOccurrences(of: #"sourceName="Nutrino""#, with: #"sourceName="Nutrino" device="&lt;&lt;HKDevice: 0x1&gt;, name:iPhone&gt;""#),
            base.replacingOccurrences(of: "08:00:30", with: "08:00:31"),
            base.replacingOccurrences(of: #"value="10""#, with: #"value="10.5""#),
            base.replacingOccurrences(of: "/>", with: #"><MetadataEntry key="meal" value="lunch"/></Record>"#),
            base.replacingOccurrences(of: "/>", with: #"><MetadataEntry key="meal" value="dinner"/></Record>"#),
        ]
        let store = HealthStore.inMemory()
        let summary = try Self.importText(ImportFixtures.export(variants.joined(separator: "\n")), into: store)
        #expect(summary.imported == variants.count && summary.duplicates == 0 && summary.rejected == 0)
        #expect(Set(try Self.samples(store).map(\.uuid)).count == variants.count)
    }

    @Test("A record inside a correlation is its top-level twin; one without a twin is imported once",
          arguments: [false, true])
    func correlationCopies(correlationFirst: Bool) throws {
        let twin = Self.food("250", at: "13:00:00", created: "13:00:05")
        let alone = Self.food("99", at: "19:00:00", created: "19:00:05")
        let correlation = """
             <Correlation type="HKCorrelationTypeIdentifierFood" sourceName="Nutrino" creationDate="2017-11-05 13:00:05 +0200" startDate="2017-11-05 13:00:00 +0200" endDate="2017-11-05 13:00:00 +0200">
              \(twin)
              \(twin)
              \(alone)
             </Correlation>
            """
        // Two identical top-level records, and the correlation names both copies.
        let topLevel = [twin, twin, Self.food("1", at: "07:00:00", created: "07:00:01")].joined(separator: "\n")
        let body = correlationFirst ? correlation + "\n" + topLevel : topLevel + "\n" + correlation
        let store = HealthStore.inMemory()
        let summary = try Self.importText(ImportFixtures.export(body), into: store)
        #expect(summary.imported == 5, "three top-level records, the nested one without a twin, the correlation")
        #expect(summary.correlationRecords == 2 && summary.duplicates == 0)
        let samples = try Self.samples(store)
        #expect(samples.map(\.value).sorted() == [1, 99, 250, 250])
        // The correlation refers to both twins and to the nested record stored on its own.
        let food = try store.execute(SampleQuery(correlationType: .food))
        #expect(food.count == 1)
        #expect(Set(food.first?.memberUUIDs ?? []) == Set(samples.filter { $0.value != 1 }.map(\.uuid)))
        #expect(food.first?.objects.count == 3)
        let again = try Self.importText(ImportFixtures.export(body), into: store)
        #expect(again.imported == 0 && again.duplicates == 5)
    }

    @Test("Odd correlations: malformed, nested, empty, without a source, with a record left open", arguments: [1, 2])
    func oddCorrelations(parallelism: Int) throws {
        let open = #" <Correlation type="HKCorrelationTypeIdentifierFood" sourceName="Nutrino" startDate="2017-11-05 13:00:00 +0200" endDate="2017-11-05 13:00:00 +0200""#
        let body = [
            open + "/>",                                              // empty: a food without members, refused
            open + " startDate=\"twice\">\n" + Self.food("1", at: "13:00:00", created: "13:00:01") + "\n </Correlation>",
            open + ">\n" + open + ">\n" + Self.food("2", at: "13:00:00", created: "13:00:02") + "\n </Correlation>\n </Correlation>",
            #" <Correlation type="HKCorrelationTypeIdentifierFood" startDate="2017-11-05 13:00:00 +0200" endDate="2017-11-05 13:00:00 +0200">"#
                + "\n" + Self.food("3", at: "13:00:00", created: "13:00:03") + "\n </Correlation>",
            open + "><MetadataEntry key=\"meal\" value=\"lunch\"/>" + Self.food("4", at: "13:00:00", created: "13:00:04")
                + "</Correlation>",
        ].joined(separator: "\n")
        let store = HealthStore.inMemory()
        let summary = try Self.importText(ImportFixtures.export(body), into: store, parallelism: parallelism)
        // The nested records have no top-level twins: each is a sample of its own.
        #expect(try Self.samples(store).map(\.value).sorted() == [1, 2, 3, 4])
        let food = try store.execute(SampleQuery(correlationType: .food))
        // The outer of the nested pair (holding the inner one's record) and the one with metadata;
        // the empty one (a food holds at least one member), the malformed tag and the one without a
        // source are reported once each.
        #expect(food.map(\.objects.count).sorted() == [1, 1])
        #expect(food.first { $0.metadata["meal"] == "lunch" }?.objects.map(\.value) == [4])
        #expect(summary.rejections.map(\.line) == [4, 5, 13], "\(summary.rejections)")
        let again = try Self.importText(ImportFixtures.export(body), into: store, parallelism: parallelism)
        #expect(again.imported == 0)
    }

    @Test("Parallel segments number look-alikes exactly as a serial reading does")
    func segmentsNumberLikeSerial() throws {
        var records: [String] = []
        for index in 0..<600 {
            // Runs of identical records, the same records again far apart, and distinct ones between.
            records.append(Self.food(String(index % 7), at: String(format: "%02d:00:00", index % 5), created: "06:00:00"))
        }
        let text = ImportFixtures.export(records.joined(separator: "\n"))
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try SegmentedImportTests.write(text, in: directory, name: "export.xml")
        let serial = try SegmentedImportTests.importOutcome(path, parallelism: 1, segmentBytes: 1 << 20)
        #expect(serial.samples.count == 600)
        for segmentBytes in [300, 2_000] {
            #expect(try SegmentedImportTests.importOutcome(path, parallelism: 2, segmentBytes: segmentBytes) == serial)
        }
    }

    @Test("CSV rows: identical rows all stay, optional columns are part of the identity, re-import adds nothing")
    func csvRows() throws {
        let header = "type,sourceName,unit,startDate,endDate,value,creationDate,metadata:meal"
        let row = "dietaryEnergyConsumed,Nutrino,kcal,2017-11-05T12:00:00+02:00,2017-11-05T12:00:00+02:00,104.631"
        let text = [header, row + ",,", row + ",,", row + ",2017-11-05T12:01:00+02:00,", row + ",,lunch"]
            .joined(separator: "\n") + "\n"
        let store = HealthStore.inMemory()
        let first = try Self.importText(text, name: "samples.csv", into: store)
        #expect(first.imported == 4 && first.duplicates == 0)
        let again = try Self.importText(text, name: "samples.csv", into: store)
        #expect(again.imported == 0 && again.duplicates == 4)
    }

    @Test("The derived UUID changes with every attribute and with the occurrence")
    func derivedUUIDUsesEveryAttribute() {
        let provenance = Provenance(source: Source(name: "Nutrino"), sourceVersion: "1",
                                    device: Device(description: "<<HKDevice: 0x1>, name:iPhone>"))
        func uuid(type: String = "HKQuantityTypeIdentifierStepCount", provenance: Provenance = provenance,
                  value: Double = 5, start: Timestamp = 10, end: Timestamp = 20, creation: Timestamp? = 30,
                  metadata: [String: String] = ["a": "1", "b": "2"], occurrence: Int = 0) -> UUID {
            QuantitySample.derivedUUID(type: type, provenance: provenance, value: value, start: start, end: end,
                                       creation: creation, metadata: metadata, occurrence: occurrence)
        }
        let base = uuid()
        #expect(uuid() == base)
        #expect(uuid(value: -0.0) == uuid(value: 0), "+0 and -0 are one value")
        let variants = [
            uuid(type: "HKQuantityTypeIdentifierFlightsClimbed"),
            uuid(provenance: Provenance(source: Source(name: "Other"), sourceVersion: "1", device: provenance.device)),
            uuid(provenance: Provenance(source: provenance.source, sourceVersion: nil, device: provenance.device)),
            uuid(provenance: Provenance(source: provenance.source, sourceVersion: "", device: provenance.device)),
            uuid(provenance: Provenance(source: provenance.source, sourceVersion: "1", device: nil)),
            uuid(value: 6), uuid(start: 11), uuid(end: 21), uuid(creation: nil), uuid(creation: 31),
            uuid(metadata: [:]), uuid(metadata: ["a": "1"]), uuid(metadata: ["a": "1", "b": "3"]),
            uuid(occurrence: 1), uuid(occurrence: 2),
        ]
        #expect(!variants.contains(base))
        #expect(Set(variants).count == variants.count)
    }

    @Test("A store written under the earlier identity rule is refused with a message to re-import")
    func earlierFormatIsRefused() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store").path
        let store = try HealthStore.open(at: path)
        _ = try Self.importText(ImportFixtures.export(Self.food("5", at: "10:00:00", created: "10:00:01")), into: store)
        try store.close()
        // The version follows the manifest's eight magic bytes (FORMAT.md); version 1 is the earlier rule.
        let manifest = URL(fileURLWithPath: path).appendingPathComponent(Manifest.fileName)
        var bytes = try Data(contentsOf: manifest)
        bytes[8] = 1
        bytes[9] = 0
        try bytes.write(to: manifest)
        #expect {
            _ = try HealthStore.open(at: path)
        } throws: { error in
            guard let error = error as? CadenceError else { return false }
            return error.code == .unsupportedFormatVersion && error.message.contains("re-import")
        }
    }

    // MARK: The real export

    /// Sums of the top-level records of `type` per local day (`yyyy-MM-dd` of the start), read
    /// from the XML text without Cadence; every such record must start and end on the same day.
    static func dailySums(of type: String, in file: String) throws -> [String: Double] {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        var sums: [String: Double] = [:]
        var depth = 0
        for line in text.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("<Correlation ") { depth += 1 }
            if trimmed.hasPrefix("</Correlation>") { depth -= 1 }
            guard depth == 0, trimmed.hasPrefix("<Record type=\"\(type)\"") else { continue }
            let attributes = Self.attributes(of: trimmed)
            let start = String(attributes["startDate", default: ""].prefix(10))
            guard start == String(attributes["endDate", default: ""].prefix(10)), attributes["unit"] == "kcal",
                  let value = Double(attributes["value", default: ""]) else {
                throw ImportFixtures.Missing(description: "an unexpected record: \(trimmed)")
            }
            sums[start, default: 0] += value
        }
        return sums
    }

    /// The `name="value"` attributes of a one-line start tag.
    static func attributes(of tag: Substring) -> [String: String] {
        var attributes: [String: String] = [:]
        let parts = tag.split(separator: "\"", omittingEmptySubsequences: false)
        for index in stride(from: 0, to: parts.count - 1, by: 2) {
            // `… name=` then the value.
            let name = parts[index].split(separator: " ").last.map { String($0.dropLast()) } ?? ""
            attributes[name] = String(parts[index + 1])
        }
        return attributes
    }

    @Test("hkimport-export.xml: no duplicates on the first import, nothing on the second, exact dietary energy days")
    func realExportTotals() throws {
        let path = try ImportFixtures.appleHealthFile("hkimport-export.xml")
        let store = HealthStore.inMemory()
        let first = try HealthDataImporter(store: store).importFile(atPath: path)
        // 10,814 quantity samples, 121 sleep records, 4 mindful sessions, 34 food correlations and 61 workouts.
        #expect(first.duplicates == 0 && first.rejected == 0 && first.imported == 11_034)
        let again = try HealthDataImporter(store: store).importFile(atPath: path)
        #expect(again.imported == 0 && again.duplicates == first.imported)
        #expect(try store.execute(SampleQuery(categoryType: .sleepAnalysis)).count == 121)
        #expect(try store.execute(SampleQuery(categoryType: .sleepAnalysis, predicate: .categoryValue(equalTo: 1))).count == 107)
        #expect(try store.execute(SampleQuery(categoryType: .mindfulSession)).map(\.value) == [0, 0, 0, 0])
        // Each food correlation refers to the top-level twins of its nested records, all stored.
        let food = try store.execute(SampleQuery(correlationType: .food))
        #expect(food.count == 34)
        #expect(food.allSatisfy { !$0.objects.isEmpty && $0.objects.map(\.uuid) == $0.memberUUIDs })
        #expect(food.reduce(0) { $0 + $1.memberUUIDs.count } == 162)

        let expected = try Self.dailySums(of: "HKQuantityTypeIdentifierDietaryEnergyConsumed", in: path)
        #expect(abs((expected["2017-11-05"] ?? 0) - 346.9344) < 1e-9 && expected["2017-11-11"] == 2_433)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(secondsFromGMT: 7_200))
        let anchor = try #require(calendar.date(from: DateComponents(year: 2000, month: 1, day: 1)))
        let days = try store.execute(StatisticsCollectionQuery(
            quantityType: try Self.dietaryEnergy(), options: .cumulativeSum, anchorDate: anchor,
            intervalComponents: .days(1), calendar: calendar))
        for day in ["2017-11-05", "2017-11-11"] {
            let parts = day.split(separator: "-").compactMap { Int($0) }
            let noon = try #require(calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12)))
            let total = try #require(days.statistics(for: noon)?.sumQuantity()?.value)
            #expect(abs(total - (expected[day] ?? 0)) < 1e-9, "\(day): \(total)")
        }
    }
}
