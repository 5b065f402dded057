//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Which statistics a query computes (HealthKit's `HKStatisticsOptions`, <doc:HowCadenceComputes#Statistics-options>).
///
/// `cumulativeSum` is valid only for cumulative types and the three `discrete…` options only for
/// discrete ones; an invalid combination is rejected when the query is created, with a
/// ``CadenceError/Code/invalidQuery`` naming the option and the type (HealthKit crashes; Cadence
/// throws). An empty set is allowed and yields `nil` for every value.
public struct StatisticsOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Also compute every statistic per source.
    public static let separateBySource = StatisticsOptions(rawValue: 1 << 0)
    /// The average of a discrete type.
    public static let discreteAverage = StatisticsOptions(rawValue: 1 << 1)
    /// The minimum of a discrete type.
    public static let discreteMin = StatisticsOptions(rawValue: 1 << 2)
    /// The maximum of a discrete type.
    public static let discreteMax = StatisticsOptions(rawValue: 1 << 3)
    /// The prorated, source-merged sum of a cumulative type.
    public static let cumulativeSum = StatisticsOptions(rawValue: 1 << 4)
    /// The most recent sample's value and interval.
    public static let mostRecent = StatisticsOptions(rawValue: 1 << 5)
    /// The seconds covered by the contributing samples, overlaps counted once.
    public static let duration = StatisticsOptions(rawValue: 1 << 6)

    /// The options' names, as HealthKit spells them.
    public static let names: [(String, StatisticsOptions)] = [
        ("separateBySource", .separateBySource), ("discreteAverage", .discreteAverage), ("discreteMin", .discreteMin),
        ("discreteMax", .discreteMax), ("cumulativeSum", .cumulativeSum), ("mostRecent", .mostRecent),
        ("duration", .duration),
    ]

    /// Checks the options against a type's aggregation style.
    ///
    /// - Throws: ``CadenceError/Code/invalidQuery`` naming the first invalid option and the type.
    public func validate(for type: QuantityType) throws {
        let discreteOnly: StatisticsOptions = [.discreteAverage, .discreteMin, .discreteMax]
        for (name, option) in Self.names where contains(option) {
            if option == .cumulativeSum && type.aggregationStyle.isDiscrete {
                throw CadenceError(.invalidQuery, "the option \(name) needs a cumulative type, but \(type.identifier) is \(type.aggregationStyle.rawValue)")
            }
            if discreteOnly.contains(option) && !type.aggregationStyle.isDiscrete {
                throw CadenceError(.invalidQuery, "the option \(name) needs a discrete type, but \(type.identifier) is cumulative")
            }
        }
    }
}
