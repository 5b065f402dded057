//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import Cadence

#if canImport(Glibc)
import Glibc
#endif

/// What an import holds until the end of the file (records inside correlations, correlations,
/// activity summaries) waits on disk and is resolved and saved in batches: whatever the batch,
/// the store holds what one batch for the whole file stores, and a damaged temporary file is an
/// error, never data.
@Suite("Records held for the end of an import")
struct HeldImportTests {
    /// The batch sizes compared with the default (one batch for these files), and the cores and
    /// segment bytes each is read with.
    static let settings: [(batch: Int, parallelism: Int, segmentBytes: Int)] = [
        (1, 1, 8 << 20), (2, 1, 8 << 20), (3, 2, 2_048), (5, 1, 8 << 20), (7, 2, 4_096),
    ]

    /// A date `minutes` after 2024-01-01 08:00 UTC, as an export writes it.
    static func date(_ minutes: Int) -> String {
        String(format: "2024-01-%02d %02d:%02d:00 +0000", 1 + minutes / 1_440, 8 + minutes % 1_440 / 60 % 16, minutes % 60)
    }

    static func reading(_ type: String, _ value: Int, minutes: Int, unit: String = "mmHg", indent: String = "  ") -> String {
        #"\#(indent)<Record type="HKQuantityTypeIdentifier\#(type)" sourceName="Cuff" unit="\#(unit)" "#
            + #"startDate="\#(date(minutes))" endDate="\#(date(minutes))" value="\#(value)"/>"#
    }

    /// Blood pressures, a third with a top-level twin before them, a third with one after (at the
    /// end of the file), a third without; readings that repeat (look-alike copies counted across
    /// batches); a malformed correlation whose member stays alone; food correlations of several
    /// members, one of a type Cadence does not know.
    static func correlationExport(count: Int) -> String {
        var lines: [String] = []
        var later: [String] = []
        for index in 0..<count {
            let minutes = index % 11 * 7
            let members = [reading("BloodPressureSystolic", 110 + index % 4, minutes: minutes),
                           reading("BloodPressureDiastolic", 70 + index % 3, minutes: minutes)]
            let twins = members.map { " " + $0.dropFirst(2) }
            if index % 3 == 0 { lines += twins }
            if index % 3 == 1 { later += twins }
            lines.append(#" <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Cuff" "#
                         + #"startDate="\#(date(minutes))" endDate="\#(date(minutes))">"#)
            lines += members + [" </Correlation>"]
            if index % 5 == 4 {
                lines += [#" <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Cuff" "#
                          + #"startDate="\#(date(minutes))" endDate="\#(date(minutes))">"#,
                          reading("BloodPressureSystolic", 130, minutes: minutes + 1), " </Correlation>"]
            }
            if index % 4 == 2 {
                lines += [#" <Correlation type="HKCorrelationTypeIdentifierFood" sourceName="Cuff" "#
                          + #"startDate="\#(date(minutes))" endDate="\#(date(minutes))">"#,
                          reading("DietaryEnergyConsumed", 200 + index, minutes: minutes, unit: "kcal"),
                          reading("DietaryProtein", 10, minutes: minutes, unit: "g"),
                          reading("DietaryMadeUp", index % 2, minutes: minutes, unit: "g"),
                          " </Correlation>"]
            }
        }
        return ImportFixtures.export((lines + later).joined(separator: "\n"))
    }

    /// Activity summaries of a few days, most several times with other values: the last of a day counts.
    static func summaryExport(count: Int, offset: Int) -> String {
        ImportFixtures.export((0..<count).map { index in
            #" <ActivitySummary dateComponents="2024-02-\#(String(format: "%02d", 1 + index * 7 % 13))" "#
                + #"activeEnergyBurned="\#((index + offset) % 5 * 100)" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="kcal" "#
                + #"appleExerciseTime="\#(index % 3 * 10)" appleStandHours="\#(index % 2 == 0 ? "12" : "")"/>"#
        }.joined(separator: "\n"))
    }

    /// Every row of every type of `store`, written out whole (UUID, type, dates, value, source,
    /// metadata), sorted: two stores holding the same samples give the same list.
    static func dump(_ store: HealthStore) throws -> [String] {
        let snapshot = store.snapshot()
        var rows: [String] = []
        for (identifier, type) in snapshot.types {
            try StoredSample.forEachRow(of: type, details: true) { columns, row in
                let uuid = StoredSample.uuid(of: columns, row: row, type: identifier, snapshotProvenances: snapshot.provenances)
                let metadata = columns.metadata(at: row).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                rows.append([uuid.uuidString, identifier, "\(columns.start[row])", "\(columns.end[row])", "\(columns.value[row])",
                             snapshot.provenances[Int(columns.provenance[row])].source.name, metadata.joined(separator: ";")]
                    .joined(separator: "|"))
            }
        }
        return rows.sorted()
    }

    /// The summary as JSON, every field (the counts by kind sorted: a dictionary's order is not).
    static func text(_ summary: ImportSummary) throws -> String {
        var summary = summary
        let byKind = summary.importedByKind.map { "\($0.key)=\($0.value)" }.sorted()
        summary.importedByKind = [:]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(summary), as: UTF8.self) + byKind.joined(separator: ",")
    }

