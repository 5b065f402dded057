//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The route files one import has read, by path: workouts that name the same file share one
/// reading of it (and one copy of its points, until a workout's copy is cut), and a file that
/// cannot be read is tried once.
///
/// The cache holds at most ``maxPoints`` points; a file that would take it past starts it over, so
/// its memory stays bounded whatever the export.
struct RouteFileCache {
    /// What reading one file came to: its points and the reader's summary, or why it cannot be read.
    typealias Reading = Result<(locations: LocationSeries, summary: GPXReader.Summary), CadenceError>

    /// The most points held by default (each about 64 bytes of columns, plus the slack of their growth).
    static let defaultMaxPoints = 1 << 18

    /// The most points held.
    let maxPoints: Int
    private var readings: [Substring: Reading] = [:]
    private var points = 0

    /// Creates an empty cache that holds at most `maxPoints` points.
    init(maxPoints: Int = Self.defaultMaxPoints) {
        self.maxPoints = maxPoints
    }

    /// The reading of the route file `reference` names: the cached one, or a new one kept.
    ///
    /// - Complexity: O(1) for a file read before; otherwise the cost of reading it.
    mutating func reading(_ reference: String, from files: WorkoutRouteFiles, limits: GPXReader.Limits) -> Reading {
        let key = WorkoutRouteFiles.key(reference)
        if let cached = readings[key] { return cached }
        let reading: Reading
        do {
            let (locations, summary) = try files.read(reference, limits: limits)
            reading = .success((locations, summary))
        } catch let error as CadenceError {
            reading = .failure(error)
        } catch {
            reading = .failure(CadenceError(.io, "\(error)"))
        }
        let count = (try? reading.get().locations.count) ?? 0
        if points + count > maxPoints {
            readings.removeAll()
            points = 0
        }
        readings[key] = reading
        points += count
        return reading
    }
}
