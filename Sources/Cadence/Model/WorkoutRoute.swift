//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// The path a workout followed (HealthKit's `HKWorkoutRoute`): a series of timestamped locations.
///
/// An export names the route's GPX file (``filePath``, under `workout-routes/` in export.zip) and
/// older ones list its points inline; either way the points end up in ``locations``. A route whose
/// file could not be read keeps its path and has no points.
public struct WorkoutRoute: Hashable, Sendable {
    /// Who recorded the route.
    public var source: Source
    /// The recorder's version, if known.
    public var sourceVersion: String?
    /// The recording hardware, if known.
    public var device: Device?
    /// When the route was created, if known.
    public var creationDate: Date?
    /// When the route starts, if known.
    public var startDate: Date?
    /// When the route ends, if known.
    public var endDate: Date?
    /// String metadata (`HKMetadataKey…` → value).
    public var metadata: [String: String]
    /// The route file's path as the export writes it (`/workout-routes/route_….gpx`), if it has one.
    public var filePath: String?
    /// The points, in recording order.
    public var locations: LocationSeries

    /// Creates a route.
    public init(source: Source, sourceVersion: String? = nil, device: Device? = nil, creationDate: Date? = nil,
                startDate: Date? = nil, endDate: Date? = nil, metadata: [String: String] = [:],
                filePath: String? = nil, locations: LocationSeries = LocationSeries()) {
        self.source = source
        self.sourceVersion = sourceVersion
        self.device = device
        self.creationDate = creationDate
        self.startDate = startDate
        self.endDate = endDate
        self.metadata = metadata
        self.filePath = filePath
        self.locations = locations
    }
}