    /// Imports the file at `path` into `store` with `setting`, its temporary files in `directory`.
    static func importFile(_ path: String, into store: HealthStore, setting: (batch: Int, parallelism: Int, segmentBytes: Int)?,
                           directory: URL) throws -> ImportSummary {
        var importer = HealthDataImporter(store: store, parallelism: setting?.parallelism ?? 1)
        importer.occurrenceBudget.directory = directory.path
        if let setting {
            importer.heldBatch = setting.batch
            importer.segmentBytes = setting.segmentBytes
            // The head flushed every few saves as well.
            importer.flushBytes = 4_096
        }
        return try importer.importFile(atPath: path)
    }

    @Test("Correlations resolved in batches store the same samples, UUIDs and members as one batch, and a re-import adds nothing")
    func correlationsInBatches() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("export.xml")
        try Data(Self.correlationExport(count: 40).utf8).write(to: file)
        let reference = HealthStore.inMemory()
        let expected = try Self.importFile(file.path, into: reference, setting: nil, directory: directory)
        #expect(expected.correlations > 40 && expected.correlationRecords > 0 && expected.imported > 0)
        let rows = try Self.dump(reference)
        #expect(rows.contains { $0.contains("HKCorrelationTypeIdentifierFood") })
        for setting in Self.settings {
            let store = HealthStore.inMemory()
            let summary = try Self.importFile(file.path, into: store, setting: setting, directory: directory)
            #expect(try Self.text(summary) == Self.text(expected), "batch \(setting.batch)")
            #expect(try Self.dump(store) == rows, "batch \(setting.batch)")
            let again = try Self.importFile(file.path, into: store, setting: setting, directory: directory)
            #expect(again.imported == 0 && again.duplicates == expected.imported, "batch \(setting.batch)")
            #expect(try Self.dump(store) == rows, "batch \(setting.batch)")
        }
    }

    @Test("Activity summaries saved in batches keep the last of each day, counted as one batch counts them, on a re-import too")
    func summariesInBatches() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("first.xml")
        let second = directory.appendingPathComponent("second.xml")
        try Data(Self.summaryExport(count: 40, offset: 0).utf8).write(to: first)
        try Data(Self.summaryExport(count: 23, offset: 2).utf8).write(to: second)
        let reference = HealthStore.inMemory()
        let expected = try [first, second].map { try Self.importFile($0.path, into: reference, setting: nil, directory: directory) }
        #expect(expected[0].activitySummariesImported == 13 && expected[1].activitySummariesUpdated > 0)
        let summaries = try reference.execute(ActivitySummaryQuery())
        for setting in Self.settings {
            let store = HealthStore.inMemory()
            for (file, summary) in zip([first, second], expected) {
                let imported = try Self.importFile(file.path, into: store, setting: setting, directory: directory)
                #expect(try Self.text(imported) == Self.text(summary), "batch \(setting.batch)")
            }
            #expect(try store.execute(ActivitySummaryQuery()) == summaries, "batch \(setting.batch)")
            #expect(try Self.dump(store) == Self.dump(reference), "batch \(setting.batch)")
        }
    }

    /// The descriptor of the one open temporary file of the import in `directory`.
    static func openTemporaryFile(in directory: URL) throws -> Int32 {
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { entry -> Int32? in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + entry),
                  target.hasPrefix(directory.path + "/cadence-temporary-") else { return nil }
            return Int32(entry)
        }
        try #require(descriptors.count == 1)
        return descriptors[0]
    }

    @Test("A temporary file with a flipped bit or cut short is an error naming it, never data")
    func damagedFile() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for damage in ["flip", "cut"] {
            var spill = try SpillFile(in: directory.path)
            for index in 0..<100 { try spill.append([UInt8](repeating: UInt8(index), count: 1 + index)) }
            try spill.flush()
            var intact = spill.reader()
            var read = 0
            while let payload = try intact.next() {
                #expect(payload == [UInt8](repeating: UInt8(read), count: 1 + read))
                read += 1
            }
            #expect(read == 100)
            let descriptor = try Self.openTemporaryFile(in: directory)
            if damage == "flip" {
                var byte: UInt8 = 0
                #expect(pread(descriptor, &byte, 1, 2_000) == 1)
                byte ^= 0x10
                #expect(pwrite(descriptor, &byte, 1, 2_000) == 1)
            } else {
                #expect(ftruncate(descriptor, off_t(spill.byteCount - 3)) == 0)
            }
            var damaged = spill.reader()
            var delivered = 0
            let error = #expect(throws: CadenceError.self) {
                while try damaged.next() != nil { delivered += 1 }
            }
            #expect(error?.path == spill.path && error?.code == .io, "\(String(describing: error))")
            #expect(delivered < 100)
        }
    }

    @Test("Held activity summaries read back from a damaged file are an error, never summaries")
    func damagedSummaries() throws {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var held = HeldActivitySummaries(directory: directory.path)
        let day = try ActivityDay("2024-03-01")
        try held.hold((0..<10).map { ActivitySummary(day: ActivityDay(dayNumber: day.dayNumber + Int64($0))!, appleStandHours: 3) })
        var saved: [ActivitySummary] = []
        try held.lastOfEachDay(batch: 4) { saved += $0 }
        #expect(saved.count == 10)
        let descriptor = try Self.openTemporaryFile(in: directory)
        var byte: UInt8 = 0xFF
        #expect(pwrite(descriptor, &byte, 1, 300) == 1)
        saved = []
        #expect(throws: CadenceError.self) { try held.lastOfEachDay(batch: 4) { saved += $0 } }
        #expect(saved.isEmpty)
    }
}
