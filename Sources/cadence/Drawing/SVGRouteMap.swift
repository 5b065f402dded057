//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// A workout route drawn as SVG text by hand: the path, its start and end, a scale bar and a
/// title, north up.
///
/// Points are projected equirectangularly around the route's middle latitude (x scaled by its
/// cosine), which keeps shapes true for routes a person covers in a workout; the projection is
/// fitted into the drawing with the same scale on both axes. A route crossing the 180° meridian is
/// drawn as if cut there. Uses ``SVGChart``'s header, number formatting, escaping and ticks.
struct SVGRouteMap {
    var title: String
    var subtitle: String
    var locations: LocationSeries
    var width: Int
    var height: Int

    private let margin = 40.0
    private let top = 64.0

    /// Metres per degree of latitude (the mean Earth radius, 6 371 km).
    static let metresPerDegree = 6_371_000 * Double.pi / 180

    /// Where a point lands in the drawing, from its coordinates.
    struct Projection {
        var originLatitude: Double
        var originLongitude: Double
        var cosine: Double
        /// Pixels per metre.
        var scale: Double
        var offsetX: Double
        var offsetY: Double

        /// Metres east and north of the origin.
        func metres(latitude: Double, longitude: Double) -> (east: Double, north: Double) {
            ((longitude - originLongitude) * SVGRouteMap.metresPerDegree * cosine,
             (latitude - originLatitude) * SVGRouteMap.metresPerDegree)
        }

        /// The drawing coordinates of a point.
        func point(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
            let (east, north) = metres(latitude: latitude, longitude: longitude)
            return (offsetX + east * scale, offsetY - north * scale)
        }
    }

    /// The projection that fits the route into the drawing area, centred; `nil` without points.
    func projection() -> Projection? {
        guard !locations.isEmpty else { return nil }
        let latitudes = locations.latitudes
        let longitudes = locations.longitudes
        guard let south = latitudes.min(), let north = latitudes.max(),
              let west = longitudes.min(), let east = longitudes.max() else { return nil }
        let middle = (south + north) / 2
        var projection = Projection(originLatitude: middle, originLongitude: (west + east) / 2,
                                    cosine: max(0.01, cos(middle * .pi / 180)), scale: 1, offsetX: 0, offsetY: 0)
        let spanEast = max(1, (east - west) * Self.metresPerDegree * projection.cosine)
        let spanNorth = max(1, (north - south) * Self.metresPerDegree)
        let areaWidth = Double(width) - 2 * margin
        let areaHeight = Double(height) - top - margin
        projection.scale = min(areaWidth / spanEast, areaHeight / spanNorth)
        projection.offsetX = margin + areaWidth / 2
        projection.offsetY = top + areaHeight / 2
        return projection
    }

    /// The map as a standalone SVG document.
    func render() -> String {
        var svg = SVGChart.header(width: width, height: height, title: title, subtitle: subtitle, left: margin)
        guard let projection = projection() else {
            let middleY = top + (Double(height) - top - margin) / 2
            svg += "<text x=\"\(SVGChart.number(Double(width) / 2))\" y=\"\(SVGChart.number(middleY))\" text-anchor=\"middle\" "
                + "fill=\"#888\" font-size=\"16\">No route points</text>\n</svg>\n"
            return svg
        }
        let points = (0..<locations.count).map { index in
            projection.point(latitude: locations.latitudes[index], longitude: locations.longitudes[index])
        }
        let path = points.map { "\(SVGChart.number($0.x)),\(SVGChart.number($0.y))" }.joined(separator: " ")
        svg += "<polyline points=\"\(path)\" fill=\"none\" stroke=\"#1f5fae\" stroke-width=\"3\" "
            + "stroke-linejoin=\"round\" stroke-linecap=\"round\"/>\n"
        if let start = points.first, let end = points.last {
            svg += "<circle cx=\"\(SVGChart.number(start.x))\" cy=\"\(SVGChart.number(start.y))\" r=\"6\" fill=\"#2e9d4f\" "
                + "stroke=\"#ffffff\" stroke-width=\"2\"><title>Start</title></circle>\n"
            svg += "<rect x=\"\(SVGChart.number(end.x - 5))\" y=\"\(SVGChart.number(end.y - 5))\" width=\"10\" height=\"10\" "
                + "fill=\"#c8372d\" stroke=\"#ffffff\" stroke-width=\"2\"><title>End</title></rect>\n"
        }
        // A scale bar about a fifth of the drawing wide, in a round number of metres.
        let target = (Double(width) - 2 * margin) / 5 / projection.scale
        let ticks = SVGChart.niceTicks(low: 0, high: target, count: 2)
        let metres = ticks.count >= 2 ? ticks[1] - ticks[0] : target
        let barLength = metres * projection.scale
        let barY = Double(height) - margin / 2
        svg += "<g stroke=\"#444\" stroke-width=\"2\">\n"
        svg += "<line x1=\"\(SVGChart.number(margin))\" y1=\"\(SVGChart.number(barY))\" "
            + "x2=\"\(SVGChart.number(margin + barLength))\" y2=\"\(SVGChart.number(barY))\"/>\n</g>\n"
        let scaleText = metres >= 1_000 ? NumberText.readable(metres / 1_000) + " km" : NumberText.readable(metres) + " m"
        svg += "<text x=\"\(SVGChart.number(margin + barLength + 8))\" y=\"\(SVGChart.number(barY + 4))\" fill=\"#444\">"
            + "\(SVGChart.escape(scaleText))</text>\n"
        svg += "<text x=\"\(SVGChart.number(Double(width) - margin))\" y=\"\(SVGChart.number(top))\" text-anchor=\"end\" "
            + "fill=\"#444\" font-weight=\"bold\">N ↑</text>\n</svg>\n"
        return svg
    }
}
