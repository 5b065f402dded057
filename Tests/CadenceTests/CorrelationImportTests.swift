//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import Cadence

/// Correlations of an export whose members do not make what their type means: reported with their
/// line and not stored, and refused in strict mode (see How Cadence computes, Identity).
@Suite("Malformed correlations in an export")
struct CorrelationImportTests {
    static let dates = #"startDate="2024-01-01 08:00:00 +0000" endDate="2024-01-01 08:00:00 +0000""#

    /// A member record of `type` (a short blood pressure or nutrient name), `indent` spaces in.
    static func member(_ type: String, _ value: Int, unit: String = "mmHg", indent: Int = 2) -> String {
        String(repeating: " ", count: indent)
            + #"<Record type="HKQuantityTypeIdentifier\#(type)" sourceName="Cuff" unit="\#(unit)" \#(dates) value="\#(value)"/>"#
    }

    /// An export whose correlation (at line 6) holds `members`, after two top-level readings.
    static func export(correlation type: String, members: [String]) -> String {
        let open = #" <Correlation type="HKCorrelationTypeIdentifier\#(type)" sourceName="Cuff" \#(dates)"#
        let correlation = members.isEmpty ? open + "/>" : ([open + ">"] + members + [" </Correlation>"]).joined(separator: "\n")
        return ImportFixtures.export([
            member("BloodPressureSystolic", 120, indent: 1), member("BloodPressureDiastolic", 80, indent: 1), correlation,
        ].joined(separator: "\n"))
    }

    /// Imports `xml` as an `export.xml` into a new in-memory store.
    static func importXML(_ xml: String, strict: Bool) throws -> (ImportSummary, HealthStore) {
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("export.xml")
        try Data(xml.utf8).write(to: file)
        let store = HealthStore.inMemory()
        return (try HealthDataImporter(store: store, strict: strict, parallelism: 1).importFile(atPath: file.path), store)
    }

    @Test("A correlation whose members do not make its type is reported with its line and not stored; strict mode refuses the file",
          arguments: [
              // Blood pressure with its systolic member alone.
              ("BloodPressure", [member("BloodPressureSystolic", 120)], "1 systolic, 0 diastolic and 0 other", 2),
              // Blood pressure with the systolic member twice.
              ("BloodPressure", [member("BloodPressureSystolic", 120), member("BloodPressureSystolic", 120)],
               "2 systolic, 0 diastolic and 0 other", 3),
              // Blood pressure with both, and a heart rate besides.
              ("BloodPressure", [member("BloodPressureSystolic", 120), member("BloodPressureDiastolic", 80),
                                 member("HeartRate", 60, unit: "count/min")], "1 systolic, 1 diastolic and 1 other", 3),
              // A food entry without a member, self-closing.
              ("Food", [], "a food correlation needs at least one member", 2),
          ])
    func malformed(type: String, members: [String], phrase: String, imported: Int) throws {
        let xml = Self.export(correlation: type, members: members)
        let (summary, _) = try Self.importXML(xml, strict: false)
        #expect(summary.rejections.map(\.line) == [6])
        let reason = summary.rejections.first?.reason ?? ""
        #expect(reason.hasPrefix("a <Correlation> was skipped: ") && reason.contains(phrase), "\(reason)")
        #expect(summary.correlations == 1)
        // The two top-level readings and the members without a top-level twin, and no correlation.
        #expect(summary.imported == imported)

        let strictStore = HealthStore.inMemory()
        let directory = try ImportFixtures.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("export.xml")
        try Data(xml.utf8).write(to: file)
        let error = #expect(throws: CadenceError.self) {
            try HealthDataImporter(store: strictStore, strict: true, parallelism: 1).importFile(atPath: file.path)
        }
        #expect(error?.line == 6)
        #expect(error?.message.contains(phrase) == true, "\(String(describing: error))")
        #expect(try strictStore.info().totalSamples == 0)
    }

    @Test("Well-formed blood pressure and food correlations import without a word, in strict mode too")
    func wellFormed() throws {
        let pressure = Self.export(correlation: "BloodPressure", members: [
            Self.member("BloodPressureSystolic", 120), Self.member("BloodPressureDiastolic", 80),
        ])
        let food = Self.export(correlation: "Food", members: [Self.member("DietaryEnergyConsumed", 300, unit: "kcal")])
        for xml in [pressure, food] {
            let (summary, _) = try Self.importXML(xml, strict: true)
            #expect(summary.rejections.isEmpty, "\(summary.rejections)")
            #expect(summary.correlations == 1)
            // The two top-level readings, a nested member without a twin (food), and the correlation.
            #expect(summary.imported == (xml == food ? 4 : 3))
        }
    }
}
