//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

extension Workout {
    /// The deterministic UUID of a workout that arrived without one **[Cadence rule]** (<doc:HowCadenceComputes#Identity>): a
    /// version-8 UUID hashed from every attribute the `<Workout>` element carries — activity type,
    /// source name, source version, device description, duration, the four totals, creation date,
    /// start, end and metadata (sorted by key) — and its `occurrence` among identical workouts of the
    /// same file.
    ///
    /// The workout's own ``uuid`` and its children (events, statistics, activities, routes) do not
    /// take part, so a later export that adds a route file to the same workout names the same object.
    ///
    ///     let first = workout.derivedUUID(occurrence: 0)
    ///
    /// - Parameter occurrence: How many identical workouts came before this one in its file (0 for the first).
    /// - Returns: The same UUID for the same workout on every machine and in every run.
    public func derivedUUID(occurrence: Int = 0) -> UUID {
        var hash = identityHash()
        hash.combine(UInt64(UInt32(clamping: occurrence)))
        let (high, low) = hash.finalize()
        return UUID(high: high, low: low, version: 8)
    }

    /// A 64-bit key for counting identical workouts: equal attributes give equal keys.
    package var identityKey: UInt64 { identityHash().finalize().0 }

    /// The hash of every identity attribute but the occurrence number.
    private func identityHash() -> StableHash {
        var hash = StableHash()
        hash.combine("HKWorkoutTypeIdentifier")  // a workout never shares a UUID with a sample of another kind
        hash.combine(activityType.identifier)
        hash.combine(SampleIdentity.digest(provenance))
        for figure in [duration, totalEnergyBurned, totalDistance, totalSwimmingStrokeCount, totalFlightsClimbed] {
            if let figure {
                hash.combine(1)
                hash.combine(figure == 0 ? 0 : figure.bitPattern)  // +0 and -0 are the same value
            } else {
                hash.combine(0)
            }
        }
        hash.combine(UInt64(bitPattern: creationDate?.timestamp ?? SampleColumns.absent))
        hash.combine(UInt64(bitPattern: startDate.timestamp))
        hash.combine(UInt64(bitPattern: endDate.timestamp))
        hash.combine(SampleIdentity.digest(metadata))
        return hash
    }
}
