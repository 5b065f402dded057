//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing

@testable import Cadence

/// The GPX route reader on good files and on hostile ones (<doc:HowCadenceComputes#Categories-workouts-and-correlations>).
@Suite("GPX route reader")
struct GPXReaderTests {
    /// What reading gave: the points, the summary, or the error.
    struct Outcome {
        var locations = LocationSeries()
        var summary = GPXReader.Summary()
        var error: CadenceError?
    }

    static func read(_ text: String, blockSize: Int = 1 << 16, limits: GPXReader.Limits = GPXReader.Limits()) -> Outcome {
        read(Array(text.utf8), blockSize: blockSize, limits: limits)
    }

    static func read(_ bytes: [UInt8], blockSize: Int = 1 << 16, limits: GPXReader.Limits = GPXReader.Limits()) -> Outcome {
        var reader = GPXReader(limits: limits, path: "route.gpx")
        var outcome = Outcome()
        do {
            try bytes.withUnsafeBytes { buffer in
                var start = 0
                while start < buffer.count {
                    let end = min(buffer.count, start + blockSize)
                    try reader.feed(UnsafeRawBufferPointer(rebasing: buffer[start..<end]))
                    start = end
                }
            }
            try reader.finish()
        } catch {
            outcome.error = error as? CadenceError
        }
        outcome.locations = reader.locations
        outcome.summary = reader.summary
        return outcome
    }

