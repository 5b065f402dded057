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
            type,sourceName,unit,startDate,endDate,value,sample,sampleCount
            HKQuantityTypeIdentifierStepCount,Watch,count,2024-05-01T13:55:00Z,2024-05-01T13:56:00Z,90,\(seriesUUID),2
            HKQuantityTypeIdentifierStepCount,Phone,count,2024-05-01T13:55:30Z,2024-05-01T13:55:30Z,20,\(plainUUID),1
            HKQuantityTypeIdentifierStepCount,Watch,count,2024-05-01T13:56:00Z,2024-05-01T13:57:00Z,1,\(seriesUUID),2

            """)
        let grouped = try CadenceBinary.succeed(["series", "--store", path, "--type", "stepCount", "--format", "json",
                                                 "--by-sample"]).jsonObject()
        let entries = try #require(grouped["entries"] as? [[String: Any]])
        #expect(entries.map { $0["value"] as? Double } == [90, 1, 20])
        #expect(entries.map { $0["sampleCount"] as? Int } == [2, 2, 1])
        let samples = try CadenceBinary.succeed(["samples", "--store", path, "--type", "stepCount", "--format", "json"])
            .jsonObject()
        #expect((samples["samples"] as? [[String: Any]])?.map { $0["value"] as? Double } == [91, 20])
    }
}
