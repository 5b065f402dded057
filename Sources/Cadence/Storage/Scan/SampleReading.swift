//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// How the sample and anchored queries of one kind turn a type's stored rows into public samples:
/// the series they read, the check of a predicate against the type, and the row-to-sample step,
/// prepared once per query on its snapshot.
package struct SampleReading<Sample>: Sendable {
    /// A prepared row reader: the public sample for a row, or `nil` for a row it cannot show.
    package typealias RowReader = (SampleColumns, Int) -> Sample?

    /// The storage series (full type identifier).
    package let identifier: String
    /// Every series the samples are read from: ``identifier``, and for a quantity type the series
    /// of its series samples' owners (``QuantitySeriesStorage``).
    package var identifiers: [String]
    /// Throws when the predicate cannot apply to the type.
    package let validate: @Sendable (SamplePredicate) throws -> Void
    /// Prepares the row reader for a snapshot and the type's storage.
    package let prepare: @Sendable (StoreSnapshot, TypeSnapshot) -> RowReader
    /// Completes the samples a listing kept, once cut to its limit (a correlation's members, a
    /// workout's routes), given the row each was read from; `nil` when nothing is added.
    package var complete: Completion?

    /// Completes listed samples; the stored rows are the samples' own, one each, in order.
    package typealias Completion = @Sendable (_ samples: [Sample], _ rows: [StoredRow], StoreSnapshot) throws -> [Sample]

    package init(identifier: String, validate: @escaping @Sendable (SamplePredicate) throws -> Void = { _ in },
                 prepare: @escaping @Sendable (StoreSnapshot, TypeSnapshot) -> RowReader,
                 complete: Completion? = nil) {
        self.identifier = identifier
        identifiers = [identifier]
        self.validate = validate
        self.prepare = prepare
        self.complete = complete
    }
}

extension SampleReading where Sample == QuantitySample {
    /// Quantity samples of `type`: its ordinary samples and its series samples' owners, never
    /// their entries (<doc:HowCadenceComputes#Quantity-series>).
    package static func quantities(_ type: QuantityType) -> SampleReading {
        let owners = QuantitySeriesStorage.ownerSeries(of: type).identifier
        var reading = SampleReading(identifier: type.identifier, validate: { try $0.validate(for: type) }) { snapshot, stored in
            let identity = SampleIdentity(type: stored.type.identifier, provenances: snapshot.provenances)
            var provenances = RestoredProvenances(snapshot.provenances)
            if stored.type.identifier == owners {
                let ownedType = snapshot.types[type.identifier]?.type ?? type
                return { columns, row in
                    QuantitySeriesStorage.owner(of: columns, row: row, type: ownedType, provenances: &provenances,
                                                identity: identity)
                }
            }
            // Entries are saved and deleted with their owners: without owners, no row is an entry,
            // and no row's metadata need be searched for an owner link.
            guard snapshot.types[owners] != nil else {
                return { columns, row in
                    StoredSample.sample(of: columns, row: row, type: stored.type, provenances: &provenances,
                                        identity: identity)
                }
            }
            return { columns, row in
                guard QuantitySeriesStorage.owner(ofEntry: columns, row: row) == nil else { return nil }
                return StoredSample.sample(of: columns, row: row, type: stored.type, provenances: &provenances,
                                           identity: identity)
            }
        }
        reading.identifiers.append(owners)
        return reading
    }
}

extension SampleReading where Sample == CategorySample {
    /// Category samples of `type`.
    package static func categories(_ type: CategoryType) -> SampleReading {
        SampleReading(identifier: type.identifier, validate: { try $0.validate(for: .series(type.identifier)) }) {
            snapshot, stored in
            let identity = SampleIdentity(type: stored.type.identifier, provenances: snapshot.provenances)
            var provenances = RestoredProvenances(snapshot.provenances)
            return { columns, row in
                StoredSample.categorySample(of: columns, row: row, type: type, provenances: &provenances,
                                            identity: identity)
            }
        }
    }
}

