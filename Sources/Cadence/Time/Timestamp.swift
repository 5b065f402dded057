//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// A point in time: whole microseconds since 1970-01-01T00:00:00Z.
///
/// Cadence stores and compares instants as plain integers so that columns of them are dense,
/// sortable and free of floating-point rounding. Leap seconds are not counted (POSIX time), so every
/// UTC day is exactly 86 400 000 000 microseconds long.
///
/// Convert to and from Foundation with ``Foundation/Date/init(timestamp:)`` and
/// ``Foundation/Date/timestamp``.
public typealias Timestamp = Int64

/// The timestamps Cadence accepts wherever it validates an instant: 0001-01-01T00:00:00Z through
/// 9999-12-31T23:59:59.999999Z.
///
/// Inside this range differences between timestamps cannot overflow, every instant has a four-digit
/// year in UTC, and Foundation's `Date` still resolves milliseconds exactly.
public let supportedTimestampRange: ClosedRange<Timestamp> =
    -62_135_596_800_000_000 ... 253_402_300_799_999_999

/// Integer helpers shared by the Time layer.
package enum TimestampArithmetic {
    /// Microseconds in one second.
    package static let microsecondsPerSecond: Int64 = 1_000_000
    /// Microseconds in one minute.
    package static let microsecondsPerMinute: Int64 = 60_000_000
    /// Microseconds in one hour.
    package static let microsecondsPerHour: Int64 = 3_600_000_000
    /// Microseconds in one 24-hour day.
    package static let microsecondsPerDay: Int64 = 86_400_000_000
    /// Seconds from 1970-01-01T00:00:00Z to Foundation's reference date 2001-01-01T00:00:00Z.
    package static let referenceDateOffsetSeconds: Int64 = 978_307_200

    /// The quotient of `dividend / divisor` rounded toward negative infinity.
    ///
    /// - Parameters:
    ///   - dividend: Any value.
    ///   - divisor: A positive value.
    /// - Returns: The largest `q` with `q * divisor <= dividend`.
    @inlinable
    package static func floorDivide(_ dividend: Int64, _ divisor: Int64) -> Int64 {
        let quotient = dividend / divisor
        return (dividend % divisor < 0) ? quotient - 1 : quotient
    }

    /// The remainder of `dividend` modulo a positive `divisor`, always in `0..<divisor`.
    ///
    /// - Parameters:
    ///   - dividend: Any value.
    ///   - divisor: A positive value.
    /// - Returns: `dividend - floorDivide(dividend, divisor) * divisor`.
    @inlinable
    package static func floorModulo(_ dividend: Int64, _ divisor: Int64) -> Int64 {
        let remainder = dividend % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}

extension Date {
    /// Creates a date from a Cadence timestamp.
    ///
    /// The whole seconds and the microseconds are converted separately, so whole-second and
    /// millisecond timestamps in ``supportedTimestampRange`` survive `Date(timestamp: t).timestamp`
    /// exactly. Microseconds survive exactly within a few centuries of 2001; further away `Date`'s
    /// `Double` cannot hold them.
    ///
    /// - Parameter timestamp: Microseconds since 1970-01-01T00:00:00Z.
    public init(timestamp: Timestamp) {
        let seconds = TimestampArithmetic.floorDivide(timestamp, TimestampArithmetic.microsecondsPerSecond)
        let microseconds = TimestampArithmetic.floorModulo(timestamp, TimestampArithmetic.microsecondsPerSecond)
        let sinceReference = Double(seconds - TimestampArithmetic.referenceDateOffsetSeconds)
            + Double(microseconds) / 1_000_000
        self.init(timeIntervalSinceReferenceDate: sinceReference)
    }

    /// This date as a Cadence timestamp, rounded to the nearest microsecond.
    ///
    /// Far from 2001 a `Date`'s `Double` is coarser than a microsecond (about 30 µs in year
    /// 9999), so several microsecond values share one `Date`. Among the instants a date stands for,
    /// a whole second is preferred, then a whole millisecond, then the nearest microsecond; this
    /// makes whole-second and millisecond timestamps round-trip exactly through `Date` across
    /// ``supportedTimestampRange``.
    ///
    /// Dates beyond what an `Int64` of microseconds can hold (about ±292 000 years) saturate to
    /// `Int64.min` or `Int64.max`; a NaN date becomes 0. The conversion never traps.
    public var timestamp: Timestamp {
        let sinceReference = timeIntervalSinceReferenceDate
        guard !sinceReference.isNaN else { return 0 }
        let whole = sinceReference.rounded(.down)
        // Keep well inside Int64 microseconds before converting.
        let limit = 9_000_000_000_000.0
        guard whole > -limit else { return Int64.min }
        guard whole < limit else { return Int64.max }
        // Exact for |sinceReference| >= 1; otherwise off by far less than a microsecond.
        let fraction = sinceReference - whole
        // Instants closer to this Double than half its spacing are indistinguishable from it.
        let tolerance = sinceReference.ulp / 2 + 1e-12
        let microseconds: Int64
        if abs(fraction - fraction.rounded()) <= tolerance {
            microseconds = fraction.rounded() == 0 ? 0 : TimestampArithmetic.microsecondsPerSecond
        } else if case let milliseconds = (fraction * 1_000).rounded(), abs(fraction - milliseconds / 1_000) <= tolerance {
            microseconds = Int64(milliseconds) * 1_000
        } else {
            microseconds = Int64((fraction * 1_000_000).rounded())
        }
        let seconds = Int64(whole) + TimestampArithmetic.referenceDateOffsetSeconds
        return seconds * TimestampArithmetic.microsecondsPerSecond + microseconds
    }
}
