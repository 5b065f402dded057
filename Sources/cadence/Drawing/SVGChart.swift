//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// A time-series chart written as SVG text by hand: axes with dated ticks, gridlines, a title and
/// the unit, and either bars or a min–max band with an average line.
struct SVGChart {
    /// One interval's values.
    struct Point {
        var start: Date
        var end: Date
        /// The bar height or the average; `nil` for an empty interval.
        var value: Double?
        var minimum: Double?
        var maximum: Double?
    }

    /// How values are drawn.
    enum Style {
        /// One bar per interval, from zero to the value.
        case bars
        /// A band between minimum and maximum and a line through the averages.
        case band
    }

    var title: String
    var subtitle: String
    var unit: String
    var style: Style
    var points: [Point]
    var timeZone: TimeZone
    var intervalUnit: IntervalComponents.Unit
    var width: Int
    var height: Int

    private let left = 80.0
    private let right = 30.0
    private let top = 64.0
    private let bottom = 56.0

    /// The chart as a standalone SVG document.
    func render() -> String {
        let plotWidth = Double(width) - left - right
        let plotHeight = Double(height) - top - bottom
        let start = points.first?.start.timeIntervalSince1970 ?? 0
        let end = max(points.last?.end.timeIntervalSince1970 ?? 1, start + 1)
        func x(_ date: Date) -> Double { left + (date.timeIntervalSince1970 - start) / (end - start) * plotWidth }

        let values = points.flatMap { [$0.value, $0.minimum, $0.maximum] }.compactMap { $0 }
        var low = style == .bars ? min(0, values.min() ?? 0) : values.min() ?? 0
        var high = style == .bars ? max(0, values.max() ?? 1) : values.max() ?? 1
        if high - low < 1e-9 {
            let pad = abs(high) > 0 ? abs(high) * 0.1 : 1
            low -= style == .bars && low == 0 ? 0 : pad
            high += pad
        }
        let ticks = Self.niceTicks(low: low, high: high, count: 6)
        low = min(low, ticks.first ?? low)
        high = max(high, ticks.last ?? high)
        func y(_ value: Double) -> Double { top + (high - value) / (high - low) * plotHeight }

        var svg = Self.header(width: width, height: height, title: title, subtitle: subtitle, left: left)

        // Horizontal gridlines and value labels.
        svg += "<g stroke=\"#e3e3e3\" stroke-width=\"1\">\n"
        for tick in ticks {
            svg += Self.line(left, y(tick), left + plotWidth, y(tick))
        }
        svg += "</g>\n<g fill=\"#444\" text-anchor=\"end\">\n"
        for tick in ticks {
            svg += "<text x=\"\(Self.number(left - 8))\" y=\"\(Self.number(y(tick) + 4))\">\(Self.escape(NumberText.readable(tick)))</text>\n"
        }
        svg += "</g>\n"
        let middle = top + plotHeight / 2
        svg += "<text x=\"18\" y=\"\(Self.number(middle))\" fill=\"#444\" text-anchor=\"middle\" transform=\"rotate(-90 18 \(Self.number(middle)))\">\(Self.escape(unit))</text>\n"

        // The data.
        switch style {
        case .bars:
            svg += "<g fill=\"#3b7dd8\">\n"
            for point in points {
                guard let value = point.value else { continue }
                let x0 = x(point.start)
                let x1 = x(point.end)
                let gap = min(2, (x1 - x0) * 0.15)
                let barTop = min(y(value), y(0))
                let barHeight = abs(y(value) - y(0))
                svg += "<rect x=\"\(Self.number(x0 + gap / 2))\" y=\"\(Self.number(barTop))\" width=\"\(Self.number(max(0.5, x1 - x0 - gap)))\" height=\"\(Self.number(barHeight))\">"
                svg += "<title>\(Self.escape(label(point.start, detailed: true))): \(Self.escape(NumberText.readable(value))) \(Self.escape(unit))</title></rect>\n"
            }
            svg += "</g>\n"
        case .band:
            for run in runs() {
                func middleX(_ point: Point) -> Double { (x(point.start) + x(point.end)) / 2 }
                if run.count == 1, let point = run.first {
                    if let minimum = point.minimum, let maximum = point.maximum {
                        svg += "<line x1=\"\(Self.number(middleX(point)))\" y1=\"\(Self.number(y(minimum)))\" x2=\"\(Self.number(middleX(point)))\" y2=\"\(Self.number(y(maximum)))\" stroke=\"#9cc0ee\" stroke-width=\"4\"/>\n"
                    }
                } else {
                    let upper = run.compactMap { point in point.maximum.map { "\(Self.number(middleX(point))),\(Self.number(y($0)))" } }
                    let lower = run.reversed().compactMap { point in point.minimum.map { "\(Self.number(middleX(point))),\(Self.number(y($0)))" } }
                    svg += "<polygon points=\"\((upper + lower).joined(separator: " "))\" fill=\"#9cc0ee\" fill-opacity=\"0.6\" stroke=\"none\"/>\n"
                    let line = run.compactMap { point in point.value.map { "\(Self.number(middleX(point))),\(Self.number(y($0)))" } }
                    svg += "<polyline points=\"\(line.joined(separator: " "))\" fill=\"none\" stroke=\"#1f5fae\" stroke-width=\"2\"/>\n"
                }
                if run.count == 1 || points.count <= 90 {
                    for point in run {
                        guard let value = point.value else { continue }
                        svg += "<circle cx=\"\(Self.number(middleX(point)))\" cy=\"\(Self.number(y(value)))\" r=\"2.5\" fill=\"#1f5fae\">"
                        svg += "<title>\(Self.escape(label(point.start, detailed: true))): \(Self.escape(NumberText.readable(value))) \(Self.escape(unit))</title></circle>\n"
                    }
                }
            }
        }
        if values.isEmpty {
            svg += "<text x=\"\(Self.number(left + plotWidth / 2))\" y=\"\(Self.number(middle))\" text-anchor=\"middle\" fill=\"#888\" font-size=\"16\">No data in this range</text>\n"
        }

        // Axes and dated ticks.
        let baseline = top + plotHeight
        svg += "<g stroke=\"#444\" stroke-width=\"1\">\n"
        svg += Self.line(left, top, left, baseline)
        svg += Self.line(left, baseline, left + plotWidth, baseline)
        let labelled = labelledPoints(plotWidth: plotWidth)
        for point in labelled {
            svg += Self.line(x(point.start), baseline, x(point.start), baseline + 5)
        }
        svg += "</g>\n<g fill=\"#444\" text-anchor=\"middle\">\n"
        for point in labelled {
            svg += "<text x=\"\(Self.number(x(point.start)))\" y=\"\(Self.number(baseline + 20))\">\(Self.escape(label(point.start, detailed: false)))</text>\n"
        }
        svg += "</g>\n</svg>\n"
        return svg
    }

