//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// A sample type with a predicate on its samples (HealthKit's `HKSamplePredicate`): what the
/// query descriptors take for each type they read.
///
///     let recent = SampleTypePredicate.quantitySample(type: .heartRate, predicate: .samples(start: hourAgo, end: nil))
///     let nights = SampleTypePredicate.categorySample(type: .sleepAnalysis)
public struct SampleTypePredicate<Sample: Sendable>: Sendable {
    /// The type's series and how its rows become samples.
    package let reading: SampleReading<Sample>
    /// Which samples of the type to select.
    public var predicate: SamplePredicate
    /// The quantity type, for quantity samples.
    private let storedQuantityType: QuantityType?

    package init(reading: SampleReading<Sample>, predicate: SamplePredicate, quantityType: QuantityType? = nil) {
        self.reading = reading
        self.predicate = predicate
        self.storedQuantityType = quantityType
    }

    /// The full identifier of the type.
    public var typeIdentifier: String { reading.identifier }

    /// A sample query over this type alone, with no limit and no order.
    var sampleQuery: SampleQuery<Sample> { SampleQuery(reading: reading, predicate: predicate, limit: 0, sortDescriptors: []) }
}

extension SampleTypePredicate where Sample == QuantitySample {
    /// The quantity type.
    public var quantityType: QuantityType {
        // Only ``quantitySample(type:predicate:)`` makes a predicate of quantity samples, and it
        // keeps the type; the fallback names the series all the same.
        storedQuantityType ?? .unknown(typeIdentifier, unit: .count)
    }

    /// Quantity samples of `type` that `predicate` selects.
    public static func quantitySample(type: QuantityType, predicate: SamplePredicate = .all) -> Self {
        Self(reading: .quantities(type), predicate: predicate, quantityType: type)
    }
}

extension SampleTypePredicate where Sample == CategorySample {
    /// Category samples of `type` that `predicate` selects.
    public static func categorySample(type: CategoryType, predicate: SamplePredicate = .all) -> Self {
        Self(reading: .categories(type), predicate: predicate)
    }
}

extension SampleTypePredicate where Sample == Correlation {
    /// Correlations of `type` that `predicate` selects, each with its members.
    public static func correlation(type: CorrelationType, predicate: SamplePredicate = .all) -> Self {
        Self(reading: .correlations(type), predicate: predicate)
    }
}

extension SampleTypePredicate where Sample == Workout {
    /// Workouts that `predicate` selects, each with its events, statistics and activities, and
    /// with its routes only when `includingRoutes`.
    public static func workout(_ predicate: SamplePredicate = .all, includingRoutes: Bool = false) -> Self {
        Self(reading: .workouts(includingRoutes: includingRoutes), predicate: predicate)
    }
}
