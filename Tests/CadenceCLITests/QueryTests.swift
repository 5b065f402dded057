//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

/// `stats`, `samples`, `changes` and `delete` against the imported export.
///
/// The export is all in UTC+02:00, so the tests use `--time-zone Etc/GMT-2` (IANA's POSIX-style
/// names invert the sign: `Etc/GMT-2` is two hours *ahead* of UTC).
@Suite("Queries")
struct QueryTests {
    static let zone = "Etc/GMT-2"

    /// Daily step sums computed by hand from the file's records.
    ///
    /// - 2017-01-23: no StepCount record starts, ends or spans that day → an empty interval, `null`.
    /// - 2017-01-24: ten records, all from "Jonathan’s iPhone" (so no source merging), all starting
    ///   and ending that day (17:29:30–17:38:08 28, 17:38:08–17:42:32 45, 18:26:01–18:35:38 78,
    ///   18:35:38–18:45:38 174, 18:45:38–18:55:13 76, 18:55:13–19:00:16 15, 19:00:16–19:10:16 103,
    ///   19:10:16–19:19:53 329, 19:19:53–19:28:00 287, 20:47:46–20:54:16 5):
    ///   28 + 45 + 78 + 174 + 76 + 15 + 103 + 329 + 287 + 5 = 1140.
    /// - 2017-01-25: six records of the same source within the day: 389.
    @Test func dailyStepSumsMatchTheFile() throws {
        let store = try Fixtures.hkimportStore.get().store
        let json = try CadenceBinary.succeed([
            "stats", "--store", store, "--type", "HKQuantityTypeIdentifierStepCount",
            "--from", "2017-01-23T00:00:00+02:00", "--to", "2017-01-26T00:00:00+02:00", "--interval", "1d",
            "--time-zone", Self.zone, "--format", "json",
        ]).jsonObject()
        #expect(json["type"] as? String == "HKQuantityTypeIdentifierStepCount")
        #expect(json["unit"] as? String == "count")
        #expect(json["timeZone"] as? String == Self.zone)
        let days = try #require(json["statistics"] as? [[String: Any]])
        #expect(days.count == 3)
        #expect(days.map { $0["startDate"] as? String } == [
            "2017-01-23T00:00:00+02:00", "2017-01-24T00:00:00+02:00", "2017-01-25T00:00:00+02:00",
        ])
        #expect(days.map { $0["endDate"] as? String } == [
            "2017-01-24T00:00:00+02:00", "2017-01-25T00:00:00+02:00", "2017-01-26T00:00:00+02:00",
        ])
        // Exactly the requested keys; the empty day's sum is an explicit null.
        #expect(Set(days[0].keys) == ["startDate", "endDate", "sum"])
        #expect(days[0]["sum"] is NSNull)
        #expect(days[1]["sum"] as? Double == 1140)
        #expect(days[2]["sum"] as? Double == 389)
    }

    /// 2017-02-19: 22 records from "Jonathan’s iPhone", none crossing midnight:
    /// 343 + 421 + 19 + 103 + 886 + 11 + 3 + 31 + 55 + 18 + 27 + 24 + 24 + 26 + 397 + 308 + 196 + 6
    /// + 10 + 385 + 1297 + 441 = 5031. Also checks CSV and the table.
    @Test func anotherDayInEveryFormat() throws {
        let store = try Fixtures.hkimportStore.get().store
        let arguments = ["stats", "--store", store, "--type", "stepCount", "--from", "2017-02-19", "--to", "2017-02-20",
                         "--interval", "1d", "--time-zone", Self.zone]
        let csv = try CadenceBinary.succeed(arguments + ["--format", "csv"]).standardOutput
        #expect(csv == "startDate,endDate,sum\n2017-02-19T00:00:00+02:00,2017-02-20T00:00:00+02:00,5031\n")
        let table = try CadenceBinary.succeed(arguments).standardOutput
        #expect(table.contains("Sum (count)"))
        #expect(table.contains("2017-02-19"))
        #expect(table.contains("5031"))
        // Without --interval: one statistic over the selected samples.
        let total = try CadenceBinary.succeed(arguments.filter { $0 != "--interval" && $0 != "1d" } + ["--format", "json"])
            .jsonObject()
        let statistics = try #require(total["statistics"] as? [[String: Any]])
        #expect(statistics.count == 1)
        #expect(statistics.first?["sum"] as? Double == 5031)
    }

    /// Body mass on 2017-09-24: 8fit 44.4 and 48.8 kg, MyFitnessPal 88.0001 kg (discrete types use
    /// every source): average (44.4 + 48.8 + 88.0001) / 3 = 60.400033…, minimum 44.4, maximum 88.0001.
    @Test func discreteDayWithSourcesAndUnits() throws {
        let store = try Fixtures.hkimportStore.get().store
        let arguments = ["stats", "--store", store, "--type", "bodyMass", "--from", "2017-09-24", "--to", "2017-09-25",
                         "--interval", "1d", "--time-zone", Self.zone, "--format", "json"]
        let day = try #require((try CadenceBinary.succeed(arguments).jsonObject()["statistics"] as? [[String: Any]])?.first)
        #expect(abs((day["average"] as? Double ?? 0) - 181.2001 / 3) < 1e-9)
        #expect(day["minimum"] as? Double == 44.4)
        #expect(day["maximum"] as? Double == 88.0001)

        // In pounds (1 lb = 0.453592 kg), with per-source values and the most recent sample.
        let pounds = try CadenceBinary.succeed(arguments + ["--unit", "lb", "--options", "minimum,mostRecent,separateBySource"])
            .jsonObject()
        #expect(pounds["unit"] as? String == "lb")
        let row = try #require((pounds["statistics"] as? [[String: Any]])?.first)
        #expect(Set(row.keys) == ["startDate", "endDate", "minimum", "mostRecent", "mostRecentStartDate",
                                  "mostRecentEndDate", "sources"])
        #expect(abs((row["minimum"] as? Double ?? 0) - 44.4 / 0.453592) < 1e-9)
        // The latest sample that day is 8fit's 48.8 kg at 14:02:28.
        #expect(abs((row["mostRecent"] as? Double ?? 0) - 48.8 / 0.453592) < 1e-9)
        #expect(row["mostRecentEndDate"] as? String == "2017-09-24T14:02:28+02:00")
        let sources = try #require(row["sources"] as? [String: [String: Any]])
        #expect(Set(sources.keys) == ["8fit", "MyFitnessPal"])
        #expect(abs((sources["MyFitnessPal"]?["minimum"] as? Double ?? 0) - 88.0001 / 0.453592) < 1e-9)
    }

    /// Intervals are listed from the one holding --from to the one holding the last instant
    /// before --to: an interval starting exactly at --to is not included.
    @Test func intervalsCoverTheHalfOpenRange() throws {
        let store = try Fixtures.hkimportStore.get().store
        let json = try CadenceBinary.succeed([
            "stats", "--store", store, "--type", "stepCount", "--from", "2017-01-24T17:30:00+02:00",
            "--to", "2017-01-24T21:00:00+02:00", "--interval", "1h", "--time-zone", Self.zone, "--format", "json",
        ]).jsonObject()
        let hours = try #require(json["statistics"] as? [[String: Any]])
        // 17:00, 18:00, 19:00 and 20:00 (the interval containing 17:30 through the one before 21:00).
        #expect(hours.map { $0["startDate"] as? String } == [
            "2017-01-24T17:00:00+02:00", "2017-01-24T18:00:00+02:00", "2017-01-24T19:00:00+02:00",
            "2017-01-24T20:00:00+02:00",
        ])
        // 17:00 holds the 28 and 45 steps (the 28 ends after 17:30, so it is selected and kept whole).
        // The 15 steps over 18:55:13–19:00:16 (303 s) cross 19:00 and are prorated: 287 s of them
        // fall in 18:00 and 16 s in 19:00. So 18:00: 78 + 174 + 76 + 15 × 287 / 303;
        // 19:00: 15 × 16 / 303 + 103 + 329 + 287; 20:00: 5. (78 + 174 + 76 = 328; 103 + 329 + 287 = 719.)
        let crossing = 15.0 / 303
        let expected: [Double] = [73, 328 + crossing * 287, crossing * 16 + 719, 5]
        let sums = hours.map { $0["sum"] as? Double ?? -1 }
        #expect(sums.count == expected.count)
        for (sum, value) in zip(sums, expected) {
            #expect(abs(sum - value) < 1e-9, "\(sums) vs \(expected)")
        }
    }

    @Test func samplesAreSortedAndLimited() throws {
        let store = try Fixtures.hkimportStore.get().store
        let arguments = ["samples", "--store", store, "--type", "stepCount", "--from", "2017-01-24", "--to", "2017-01-25",
                         "--time-zone", Self.zone, "--format", "json"]
        let all = try #require(try CadenceBinary.succeed(arguments).jsonObject()["samples"] as? [[String: Any]])
        #expect(all.count == 10)
        #expect(all.first?["value"] as? Double == 28)
        #expect(all.first?["startDate"] as? String == "2017-01-24T17:29:30+02:00")
        #expect(all.first?["sourceName"] as? String == "Jonathan’s iPhone")
        #expect(all.first?["unit"] as? String == "count")
        #expect((all.first?["device"] as? String)?.contains("hardware:iPhone8,1") == true)
        #expect(Set((all.first ?? [:]).keys).isSuperset(of: [
            "uuid", "type", "sourceName", "startDate", "endDate", "value", "unit", "device", "metadata",
        ]))
        let latest = try #require(try CadenceBinary.succeed(arguments + ["--sort", "-startDate", "--limit", "2"])
            .jsonObject()["samples"] as? [[String: Any]])
        #expect(latest.map { $0["value"] as? Double } == [5, 287])
    }

    /// Paging with `--limit` and the returned anchor visits every sample once.
    @Test func changesPageThroughEverySampleOnce() throws {
        let store = try Fixtures.hkimportStore.get().store
        var anchor: String?
        var seen: [String] = []
        var pages = 0
        while pages < 10 {
            var arguments = ["changes", "--store", store, "--type", "bodyMass", "--limit", "15"]
            if let anchor { arguments += ["--anchor", anchor] }
            let page = try CadenceBinary.succeed(arguments).jsonObject()
            let samples = try #require(page["samples"] as? [[String: Any]])
            #expect(samples.count <= 15)
            seen += samples.compactMap { $0["uuid"] as? String }
            anchor = try #require(page["anchor"] as? String)
            pages += 1
            if page["hasMore"] as? Bool != true { break }
        }
        // 40 body mass records, all distinct: pages of 15, 15 and 10.
        #expect(pages == 3)
        #expect(seen.count == 40)
        #expect(Set(seen).count == 40)
        // Nothing new after the last anchor.
        let empty = try CadenceBinary.succeed(["changes", "--store", store, "--type", "bodyMass", "--anchor", anchor ?? ""])
            .jsonObject()
        #expect((empty["samples"] as? [Any])?.isEmpty == true)
        #expect(empty["anchor"] as? String == anchor)
    }

    /// A sample deleted by UUID disappears from queries and shows up as a deleted object.
    @Test func deleteByUUIDShowsInChanges() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Fixtures.copyOfHKImportStore(in: directory)
        let first = try CadenceBinary.succeed(["changes", "--store", store, "--type", "bodyMass"]).jsonObject()
        let anchor = try #require(first["anchor"] as? String)
        let victim = try #require((first["samples"] as? [[String: Any]])?.first?["uuid"] as? String)

        let deleted = try CadenceBinary.succeed(["delete", "--store", store, "--uuid", victim, "--format", "json"]).jsonObject()
        #expect(deleted["deleted"] as? Int == 1)
        let text = try CadenceBinary.succeed(["delete", "--store", store, "--uuid", victim])
        #expect(text.standardOutput == "Deleted 0 samples.\n")

        let next = try CadenceBinary.succeed(["changes", "--store", store, "--type", "bodyMass", "--anchor", anchor]).jsonObject()
        #expect((next["samples"] as? [Any])?.isEmpty == true)
        let objects = try #require(next["deletedObjects"] as? [[String: Any]])
        #expect(objects.map { $0["uuid"] as? String } == [victim])

        let remaining = try CadenceBinary.succeed(["samples", "--store", store, "--type", "bodyMass", "--format", "json"])
            .jsonObject()
        #expect((remaining["samples"] as? [[String: Any]])?.count == 39)
    }

    /// Deleting by type and range removes only what the predicate selects.
    @Test func deleteByTypeAndRange() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try Fixtures.copyOfHKImportStore(in: directory)
        let result = try CadenceBinary.succeed([
            "delete", "--store", store, "--type", "stepCount", "--from", "2017-01-24", "--to", "2017-01-25",
            "--time-zone", Self.zone, "--format", "json",
        ]).jsonObject()
        #expect(result["deleted"] as? Int == 10)
        let day = try CadenceBinary.succeed([
            "stats", "--store", store, "--type", "stepCount", "--from", "2017-01-24", "--to", "2017-01-26",
            "--interval", "1d", "--time-zone", Self.zone, "--format", "json",
        ]).jsonObject()
        let sums = (day["statistics"] as? [[String: Any]])?.map { $0["sum"] as? Double }
        #expect(sums == [nil, 389])
    }

    /// The CSV columns are the import columns, then one `metadata:KEY` column per key.
    @Test func samplesCSVUsesTheImportColumns() throws {
        let store = try Fixtures.hkimportStore.get().store
        let csv = try CadenceBinary.succeed(["samples", "--store", store, "--type", "bodyMass", "--format", "csv"])
            .standardOutput
        let lines = csv.split(separator: "\n")
        #expect(lines.count == 41)
        let header = try #require(lines.first)
        #expect(header.hasPrefix("type,sourceName,unit,startDate,endDate,value,uuid,sourceVersion,device,creationDate,metadata:"))
        #expect(header.contains("metadata:HKWasUserEntered"))
    }

    /// A total over a range with no data is one entry with null values and the range's dates.
    @Test func totalWithoutDataIsNull() throws {
        let store = try Fixtures.hkimportStore.get().store
        let json = try CadenceBinary.succeed([
            "stats", "--store", store, "--type", "heartRate", "--from", "2016-01-01T00:00:00Z",
            "--to", "2016-02-01T00:00:00Z", "--time-zone", "UTC", "--format", "json",
        ]).jsonObject()
        let entry = try #require((json["statistics"] as? [[String: Any]])?.first)
        #expect(entry["startDate"] as? String == "2016-01-01T00:00:00Z")
        #expect(entry["endDate"] as? String == "2016-02-01T00:00:00Z")
        #expect(entry["average"] is NSNull && entry["minimum"] is NSNull && entry["maximum"] is NSNull)
    }

    @Test func malformedAnchorFailsWithOneLine() throws {
        let store = try Fixtures.hkimportStore.get().store
        let result = try CadenceBinary.run(["changes", "--store", store, "--type", "stepCount", "--anchor", "yesterday"])
        #expect(result.status != 0)
        let message = result.standardError.trimmingCharacters(in: .newlines)
        #expect(!message.contains("\n") && message.contains("--anchor") && message.contains("yesterday"))
    }

    @Test func deleteNeedsUUIDsOrAType() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = try CadenceBinary.run(["delete", "--store", directory.path("store")])
        #expect(result.status != 0)
        #expect(result.standardError.contains("--uuid"))
    }
}
