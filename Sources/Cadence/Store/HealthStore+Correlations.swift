//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

extension HealthStore {
    /// Saves correlations and their members in one transaction (<doc:HowCadenceComputes#Categories-workouts-and-correlations>): each member is saved
    /// as an ordinary quantity sample (one already stored counts as a duplicate), each
    /// correlation as a row of its type's series that refers to its members by UUID.
    ///
    /// - Returns: The correlations and members saved, and those already stored.
    /// - Throws: What ``save(_:)-([QuantitySample])`` throws.
    @discardableResult
    public func save(_ correlations: [Correlation]) throws -> SaveSummary {
        // Each correlation's members, then the correlation, grouped into one batch per series.
        let items: [(series: QuantityType, member: QuantitySample?, correlation: Correlation)] = correlations.flatMap { correlation in
            correlation.objects.map { ($0.quantityType, $0, correlation) }
                + [(.series(correlation.correlationType.identifier), nil, correlation)]
        }
        return try save(QuantitySampleBatch.grouping(items, series: \.series) { batch, item in
            if let member = item.member { try batch.append(member) } else { try batch.append(item.correlation) }
        })
    }

    /// Deletes every correlation of `type` that `predicate` selects — the correlations alone, not
    /// their members (<doc:HowCadenceComputes#Categories-workouts-and-correlations>) — recording a deleted object for each.
    ///
    /// - Returns: The number of correlations deleted.
    @discardableResult
    public func deleteSamples(of type: CorrelationType, matching predicate: SamplePredicate = .all) throws -> Int {
        try deleteSamples(ofSeries: .series(type.identifier), matching: predicate)
    }

    /// The correlation types that have ever been saved, sorted by identifier.
    public var correlationTypes: [CorrelationType] {
        snapshot().types.keys.filter { SampleKind(identifier: $0) == .correlation }.sorted()
            .map(CorrelationType.init(identifier:))
    }
}

extension QuantitySampleBatch {
    /// Appends a correlation to a batch of its type's series: the member count in the value
    /// column, the members (`typeIdentifier uuid` lines) among the reserved attributes
    /// (``KindAttributes``).
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` if the correlation is of another type.
    package mutating func append(_ correlation: Correlation) throws {
        guard correlation.correlationType.identifier == quantityType.identifier else {
            throw CadenceError(.invalidArgument, "a \(correlation.correlationType) cannot join a \(quantityType) batch")
        }
        var metadata = correlation.metadata
        metadata[KindAttributes.correlationMembers] = KindAttributes.members(correlation.memberReferences)
        let index = addProvenance(Provenance(source: correlation.source, sourceVersion: correlation.sourceVersion,
                                             device: correlation.device))
        try append(start: correlation.startDate, end: correlation.endDate, value: Double(correlation.memberUUIDs.count),
                   provenanceIndex: index, uuid: correlation.uuid, creationDate: correlation.creationDate,
                   metadata: metadata)
    }
}
