//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation
import Testing

/// `cadence series` over a store holding a step series and a plain sample.
@Suite("cadence series")
struct SeriesCommandTests {
    @Test("Its CSV re-imports into a store equal sample for sample and entry for entry; again, it adds nothing")
    func csvRoundTrip() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let original = directory.path("original")
        let start = Date(timeIntervalSince1970: 1_714_571_700)  // 2024-05-01T13:55:00Z
        do {
            let store = try HealthStore.open(at: original)
            var steps = try QuantitySeriesSampleBuilder(type: .stepCount, start: start.addingTimeInterval(-30),
                                                        end: start.addingTimeInterval(600))
            for minute in 0..<5 {
                try steps.insert(Quantity(value: Double(10 + minute), unit: .count),
                                 dateInterval: DateInterval(start: start.addingTimeInterval(Double(minute) * 60), duration: 45))
            }
            try store.save(try steps.finishSeries(
                source: Source(name: "Watch, \"left\""), sourceVersion: "10.4",
                device: Device(name: "Apple Watch", model: "Watch"), creationDate: start.addingTimeInterval(700),
                metadata: ["HKWasUserEntered": "1", "note": "a,b"]))
            var heart = try QuantitySeriesSampleBuilder(type: .heartRate, start: start, end: start.addingTimeInterval(300))
            for (second, value) in [(0.0, 61.5), (90, 72), (200, 66.25)] {
                try heart.insert(Quantity(value: value, unit: try HealthUnit("count/min")),
                                 dateInterval: DateInterval(start: start.addingTimeInterval(second), duration: 0))
            }
            try store.save(try heart.finishSeries(source: Source(name: "Watch")))
            try store.save([try QuantitySample(type: .stepCount, value: 20, start: start.addingTimeInterval(30),
                                               end: start.addingTimeInterval(90), source: Source(name: "Phone"))])
            try store.close()
        }
        let copy = directory.path("copy")
        for type in ["stepCount", "heartRate"] {
            let csv = directory.path("\(type).csv")
            let exported = try CadenceBinary.succeed(["series", "--store", original, "--type", type, "--format", "csv"])
            try Data(exported.standardOutput.utf8).write(to: URL(fileURLWithPath: csv))
            let first = try CadenceBinary.succeed(["import", csv, "--store", copy, "--format", "json"]).jsonObject()
            #expect((first["totals"] as? [String: Any])?["rejected"] as? Int == 0)
            let again = try CadenceBinary.succeed(["import", csv, "--store", copy, "--format", "json"]).jsonObject()
            let totals = again["totals"] as? [String: Any]
            #expect(totals?["imported"] as? Int == 0 && totals?["rejected"] as? Int == 0)
        }
        for type in ["stepCount", "heartRate"] {
            for listing in [["samples"], ["series", "--by-sample"], ["series"]] {
                let arguments = listing + ["--type", type, "--format", "json", "--time-zone", "UTC"]
                let before = try CadenceBinary.succeed(arguments + ["--store", original]).standardOutput
                let after = try CadenceBinary.succeed(arguments + ["--store", copy]).standardOutput
                #expect(before == after, "\(arguments)")
            }
        }
    }

    @Test("Entries come by start, or sample by sample with --by-sample, with their sample's UUID and count")
    func entries() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("store")
        let start = Date(timeIntervalSince1970: 1_714_571_700)  // 2024-05-01T13:55:00Z
        let seriesUUID = try #require(UUID(uuidString: "00000000-0000-4000-8000-000000000001"))
        let plainUUID = try #require(UUID(uuidString: "00000000-0000-4000-8000-000000000002"))
        do {
            let store = try HealthStore.open(at: path)
            var builder = try QuantitySeriesSampleBuilder(type: .stepCount, start: start, end: start.addingTimeInterval(120))
            try builder.insert(Quantity(value: 90, unit: .count), dateInterval: DateInterval(start: start, duration: 60))
            try builder.insert(Quantity(value: 1, unit: .count),
                               dateInterval: DateInterval(start: start.addingTimeInterval(60), duration: 60))
            try store.save(try builder.finishSeries(uuid: seriesUUID, source: Source(name: "Watch")))
            try store.save([try QuantitySample(uuid: plainUUID, type: .stepCount, value: 20, start: start.addingTimeInterval(30),
                                               end: start.addingTimeInterval(30), source: Source(name: "Phone"))])
            try store.close()
        }
        let merged = try CadenceBinary.succeed(["series", "--store", path, "--type", "stepCount", "--format", "csv",
                                                "--time-zone", "UTC"])
        #expect(merged.standardOutput == """
            type,sourceName,unit,startDate,endDate,value,sample,sampleCount,uuid,sourceVersion,device,creationDate,sampleStartDate,sampleEndDate
            HKQuantityTypeIdentifierStepCount,Watch,count,2024-05-01T13:55:00Z,2024-05-01T13:56:00Z,90,\(seriesUUID),2,,,,,2024-05-01T13:55:00Z,2024-05-01T13:57:00Z
            HKQuantityTypeIdentifierStepCount,Phone,count,2024-05-01T13:55:30Z,2024-05-01T13:55:30Z,20,,1,\(plainUUID),,,,,
            HKQuantityTypeIdentifierStepCount,Watch,count,2024-05-01T13:56:00Z,2024-05-01T13:57:00Z,1,\(seriesUUID),2,,,,,2024-05-01T13:55:00Z,2024-05-01T13:57:00Z

            """)
        let grouped = try CadenceBinary.succeed(["series", "--store", path, "--type", "stepCount", "--format", "json",
                                                 "--by-sample"]).jsonObject()
        let entries = try #require(grouped["entries"] as? [[String: Any]])
        #expect(entries.map { $0["value"] as? Double } == [90, 1, 20])
        #expect(entries.map { $0["sampleCount"] as? Int } == [2, 2, 1])
        let samples = try CadenceBinary.succeed(["samples", "--store", path, "--type", "stepCount", "--format", "json"])
            .jsonObject()
        #expect((samples["samples"] as? [[String: Any]])?.map { $0["value"] as? Double } == [91, 20])
        // Info counts the series sample once under its type, and the owners' series is no type to name.
        let info = try CadenceBinary.succeed(["info", "--store", path]).standardOutput
        #expect(info.contains("stepCount: 1 series samples with 2 entries") && !info.contains("seriesOwners"))
        let types = try CadenceBinary.succeed(["info", "--store", path, "--format", "json"]).jsonObject()["types"] as? [[String: Any]]
        #expect(types?.map { $0["samples"] as? Int } == [2] && types?.first?["seriesEntries"] as? Int == 2)
        for command in ["changes", "samples"] {
            let named = try CadenceBinary.run([command, "--store", path, "--type",
                                                  "_cadence.seriesOwners.HKQuantityTypeIdentifierStepCount"])
            #expect(named.status != 0 && named.standardError.contains("Unknown"))
        }
    }
}
