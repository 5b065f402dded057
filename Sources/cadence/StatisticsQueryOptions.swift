//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Cadence
import Foundation

/// The query options of `cadence stats`, shared with `cadence batch`: the type, the sample
/// filter, the interval and anchor, the statistics, the source priority and the unit.
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

    /// Runs the query on `store`: every interval that intersects [--from, --to) with --interval,
    /// else one total over every selected sample.
    ///
    /// - Parameter parallelism: The cores an interval query aggregates on, or `nil` for all of them.
    /// - Throws: ``CadenceError`` for unreadable arguments, options that do not fit the type, and
    ///   whatever reading the store throws.
    func report(for store: HealthStore, parallelism: Int? = nil) throws -> StatisticsReport {
        let resolved = try filter.resolve()
        let priorityList = priority.map(ArgumentValues.list)
        if case .category(let categoryType) = try ArgumentValues.sampleType(type, in: store) {
            return try categoryReport(categoryType, store: store, resolved: resolved, priority: priorityList,
                                      parallelism: parallelism)
        }
        guard values == nil else {
            throw CadenceError(.invalidArgument, "--values applies to category types; \(type) is a quantity type.")
        }
        let quantityType = try ArgumentValues.quantityType(type, in: store)
        let reportUnit = try ArgumentValues.unit(unit, for: quantityType)
        let selection = try StatisticsSelection(parsing: options, for: quantityType)

        var report = try StatisticsReport(typeIdentifier: quantityType.identifier, typeName: quantityType.shortIdentifier,
                                          canonicalUnit: quantityType.canonicalUnit, unit: reportUnit, selection: selection,
                                      timeZone: resolved.timeZone, timeZoneName: resolved.timeZoneName)
        if let interval, let from = resolved.from, let to = resolved.to {
            let intervals = try StatisticsRequest.intervals(
                store: store, type: quantityType, filter: resolved, from: from, to: to, interval: interval,
                anchor: anchor, options: selection.options, priority: priorityList, parallelism: parallelism)
            for statistics in intervals {
                try report.append(statistics, start: statistics.startDate, end: statistics.endDate)
            }
        } else {
            let statistics = try StatisticsRequest.total(store: store, type: quantityType, filter: resolved,
                                                         options: selection.options, priority: priorityList)
            // A total spans its samples; with no sample it spans the range asked for.
            if statistics.isEmpty {
                try report.append(statistics, start: resolved.from, end: resolved.to)
            } else {
                try report.append(statistics, start: statistics.startDate, end: statistics.endDate)
            }
        }
        return report
    }

    /// A category collection (SPEC §14): time and samples of `--values` per interval.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` without `--interval`, without `--values` for
    ///   a type of several tracks, or for a `--unit`.
    private func categoryReport(_ categoryType: CategoryType, store: HealthStore, resolved: SampleFilterOptions.Resolved,
                                priority: [String]?, parallelism: Int?) throws -> StatisticsReport {
        guard let interval, let from = resolved.from, let to = resolved.to else {
            throw CadenceError(.invalidArgument, "Statistics of the category type \(categoryType.shortIdentifier) need --interval, --from and --to.")
        }
        guard unit == nil else {
            throw CadenceError(.invalidArgument, "--unit does not apply to the category type \(categoryType.shortIdentifier): durations print as h:mm:ss.")
        }
        let chosen: Set<Int>
        if let values {
            chosen = Set(try ArgumentValues.categoryValues(values, of: categoryType))
        } else if categoryType.tracks.count == 1, let track = categoryType.tracks.first {
            chosen = track
        } else {
            let names = categoryType.values.map(\.shortName).joined(separator: ",")
            throw CadenceError(.invalidArgument, "\(categoryType.shortIdentifier) has several tracks: name the values with --values (from \(names)).")
        }
        let selection = try StatisticsSelection(parsing: options, for: nil)
        let names = chosen.sorted().map { value in categoryType.values.first { $0.rawValue == value }?.shortName ?? String(value) }
        var report = try StatisticsReport(typeIdentifier: categoryType.identifier,
                                          typeName: "\(categoryType.shortIdentifier) (\(names.joined(separator: ", ")))",
                                          canonicalUnit: .second, unit: .second, selection: selection,
                                          timeZone: resolved.timeZone, timeZoneName: resolved.timeZoneName)
        let intervals = try StatisticsRequest.intervals(
            store: store, category: categoryType, values: chosen, filter: resolved, from: from, to: to,
            interval: interval, anchor: anchor, options: selection.options, priority: priority, parallelism: parallelism)
        for statistics in intervals { try report.append(statistics, start: statistics.startDate, end: statistics.endDate) }
        return report
    }
}
