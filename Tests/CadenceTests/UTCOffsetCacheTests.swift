//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// The offset cache against Foundation asked afresh for every instant.
@Suite("UTC offsets asked once per change")
struct UTCOffsetCacheTests {
    static let zones = ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kathmandu",
                        "America/St_Johns", "Pacific/Apia", "Europe/Dublin", "Africa/Casablanca", "UTC"]

    @Test("Instants in order, at transitions and a microsecond either side, agree with secondsFromGMT(for:)",
          arguments: zones)
    func inOrder(zone: String) throws {
        let timeZone = try Cadence.timeZone(named: zone)
        var random = TimeTestSupport.SplitMix64(seed: UInt64(zone.utf8.count) &* 7_919)
        // Random steps from 1900 to 2110 (before 1970 and after 2100 included), with every
        // transition and its neighbours mixed in.
        var instants: [Timestamp] = []
        var time: Timestamp = -2_208_988_800_000_000
        while time < 4_417_977_600_000_000 {
            instants.append(time)
            time += Int64.random(in: 1...(40 * 86_400), using: &random) * 1_000_000 + Int64.random(in: 0..<1_000_000, using: &random)
        }
        var transition = Date(timestamp: -2_208_988_800_000_000)
        while let next = timeZone.nextDaylightSavingTimeTransition(after: transition), next.timestamp < 4_417_977_600_000_000 {
            instants += [next.timestamp - 1, next.timestamp, next.timestamp + 1]
            transition = next
        }
        instants.sort()
        var cache = UTCOffsetCache(timeZone: timeZone)
        for instant in instants {
            #expect(cache.secondsFromGMT(at: instant) == timeZone.secondsFromGMT(for: Date(timestamp: instant)),
                    "\(zone) at \(instant)")
        }
    }

    @Test("Instants in random order agree too", arguments: zones)
    func randomOrder(zone: String) throws {
        let timeZone = try Cadence.timeZone(named: zone)
        var random = TimeTestSupport.SplitMix64(seed: UInt64(zone.utf8.count) &* 104_729)
        var cache = UTCOffsetCache(timeZone: timeZone)
        for _ in 0..<2_000 {
            let instant = Int64.random(in: -2_208_988_800_000_000..<4_417_977_600_000_000, using: &random)
            #expect(cache.secondsFromGMT(at: instant) == timeZone.secondsFromGMT(for: Date(timestamp: instant)),
                    "\(zone) at \(instant)")
        }
    }
}