    /// A route file as the Health app writes it, from a list of points.
    static func gpx(_ points: [String], header: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>\(header)
        <gpx version="1.1" creator="Apple Health Export" xmlns="http://www.topografix.com/GPX/1/1">
         <metadata><time>2024-05-01T05:40:00Z</time></metadata>
         <trk><name>Route 2024-05-01 7:37am</name><trkseg>
        \(points.joined(separator: "\n"))
         </trkseg></trk>
        </gpx>
        """
    }

    static func point(lat: String, lon: String, ele: String? = "408.2", time: String? = "2024-05-01T05:05:00Z",
                      speed: String? = "2.9", course: String? = "81.5", hAcc: String? = "3.1", vAcc: String? = "2.0") -> String {
        var text = #"  <trkpt lat="\#(lat)" lon="\#(lon)">"#
        if let ele { text += "<ele>\(ele)</ele>" }
        if let time { text += "<time>\(time)</time>" }
        text += "<extensions>"
        if let speed { text += "<speed>\(speed)</speed>" }
        if let course { text += "<course>\(course)</course>" }
        if let hAcc { text += "<hAcc>\(hAcc)</hAcc>" }
        if let vAcc { text += "<vAcc>\(vAcc)</vAcc>" }
        return text + "</extensions></trkpt>"
    }

    @Test("Random routes written as GPX read back exactly, whatever the block size", arguments: [1, 3, 64, 1 << 16])
    func roundTrip(blockSize: Int) throws {
        var random = SeededRandom(seed: 14, stream: UInt64(blockSize))
        var expected = LocationSeries()
        var points: [String] = []
        var time = try parseRFC3339("2024-05-01T05:05:00Z")
        for _ in 0..<200 {
            time += Int64(random.integer(in: 1...5)) * 1_000_000
            let location = LocationSeries.Location(
                timestamp: time, latitude: (random.uniform(in: -90..<90) * 1e6).rounded() / 1e6,
                longitude: (random.uniform(in: -180..<180) * 1e6).rounded() / 1e6,
                altitude: random.unitDouble() < 0.2 ? .nan : (random.uniform(in: -50..<3000) * 100).rounded() / 100,
                speed: random.unitDouble() < 0.2 ? .nan : (random.uniform(in: 0..<20) * 100).rounded() / 100,
                course: random.unitDouble() < 0.2 ? .nan : (random.uniform(in: 0..<360) * 10).rounded() / 10,
                horizontalAccuracy: (random.uniform(in: 1..<50) * 10).rounded() / 10,
                verticalAccuracy: (random.uniform(in: 1..<50) * 10).rounded() / 10)
            expected.append(location)
            func text(_ value: Double) -> String? { value.isNaN ? nil : "\(value)" }
            points.append(Self.point(
                lat: "\(location.latitude)", lon: "\(location.longitude)", ele: text(location.altitude),
                time: formatRFC3339(time, secondsFromGMT: 0), speed: text(location.speed), course: text(location.course),
                hAcc: text(location.horizontalAccuracy), vAcc: text(location.verticalAccuracy)))
        }
        let outcome = Self.read(Self.gpx(points), blockSize: blockSize)
        #expect(outcome.error == nil)
        #expect(outcome.summary.pointCount == 200 && outcome.summary.skippedPointCount == 0)
        #expect(outcome.locations == expected)
    }

    @Test("Prefixed names, CDATA, comments, entities and negative CoreLocation values")
    func variants() throws {
        let text = """
        <?xml version="1.0"?>
        <!-- written by hand -->
        <g:gpx xmlns:g="http://www.topografix.com/GPX/1/1" xmlns:x="urn:x">
         <g:trk><g:trkseg>
          <g:trkpt lat='47.5' lon = "8.25"><g:ele><![CDATA[ 410.5 ]]></g:ele><g:time> 2024-05-01T05:05:00Z </g:time>
           <g:extensions><x:speed>-1</x:speed><x:course>&#52;5</x:course></g:extensions></g:trkpt>
          <g:rtept lat="47.6" lon="8.3"><g:time>2024-05-01T07:05:01+02:00</g:time></g:rtept>
         </g:trkseg></g:trk>
        </g:gpx>
        """
        let outcome = Self.read(text, blockSize: 5)
        #expect(outcome.error == nil)
        #expect(outcome.locations.count == 2)
        #expect(outcome.locations[0].altitude == 410.5)
        #expect(outcome.locations[0].speed.isNaN)
        #expect(outcome.locations[0].course == 45)
        #expect(outcome.locations[1].timestamp == outcome.locations[0].timestamp + 1_000_000)
        #expect(outcome.locations[1].altitude.isNaN)
    }

    @Test("Points without a valid position or time, or with a field that is not a number, are skipped and reported")
    func invalidPoints() throws {
        let points = [
            Self.point(lat: "47", lon: "8"),
            Self.point(lat: "abc", lon: "8"),
            Self.point(lat: "95", lon: "8"),
            Self.point(lat: "47", lon: "181"),
            Self.point(lat: "47", lon: "8", time: "yesterday"),
            Self.point(lat: "47", lon: "8", time: nil),
            Self.point(lat: "47", lon: "8", ele: "1e999"),
            Self.point(lat: "47", lon: "8", speed: "fast"),
            Self.point(lat: "&undefined;", lon: "8"),
            Self.point(lat: "4\u{7}7", lon: "8"),
            #"  <trkpt lat="47" lon=8><time>2024-05-01T05:05:00Z</time></trkpt>"#,
            Self.point(lat: "47.1", lon: "8.1"),
        ]
        let outcome = Self.read(Self.gpx(points))
        #expect(outcome.error == nil)
        #expect(outcome.summary.pointCount == 2)
        #expect(outcome.summary.skippedPointCount == 10)
        #expect(outcome.summary.issues.count == 10)
        #expect(outcome.summary.issues.map(\.line) == Array(6...15))
        #expect(outcome.summary.issues[0].reason.contains("lat"))
        #expect(outcome.summary.issues[3].reason.contains("time"))
        #expect(outcome.summary.issues[6].reason.contains("speed"))
        #expect(outcome.locations.latitudes == [47, 47.1])
    }

    @Test("Hostile files stop with hostileInput and bounded memory", arguments: [
        // A DTD with an entity (billion laughs): refused before any expansion.
        ("<?xml version=\"1.0\"?><!DOCTYPE gpx [<!ENTITY a \"aaaa\">]><gpx>&a;</gpx>", "DTD"),
        // Nesting beyond the limit.
        ("<gpx>" + String(repeating: "<a>", count: 100), "nest"),
        // A tag that never closes.
        ("<gpx><trkpt lat=\"1\" " + String(repeating: "x", count: 200_000), "bytes"),
        // A runaway comment.
        ("<gpx><!--" + String(repeating: "-", count: 2_000_000), "bytes"),
        // A field's text without end.
        ("<gpx><trkpt lat=\"1\" lon=\"2\"><ele>" + String(repeating: "1", count: 200_000), "longer"),
    ])
    func hostile(text: String, phrase: String) {
        let outcome = Self.read(text, blockSize: 4096)
        #expect(outcome.error?.code == .hostileInput)
        #expect(outcome.error?.message.contains(phrase) == true, "\(String(describing: outcome.error))")
    }

    @Test("A huge route keeps its first points up to the limit and counts the rest, whatever the block size",
          arguments: [1, 7, 1 << 16])
    func hugeRoute(blockSize: Int) {
        let points = (0..<50).map { Self.point(lat: "47.\(100 + $0)", lon: "8") }
        let outcome = Self.read(Self.gpx(points), blockSize: blockSize, limits: GPXReader.Limits(maxPoints: 20))
        #expect(outcome.error == nil)
        #expect(outcome.locations.latitudes == (0..<20).map { Double("47.\(100 + $0)") ?? .nan })
        #expect(outcome.summary.pointCount == 20)
        #expect(outcome.summary.droppedPointCount == 30)
        #expect(outcome.summary.skippedPointCount == 0)
    }

    @Test("Truncated, mismatched, empty or foreign files are malformed; points before a cut are kept",
          arguments: [
              ("trunc-tag", "truncated"), ("trunc-element", "truncated"), ("mismatch", "does not match"),
              ("empty", "no XML element"), ("foreign", "not a GPX file"), ("second-root", "second root"),
          ])
    func malformed(kind: String, phrase: String) {
        let whole = Self.gpx([Self.point(lat: "47", lon: "8"), Self.point(lat: "47.1", lon: "8.1")])
        let text: String
        switch kind {
        case "trunc-tag": text = String(whole.prefix(whole.count - 3))
        case "trunc-element": text = String(whole.prefix(whole.count - 6))
        case "mismatch": text = whole.replacingOccurrences(of: "</trkseg>", with: "</trk>")
        case "empty": text = "  \n"
        case "foreign": text = "<HealthData></HealthData>"
        default: text = whole + "<gpx/>"
        }
        let outcome = Self.read(text, blockSize: 7)
        #expect(outcome.error?.code == .malformedInput)
        #expect(outcome.error?.message.contains(phrase) == true, "\(String(describing: outcome.error))")
        if kind.hasPrefix("trunc") { #expect(outcome.locations.count == 2) }
    }

    @Test("Random bytes and random cuts of a good file never crash the reader")
    func randomBytes() {
        var random = SeededRandom(seed: 7)
        let good = Array(Self.gpx((0..<10).map { _ in Self.point(lat: "47", lon: "8") }).utf8)
        for _ in 0..<300 {
            var bytes = good
            for _ in 0..<random.integer(in: 1...8) {
                bytes[random.integer(in: 0...(bytes.count - 1))] = UInt8(truncatingIfNeeded: random.next())
            }
            bytes = Array(bytes.prefix(random.integer(in: 0...bytes.count)))
            let outcome = Self.read(bytes, blockSize: random.integer(in: 1...64))
            #expect(outcome.locations.count <= 10)
        }
    }
}
