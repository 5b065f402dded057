//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// One measurement of a quantity over a time interval (HealthKit's `HKQuantitySample`).
///
///     let walk = try QuantitySample(
///         type: .stepCount, value: 600, unit: .count,
///         start: start, end: start.addingTimeInterval(600),
///         source: Source(name: "Jane’s Apple Watch"))
///
/// The value is kept in the type's canonical unit; ``quantity`` gives it back with that unit and
/// ``value(in:)`` converts. Times are kept to the microsecond.
///
/// **Identity [Cadence rule]**: a sample keeps the UUID it was given (a new random one by
/// default). A sample imported without one gets ``QuantitySample/derivedUUID(type:provenance:value:start:end:creation:metadata:occurrence:)``,
/// so re-importing the same record is recognised and skipped. Saving a sample whose UUID is
/// already stored is a no-op reported as a duplicate.
public struct QuantitySample: Hashable, Sendable, Identifiable {
    /// The sample's unique identifier.
    public var uuid: UUID
    /// The sample's type.
    public var quantityType: QuantityType
    /// The value in ``QuantityType/canonicalUnit``.
    public var value: Double
    /// When the measurement starts.
    public var startDate: Date
    /// When the measurement ends (equal to ``startDate`` for an instant).
    public var endDate: Date
    /// Who wrote the sample.
    public var source: Source
    /// The writing app's or OS's version, if known.
    public var sourceVersion: String?
    /// The recording hardware, if known.
    public var device: Device?
    /// When the sample was created, if known.
    public var creationDate: Date?
    /// String metadata (`HKMetadataKey…` → value).
    public var metadata: [String: String]
    /// How many entries the sample holds: 1 for an ordinary sample, more for a series built with
    /// ``QuantitySeriesSampleBuilder`` (HealthKit's `count`).
    public internal(set) var count = 1
    /// A discrete series' values beside its average (``value``); `nil` for an ordinary sample or a
    /// cumulative series, whose values follow from ``value`` alone.
    public internal(set) var seriesValues: QuantitySeriesValues?

    public var id: UUID { uuid }

    /// Creates a sample, converting `value` from `unit` to the type's canonical unit.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` when `start` is after `end` or the value is
    ///   not finite; ``CadenceError/Code/incompatibleUnits`` when `unit` does not fit the type.
    public init(uuid: UUID = UUID(), type: QuantityType, value: Double, unit: HealthUnit? = nil,
                start: Date, end: Date, source: Source, sourceVersion: String? = nil, device: Device? = nil,
                creationDate: Date? = nil, metadata: [String: String] = [:]) throws {
        guard value.isFinite else {
            throw CadenceError(.invalidArgument, "the value \(value) is not a finite number")
        }
        try SampleDates.check(start: start, end: end)
        let canonical = try unit.map { try $0.convert(value, to: type.canonicalUnit) } ?? value
        guard canonical.isFinite else {
            throw CadenceError(.invalidArgument, "the value \(value) \(unit?.unitString ?? "") overflows \(type.canonicalUnit)")
        }
        try type.validate(value: canonical)
        self.uuid = uuid
        self.quantityType = type
        self.value = canonical
        self.startDate = start
        self.endDate = end
        self.source = source
        self.sourceVersion = sourceVersion
        self.device = device
        self.creationDate = creationDate
        self.metadata = metadata
    }

    /// The value with its canonical unit.
    public var quantity: Quantity { Quantity(value: value, unit: quantityType.canonicalUnit) }

    /// The value converted to `unit`.
    ///
    /// - Throws: ``CadenceError/Code/incompatibleUnits``.
    public func value(in unit: HealthUnit) throws -> Double {
        try quantityType.canonicalUnit.convert(value, to: unit)
    }

    /// The interval the sample covers.
    public var dateInterval: DateInterval { DateInterval(start: startDate, end: endDate) }
}

/// A value with a unit (HealthKit's `HKQuantity`).
public struct Quantity: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The number.
    public var value: Double
    /// Its unit.
    public var unit: HealthUnit

    /// Creates a quantity.
    public init(value: Double, unit: HealthUnit) {
        self.value = value
        self.unit = unit
    }

    /// The value in another unit (HealthKit's `doubleValue(for:)`, which traps where this throws).
    ///
    /// Use it for a unit that arrives as input; ``value(in:)`` gives `nil` instead of an error,
    /// and ``value`` is already in the canonical unit of the quantity's type for query results.
    ///
    /// - Throws: ``CadenceError/Code/incompatibleUnits`` when `other` measures another dimension.
    public func doubleValue(for other: HealthUnit) throws -> Double { try unit.convert(value, to: other) }

    /// The value in another unit, or `nil` when `other` measures another dimension: the
    /// non-throwing form of ``doubleValue(for:)``.
    public func value(in other: HealthUnit) -> Double? { try? unit.convert(value, to: other) }

    /// Whether the quantity converts to `other` (HealthKit's `is(compatibleWith:)`).
    public func `is`(compatibleWith other: HealthUnit) -> Bool { unit.isCompatible(with: other) }

    public var description: String { "\(value) \(unit)" }
}

/// Metadata keys Cadence reads.
public enum MetadataKey {
    /// `"1"` when a person typed the value in; such samples outrank unlisted sources when merging.
    public static let wasUserEntered = "HKWasUserEntered"
    /// The writer's identifier for the sample across devices; kept on deleted objects.
    public static let syncIdentifier = "HKMetadataKeySyncIdentifier"
    /// The version that goes with ``syncIdentifier``.
    public static let syncVersion = "HKMetadataKeySyncVersion"
}
