//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence

/// What a statistics query computes (HealthKit's `HKStatisticsOptions`), the same options as
/// Cadence's `StatisticsOptions`, with the same raw values.
///
/// `cumulativeSum` applies to cumulative types and the `discrete…` options to discrete ones; a
/// query with an option its type does not take reports an error to its handler (where HealthKit
/// raises an exception).
public struct HKStatisticsOptions: OptionSet, Sendable, Hashable {
    /// The options' bits.
    public let rawValue: UInt

    /// Options from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Statistics per source beside the merged ones (``HKStatistics/sources``).
    public static let separateBySource = HKStatisticsOptions(rawValue: 1 << 0)
    /// The average of a discrete type.
    public static let discreteAverage = HKStatisticsOptions(rawValue: 1 << 1)
    /// The minimum of a discrete type.
    public static let discreteMin = HKStatisticsOptions(rawValue: 1 << 2)
    /// The maximum of a discrete type.
    public static let discreteMax = HKStatisticsOptions(rawValue: 1 << 3)
    /// The sum of a cumulative type, sources merged.
    public static let cumulativeSum = HKStatisticsOptions(rawValue: 1 << 4)
    /// The most recent sample's value.
    public static let mostRecent = HKStatisticsOptions(rawValue: 1 << 5)
    /// The time covered by samples.
    public static let duration = HKStatisticsOptions(rawValue: 1 << 6)

    /// The options in the Cadence module.
    var cadence: StatisticsOptions { StatisticsOptions(rawValue: Int(rawValue)) }
}
