//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

@testable import cadence

/// The route map on a fixture route (Tests/Fixtures/routes).
@Suite("Route map (SVG)")
struct SVGRouteMapTests {
    static func fixtureRoute() throws -> LocationSeries {
        let url = CadenceBinary.packageRoot.appendingPathComponent("Tests/Fixtures/routes/route_2024-05-01_7.07am.gpx")
        let bytes = try Data(contentsOf: url)
        var reader = GPXReader(path: url.path)
        try bytes.withUnsafeBytes { try reader.feed($0) }
        return try reader.finish()
    }

    /// The `x,y` pairs of the SVG's polyline.
    static func polyline(_ svg: String) throws -> [(x: Double, y: Double)] {
        let start = try #require(svg.range(of: "<polyline points=\""))
        let end = try #require(svg[start.upperBound...].firstIndex(of: "\""))
        return svg[start.upperBound..<end].split(separator: " ").compactMap { pair in
            let parts = pair.split(separator: ",")
            guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]) else { return nil }
            return (x, y)
        }
    }

    @Test("The fixture loop is drawn north up, true to shape, inside the drawing, with start, end and scale")
    func fixtureLoop() throws {
        let route = try Self.fixtureRoute()
        #expect(route.count == 15)
        let map = SVGRouteMap(title: "Running <5 km> & more", subtitle: "2024-05-01", locations: route,
                              width: 800, height: 600)
        let svg = map.render()
        let points = try Self.polyline(svg)
        #expect(points.count == route.count)
        #expect(points.allSatisfy { (0...800).contains($0.x) && (64...600).contains($0.y) })
        // North up, east right: the northernmost point is highest, the easternmost furthest right.
        let north = try #require(route.latitudes.indices.max { route.latitudes[$0] < route.latitudes[$1] })
        let east = try #require(route.longitudes.indices.max { route.longitudes[$0] < route.longitudes[$1] })
        #expect(points[north].y == points.map(\.y).min())
        #expect(points[east].x == points.map(\.x).max())
        // True to shape: the block's width over its height in pixels is its width over its height on
        // the ground (0.0030° of longitude at 47.37° N against 0.0020° of latitude).
        let pixelWidth = (points.map(\.x).max() ?? 0) - (points.map(\.x).min() ?? 0)
        let pixelHeight = (points.map(\.y).max() ?? 0) - (points.map(\.y).min() ?? 0)
        let groundRatio = 0.0030 * cos(47.371 * Double.pi / 180) / 0.0020
        #expect(abs(pixelWidth / pixelHeight - groundRatio) < 0.01)
        #expect(svg.contains("<title>Start</title>") && svg.contains("<title>End</title>"))
        #expect(svg.contains(" m</text>"))
        #expect(svg.contains("Running &lt;5 km&gt; &amp; more"))
        #expect(!svg.contains("<5 km>"))
        // The document parses as XML.
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse())
    }

    @Test("An empty route says so; a single point is drawn in the middle")
    func degenerateRoutes() throws {
        let empty = SVGRouteMap(title: "t", subtitle: "s", locations: LocationSeries(), width: 400, height: 300).render()
        #expect(empty.contains("No route points"))
        #expect(!empty.contains("<polyline"))
        let one = LocationSeries([LocationSeries.Location(timestamp: 0, latitude: 10, longitude: 20)])
        let svg = SVGRouteMap(title: "t", subtitle: "s", locations: one, width: 400, height: 300).render()
        let points = try Self.polyline(svg)
        #expect(points.count == 1)
        #expect(abs((points.first?.x ?? 0) - 200) < 0.01)
    }
}
