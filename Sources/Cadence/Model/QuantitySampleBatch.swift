//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Many samples of one type as columns: the fast way for batch jobs and importers to save data.
///
///     var batch = QuantitySampleBatch(type: .heartRate)
///     let watch = batch.addProvenance(Provenance(source: Source(name: "Watch")))
///     try batch.append(start: t, end: t, value: 72, provenanceIndex: watch)
///     try store.save(batch)
///
/// Values are in the type's canonical unit. A row without a UUID gets the derived one of
/// ``QuantitySample/derivedUUID(type:provenance:value:start:end:creation:metadata:occurrence:)``
/// (occurrence 0), so identical rows (every attribute equal) are one sample **[Cadence rule]**;
/// importers number look-alike records of a file so that they all stay.
public struct QuantitySampleBatch: Sendable {
    /// The samples' type.
    public let quantityType: QuantityType
    /// The provenances the rows refer to by index.
    public private(set) var provenances: [Provenance] = []
    private var provenanceIndexes: [Provenance: Int] = [:]
    package private(set) var columns = SampleColumns()
    /// The type's valid values, looked up once.
    private let valueRange: ClosedRange<Double>

    /// Creates an empty batch.
    public init(type: QuantityType, capacity: Int = 0) {
        quantityType = type
        valueRange = type.validValues
        columns.reserveCapacity(capacity)
    }

    /// The number of rows.
    public var count: Int { columns.count }

    /// The index of a provenance the batch holds, if it holds it.
    package func provenanceIndex(of provenance: Provenance) -> Int? { provenanceIndexes[provenance] }

    /// Adds a provenance (or finds it) and returns its index for ``append(start:end:value:provenanceIndex:)``.
    public mutating func addProvenance(_ provenance: Provenance) -> Int {
        if let index = provenanceIndexes[provenance] { return index }
        provenances.append(provenance)
        provenanceIndexes[provenance] = provenances.count - 1
        return provenances.count - 1
    }

    /// Appends a row, with times in microseconds since 1970.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` when `start > end`, the value is not finite,
    ///   or the provenance index is unknown; nothing is appended then.
    /// - Complexity: Amortised O(1), no allocation beyond the columns' growth.
    public mutating func append(startTimestamp: Timestamp, endTimestamp: Timestamp, value: Double, provenanceIndex: Int,
                                uuid: UUID? = nil, creationTimestamp: Timestamp? = nil,
                                metadata: [String: String] = [:]) throws {
        guard startTimestamp <= endTimestamp else {
            throw CadenceError(.invalidArgument, "the start \(startTimestamp) µs is after the end \(endTimestamp) µs")
        }
        guard value.isFinite else { throw CadenceError(.invalidArgument, "the value \(value) is not a finite number") }
        guard valueRange.contains(value) else { return try quantityType.validate(value: value) }
        guard provenanceIndex >= 0, provenanceIndex < provenances.count else {
            throw CadenceError(.invalidArgument, "no provenance with index \(provenanceIndex) in this batch")
        }
        let flags = !metadata.isEmpty && metadata[MetadataKey.wasUserEntered] == "1" ? SampleFlags.userEntered : 0
        columns.append(start: startTimestamp, end: endTimestamp, value: value, provenance: UInt32(provenanceIndex),
                       flags: flags, uuid: uuid, creation: creationTimestamp, metadata: metadata)
    }

    /// Appends every row of `other`, a batch of the same type, after this batch's rows; its
    /// provenances join this batch's.
    ///
    /// - Complexity: O(*n* + *p*) for the *n* rows and *p* provenances of `other`.
    package mutating func append(contentsOf other: QuantitySampleBatch) {
        let provenanceMap = other.provenances.map { UInt32(addProvenance($0)) }
        columns.append(contentsOf: other.columns, provenanceMap: provenanceMap)
    }

    /// Numbers the rows that are repeats of identical records earlier in their file (<doc:HowCadenceComputes#Identity>):
    /// `occurrences[i]` is row `i`'s, or the array is empty when every row is a first occurrence.
    package mutating func setOccurrences(_ occurrences: [UInt32]) {
        columns.occurrence = occurrences.allSatisfy { $0 == 0 } ? [] : occurrences
    }

    /// Gives the last row appended its payload (a workout's routes, kept apart from its columns).
    package mutating func setLastRowPayload(_ payload: [UInt8]) {
        guard !payload.isEmpty, count > 0 else { return }
        if columns.payloads.isEmpty { columns.payloads = [[UInt8]](repeating: [], count: count) }
        columns.payloads[count - 1] = payload
    }

    /// Keeps only the rows at `rows`, in that order.
    package mutating func keepRows(_ rows: [Int]) {
        guard rows.count != count else { return }
        columns = columns.selecting(rows)
    }

    /// Appends a row with `Date`s.
    public mutating func append(start: Date, end: Date, value: Double, provenanceIndex: Int, uuid: UUID? = nil,
                                creationDate: Date? = nil, metadata: [String: String] = [:]) throws {
        try append(startTimestamp: start.timestamp, endTimestamp: end.timestamp, value: value,
                   provenanceIndex: provenanceIndex, uuid: uuid, creationTimestamp: creationDate?.timestamp,
                   metadata: metadata)
    }

    /// Appends a sample of this batch's type, keeping its UUID.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` if the sample is of another type.
    public mutating func append(_ sample: QuantitySample) throws {
        guard sample.quantityType.identifier == quantityType.identifier else {
            throw CadenceError(.invalidArgument, "a \(sample.quantityType) sample cannot join a \(quantityType) batch")
        }
        let index = addProvenance(Provenance(source: sample.source, sourceVersion: sample.sourceVersion,
                                             device: sample.device))
        try append(start: sample.startDate, end: sample.endDate, value: sample.value, provenanceIndex: index,
                   uuid: sample.uuid, creationDate: sample.creationDate, metadata: sample.metadata)
    }
}
