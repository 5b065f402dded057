//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Lists samples (HealthKit's `HKSampleQuery`, SPEC §8).
///
///     let latest = SampleQuery(quantityType: .heartRate, limit: 10, sortDescriptors: [.endDate(ascending: false)])
///     let samples = try store.execute(latest)
///
/// Without sort descriptors the samples come in ascending start order **[Cadence rule]**; a limit of
/// 0 means no limit.
public struct SampleQuery: Sendable {
    /// A sort key.
    public enum SortDescriptor: Sendable, Hashable {
        case startDate(ascending: Bool)
        case endDate(ascending: Bool)
    }

    /// The type to list.
    public var quantityType: QuantityType
    /// Which samples to list.
    public var predicate: SamplePredicate
    /// The most samples to return; 0 is no limit.
    public var limit: Int
    /// The order, most significant first.
    public var sortDescriptors: [SortDescriptor]

    /// Creates a query.
    public init(quantityType: QuantityType, predicate: SamplePredicate = .all, limit: Int = 0,
                sortDescriptors: [SortDescriptor] = []) {
        self.quantityType = quantityType
        self.predicate = predicate
        self.limit = max(0, limit)
        self.sortDescriptors = sortDescriptors
    }
}

extension HealthStore {
    /// Runs a sample query on the current snapshot.
    ///
    /// - Complexity: O(*n* log *n*) over the selected samples of the chunks the predicate does not prune.
    public func execute(_ query: SampleQuery) throws -> [QuantitySample] {
        try read { try Self.samples(query, snapshot: $0) }
    }

    private static func samples(_ query: SampleQuery, snapshot: StoreSnapshot) throws -> [QuantitySample] {
        try query.predicate.validate(for: query.quantityType)
        guard let type = snapshot.types[query.quantityType.identifier] else { return [] }
        var rows: [(start: Int64, end: Int64, sequence: Int64, sample: QuantitySample)] = []
        let plan = ScanPlan(listing: query.predicate, of: type, provenances: snapshot.provenances)
        let identity = SampleIdentity(type: type.type.identifier, provenances: snapshot.provenances)
        try type.forEachSelectedRow(plan) { columns, row in
            guard let sample = StoredSample.sample(of: columns, row: row, type: type.type, provenances: snapshot.provenances,
                                                   identity: identity)
            else { return }
            rows.append((columns.start[row], columns.end[row], columns.sequence[row], sample))
        }
        let descriptors = query.sortDescriptors.isEmpty ? [.startDate(ascending: true)] : query.sortDescriptors
        rows.sort { left, right in
            for descriptor in descriptors {
                switch descriptor {
                case .startDate(let ascending) where left.start != right.start:
                    return ascending ? left.start < right.start : left.start > right.start
                case .endDate(let ascending) where left.end != right.end:
                    return ascending ? left.end < right.end : left.end > right.end
                default: continue
                }
            }
            return left.sequence < right.sequence
        }
        let selected = query.limit > 0 ? rows.prefix(query.limit) : rows[...]
        return selected.map(\.sample)
    }
}
