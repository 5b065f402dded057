//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// What the scan needs of a predicate: its evaluation on a stored row, whether that reads the
/// detail columns, and the bounds that prune chunks. The predicate itself is a request; how it
/// selects rows belongs with the rows.
extension SamplePredicate {
    /// Evaluates the predicate on a stored row (`columns` must have detail columns when the
    /// predicate reads UUIDs or metadata).
    package func matches(columns: SampleColumns, row: Int, provenances: [Provenance], typeIdentifier: String = "",
                         canonicalUnit: HealthUnit? = nil) -> Bool {
        Self.evaluate(node, columns: columns, row: row, provenances: provenances, typeIdentifier: typeIdentifier,
                      canonicalUnit: canonicalUnit)
    }

    fileprivate static func evaluate(_ node: Node, columns: SampleColumns, row: Int, provenances: [Provenance],
                                     typeIdentifier: String, canonicalUnit: HealthUnit?) -> Bool {
        let number = Int(columns.provenance[row])
        switch node {
        case .all:
            return true
        case .date(let start, let end, let options):
            return dateMatches(start: columns.start[row], end: columns.end[row], lower: start ?? .min, upper: end ?? .max,
                               options: options)
        case .sources(let names):
            return number < provenances.count && names.contains(ExactString(provenances[number].source.name))
        case .device(let property, let values):
            guard number < provenances.count, let device = provenances[number].device else { return false }
            let value: String?
            switch property {
            case .name: value = device.name
            case .manufacturer: value = device.manufacturer
            case .model: value = device.model
            case .hardwareVersion: value = device.hardwareVersion
            case .softwareVersion: value = device.softwareVersion
            }
            return value.map { values.contains(ExactString($0)) } ?? false
        case .uuids(let uuids):
            return uuids.contains(StoredSample.uuid(of: columns, row: row, type: typeIdentifier, snapshotProvenances: provenances))
        case .metadataExists(let key):
            return columns.metadata(at: row).exactly(key) != nil
        case .metadataEquals(let key, let values):
            return columns.metadata(at: row).exactly(key).map { values.contains(ExactString($0)) } ?? false
        case .metadataCompares(let key, let comparison, let value):
            guard let text = columns.metadata(at: row).exactly(key), let number = Double(text) else { return false }
            return comparison.holds(number, value)
        case .quantity(let comparison, let quantity):
            guard let canonicalUnit, let converted = try? quantity.doubleValue(for: canonicalUnit) else { return false }
            return comparison.holds(columns.value[row], converted)
        case .values(let values):
            return values.contains(columns.value[row])
        case .workoutActivityTypes(let rawValues, let names):
            // A workout of a type Cadence does not know has 0 in the value column (no type has it).
            if rawValues.contains(columns.value[row]) { return true }
            guard !names.isEmpty, columns.value[row] == 0 else { return false }
            return workoutHead(columns, row).map { names.contains(ExactString($0.activityTypeIdentifier)) } ?? false
        case .workoutFigure(let figure, let comparison, let quantity):
            guard let head = workoutHead(columns, row), let value = figure.value(in: head),
                  let converted = try? quantity.doubleValue(for: figure.unit) else { return false }
            return comparison.holds(value, converted)
        case .and(let nodes):
            return nodes.allSatisfy { evaluate($0, columns: columns, row: row, provenances: provenances,
                                               typeIdentifier: typeIdentifier, canonicalUnit: canonicalUnit) }
        case .or(let nodes):
            return nodes.contains { evaluate($0, columns: columns, row: row, provenances: provenances,
                                             typeIdentifier: typeIdentifier, canonicalUnit: canonicalUnit) }
        case .not(let inner):
            return !evaluate(inner, columns: columns, row: row, provenances: provenances, typeIdentifier: typeIdentifier,
                             canonicalUnit: canonicalUnit)
        }
    }

    /// The head of a stored workout's attributes, or `nil` for a row that holds none.
    fileprivate static func workoutHead(_ columns: SampleColumns, _ row: Int) -> WorkoutAttributes.Head? {
        columns.metadata(at: row)[KindAttributes.workout].flatMap { try? WorkoutAttributes.head(of: $0) }
    }

    /// Whether evaluating the predicate needs the detail columns (UUIDs or metadata).
    var needsDetails: Bool {
        func visit(_ node: Node) -> Bool {
            switch node {
            case .uuids, .metadataExists, .metadataEquals, .metadataCompares, .workoutFigure: return true
            case .workoutActivityTypes(_, let names): return !names.isEmpty
            case .and(let nodes), .or(let nodes): return nodes.contains(where: visit)
            case .not(let inner): return visit(inner)
            default: return false
            }
        }
        return visit(node)
    }

    /// The predicate reduced to what chunk pruning and the fast path use: a conjunction of one
    /// date range and one source set, or `nil` when it is more complex (rows are then evaluated).
    var simpleForm: (lower: Int64, upper: Int64, options: DateOptions, sources: Set<ExactString>?)? {
        var lower = Int64.min
        var upper = Int64.max
        var options: DateOptions = []
        var sources: Set<ExactString>?
        var dateSeen = false
        func visit(_ node: Node) -> Bool {
            switch node {
            case .all: return true
            case .date(let start, let end, let dateOptions):
                guard !dateSeen else { return false }
                dateSeen = true
                lower = start ?? .min
                upper = end ?? .max
                options = dateOptions
                return true
            case .sources(let names):
                sources = sources.map { $0.intersection(names) } ?? names
                return true
            case .and(let nodes): return nodes.allSatisfy(visit)
            default: return false
            }
        }
        return visit(node) ? (lower, upper, options, sources) : nil
    }

    /// Bounds on sample start and end that every selected sample satisfies, for pruning chunks:
    /// a sample can match only if `start < startBelow` and `end >= endAtLeast`.
    var pruningBounds: (endAtLeast: Int64, startBelow: Int64) {
        func visit(_ node: Node) -> (Int64, Int64) {
            switch node {
            case .date(let start, let end, _): return (start ?? .min, end ?? .max)
            case .and(let nodes):
                return nodes.map(visit).reduce((Int64.min, Int64.max)) { (max($0.0, $1.0), min($0.1, $1.1)) }
            case .or(let nodes):
                return nodes.map(visit).reduce((Int64.max, Int64.min)) { (min($0.0, $1.0), max($0.1, $1.1)) }
            default: return (.min, .max)
            }
        }
        // Every date option implies e >= start and s < end, since s <= e.
        return visit(node)
    }
}

extension SamplePredicate.WorkoutFigure {
    /// The figure of a stored workout, or `nil` when it has none.
    func value(in head: WorkoutAttributes.Head) -> Double? {
        switch self {
        case .duration: return head.duration
        case .totalEnergyBurned: return head.totalEnergyBurned
        case .totalDistance: return head.totalDistance
        }
    }
}
