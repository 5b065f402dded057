//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// One statistic the `stats` command can print, in the order columns and JSON keys appear.
enum StatisticColumn: String, CaseIterable {
    case sum, average, minimum, maximum, mostRecent, duration, count

    /// The library option that computes it.
    var option: StatisticsOptions {
        switch self {
        case .sum: .cumulativeSum
        case .average: .discreteAverage
        case .minimum: .discreteMin
        case .maximum: .discreteMax
        case .mostRecent: .mostRecent
        case .duration: .duration
        case .count: []  // always computed by category collections
        }
    }

    /// The header word in tables.
    var title: String {
        switch self {
        case .sum: "Sum"
        case .average: "Average"
        case .minimum: "Minimum"
        case .maximum: "Maximum"
        case .mostRecent: "Most recent"
        case .duration: "Duration"
        case .count: "Count"
        }
    }

    /// The statistic's value converted from the type's canonical unit by `conversion` (seconds for
    /// ``duration``, a number of samples for ``count``), or `nil` when the interval (or the source)
    /// has no data.
    func value(of statistics: StatisticsValues, conversion: UnitConversion) -> Double? {
        let value: Double?
        switch self {
        case .sum: value = statistics.sum
        case .average: value = statistics.average
        case .minimum: value = statistics.minimum
        case .maximum: value = statistics.maximum
        case .mostRecent: value = statistics.mostRecent
        case .duration: return statistics.duration
        case .count: return statistics.count.map(Double.init)
        }
        return value.map { conversion.apply($0) }
    }
}

/// The statistics a command was asked for with `--options`.
///
/// Names are `sum, average, minimum, maximum, mostRecent, duration, separateBySource`, or
/// HealthKit's `cumulativeSum, discreteAverage, discreteMin, discreteMax`. Without `--options`
/// cumulative types get `sum` and discrete ones `average,minimum,maximum`.
struct StatisticsSelection {
    /// The statistics to print, in ``StatisticColumn`` order.
    var columns: [StatisticColumn]
    /// Whether per-source values are wanted too.
    var separateBySource: Bool

    /// The library options to query with.
    var options: StatisticsOptions {
        var options = StatisticsOptions(columns.map(\.option))
        if separateBySource { options.insert(.separateBySource) }
        return options
    }

    /// The statistic names accepted by `--options`, ours and HealthKit's.
    static let columnNames: [String: StatisticColumn] = [
        "sum": .sum, "cumulativeSum": .sum,
        "average": .average, "discreteAverage": .average,
        "minimum": .minimum, "discreteMin": .minimum,
        "maximum": .maximum, "discreteMax": .maximum,
        "mostRecent": .mostRecent, "duration": .duration, "count": .count,
    ]

    /// Reads `--options` for `type`, a quantity type or (`nil`) a category type, whose
    /// statistics are `duration` and `count` (both by default).
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` for an unknown name or, for a category
    ///   type, a statistic other than duration and count. (Options that do not fit a quantity
    ///   type are rejected when the query is built.)
    init(parsing list: String?, for type: QuantityType?) throws {
        guard let list else {
            columns = type.map { $0.aggregationStyle.isDiscrete ? [.average, .minimum, .maximum] : [.sum] } ?? [.duration, .count]
            separateBySource = false
            return
        }
        var chosen = Set<StatisticColumn>()
        var bySource = false
        for name in ArgumentValues.list(list) {
            if name == "separateBySource" {
                bySource = true
            } else if let column = Self.columnNames[name], (type == nil) == [.duration, .count].contains(column)
                        || (type != nil && column == .duration) {
                chosen.insert(column)
            } else if Self.columnNames[name] != nil {
                throw CadenceError(
                    .invalidArgument,
                    "The statistic \"\(name)\" in --options does not apply to \(type == nil ? "a category" : "a quantity") type: use \(type == nil ? "duration, count" : "sum, average, minimum, maximum, mostRecent, duration") or separateBySource.")
            } else {
                throw CadenceError(
                    .invalidArgument,
                    "Unknown statistic \"\(name)\" in --options: use sum, average, minimum, maximum, mostRecent, duration, count (category types) or separateBySource.")
            }
        }
        columns = StatisticColumn.allCases.filter(chosen.contains)
        separateBySource = bySource
    }
}