extension SampleReading where Sample == Correlation {
    /// Correlations of `type`, each completed with its members that are still stored.
    package static func correlations(_ type: CorrelationType) -> SampleReading {
        SampleReading(identifier: type.identifier, validate: { try $0.validate(for: .series(type.identifier)) },
                      prepare: { snapshot, stored in
            let identity = SampleIdentity(type: stored.type.identifier, provenances: snapshot.provenances)
            var provenances = RestoredProvenances(snapshot.provenances)
            return { columns, row in
                StoredSample.correlation(of: columns, row: row, type: type, provenances: &provenances,
                                         identity: identity)
            }
        }, complete: { correlations, _, snapshot in
            // The members, read type by type through a UUID listing.
            var wanted: [String: Set<UUID>] = [:]
            for correlation in correlations {
                for (type, uuid) in correlation.memberReferences { wanted[type, default: []].insert(uuid) }
            }
            var members: [UUID: QuantitySample] = [:]
            for (identifier, uuids) in wanted {
                guard let stored = snapshot.types[identifier] else { continue }
                let reader = SampleReading<QuantitySample>.quantities(stored.type).prepare(snapshot, stored)
                let plan = ScanPlan(listing: .uuids(uuids), of: stored, provenances: snapshot.provenances)
                try stored.forEachSelectedRow(plan) { columns, row in
                    if let sample = reader(columns, row) { members[sample.uuid] = sample }
                }
            }
            return correlations.map { correlation in
                var completed = correlation
                // A deleted member has left its correlations (How Cadence computes: Categories, workouts and correlations): its UUID goes with it.
                completed.objects = correlation.memberUUIDs.compactMap { members[$0] }
                completed.memberUUIDs = completed.objects.map(\.uuid)
                completed.memberTypeIdentifiers = completed.objects.map(\.quantityType.identifier)
                return completed
            }
        })
    }
}

extension SampleReading where Sample == Workout {
    /// Workouts, with their events, statistics and activities (workout predicates:
    /// ``SamplePredicate/workoutActivityType(_:)`` and the comparisons beside it); their routes
    /// only when `includingRoutes`, read for the listed workouts once the listing is cut to its
    /// limit, so that a listing without them reads no route (<doc:HowCadenceComputes#Categories-workouts-and-correlations>).
    package static func workouts(includingRoutes: Bool) -> SampleReading {
        SampleReading(identifier: Workout.typeIdentifier,
                      validate: { try $0.validate(for: .series(Workout.typeIdentifier)) },
                      prepare: { snapshot, stored in
            let identity = SampleIdentity(type: stored.type.identifier, provenances: snapshot.provenances)
            var provenances = RestoredProvenances(snapshot.provenances)
            return { columns, row in
                StoredSample.workout(of: columns, row: row, provenances: &provenances, identity: identity)
            }
        }, complete: includingRoutes ? withRoutes : nil)
    }

    /// `workouts` with their routes, each read from the payload of the row the listing found it
    /// in: no chunk is looked up or decoded again, and only the payload blocks holding the routes
    /// are decompressed.
    private static func withRoutes(_ workouts: [Workout], rows: [StoredRow], snapshot _: StoreSnapshot) throws -> [Workout] {
        try zip(workouts, rows).map { workout, stored in
            var completed = workout
            completed.routes = try StoredSample.workoutRoutes(of: stored.columns, row: stored.row)
            return completed
        }
    }
}

/// The row a listed sample was read from: the columns the listing decoded (a chunk's payloads
/// left in its file until asked for) and the row there. A listing keeps one per sample for a
/// reading that completes its samples, so that completing reads the row where it lies.
package struct StoredRow: Sendable {
    /// The columns of the portion the row was read from (shared with its other rows, not copied).
    package var columns: SampleColumns
    /// The row in ``columns``.
    package var row: Int

    package init(columns: SampleColumns, row: Int) {
        self.columns = columns
        self.row = row
    }
}

extension StoredSample {
    /// What a public sample of any kind but a quantity takes from a stored row.
    struct RowParts {
        var uuid: UUID
        var provenance: Provenance
        var start: Date
        var end: Date
        var creation: Date?
        /// The public metadata, and the reserved attributes apart (``KindAttributes``).
        var metadata: [String: String]
        var attributes: [String: String]

