//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Quantity samples that belong together, such as the systolic and diastolic readings of one
/// blood pressure measurement or the nutrients of one food entry (HealthKit's `HKCorrelation`).
///
///     let reading = try Correlation(type: .bloodPressure, start: t, end: t, source: cuff,
///                                   objects: [systolic, diastolic])
///     try store.save([reading])   // saves the two readings too
///
/// The members stay ordinary quantity samples, queryable and aggregatable on their own. A
/// correlation refers to them by UUID (``memberUUIDs``); a sample query on a correlation type
/// returns each correlation with the members still stored (``objects``). Deleting a correlation
/// deletes it alone; deleting a member removes it from its correlations **[Cadence rule]**.
public struct Correlation: Hashable, Sendable, Identifiable {
    /// The correlation's unique identifier.
    public var uuid: UUID
    /// The correlation's type.
    public var correlationType: CorrelationType
    /// When it starts.
    public var startDate: Date
    /// When it ends.
    public var endDate: Date
    /// Who wrote it.
    public var source: Source
    /// The writing app's or OS's version, if known.
    public var sourceVersion: String?
    /// The recording hardware, if known.
    public var device: Device?
    /// When it was created, if known.
    public var creationDate: Date?
    /// String metadata (`HKMetadataKey…` → value).
    public var metadata: [String: String]
    /// The members' UUIDs: as saved, less (in a query's result) the members deleted since.
    public var memberUUIDs: [UUID]
    /// The members that are stored (from a query), or to be saved with the correlation.
    public var objects: [QuantitySample]
    /// The members' type identifiers, in the order of ``memberUUIDs``.
    package var memberTypeIdentifiers: [String]

    public var id: UUID { uuid }

    /// Creates a correlation of `objects`.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` when `start` is after `end`.
    public init(uuid: UUID = UUID(), type: CorrelationType, start: Date, end: Date, source: Source,
                sourceVersion: String? = nil, device: Device? = nil, creationDate: Date? = nil,
                metadata: [String: String] = [:], objects: [QuantitySample]) throws {
        try SampleDates.check(start: start, end: end)
        self.uuid = uuid
        self.correlationType = type
        self.startDate = start
        self.endDate = end
        self.source = source
        self.sourceVersion = sourceVersion
        self.device = device
        self.creationDate = creationDate
        self.metadata = metadata
        self.memberUUIDs = objects.map(\.uuid)
        self.memberTypeIdentifiers = objects.map(\.quantityType.identifier)
        self.objects = objects
    }

    /// The members' type identifiers and UUIDs, as stored.
    package var memberReferences: [(type: String, uuid: UUID)] {
        zip(memberTypeIdentifiers, memberUUIDs).map { ($0, $1) }
    }

    /// The members of one quantity type (HealthKit's `objects(for:)`).
    public func objects(for type: QuantityType) -> [QuantitySample] {
        objects.filter { $0.quantityType.identifier == type.identifier }
    }
}
