//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// An async sample query over one or more types (HealthKit's `HKSampleQueryDescriptor`).
///
///     let descriptor = SampleQueryDescriptor(
///         predicates: [.quantitySample(type: .heartRate)],
///         sortDescriptors: [SortDescriptor(\.endDate, order: .reverse)],
///         limit: 10)
///     let latest = try await descriptor.result(for: store)
///
/// Each type selects what its predicate selects; the samples of all types are merged in the
/// order of ``sortDescriptors`` (ascending start without any; samples equal on every key in the
/// order they were saved), then cut to ``limit``.
public struct SampleQueryDescriptor<Sample: Sendable>: Sendable {
    /// The types read, each with its predicate.
    public var predicates: [SampleTypePredicate<Sample>]
    /// The order, most significant first.
    public var sortDescriptors: [SortDescriptor<Sample>]
    /// The most samples to return; `nil` (or 0) for no limit.
    public var limit: Int?

    /// Creates a descriptor.
    public init(predicates: [SampleTypePredicate<Sample>], sortDescriptors: [SortDescriptor<Sample>] = [],
                limit: Int? = nil) {
        self.predicates = predicates
        self.sortDescriptors = sortDescriptors
        self.limit = limit
    }

    /// The equivalent synchronous query.
    public var query: MergedSampleQuery<Sample> {
        MergedSampleQuery(predicates.map(\.sampleQuery), limit: limit ?? 0, sortDescriptors: sortDescriptors)
    }

    /// Runs the query on the store's current snapshot, off Swift's cooperative pool.
    ///
    /// - Throws: What ``HealthStore/execute(_:)-(MergedSampleQuery<Sample>)`` throws.
    public func result(for store: HealthStore) async throws -> [Sample] {
        let query = query
        return try await QueryExecutionQueue.run { try store.execute(query) }
    }
}
