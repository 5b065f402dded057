//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Cadence
import Foundation

/// `cadence plot`: draw a statistics collection as an SVG chart.
///
///     cadence plot --store health --type stepCount --from 2024-03-01 --to 2024-04-01 --interval 1d --output steps.svg
///
/// Cumulative types are drawn as one bar per interval (the source-merged sum); discrete types as
/// a band from the minimum to the maximum with the average as a line. Empty intervals leave gaps.
struct PlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Draw the statistics of a quantity type per interval, or a workout's route, as an SVG chart.")

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: ArgumentHelp("The quantity type, such as stepCount or heartRate.", valueName: "type"))
    var type: String?

    @Option(help: ArgumentHelp("Draw this workout's route instead (its UUID, as cadence workouts lists it).",
                               valueName: "uuid"))
    var workout: String?

    @OptionGroup var filter: SampleFilterOptions

    @Option(help: ArgumentHelp("The interval length: N followed by min, h, d, w, mo or y (15min, 1d, 1w), or several, largest first (1d12h).",
                               valueName: "length"))
    var interval: String?

    @Option(help: ArgumentHelp("Where intervals start (default: local midnight of 2000-01-01).", valueName: "date"))
    var anchor: String?

    @Option(help: ArgumentHelp("Source names in merge priority order, comma-separated (default: the store's list).",
                               valueName: "names"))
    var priority: String?

    @Option(help: ArgumentHelp("The unit of the vertical axis (default: the type's canonical unit).", valueName: "unit"))
    var unit: String?

    @Option(help: ArgumentHelp("The chart's title (default: the type, statistic and date range).", valueName: "text"))
    var title: String?

    @Option(help: ArgumentHelp("The chart's width in pixels.", valueName: "n"))
    var width = 960

    @Option(help: ArgumentHelp("The chart's height in pixels.", valueName: "n"))
    var height = 480

    @Option(help: ArgumentHelp("The SVG file to write (replaced if it exists).", valueName: "file"))
    var output: String

    func validate() throws {
        if workout != nil {
            guard type == nil, interval == nil else { throw ValidationError("--workout draws a route: leave out --type and --interval.") }
        } else {
            guard type != nil, interval != nil else { throw ValidationError("plot needs --type and --interval, or --workout.") }
            guard filter.from != nil, filter.to != nil else { throw ValidationError("plot needs both --from and --to.") }
        }
        guard (200...20_000).contains(width), (150...20_000).contains(height) else {
            throw ValidationError("--width must be 200 to 20000 and --height 150 to 20000 pixels.")
        }
    }

    func run() throws {
        let store = try storeOptions.openForReading()
        if let workout { return try plotRoute(of: workout, in: store) }
        guard let type, let interval else { throw ValidationError("plot needs --type and --interval, or --workout.") }
        let quantityType = try ArgumentValues.quantityType(type, in: store)
        let resolved = try filter.resolve()
        let plotUnit = try ArgumentValues.unit(unit, for: quantityType)
        guard let from = resolved.from, let to = resolved.to else {
            throw ValidationError("plot needs both --from and --to.")
        }
        let intervals = try StatisticsIntervals(interval: interval, anchor: anchor, from: from, to: to,
                                                timeZone: resolved.timeZone)
        let components = intervals.components
        let isDiscrete = quantityType.aggregationStyle.isDiscrete
        let options: StatisticsOptions = isDiscrete ? [.discreteAverage, .discreteMin, .discreteMax] : [.cumulativeSum]
        let query = try StatisticsCollectionQuery(
            quantityType: quantityType, quantitySamplePredicate: resolved.predicate, options: options,
            anchorDate: intervals.anchorDate, intervalComponents: components, calendar: intervals.calendar,
            sourcePriority: priority.map(ArgumentValues.list))

        var points: [SVGChart.Point] = []
        for statistics in try intervals.statistics(of: query, in: store) {
            points.append(SVGChart.Point(
                start: statistics.startDate, end: statistics.endDate,
                value: try (isDiscrete ? statistics.averageQuantity() : statistics.sumQuantity())?.doubleValue(for: plotUnit),
                minimum: try statistics.minimumQuantity()?.doubleValue(for: plotUnit),
                maximum: try statistics.maximumQuantity()?.doubleValue(for: plotUnit)))
        }
        let statisticName = isDiscrete ? "average with minimum–maximum range" : "sum"
        if let point = points.first(where: { [$0.value, $0.minimum, $0.maximum].contains { $0.map { !$0.isFinite } ?? false } }) {
            // Drawn, it would be a bar of height zero or an axis without a scale; neither is true.
            throw CadenceError(.invalidQuery, "the \(statisticName) of \(quantityType.identifier) from "
                               + "\(formatRFC3339(point.start.timestamp, timeZone: resolved.timeZone)) to "
                               + "\(formatRFC3339(point.end.timestamp, timeZone: resolved.timeZone)) is beyond the largest "
                               + "number a value can hold")
        }
        let name = SVGChart.displayName(of: quantityType)
        let range = LocalDateText.format(from, timeZone: resolved.timeZone, showsTime: false) + " to "
            + LocalDateText.format(Date(timestamp: to.timestamp - 1), timeZone: resolved.timeZone, showsTime: false)
        var subtitle = "\(statisticName) per \(SVGChart.intervalName(components)), \(range) (\(resolved.timeZoneName))"
        if !filter.sources.isEmpty { subtitle += ", sources: " + filter.sources.joined(separator: ", ") }
        let chart = SVGChart(
            title: title ?? name, subtitle: subtitle, unit: plotUnit.unitString, style: isDiscrete ? .band : .bars,
            points: points, timeZone: resolved.timeZone, intervalUnit: components.unit, width: width, height: height)
        try write(chart.render(), saying: "a chart of \(points.count) intervals")
    }

    /// Draws the route of the workout with UUID `text`.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` for an unreadable UUID, `notFound` when no
    ///   stored workout has it or when it has no route points.
    private func plotRoute(of text: String, in store: HealthStore) throws {
        guard let uuid = UUID(uuidString: text) else {
            throw CadenceError(.invalidArgument, "--workout \"\(text)\" is not a UUID.")
        }
        let found = try store.execute(SampleQuery(workoutsMatching: .uuids([uuid]), includingRoutes: true)).first
        guard let found else { throw CadenceError(.notFound, "No stored workout has the UUID \(uuid.uuidString).") }
        let locations = LocationSeries(found.routes.flatMap { route in (0..<route.locations.count).map { route.locations[$0] } })
        guard !locations.isEmpty else {
            throw CadenceError(.notFound, "The workout \(uuid.uuidString) has no route points to draw.")
        }
        let zone = try filter.resolve().timeZone
        let map = SVGRouteMap(title: title ?? "\(found.activityType.shortName) (\(found.source.name))",
                              subtitle: LocalDateText.format(found.startDate, timeZone: zone, showsTime: true),
                              locations: locations, width: width, height: height)
        try write(map.render(), saying: "a route of \(locations.count) points")
    }

    /// Writes `svg` to the output file and says what was written.
    private func write(_ svg: String, saying what: String) throws {
        do {
            try Data(svg.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw CadenceError(.io, "Cannot write the chart: \(error.localizedDescription)", path: output)
        }
        var console = StandardOutput()
        console.writeLine("Wrote \(what) to \(TerminalText.escaped(output)).")
        console.flush()
    }
}
