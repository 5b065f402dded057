//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser

/// The query options of `cadence stats`, shared with `cadence batch`: the type, the sample
/// filter, the interval and anchor, the statistics, the source priority and the unit. They are
/// read once into a ``StatisticsRequest``, which runs on each store.
///
///     cadence stats --store health --type stepCount --from 2024-03-01 --to 2024-04-01 --interval 1d
///     cadence batch --stores users --output daily.csv --type stepCount --from 2024-03-01 --to 2024-04-01 --interval 1d
struct StatisticsQueryOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The quantity or category type, such as stepCount, sleepAnalysis or HKQuantityTypeIdentifierHeartRate.",
        valueName: "type"))
    var type: String

    @Option(help: ArgumentHelp("""
        Category types: the values whose time and samples are measured, comma-separated and from one \
        track (asleepCore,asleepDeep,asleepREM,asleepUnspecified); default: every value of a type with one track.
        """, valueName: "names"))
    var values: String?

    @OptionGroup var filter: SampleFilterOptions

    @Option(help: ArgumentHelp("The interval length: N followed by min, h, d, w, mo or y (15min, 1d, 1w), or several, largest first (1d12h).",
                               valueName: "length"))
    var interval: String?

    @Option(help: ArgumentHelp(
        "Where intervals start (default: local midnight of 2000-01-01); weeks start on its weekday.",
        valueName: "date"))
    var anchor: String?

    @Option(help: ArgumentHelp("""
        Comma-separated statistics: sum, average, minimum, maximum, mostRecent, duration, count, separateBySource \
        (default: sum for cumulative types, average,minimum,maximum for discrete ones, duration,count for categories).
        """, valueName: "list"))
    var options: String?

    @Option(help: ArgumentHelp("Source names in merge priority order, comma-separated (default: the store's list).",
                               valueName: "names"))
    var priority: String?

    @Option(help: ArgumentHelp("The unit to report values in, such as km or lb (default: the type's canonical unit).",
                               valueName: "unit"))
    var unit: String?

    func validate() throws {
        if interval != nil && (filter.from == nil || filter.to == nil) {
            throw ValidationError("--interval needs both --from and --to.")
        }
    }
}
