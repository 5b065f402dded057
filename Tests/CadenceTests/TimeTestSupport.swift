//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation
import Testing

/// Helpers shared by the Time layer's tests.
enum TimeTestSupport {
    /// A small deterministic random number generator (SplitMix64), so property tests repeat exactly.
    struct SplitMix64: RandomNumberGenerator {
        private var state: UInt64

        init(seed: UInt64) {
            state = seed
        }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
    }

    /// A Gregorian calendar in the named zone.
    static func calendar(_ zoneName: String) throws -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try timeZone(named: zoneName)
        return calendar
    }

    /// The timestamp of an RFC 3339 text; the parser has its own tests.
    static func instant(_ text: String) throws -> Timestamp {
        try parseRFC3339(text)
    }

    /// An RFC 3339 rendering in a zone, for readable failure messages.
    static func text(_ timestamp: Timestamp, _ zoneName: String) throws -> String {
        formatRFC3339(timestamp, timeZone: try timeZone(named: zoneName))
    }

    /// What Foundation itself computes for interval `number`: the definition the edges must match.
    static func foundationStart(
        calendar: Calendar, anchor: Timestamp, components: IntervalComponents, number: Int
    ) throws -> Timestamp {
        let amount = try #require(components.dateComponents(multipliedBy: number))
        let date = try #require(calendar.date(byAdding: amount, to: Date(timestamp: anchor)))
        return date.timestamp
    }

    static let hour: Int64 = 3_600_000_000
}
