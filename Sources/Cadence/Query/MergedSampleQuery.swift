//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Lists samples of several types at once, each type with its own predicate, merged into one sort
/// order under one limit (HealthKit's `HKSampleQueryDescriptor` with several predicates, <doc:HowCadenceComputes#Sample-queries>).
///
///     let walking = MergedSampleQuery([
///         SampleQuery(quantityType: .stepCount, predicate: today),
///         SampleQuery(quantityType: .distanceWalkingRunning, predicate: today),
///     ], limit: 20, sortDescriptors: [.endDate(ascending: false)])
///     let latest = try store.execute(walking)   // the 20 latest of either type
///
/// Each part selects as it would alone — its type, its predicate, and its own limit in its own
/// order — and the merged query orders what the parts selected and applies its limit. Samples equal
/// on every sort key come in the order they were saved, whatever their type.
public struct MergedSampleQuery<Sample: Sendable>: Sendable {
    /// The types listed, each with its predicate (and, optionally, a limit of its own).
    public var parts: [SampleQuery<Sample>]
    /// The most samples to return, of all parts together; 0 is no limit.
    public var limit: Int
    /// The merged order, most significant first; ascending start without any.
    public var sortDescriptors: [SampleSortDescriptor]
    /// A merged order by any properties of the samples; when not empty it is used instead of
    /// ``sortDescriptors``.
    public var keyPathSortDescriptors: [SortDescriptor<Sample>]

    /// Creates a query over `parts`.
    public init(_ parts: [SampleQuery<Sample>], limit: Int = 0, sortDescriptors: [SampleSortDescriptor] = []) {
        self.parts = parts
        self.limit = max(0, limit)
        self.sortDescriptors = sortDescriptors
        self.keyPathSortDescriptors = []
    }

    /// Creates a query over `parts`, merged in the order of key paths such as
    /// `[SortDescriptor(\.endDate, order: .reverse)]`.
    public init(_ parts: [SampleQuery<Sample>], limit: Int = 0, sortDescriptors: [SortDescriptor<Sample>]) {
        self.init(parts, limit: limit)
        self.keyPathSortDescriptors = sortDescriptors
    }
}

extension HealthStore {
    /// Runs a query over several types on one snapshot.
    ///
    /// - Throws: What a part's own query throws (a predicate that cannot apply to its type).
    /// - Complexity: O(*n* log *n*) over the samples the parts select.
    public func execute<Sample>(_ query: MergedSampleQuery<Sample>) throws -> [Sample] {
        try read { snapshot in
            let listings = try query.parts.map { try Self.listing($0, snapshot: snapshot) }
            var merged: [(part: Int, row: ListedRow)] = listings.enumerated().flatMap { part, listing in
                listing.rows.map { (part, $0) }
            }
            if query.keyPathSortDescriptors.isEmpty {
                let order = ListedRow.order(query.sortDescriptors)
                merged.sort { order($0.row, $1.row) }
            } else {
                merged.sort(by: ListedRow.order(query.keyPathSortDescriptors,
                                                sample: { listings[$0.part].samples[$0.row.index] },
                                                sequence: { $0.row.sequence }))
            }
            if query.limit > 0 { merged = Array(merged.prefix(query.limit)) }
            // Each part completes its own samples (a correlation's members), then they go back in place.
            var selected = [[Int]](repeating: [], count: listings.count)
            for entry in merged { selected[entry.part].append(entry.row.index) }
            let completed = try selected.indices.map { part in
                try listings[part].completed(selected[part], by: query.parts[part].reading, snapshot: snapshot)
            }
            var next = Array(repeating: 0, count: listings.count)
            return merged.map { entry in
                defer { next[entry.part] += 1 }
                return completed[entry.part][next[entry.part]]
            }
        }
    }
}
