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
        abstract: "Draw the statistics of a quantity type per interval as an SVG chart.")

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: ArgumentHelp("The quantity type, such as stepCount or heartRate.", valueName: "type"))
    var type: String

    @OptionGroup var filter: SampleFilterOptions

    @Option(help: ArgumentHelp("The interval length: N followed by min, h, d, w, mo or y (15min, 1d, 1w).",
                               valueName: "length"))
    var interval: String

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
        guard filter.from != nil, filter.to != nil else { throw ValidationError("plot needs both --from and --to.") }
        guard (200...20_000).contains(width), (150...20_000).contains(height) else {
            throw ValidationError("--width must be 200 to 20000 and --height 150 to 20000 pixels.")
        }
    }

    func run() throws {
        let store = try storeOptions.openForReading()
        let quantityType = try ArgumentValues.quantityType(type, in: store)
        let resolved = try filter.resolve()
        let plotUnit = try ArgumentValues.unit(unit, for: quantityType)
        guard let from = resolved.from, let to = resolved.to else {
            throw ValidationError("plot needs both --from and --to.")
        }
        let components = try IntervalComponents(parsing: interval)
        let isDiscrete = quantityType.aggregationStyle.isDiscrete
        let options: StatisticsOptions = isDiscrete ? [.discreteAverage, .discreteMin, .discreteMax] : [.cumulativeSum]
        let intervals = try StatisticsRequest.intervals(
            store: store, type: quantityType, filter: resolved, from: from, to: to, interval: interval,
            anchor: anchor, options: options, priority: priority.map(ArgumentValues.list))

        var points: [SVGChart.Point] = []
        for statistics in intervals {
            points.append(SVGChart.Point(
                start: statistics.startDate, end: statistics.endDate,
                value: try (isDiscrete ? statistics.averageQuantity() : statistics.sumQuantity())?.doubleValue(for: plotUnit),
                minimum: try statistics.minimumQuantity()?.doubleValue(for: plotUnit),
                maximum: try statistics.maximumQuantity()?.doubleValue(for: plotUnit)))
        }
        let name = SVGChart.displayName(of: quantityType)
        let statisticName = isDiscrete ? "average with minimum–maximum range" : "sum"
        let range = LocalDateText.format(from, timeZone: resolved.timeZone, showsTime: false) + " to "
            + LocalDateText.format(Date(timestamp: to.timestamp - 1), timeZone: resolved.timeZone, showsTime: false)
        var subtitle = "\(statisticName) per \(SVGChart.intervalName(components)), \(range) (\(resolved.timeZoneName))"
        if !filter.sources.isEmpty { subtitle += ", sources: " + filter.sources.joined(separator: ", ") }
        let chart = SVGChart(
            title: title ?? name, subtitle: subtitle, unit: plotUnit.unitString, style: isDiscrete ? .band : .bars,
            points: points, timeZone: resolved.timeZone, intervalUnit: components.unit, width: width, height: height)
        let svg = chart.render()
        do {
            try Data(svg.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw CadenceError(.io, "Cannot write the chart: \(error.localizedDescription)", path: output)
        }
        var console = StandardOutput()
        console.writeLine("Wrote a chart of \(points.count) intervals to \(output).")
        console.flush()
    }
}