    /// Consecutive intervals that all have data, for drawing bands without bridging gaps.
    private func runs() -> [[Point]] {
        var runs: [[Point]] = []
        var current: [Point] = []
        for point in points {
            if point.value == nil {
                if !current.isEmpty { runs.append(current) }
                current = []
            } else {
                current.append(point)
            }
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    /// Interval starts to label on the time axis: at most one per 90 pixels, evenly spaced.
    private func labelledPoints(plotWidth: Double) -> [Point] {
        guard !points.isEmpty else { return [] }
        let most = max(1, Int(plotWidth / 90))
        let step = max(1, Int((Double(points.count) / Double(most)).rounded(.up)))
        return stride(from: 0, to: points.count, by: step).map { points[$0] }
    }

    /// A date label suited to the interval unit: a time for minutes and hours, a day, a month or a year.
    private func label(_ date: Date, detailed: Bool) -> String {
        let text = formatRFC3339(date.timestamp, timeZone: timeZone)
        let characters = Array(text)
        guard characters.count >= 16 else { return text }
        switch intervalUnit {
        case .minute, .hour:
            return detailed ? String(characters[0..<10]) + " " + String(characters[11..<16]) : String(characters[5..<10]) + " " + String(characters[11..<16])
        case .day, .week:
            return String(characters[0..<10])
        case .month:
            return String(characters[0..<7])
        case .year:
            return String(characters[0..<4])
        }
    }

    /// Round tick values covering [low, high]: steps of 1, 2 or 5 times a power of ten.
    static func niceTicks(low: Double, high: Double, count: Int) -> [Double] {
        guard high > low, low.isFinite, high.isFinite else { return [low] }
        let rough = (high - low) / Double(max(1, count - 1))
        let magnitude = pow(10, floor(log10(rough)))
        let normalized = rough / magnitude
        let step = (normalized <= 1 ? 1 : normalized <= 2 ? 2 : normalized <= 5 ? 5 : 10) * magnitude
        let first = floor(low / step) * step
        let last = ceil(high / step) * step
        var ticks: [Double] = []
        var index = 0.0
        while first + index * step <= last + step / 2 && ticks.count < 50 {
            ticks.append(first + index * step)
            index += 1
        }
        return ticks
    }

    /// The start of an SVG document: the root element, a white background, the title and the
    /// subtitle at `left`.
    static func header(width: Int, height: Int, title: String, subtitle: String, left: Double) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" \
        font-family="Helvetica, Arial, sans-serif" font-size="12">
        <title>\(escape(title))</title>
        <rect x="0" y="0" width="\(width)" height="\(height)" fill="#ffffff"/>
        <text x="\(number(left))" y="26" font-size="18" font-weight="bold" fill="#222">\(escape(title))</text>
        <text x="\(number(left))" y="46" fill="#555">\(escape(subtitle))</text>

        """
    }

    /// A `<line>` element from (x1, y1) to (x2, y2), on a line of its own.
    static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> String {
        "<line x1=\"\(number(x1))\" y1=\"\(number(y1))\" x2=\"\(number(x2))\" y2=\"\(number(y2))\"/>\n"
    }

    /// A coordinate with at most two decimals.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        var text = NumberText.fixed(value, decimals: 2)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// Text escaped for XML character data and attribute values.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// A type's name for people: `HKQuantityTypeIdentifierStepCount` → `Step Count`.
    static func displayName(of type: QuantityType) -> String {
        let identifier = type.identifier.hasPrefix(QuantityType.identifierPrefix)
            ? String(type.identifier.dropFirst(QuantityType.identifierPrefix.count)) : type.identifier
        let characters = Array(identifier)
        var name = ""
        for (index, character) in characters.enumerated() {
            if index > 0, character.isUppercase {
                let previous = characters[index - 1]
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if previous.isLowercase || (previous.isUppercase && nextIsLower) { name += " " }
            }
            name.append(character)
        }
        return name
    }

    /// An interval length for people: `day`, `15 minutes`, `2 weeks`, `1 day 12 hours`.
    static func intervalName(_ components: IntervalComponents) -> String {
        func name(_ unit: IntervalComponents.Unit) -> String {
            switch unit {
            case .minute: return "minute"
            case .hour: return "hour"
            case .day: return "day"
            case .week: return "week"
            case .month: return "month"
            case .year: return "year"
            }
        }
        let terms = components.terms
        if terms.count == 1 && components.count == 1 { return name(components.unit) }
        return terms.map { "\($0.count) \(name($0.unit))\($0.count == 1 ? "" : "s")" }.joined(separator: " ")
    }
}