        init?(_ columns: SampleColumns, _ row: Int, provenances: inout RestoredProvenances, identity: SampleIdentity) {
            guard let provenance = provenances.provenance(of: columns, row: row) else { return nil }
            self.provenance = provenance
            (metadata, attributes) = KindAttributes.split(columns.metadata(at: row))
            uuid = identity.uuid(of: columns, row: row, metadataDigests: nil)
            start = Date(timestamp: columns.start[row])
            end = Date(timestamp: columns.end[row])
            creation = columns.creation(at: row).map { Date(timestamp: $0) }
        }
    }

    /// A public category sample for a stored row: the value column holds the raw value, a value
    /// name the table does not hold is among the reserved attributes (``KindAttributes``).
    package static func categorySample(of columns: SampleColumns, row: Int, type: CategoryType,
                                       provenances: inout RestoredProvenances, identity: SampleIdentity) -> CategorySample? {
        guard let parts = RowParts(columns, row, provenances: &provenances, identity: identity) else { return nil }
        let provenance = parts.provenance
        if let name = parts.attributes[KindAttributes.categoryValueName] {
            return try? CategorySample(uuid: parts.uuid, type: type, valueName: name, start: parts.start, end: parts.end,
                                       source: provenance.source, sourceVersion: provenance.sourceVersion,
                                       device: provenance.device, creationDate: parts.creation, metadata: parts.metadata)
        }
        return try? CategorySample(uuid: parts.uuid, type: type, value: Int(columns.value[row]), start: parts.start,
                                   end: parts.end, source: provenance.source, sourceVersion: provenance.sourceVersion,
                                   device: provenance.device, creationDate: parts.creation, metadata: parts.metadata)
    }

    /// A public correlation for a stored row, with its member references (the members themselves
    /// are read after the listing, see ``SampleReading/correlations(_:)``).
    package static func correlation(of columns: SampleColumns, row: Int, type: CorrelationType,
                                    provenances: inout RestoredProvenances, identity: SampleIdentity) -> Correlation? {
        guard let parts = RowParts(columns, row, provenances: &provenances, identity: identity),
              var correlation = try? Correlation(
                uuid: parts.uuid, type: type, start: parts.start, end: parts.end, source: parts.provenance.source,
                sourceVersion: parts.provenance.sourceVersion, device: parts.provenance.device,
                creationDate: parts.creation, metadata: parts.metadata, objects: [])
        else { return nil }
        let members = KindAttributes.members(from: parts.attributes[KindAttributes.correlationMembers] ?? "")
        correlation.memberUUIDs = members.map(\.uuid)
        correlation.memberTypeIdentifiers = members.map(\.type)
        return correlation
    }

    /// A public workout for a stored row, without its routes: times, provenance and metadata from
    /// the common columns, the rest from its reserved attributes (``WorkoutAttributes``); `nil`
    /// when they cannot be read.
    package static func workout(of columns: SampleColumns, row: Int, provenances: inout RestoredProvenances,
                                identity: SampleIdentity) -> Workout? {
        guard let parts = RowParts(columns, row, provenances: &provenances, identity: identity),
              let attributes = parts.attributes[KindAttributes.workout],
              var workout = try? Workout(uuid: parts.uuid, activityType: .other, start: parts.start, end: parts.end,
                                         source: parts.provenance.source, sourceVersion: parts.provenance.sourceVersion,
                                         device: parts.provenance.device, creationDate: parts.creation,
                                         metadata: parts.metadata)
        else { return nil }
        do { try WorkoutAttributes.decode(attributes, into: &workout) } catch { return nil }
        return workout
    }

    /// A stored workout's routes: its row's payload, or, for a row written before routes had one
    /// (format version 4), its reserved attributes.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming the chunk file when the payload is damaged.
    package static func workoutRoutes(of columns: SampleColumns, row: Int) throws -> [WorkoutRoute] {
        if let payload = try columns.payload(at: row) {
            return try WorkoutAttributes.decodeRoutes(payload, path: columns.payloadSource?.path ?? "workout routes")
        }
        guard let text = KindAttributes.split(columns.metadata(at: row)).attributes[KindAttributes.workout] else { return [] }
        return try WorkoutAttributes.routes(inText: text)
    }
}
