//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence

/// Fuzzes the GPX reader of workout routes.
///
/// The first byte of an input picks the reader's limits (defaults or tight ones) and how the file
/// is fed in pieces; the rest is the file. The reader must read the same points, summary and error
/// whether it is fed the file at once or in small pieces, and never keep more points than its limit
/// (nor drop any before reaching it).
enum GPXFuzzer {
    /// What reading a file gave.
    struct Outcome: Equatable {
        var locations = LocationSeries()
        var summary: GPXReader.Summary?
        var error: CadenceError?
    }

    static func run(_ input: [UInt8]) {
        guard let selector = input.first else { return }
        let body = Array(input.dropFirst())
        let limits = selector & 1 == 0
            ? GPXReader.Limits()
            : GPXReader.Limits(maxPoints: 3, maxTokenBytes: 0, maxMarkupBytes: 0, maxDepth: 4, maxReportedIssues: 1)
        let whole = read(body, limits: limits, pieces: [body.count])
        let pieces = read(body, limits: limits, pieces: CSVFuzzer.pieceSizes(selector << 1))
        if whole != pieces {
            fuzzFailure("the GPX reader reads differently in pieces:\n\(whole)\n\(pieces)")
        }
        if whole.locations.count > limits.maxPoints {
            fuzzFailure("the GPX reader kept \(whole.locations.count) points, over its limit of \(limits.maxPoints)")
        }
        if let summary = whole.summary, summary.pointCount != whole.locations.count
            || (summary.droppedPointCount > 0 && whole.locations.count != limits.maxPoints) {
            fuzzFailure("the GPX reader dropped points before reaching its limit: \(summary)")
        }
    }

    /// Reads `bytes` fed in pieces of the sizes given (cycling).
    static func read(_ bytes: [UInt8], limits: GPXReader.Limits, pieces: [Int]) -> Outcome {
        var outcome = Outcome()
        var reader = GPXReader(limits: limits, path: "route.gpx")
        do {
            try forEachPiece(of: bytes, sizes: pieces) { try reader.feed($0) }
            try reader.finish()
            outcome.summary = reader.summary
        } catch let error as CadenceError {
            outcome.error = error
        } catch {
            fuzzFailure("the GPX reader threw a non-Cadence error: \(error)")
        }
        outcome.locations = reader.locations
        return outcome
    }
}
