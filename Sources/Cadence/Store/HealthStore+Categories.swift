//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

extension HealthStore {
    /// Saves category samples in one transaction; a sample whose UUID is already stored is
    /// skipped and counted as a duplicate (<doc:HowCadenceComputes#Identity>). Category samples are stored like quantities:
    /// one series per type, under the same log, change sequence and deletion rules (<doc:HowCadenceComputes#Categories-workouts-and-correlations>).
    ///
    /// - Throws: What ``save(_:)-([QuantitySample])`` throws.
    @discardableResult
    public func save(_ samples: [CategorySample]) throws -> SaveSummary {
        try save(QuantitySampleBatch.grouping(samples, series: { .series($0.categoryType.identifier) }) { try $0.append($1) })
    }

    /// The category types that have ever been saved, sorted by identifier.
    public var categoryTypes: [CategoryType] {
        snapshot().types.keys.filter { SampleKind(identifier: $0) == .category }.sorted().map(CategoryType.init(identifier:))
    }

    /// Deletes every sample of the category `type` that `predicate` selects, recording a deleted
    /// object for each.
    ///
    /// - Returns: The number of samples deleted.
    @discardableResult
    public func deleteSamples(of type: CategoryType, matching predicate: SamplePredicate = .all) throws -> Int {
        try deleteSamples(ofSeries: .series(type.identifier), matching: predicate)
    }

    /// Sets one category type's source priority list (<doc:HowCadenceComputes#Merging-sources>, <doc:HowCadenceComputes#Category-durations>); `nil` removes it.
    public func setSourcePriority(_ names: [String]?, for type: CategoryType) throws {
        try setSourcePriority(names, for: .series(type.identifier))
    }
}

extension QuantitySampleBatch {
    /// `items` in one batch per storage series, in order of first appearance, each appended
    /// with `append`.
    package static func grouping<Item>(_ items: [Item], series: (Item) -> QuantityType,
                                       append: (inout QuantitySampleBatch, Item) throws -> Void) rethrows
        -> [QuantitySampleBatch]
    {
        var batches: [QuantitySampleBatch] = []
        var indexes: [String: Int] = [:]
        for item in items {
            let type = series(item)
            let index = indexes[type.identifier] ?? batches.count
            if index == batches.count {
                batches.append(QuantitySampleBatch(type: type))
                indexes[type.identifier] = index
            }
            try append(&batches[index], item)
        }
        return batches
    }

    /// Appends a category sample to a batch of its type's series: the raw value in the value column,
    /// a value name the table does not hold among the reserved attributes (``KindAttributes``).
    ///
    /// - Parameter keepingUUID: Whether the row keeps the sample's UUID; without it (an imported
    ///   record that has none), its UUID is derived from its attributes (<doc:HowCadenceComputes#Identity>).
    /// - Throws: ``CadenceError/Code/invalidArgument`` if the sample is of another type.
    package mutating func append(_ sample: CategorySample, keepingUUID: Bool = true) throws {
        guard sample.categoryType.identifier == quantityType.identifier else {
            throw CadenceError(.invalidArgument, "a \(sample.categoryType) sample cannot join a \(quantityType) batch")
        }
        var metadata = sample.metadata
        if sample.categoryType.valueName(sample.value) != sample.valueName && Int(sample.valueName) != sample.value {
            metadata[KindAttributes.categoryValueName] = sample.valueName
        }
        let index = addProvenance(Provenance(source: sample.source, sourceVersion: sample.sourceVersion, device: sample.device))
        try append(start: sample.startDate, end: sample.endDate, value: Double(sample.value), provenanceIndex: index,
                   uuid: keepingUUID ? sample.uuid : nil, creationDate: sample.creationDate, metadata: metadata)
    }
}
