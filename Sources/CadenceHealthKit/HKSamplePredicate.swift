//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// A sample type and a predicate on it, for the query descriptors (HealthKit's `HKSamplePredicate`).
///
///     let descriptor = HKSampleQueryDescriptor(predicates: [.categorySample(type: sleepType)],
///                                              sortDescriptors: [SortDescriptor(\.endDate, order: .reverse)])
public struct HKSamplePredicate<Sample: HKSample>: @unchecked Sendable {
    // The NSPredicate is immutable once made: safe to share across threads.

    /// The type to read.
    public let sampleType: HKSampleType
    /// Which of its samples; `nil` for all.
    public let nsPredicate: NSPredicate?

    init(sampleType: HKSampleType, predicate: NSPredicate?) {
        self.sampleType = sampleType
        nsPredicate = predicate
    }

    /// The Cadence type and predicate.
    var cadence: (series: SeriesType, predicate: SamplePredicate) {
        get throws { (sampleType.series, try SamplePredicate(translating: nsPredicate)) }
    }

    /// The Cadence predicate of a quantity type, for the statistics descriptors.
    ///
    /// - Throws: `CadenceError` (`invalidQuery`) when the type is not a quantity type.
    var quantities: SampleTypePredicate<QuantitySample> {
        get throws {
            guard case .quantity(let type) = sampleType.series else {
                throw CadenceError(.invalidQuery, "statistics need a quantity type, not \(sampleType.identifier)")
            }
            return .quantitySample(type: type, predicate: try SamplePredicate(translating: nsPredicate))
        }
    }
}

extension HKSamplePredicate where Sample == HKQuantitySample {
    /// Quantity samples of `type` that `predicate` selects.
    public static func quantitySample(type: HKQuantityType, predicate: NSPredicate? = nil) -> Self {
        Self(sampleType: type, predicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKCategorySample {
    /// Category samples of `type` that `predicate` selects.
    public static func categorySample(type: HKCategoryType, predicate: NSPredicate? = nil) -> Self {
        Self(sampleType: type, predicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKCorrelation {
    /// Correlations of `type` that `predicate` selects.
    public static func correlation(type: HKCorrelationType, predicate: NSPredicate? = nil) -> Self {
        Self(sampleType: type, predicate: predicate)
    }
}

extension HKSamplePredicate where Sample == HKSample {
    /// Samples of any `type` that `predicate` selects.
    public static func sample(type: HKSampleType, predicate: NSPredicate? = nil) -> Self {
        Self(sampleType: type, predicate: predicate)
    }
}

extension HealthStore {
    /// The samples of `parts` (types with predicates), merged in `sort` order, at most `limit`:
    /// Cadence's `SampleQuery` for one part, its `MergedSampleQuery` for several of one kind.
    ///
    /// - Throws: `CadenceError` (`invalidQuery`) for parts of different kinds (quantity,
    ///   category, correlation), which Cadence does not merge.
    func healthKitSamples(_ parts: [(series: SeriesType, predicate: SamplePredicate)], limit: Int,
                          sort: [SampleSortDescriptor]) throws -> [HKSample] {
        var quantities: [SampleQuery<QuantitySample>] = []
        var categories: [SampleQuery<CategorySample>] = []
        var correlations: [SampleQuery<Correlation>] = []
        var others: [(series: SeriesType, predicate: SamplePredicate)] = []
        for part in parts {
            switch part.series {
            case .quantity(let type):
                quantities.append(SampleQuery(quantityType: type, predicate: part.predicate, limit: limit, sortDescriptors: sort))
            case .category(let type):
                categories.append(SampleQuery(categoryType: type, predicate: part.predicate, limit: limit, sortDescriptors: sort))
            case .correlation(let type):
                correlations.append(SampleQuery(correlationType: type, predicate: part.predicate, limit: limit,
                                                sortDescriptors: sort))
            case .document, .clinical:
                others.append(part)
            }
        }
        if let other = others.first {
            guard parts.count == 1 else {
                throw CadenceError(.invalidQuery, "documents and clinical records are read one type at a time")
            }
            switch other.series {
            case .clinical(let type):
                return try execute(SampleQuery(clinicalType: type, predicate: other.predicate, limit: limit,
                                               sortDescriptors: sort, includingResourceData: true)).map(HKClinicalRecord.init)
            default:
                return try execute(SampleQuery(documentsMatching: other.predicate, limit: limit, sortDescriptors: sort,
                                               includingDocumentData: true)).map(HKCDADocumentSample.init)
            }
        }
        switch (quantities.count, categories.count, correlations.count) {
        case (1, 0, 0): return try execute(quantities[0]).map(HKQuantitySample.init)
        case (0, 1, 0): return try execute(categories[0]).map(HKCategorySample.init)
        case (0, 0, 1): return try execute(correlations[0]).map(HKCorrelation.init)
        case (_, 0, 0):
            return try execute(MergedSampleQuery(quantities, limit: limit, sortDescriptors: sort)).map(HKQuantitySample.init)
        case (0, _, 0):
            return try execute(MergedSampleQuery(categories, limit: limit, sortDescriptors: sort)).map(HKCategorySample.init)
        case (0, 0, _):
            return try execute(MergedSampleQuery(correlations, limit: limit, sortDescriptors: sort)).map(HKCorrelation.init)
        default:
            throw CadenceError(.invalidQuery, "the predicates of one query must read types of one kind (quantity, category or correlation)")
        }
    }
}
