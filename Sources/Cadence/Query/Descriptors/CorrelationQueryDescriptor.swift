//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// An async correlation query (HealthKit's `HKCorrelationQueryDescriptor`): the correlations of
/// one type whose members meet conditions per member type, as ``CorrelationQuery`` selects them.
///
///     let descriptor = CorrelationQueryDescriptor(
///         predicate: .correlation(type: .bloodPressure),
///         samplePredicates: [.bloodPressureSystolic: .quantity(.greaterThanOrEqual, Quantity(value: 140, unit: .millimeterOfMercury))])
///     let high = try await descriptor.result(for: store)
public struct CorrelationQueryDescriptor: Sendable {
    /// The correlation type, with a predicate on the correlation itself.
    public var predicate: SampleTypePredicate<Correlation>
    /// Conditions on the members, by member type.
    public var samplePredicates: [QuantityType: SamplePredicate]

    /// Creates a descriptor.
    public init(predicate: SampleTypePredicate<Correlation>, samplePredicates: [QuantityType: SamplePredicate] = [:]) {
        self.predicate = predicate
        self.samplePredicates = samplePredicates
    }

    /// The equivalent synchronous query.
    public var query: CorrelationQuery {
        CorrelationQuery(type: CorrelationType(identifier: predicate.typeIdentifier), predicate: predicate.predicate,
                         samplePredicates: samplePredicates)
    }

    /// Runs the query on the store's current snapshot, off Swift's cooperative pool.
    ///
    /// - Throws: What ``HealthStore/execute(_:)-(CorrelationQuery)`` throws.
    public func result(for store: HealthStore) async throws -> [Correlation] {
        let query = query
        return try await QueryExecutionQueue.run { try store.execute(query) }
    }
}
