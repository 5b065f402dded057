//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Lists the correlations of one type whose members meet conditions (HealthKit's
/// `HKCorrelationQuery`).
///
///     let bigMeals = CorrelationQuery(type: .food, samplePredicates: [
///         .dietaryEnergyConsumed: .quantity(.greaterThanOrEqual, Quantity(value: 500, unit: .kilocalorie)),
///         .dietaryProtein: .all,
///     ])
///     let meals = try store.execute(bigMeals)   // each with its members, in ascending start order
///
/// A correlation is listed when
/// - ``predicate`` selects the correlation itself (its dates, source, metadata, UUID …),
/// - for each key of ``samplePredicates``, it has at least one member of that type, and
/// - each of its members whose type is a key matches that key's predicate; members of other
///   types are unconstrained.
///
/// An empty ``samplePredicates`` lets ``predicate`` alone decide. Results carry their members that
/// are still stored, as a sample query on the correlation type gives them.
public struct CorrelationQuery: Sendable {
    /// The correlation type listed.
    public var correlationType: CorrelationType
    /// Which correlations to consider, tested on the correlation object itself.
    public var predicate: SamplePredicate
    /// Conditions on the members, by member type.
    public var samplePredicates: [QuantityType: SamplePredicate]

    /// Creates a query for correlations of `type`.
    public init(type: CorrelationType, predicate: SamplePredicate = .all,
                samplePredicates: [QuantityType: SamplePredicate] = [:]) {
        self.correlationType = type
        self.predicate = predicate
        self.samplePredicates = samplePredicates
    }

    /// Whether `correlation` satisfies the member conditions, given for each key type the UUIDs
    /// of its members (among those asked about) that match the key's predicate.
    func membersMatch(_ correlation: Correlation, matching: [String: Set<UUID>]) -> Bool {
        samplePredicates.keys.allSatisfy { type in
            let members = correlation.objects(for: type)
            let matched = matching[type.identifier] ?? []
            return !members.isEmpty && members.allSatisfy { matched.contains($0.uuid) }
        }
    }
}

extension HealthStore {
    /// Runs a correlation query on the current snapshot.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` for a key of ``CorrelationQuery/samplePredicates``
    ///   that is not a quantity type; what a sample query throws for a predicate that cannot apply
    ///   to its type (``CadenceError/Code/incompatibleUnits``).
    /// - Complexity: a sample query on the correlation type, then, for each member type, one scan
    ///   of that type's samples for the members' UUIDs.
    public func execute(_ query: CorrelationQuery) throws -> [Correlation] {
        for (type, predicate) in query.samplePredicates {
            guard type.kind == .quantity else {
                throw CadenceError(.invalidArgument,
                                   "a correlation's members are quantity samples; \(type.identifier) cannot key its sample predicates")
            }
            try predicate.validate(for: type)
        }
        return try read { snapshot in
            let correlations = try Self.samples(SampleQuery(correlationType: query.correlationType,
                                                            predicate: query.predicate), snapshot: snapshot)
            guard !query.samplePredicates.isEmpty else { return correlations }
            // Each member type's predicate runs once, on the members of the candidates, in the store.
            var matching: [String: Set<UUID>] = [:]
            for (type, predicate) in query.samplePredicates {
                let members = correlations.flatMap { $0.objects(for: type).map(\.uuid) }
                guard !members.isEmpty else { continue }
                let selected = try Self.samples(SampleQuery(quantityType: type, predicate: predicate && .uuids(members)),
                                                snapshot: snapshot)
                matching[type.identifier] = Set(selected.map(\.uuid))
            }
            return correlations.filter { query.membersMatch($0, matching: matching) }
        }
    }
}
