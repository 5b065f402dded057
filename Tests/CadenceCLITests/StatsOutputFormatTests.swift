//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

/// `stats` prints exactly what it printed before its output was written into one byte buffer: the
/// expected texts below are the earlier implementation's output for the same store, byte for byte.
///
/// The data is chosen to be awkward: a zone with a negative half-hour offset that changes on
/// both days asked for (America/St_Johns), fractional seconds of three and six digits, whole
/// numbers beyond 10^15 (printed with a fraction), long fractions, a zero-length sample, and
/// source names that need CSV quoting and JSON escaping or begin with a space.
@Suite("stats output format")
struct StatsOutputFormatTests {
    static let samples = #"""
            type,sourceName,unit,startDate,endDate,value
            stepCount,Watch,count,2024-03-10T05:29:59.123Z,2024-03-10T05:40:00Z,600000000000000
            stepCount,"Phone, ""Pro""",count,2024-03-10T05:35:00.000100Z,2024-03-10T05:45:00Z,700000000000000
            stepCount,Watch,count,2024-03-10T05:50:00Z,2024-03-10T05:50:00Z,0.1
            stepCount,Watch,count,2024-03-10T05:51:00Z,2024-03-10T05:51:00Z,0.2
            stepCount," Phone",count,2024-03-10T06:10:00Z,2024-03-10T06:20:00Z,3
            stepCount,Watch,count,2024-11-03T03:00:00Z,2024-11-03T06:00:00Z,12345678901
            stepCount,Watch,count,2024-11-02T12:00:00Z,2024-11-02T12:00:00Z,2000000000000000
            """#

    static let hourly = ["--from", "2024-03-10", "--to", "2024-03-10T05:00:00-02:30", "--time-zone", "America/St_Johns",
                         "--interval", "1h", "--options", "sum,mostRecent,duration,separateBySource"]
    static let daily = ["--from", "2024-11-02", "--to", "2024-11-04", "--time-zone", "America/St_Johns",
                        "--interval", "1d", "--options", "sum,mostRecent"]

    static let expected: [String: String] = [
        "hourly.csv": #"""
            startDate,endDate,source,sum,mostRecent,mostRecentStartDate,mostRecentEndDate,duration
            2024-03-10T00:00:00-03:30,2024-03-10T01:00:00-03:30,,,,,,
            2024-03-10T01:00:00-03:30,2024-03-10T03:00:00-02:30,,875719989282.3323,600000000000000,2024-03-10T01:59:59.123-03:30,2024-03-10T03:10:00-02:30,0.877
            2024-03-10T01:00:00-03:30,2024-03-10T03:00:00-02:30,Watch,875719989282.3323,600000000000000,2024-03-10T01:59:59.123-03:30,2024-03-10T03:10:00-02:30,0.877
            2024-03-10T03:00:00-02:30,2024-03-10T04:00:00-02:30,,949124338344064.1,3,2024-03-10T03:40:00-02:30,2024-03-10T03:50:00-02:30,1500
            2024-03-10T03:00:00-02:30,2024-03-10T04:00:00-02:30," Phone",3,3,2024-03-10T03:40:00-02:30,2024-03-10T03:50:00-02:30,600
            2024-03-10T03:00:00-02:30,2024-03-10T04:00:00-02:30,"Phone, ""Pro""",700000000000000,700000000000000,2024-03-10T03:05:00.000100-02:30,2024-03-10T03:15:00-02:30,599.9999
            2024-03-10T03:00:00-02:30,2024-03-10T04:00:00-02:30,Watch,599124280010718,0.2,2024-03-10T03:21:00-02:30,2024-03-10T03:21:00-02:30,600
            2024-03-10T04:00:00-02:30,2024-03-10T05:00:00-02:30,,,,,,
            """#,
        "hourly.json": #"""
            {
              "type": "HKQuantityTypeIdentifierStepCount",
              "unit": "count",
              "timeZone": "America/St_Johns",
              "statistics": [
                {
                  "startDate": "2024-03-10T00:00:00-03:30",
                  "endDate": "2024-03-10T01:00:00-03:30",
                  "sum": null,
                  "mostRecent": null,
                  "mostRecentStartDate": null,
                  "mostRecentEndDate": null,
                  "duration": null,
                  "sources": {}
                },
                {
                  "startDate": "2024-03-10T01:00:00-03:30",
                  "endDate": "2024-03-10T03:00:00-02:30",
                  "sum": 875719989282.3323,
                  "mostRecent": 600000000000000,
                  "mostRecentStartDate": "2024-03-10T01:59:59.123-03:30",
                  "mostRecentEndDate": "2024-03-10T03:10:00-02:30",
                  "duration": 0.877,
                  "sources": {
                    "Watch": {
                      "sum": 875719989282.3323,
                      "mostRecent": 600000000000000,
                      "mostRecentStartDate": "2024-03-10T01:59:59.123-03:30",
                      "mostRecentEndDate": "2024-03-10T03:10:00-02:30",
                      "duration": 0.877
                    }
                  }
                },
                {
                  "startDate": "2024-03-10T03:00:00-02:30",
                  "endDate": "2024-03-10T04:00:00-02:30",
                  "sum": 949124338344064.1,
                  "mostRecent": 3,
                  "mostRecentStartDate": "2024-03-10T03:40:00-02:30",
                  "mostRecentEndDate": "2024-03-10T03:50:00-02:30",
                  "duration": 1500,
                  "sources": {
                    " Phone": {
                      "sum": 3,
                      "mostRecent": 3,
                      "mostRecentStartDate": "2024-03-10T03:40:00-02:30",
                      "mostRecentEndDate": "2024-03-10T03:50:00-02:30",
                      "duration": 600
                    },
                    "Phone, \"Pro\"": {
                      "sum": 700000000000000,
                      "mostRecent": 700000000000000,
                      "mostRecentStartDate": "2024-03-10T03:05:00.000100-02:30",
                      "mostRecentEndDate": "2024-03-10T03:15:00-02:30",
                      "duration": 599.9999
                    },
                    "Watch": {
                      "sum": 599124280010718,
                      "mostRecent": 0.2,
                      "mostRecentStartDate": "2024-03-10T03:21:00-02:30",
                      "mostRecentEndDate": "2024-03-10T03:21:00-02:30",
                      "duration": 600
                    }
                  }
                },
                {
                  "startDate": "2024-03-10T04:00:00-02:30",
                  "endDate": "2024-03-10T05:00:00-02:30",
                  "sum": null,
                  "mostRecent": null,
                  "mostRecentStartDate": null,
                  "mostRecentEndDate": null,
                  "duration": null,
                  "sources": {}
                }
              ]
            }
            """#,
        "hourly.table": #"""
            stepCount in count, times in America/St_Johns
            Start             End               Source            Sum (count)  Most recent (count)  Duration (h:mm:ss)
            ----------------  ----------------  ------------  ---------------  -------------------  ------------------
            2024-03-10 00:00  2024-03-10 01:00  all sources                 -                    -                   -
            2024-03-10 01:00  2024-03-10 03:00  all sources      875719989282      600000000000000             0:00:01
                                                Watch            875719989282      600000000000000             0:00:01
            2024-03-10 03:00  2024-03-10 04:00  all sources   949124338344064                    3             0:25:00
                                                 Phone                      3                    3             0:10:00
                                                Phone, "Pro"  700000000000000      700000000000000             0:10:00
                                                Watch         599124280010718                  0.2             0:10:00
            2024-03-10 04:00  2024-03-10 05:00  all sources                 -                    -                   -
            """#,
        "daily.csv": #"""
            startDate,endDate,sum,mostRecent,mostRecentStartDate,mostRecentEndDate
            2024-11-02T00:00:00-02:30,2024-11-03T00:00:00-02:30,2000000000000000.0,2000000000000000.0,2024-11-02T09:30:00-02:30,2024-11-02T09:30:00-02:30
            2024-11-03T00:00:00-02:30,2024-11-04T00:00:00-03:30,12345678901,12345678901,2024-11-03T00:30:00-02:30,2024-11-03T02:30:00-03:30
            """#,
        "daily.json": #"""
            {
              "type": "HKQuantityTypeIdentifierStepCount",
              "unit": "count",
              "timeZone": "America/St_Johns",
              "statistics": [
                {
                  "startDate": "2024-11-02T00:00:00-02:30",
                  "endDate": "2024-11-03T00:00:00-02:30",
                  "sum": 2000000000000000.0,
                  "mostRecent": 2000000000000000.0,
                  "mostRecentStartDate": "2024-11-02T09:30:00-02:30",
                  "mostRecentEndDate": "2024-11-02T09:30:00-02:30"
                },
                {
                  "startDate": "2024-11-03T00:00:00-02:30",
                  "endDate": "2024-11-04T00:00:00-03:30",
                  "sum": 12345678901,
                  "mostRecent": 12345678901,
                  "mostRecentStartDate": "2024-11-03T00:30:00-02:30",
                  "mostRecentEndDate": "2024-11-03T02:30:00-03:30"
                }
              ]
            }
            """#,
        "daily.table": #"""
            stepCount in count, times in America/St_Johns
            Start       End              Sum (count)  Most recent (count)
            ----------  ----------  ----------------  -------------------
            2024-11-02  2024-11-03  2000000000000000     2000000000000000
            2024-11-03  2024-11-04       12345678901          12345678901
            """#,
    ]

    @Test("CSV, JSON and table output are byte for byte as before", arguments: ["csv", "json", "table"])
    func unchanged(format: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.path("samples.csv")
        try Self.samples.write(toFile: file, atomically: true, encoding: .utf8)
        let store = directory.path("store")
        try CadenceBinary.succeed(["import", file, "--store", store])
        for (name, arguments) in [("hourly", Self.hourly), ("daily", Self.daily)] {
            let result = try CadenceBinary.succeed(["stats", "--store", store, "--type", "stepCount", "--format", format]
                                                   + arguments)
            // A multi-line literal drops its last line break; the output ends with one.
            let expected = try #require(Self.expected["\(name).\(format)"]) + "\n"
            #expect(result.standardOutput == expected, "\(name) \(format)")
        }
    }
}
