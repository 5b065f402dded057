//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// A state over a time interval, such as a sleep stage or a mindful session (HealthKit's
/// `HKCategorySample`).
///
///     let core = try CategorySample(
///         type: .sleepAnalysis, valueName: "asleepCore",
///         start: start, end: start.addingTimeInterval(3_600),
///         source: Source(name: "Jane’s Apple Watch"))
///
/// The value is HealthKit's raw integer (``value``) with the export's name for it
/// (``valueName``). A name the type's table does not hold is kept verbatim, with the value
/// ``CategorySample/unknownValue`` (<doc:HowCadenceComputes#Categories-workouts-and-correlations>): imported data is never dropped.
public struct CategorySample: Hashable, Sendable, Identifiable {
    /// The sample's unique identifier.
    public var uuid: UUID
    /// The sample's type.
    public var categoryType: CategoryType
    /// HealthKit's raw value, or ``unknownValue`` for a name the type's table does not hold.
    public var value: Int
    /// The export's name of the value (`HKCategoryValueSleepAnalysisAsleepCore`), or the name the
    /// sample arrived with when the table does not know it.
    public var valueName: String
    /// When the state starts.
    public var startDate: Date
    /// When the state ends.
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

    public var id: UUID { uuid }

    /// The value of a sample whose value name the type's table does not hold.
    public static let unknownValue = -1

    /// Creates a sample with a raw value.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` when `start` is after `end`, or when the
    ///   type is known and has no such value.
    public init(uuid: UUID = UUID(), type: CategoryType, value: Int, start: Date, end: Date, source: Source,
                sourceVersion: String? = nil, device: Device? = nil, creationDate: Date? = nil,
                metadata: [String: String] = [:]) throws {
        let name: String
        if let known = type.valueName(value) {
            name = known
        } else if !type.isKnown && value != Self.unknownValue {
            name = String(value)
        } else {
            throw CadenceError(.invalidArgument, "\(value) is not a value of \(type.shortIdentifier)")
        }
        try self.init(uuid: uuid, type: type, value: value, valueName: name, start: start, end: end, source: source,
                      sourceVersion: sourceVersion, device: device, creationDate: creationDate, metadata: metadata)
    }

    /// Creates a sample from a value name: the export's (`HKCategoryValueSleepAnalysisAsleepCore`),
    /// HealthKit's short one (`asleepCore`) or a number. A name the type's table does not hold is
    /// kept verbatim with the value ``unknownValue`` (a number stays that number).
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` when `start` is after `end` or the name is empty.
    public init(uuid: UUID = UUID(), type: CategoryType, valueName: String, start: Date, end: Date, source: Source,
                sourceVersion: String? = nil, device: Device? = nil, creationDate: Date? = nil,
                metadata: [String: String] = [:]) throws {
        guard !valueName.isEmpty else { throw CadenceError(.invalidArgument, "a \(type.shortIdentifier) sample needs a value") }
        let value = type.value(named: valueName) ?? (type.isKnown ? nil : Int(valueName)) ?? Self.unknownValue
        let name = type.valueName(value) ?? valueName
        try self.init(uuid: uuid, type: type, value: value, valueName: name, start: start, end: end, source: source,
                      sourceVersion: sourceVersion, device: device, creationDate: creationDate, metadata: metadata)
    }

    private init(uuid: UUID, type: CategoryType, value: Int, valueName: String, start: Date, end: Date,
                 source: Source, sourceVersion: String?, device: Device?, creationDate: Date?,
                 metadata: [String: String]) throws {
        try SampleDates.check(start: start, end: end)
        self.uuid = uuid
        self.categoryType = type
        self.value = value
        self.valueName = valueName
        self.startDate = start
        self.endDate = end
        self.source = source
        self.sourceVersion = sourceVersion
        self.device = device
        self.creationDate = creationDate
        self.metadata = metadata
    }

    /// The value with its name, as a ``CategoryValue``.
    public var categoryValue: CategoryValue { CategoryValue(rawValue: value, name: valueName) }

    /// The interval the sample covers.
    public var dateInterval: DateInterval { DateInterval(start: startDate, end: endDate) }
}
