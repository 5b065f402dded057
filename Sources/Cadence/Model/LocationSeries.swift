//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A route's points as columns: one array per field, all of the same length (HealthKit's series of
/// `CLLocation`s behind an `HKWorkoutRoute`).
///
///     var series = LocationSeries()
///     series.append(LocationSeries.Location(timestamp: t, latitude: 47.37, longitude: 8.54))
///     series[0].latitude                  // 47.37
///
/// Columns keep a long route dense: 64 bytes a point, no object per point. A field a point does not
/// carry is `nan` (latitude and longitude are always present).
public struct LocationSeries: Hashable, Sendable {
    /// When each point was recorded.
    public private(set) var timestamps: [Timestamp] = []
    /// Latitudes, in degrees (−90…90).
    public private(set) var latitudes: [Double] = []
    /// Longitudes, in degrees (−180…180).
    public private(set) var longitudes: [Double] = []
    /// Altitudes above sea level, in metres, or `nan`.
    public private(set) var altitudes: [Double] = []
    /// Speeds, in metres per second, or `nan`.
    public private(set) var speeds: [Double] = []
    /// Courses, in degrees clockwise from true north, or `nan`.
    public private(set) var courses: [Double] = []
    /// Horizontal accuracies (radius of uncertainty), in metres, or `nan`.
    public private(set) var horizontalAccuracies: [Double] = []
    /// Vertical accuracies, in metres, or `nan`.
    public private(set) var verticalAccuracies: [Double] = []

    /// One point of a route.
    public struct Location: Hashable, Sendable {
        /// When the point was recorded.
        public var timestamp: Timestamp
        /// Latitude, in degrees.
        public var latitude: Double
        /// Longitude, in degrees.
        public var longitude: Double
        /// Altitude above sea level, in metres, or `nan`.
        public var altitude: Double
        /// Speed, in metres per second, or `nan`.
        public var speed: Double
        /// Course, in degrees clockwise from true north, or `nan`.
        public var course: Double
        /// Horizontal accuracy, in metres, or `nan`.
        public var horizontalAccuracy: Double
        /// Vertical accuracy, in metres, or `nan`.
        public var verticalAccuracy: Double

        /// Creates a point; fields not given are `nan`.
        public init(timestamp: Timestamp, latitude: Double, longitude: Double, altitude: Double = .nan,
                    speed: Double = .nan, course: Double = .nan, horizontalAccuracy: Double = .nan,
                    verticalAccuracy: Double = .nan) {
            self.timestamp = timestamp
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
            self.speed = speed
            self.course = course
            self.horizontalAccuracy = horizontalAccuracy
            self.verticalAccuracy = verticalAccuracy
        }
    }

    /// Creates an empty series.
    public init() {}

    /// Creates a series of `locations`, in the order given.
    public init(_ locations: some Sequence<Location>) {
        for location in locations { append(location) }
    }

    /// A series of whole columns, as stored; every column holds one value a point, so all are
    /// as long as `timestamps` (a decoder reads each with the same count).
    package init(timestamps: [Timestamp], latitudes: [Double], longitudes: [Double], altitudes: [Double],
                 speeds: [Double], courses: [Double], horizontalAccuracies: [Double], verticalAccuracies: [Double]) {
        self.timestamps = timestamps
        self.latitudes = latitudes
        self.longitudes = longitudes
        self.altitudes = altitudes
        self.speeds = speeds
        self.courses = courses
        self.horizontalAccuracies = horizontalAccuracies
        self.verticalAccuracies = verticalAccuracies
    }

    /// The number of points.
    public var count: Int { timestamps.count }

    /// Whether the series has no points.
    public var isEmpty: Bool { timestamps.isEmpty }

    /// Adds a point at the end.
    ///
    /// - Complexity: Amortised O(1).
    public mutating func append(_ location: Location) {
        timestamps.append(location.timestamp)
        latitudes.append(location.latitude)
        longitudes.append(location.longitude)
        altitudes.append(location.altitude)
        speeds.append(location.speed)
        courses.append(location.course)
        horizontalAccuracies.append(location.horizontalAccuracy)
        verticalAccuracies.append(location.verticalAccuracy)
    }

    /// Keeps the first `count` points (all of them when there are no more) and drops the rest.
    ///
    /// - Complexity: O(*n*) in the points dropped.
    mutating func keepFirst(_ count: Int) {
        let kept = max(0, count)
        guard kept < self.count else { return }
        timestamps.removeSubrange(kept...)
        latitudes.removeSubrange(kept...)
        longitudes.removeSubrange(kept...)
        altitudes.removeSubrange(kept...)
        speeds.removeSubrange(kept...)
        courses.removeSubrange(kept...)
        horizontalAccuracies.removeSubrange(kept...)
        verticalAccuracies.removeSubrange(kept...)
    }

    /// Reserves room for `count` points in every column.
    public mutating func reserveCapacity(_ count: Int) {
        timestamps.reserveCapacity(count)
        latitudes.reserveCapacity(count)
        longitudes.reserveCapacity(count)
        altitudes.reserveCapacity(count)
        speeds.reserveCapacity(count)
        courses.reserveCapacity(count)
        horizontalAccuracies.reserveCapacity(count)
        verticalAccuracies.reserveCapacity(count)
    }

    /// The point at `index` (0 ..< ``count``).
    public subscript(index: Int) -> Location {
        Location(timestamp: timestamps[index], latitude: latitudes[index], longitude: longitudes[index],
                 altitude: altitudes[index], speed: speeds[index], course: courses[index],
                 horizontalAccuracy: horizontalAccuracies[index], verticalAccuracy: verticalAccuracies[index])
    }

    /// Series are equal when every column holds the same bits (so `nan` equals `nan`).
    public static func == (lhs: LocationSeries, rhs: LocationSeries) -> Bool {
        lhs.timestamps == rhs.timestamps
            && sameBits(lhs.latitudes, rhs.latitudes) && sameBits(lhs.longitudes, rhs.longitudes)
            && sameBits(lhs.altitudes, rhs.altitudes) && sameBits(lhs.speeds, rhs.speeds)
            && sameBits(lhs.courses, rhs.courses) && sameBits(lhs.horizontalAccuracies, rhs.horizontalAccuracies)
            && sameBits(lhs.verticalAccuracies, rhs.verticalAccuracies)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(timestamps)
        for column in [latitudes, longitudes, altitudes, speeds, courses, horizontalAccuracies, verticalAccuracies] {
            for value in column { hasher.combine(value.bitPattern) }
        }
    }

    private static func sameBits(_ lhs: [Double], _ rhs: [Double]) -> Bool {
        lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0.bitPattern == $1.bitPattern }
    }
}
