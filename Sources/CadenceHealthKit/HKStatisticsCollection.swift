//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// The statistics of every interval of a collection query (HealthKit's `HKStatisticsCollection`):
/// a view of Cadence's `StatisticsCollection`.
///
///     collection.enumerateStatistics(from: monday, to: sunday) { statistics, stop in
///         let steps = statistics.sumQuantity()?.doubleValue(for: .count()) ?? 0
///     }
public final class HKStatisticsCollection: NSObject, Sendable {
    /// The Cadence collection it shows.
    let cadence: StatisticsCollection

    init(_ collection: StatisticsCollection) {
        cadence = collection
    }

    /// The statistics of every interval with at least one contributing sample, in order.
    ///
    /// - Complexity: O(*m*) for *m* intervals.
    public func statistics() -> [HKStatistics] { cadence.statistics().map(HKStatistics.init) }

    /// The statistics of the interval containing `date`; an empty interval has `nil` values.
    public func statistics(for date: Date) -> HKStatistics? { cadence.statistics(for: date).map(HKStatistics.init) }

    /// Calls `block` for every interval from the one containing `startDate` to the one containing
    /// `endDate`, inclusive, empty ones with `nil` values; set `stop.pointee` to `true` to end early.
    ///
    /// A range of more intervals than Cadence enumerates at once
    /// (`IntervalEdges.defaultMaximumEdgeCount`) calls `block` for none of them.
    public func enumerateStatistics(from startDate: Date, to endDate: Date,
                                    with block: (HKStatistics, UnsafeMutablePointer<ObjCBool>) -> Void) {
        var stop = ObjCBool(false)
        try? cadence.enumerateStatistics(from: startDate, to: endDate) { statistics, shouldStop in
            block(HKStatistics(statistics), &stop)
            shouldStop = stop.boolValue
        }
    }

    /// The sources that contributed to any interval.
    public func sources() -> Set<HKSource> { Set(cadence.sources().map(HKSource.init)) }
}
