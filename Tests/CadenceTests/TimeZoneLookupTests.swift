//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation
import Testing

@Suite("Time zone lookup")
struct TimeZoneLookupTests {
    @Test("finds IANA names and UTC", arguments: [
        // UTC, the default for queries.
        ("UTC", 0),
        // UTC in lower case.
        ("utc", 0),
        // GMT.
        ("GMT", 0),
        // The IANA alias for UTC.
        ("Etc/UTC", 0),
        // A zone with daylight saving time, in January.
        ("America/New_York", -18_000),
        // A half-hour zone.
        ("Asia/Kolkata", 19_800),
        // Lord Howe in January (summer, +11:00).
        ("Australia/Lord_Howe", 39_600),
    ])
    func known(name: String, januaryOffset: Int) throws {
        let zone = try timeZone(named: name)
        #expect(zone.secondsFromGMT(for: Date(timestamp: 1_704_067_200_000_000)) == januaryOffset)
    }

    @Test("rejects unknown names", arguments: [
        // Not a zone.
        "Mars/Olympus_Mons",
        // Empty.
        "",
        // IANA names are case-sensitive.
        "america/new_york",
        // Abbreviations with spaces are not names.
        "Eastern Standard Time",
    ])
    func unknown(name: String) {
        let error = #expect(throws: CadenceError.self) { try timeZone(named: name) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("\"\(name)\"") == true)
    }
}
