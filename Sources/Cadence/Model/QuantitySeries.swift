//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// One quantity of a series sample, with its own date interval (what HealthKit's
/// `HKQuantitySeriesSampleQuery` hands out).
public struct QuantitySeriesEntry: Hashable, Sendable {
    /// The value, in its type's canonical unit.
    public var quantity: Quantity
    /// When it was measured; inside its sample's interval.
    public var dateInterval: DateInterval

    /// Creates an entry.
    public init(quantity: Quantity, dateInterval: DateInterval) {
        self.quantity = quantity
        self.dateInterval = dateInterval
    }
}

/// What a discrete series sample keeps beside its average: its extremes and its most recent
/// entry (the one with the latest start).
public struct QuantitySeriesValues: Hashable, Sendable {
    /// The smallest entry value, in the canonical unit.
    public var minimum: Double
    /// The largest entry value, in the canonical unit.
    public var maximum: Double
    /// The value of the entry with the latest start.
    public var mostRecent: Double
    /// That entry's interval.
    public var mostRecentDateInterval: DateInterval

    /// Creates the values.
    public init(minimum: Double, maximum: Double, mostRecent: Double, mostRecentDateInterval: DateInterval) {
        self.minimum = minimum
        self.maximum = maximum
        self.mostRecent = mostRecent
        self.mostRecentDateInterval = mostRecentDateInterval
    }
}

/// A series sample and its entries, as ``QuantitySeriesSampleBuilder/finishSeries(uuid:source:sourceVersion:device:creationDate:metadata:)``
/// makes it and ``HealthStore/save(_:)-(QuantitySeriesSample)`` stores it.
public struct QuantitySeriesSample: Hashable, Sendable {
    /// The owning sample: its ``QuantitySample/count`` is the number of entries, its value their
    /// sum (cumulative types) or average (discrete types).
    public var sample: QuantitySample
    /// The entries, ascending by start (then end).
    public var entries: [QuantitySeriesEntry]
}

extension QuantitySample {
    /// The sum of a cumulative sample's entries (HealthKit's `sumQuantity`); `nil` for a discrete type.
    public var sumQuantity: Quantity? { quantityType.aggregationStyle == .cumulative ? quantity : nil }

    /// The average of a discrete sample's entries (HealthKit's `averageQuantity`); `nil` for a cumulative type.
    public var averageQuantity: Quantity? { discrete { $0.quantity } }

    /// The smallest of a discrete sample's entries; `nil` for a cumulative type.
    public var minimumQuantity: Quantity? { discrete { Quantity(value: $0.seriesValues?.minimum ?? $0.value, unit: $0.quantityType.canonicalUnit) } }

    /// The largest of a discrete sample's entries; `nil` for a cumulative type.
    public var maximumQuantity: Quantity? { discrete { Quantity(value: $0.seriesValues?.maximum ?? $0.value, unit: $0.quantityType.canonicalUnit) } }

    /// The discrete sample's entry with the latest start; `nil` for a cumulative type.
    public var mostRecentQuantity: Quantity? {
        discrete { Quantity(value: $0.seriesValues?.mostRecent ?? $0.value, unit: $0.quantityType.canonicalUnit) }
    }

    /// The interval of ``mostRecentQuantity``; `nil` for a cumulative type.
    public var mostRecentQuantityDateInterval: DateInterval? {
        discrete { $0.seriesValues?.mostRecentDateInterval ?? $0.dateInterval }
    }

    private func discrete<Value>(_ body: (QuantitySample) -> Value) -> Value? {
        quantityType.aggregationStyle == .cumulative ? nil : body(self)
    }
}
