//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Which samples a query selects (<doc:HowCadenceComputes#Predicates>): a small tree of conditions.
///
///     let predicate = SamplePredicate.samples(start: monday, end: tuesday, options: .strictStartDate)
///         && .sources(named: ["Jane’s Apple Watch"])
///
/// A predicate selects samples; it never cuts them (a selected sample contributes its prorated
/// share to intervals outside the predicate's dates, <doc:HowCadenceComputes#Intervals-and-contributions>).
public struct SamplePredicate: Sendable, CustomStringConvertible {
    /// How a date predicate treats samples that cross its bounds (HealthKit's `HKQueryOptions`).
    public struct DateOptions: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// The sample must start at or after the predicate's start.
        public static let strictStartDate = DateOptions(rawValue: 1)
        /// The sample must end before the predicate's end.
        public static let strictEndDate = DateOptions(rawValue: 2)
    }

    /// A comparison operator.
    public enum Comparison: String, Sendable, Hashable {
        case lessThan = "<", lessThanOrEqual = "<=", equal = "==", notEqual = "!=", greaterThanOrEqual = ">=", greaterThan = ">"

        func holds<T: Comparable>(_ left: T, _ right: T) -> Bool {
            switch self {
            case .lessThan: return left < right
            case .lessThanOrEqual: return left <= right
            case .equal: return left == right
            case .notEqual: return left != right
            case .greaterThanOrEqual: return left >= right
            case .greaterThan: return left > right
            }
        }
    }

    /// A device property a predicate can test.
    public enum DeviceProperty: String, Sendable, Hashable {
        case name, manufacturer, model, hardwareVersion, softwareVersion
    }

    indirect enum Node: Sendable {
        case all
        case date(start: Int64?, end: Int64?, options: DateOptions)
        case sources(Set<ExactString>)
        case device(DeviceProperty, Set<ExactString>)
        case uuids(Set<UUID>)
        case metadataExists(String)
        case metadataEquals(String, Set<ExactString>)
        case metadataCompares(String, Comparison, Double)
        case quantity(Comparison, Quantity)
        case values(Set<Double>)
        /// Workouts of these activity types: known ones by the raw value in the value column,
        /// others by the name among the workout's attributes.
        case workoutActivityTypes(rawValues: Set<Double>, names: Set<ExactString>)
        case workoutFigure(WorkoutFigure, Comparison, Quantity)
        case and([Node])
        case or([Node])
        case not(Node)
    }

    /// A workout's figure that a predicate compares, in the unit workouts keep it in.
    enum WorkoutFigure: String, Sendable {
        case duration, totalEnergyBurned, totalDistance

        /// The unit a ``Workout`` keeps the figure in.
        var unit: HealthUnit {
            switch self {
            case .duration: return .second
            case .totalEnergyBurned: return .kilocalorie
            case .totalDistance: return .meter
            }
        }

        /// The figure of a stored workout, or `nil` when it has none.
        func value(in head: WorkoutAttributes.Head) -> Double? {
            switch self {
            case .duration: return head.duration
            case .totalEnergyBurned: return head.totalEnergyBurned
            case .totalDistance: return head.totalDistance
            }
        }
    }

    let node: Node

    init(_ node: Node) { self.node = node }

    /// Every sample.
    public static let all = SamplePredicate(.all)

    /// Samples by date (HealthKit's `predicateForSamples(withStart:end:options:)`); `nil` bounds are open.
    ///
    /// | options | a sample [s, e] matches when |
    /// |---|---|
    /// | none | `e >= start && s < end` |
    /// | strictStartDate | `s >= start && s < end` |
    /// | strictEndDate | `e >= start && e < end` |
    /// | both | `s >= start && e < end` |
    public static func samples(start: Date?, end: Date?, options: DateOptions = []) -> SamplePredicate {
        SamplePredicate(.date(start: start?.timestamp, end: end?.timestamp, options: options))
    }

    /// Samples written by one of these sources (by name).
    public static func sources(named names: some Sequence<String>) -> SamplePredicate {
        SamplePredicate(.sources(Set(names.map(ExactString.init))))
    }

    /// Samples whose device has one of these values for `property`.
    public static func devices(_ property: DeviceProperty, in values: some Sequence<String>) -> SamplePredicate {
        SamplePredicate(.device(property, Set(values.map(ExactString.init))))
    }

    /// Samples with one of these UUIDs.
    public static func uuids(_ uuids: some Sequence<UUID>) -> SamplePredicate { SamplePredicate(.uuids(Set(uuids))) }

    /// Samples whose metadata has `key`.
    public static func metadata(keyExists key: String) -> SamplePredicate { SamplePredicate(.metadataExists(key)) }

    /// Samples whose metadata value for `key` is one of `values`.
    public static func metadata(key: String, in values: some Sequence<String>) -> SamplePredicate {
        SamplePredicate(.metadataEquals(key, Set(values.map(ExactString.init))))
    }

    /// Samples whose metadata value for `key`, read as a number, compares to `value`.
    public static func metadata(key: String, _ comparison: Comparison, _ value: Double) -> SamplePredicate {
        SamplePredicate(.metadataCompares(key, comparison, value))
    }

    /// Samples whose quantity compares to `quantity` (converted to the sample's unit when evaluated).
    public static func quantity(_ comparison: Comparison, _ quantity: Quantity) -> SamplePredicate {
        SamplePredicate(.quantity(comparison, quantity))
    }

    /// Category samples whose raw value is `value` (HealthKit's `predicateForCategorySamples(with:value:)`).
    public static func categoryValue(equalTo value: Int) -> SamplePredicate { categoryValue(in: [value]) }

    /// Category samples whose raw value is one of `values` (HealthKit's
    /// `predicateForCategorySamples(equalToValues:)`).
    public static func categoryValue(in values: some Sequence<Int>) -> SamplePredicate {
        SamplePredicate(.values(Set(values.map(Double.init))))
    }

    /// Workouts of `activityType` (HealthKit's `predicateForWorkouts(with:)`).
    public static func workoutActivityType(_ activityType: WorkoutActivityType) -> SamplePredicate {
        workoutActivityType(in: [activityType])
    }

    /// Workouts of one of these activity types.
    public static func workoutActivityType(in activityTypes: some Sequence<WorkoutActivityType>) -> SamplePredicate {
        var rawValues: Set<Double> = []
        var names: Set<ExactString> = []
        for type in activityTypes {
            if let rawValue = type.rawValue { rawValues.insert(Double(rawValue)) } else { names.insert(ExactString(type.identifier)) }
        }
        return SamplePredicate(.workoutActivityTypes(rawValues: rawValues, names: names))
    }

    /// Workouts whose active time, in seconds, compares to `duration` (HealthKit's
    /// `predicateForWorkouts(with:duration:)`).
    public static func workoutDuration(_ comparison: Comparison, _ duration: TimeInterval) -> SamplePredicate {
        SamplePredicate(.workoutFigure(.duration, comparison, Quantity(value: duration, unit: .second)))
    }

    /// Workouts whose total energy burned compares to `energy`, an energy in any unit (HealthKit's
    /// `predicateForWorkouts(with:totalEnergyBurned:)`). A workout without the total matches no
    /// comparison.
    public static func workoutTotalEnergyBurned(_ comparison: Comparison, _ energy: Quantity) -> SamplePredicate {
        SamplePredicate(.workoutFigure(.totalEnergyBurned, comparison, energy))
    }

    /// Workouts whose total distance compares to `distance`, a length in any unit (HealthKit's
    /// `predicateForWorkouts(with:totalDistance:)`). A workout without the total matches no
    /// comparison.
    public static func workoutTotalDistance(_ comparison: Comparison, _ distance: Quantity) -> SamplePredicate {
        SamplePredicate(.workoutFigure(.totalDistance, comparison, distance))
    }

    /// Both predicates.
    public static func && (left: SamplePredicate, right: SamplePredicate) -> SamplePredicate {
        SamplePredicate(.and([left.node, right.node]))
    }

    /// Either predicate.
    public static func || (left: SamplePredicate, right: SamplePredicate) -> SamplePredicate {
        SamplePredicate(.or([left.node, right.node]))
    }

    /// The negation.
    public static prefix func ! (predicate: SamplePredicate) -> SamplePredicate { SamplePredicate(.not(predicate.node)) }

    public var description: String { "\(node)" }
}

extension SamplePredicate {
    /// Whether a date predicate with these bounds and options selects the sample [s, e].
    @inline(__always)
    static func dateMatches(start s: Int64, end e: Int64, lower: Int64, upper: Int64, options: DateOptions) -> Bool {
        let first = options.contains(.strictStartDate) ? s : e
        let last = options.contains(.strictEndDate) ? e : s
        return first >= lower && last < upper
    }

    /// Checks the predicate against a type (a storage series of any kind), throwing for quantities
    /// whose unit cannot convert and for workout conditions on another type than workouts.
    ///
    /// - Throws: ``CadenceError/Code/incompatibleUnits``; ``CadenceError/Code/invalidArgument``.
    func validate(for type: QuantityType) throws {
        func visit(_ node: Node) throws {
            switch node {
            case .quantity(_, let quantity):
                guard quantity.unit.isCompatible(with: type.canonicalUnit) else {
                    throw CadenceError(.incompatibleUnits,
                                       "the predicate's \(quantity.unit) cannot compare with \(type.identifier) in \(type.canonicalUnit)")
                }
            case .workoutActivityTypes, .workoutFigure:
                guard type.kind == .workout else {
                    throw CadenceError(.invalidArgument,
                                       "a workout predicate applies to \(Workout.typeIdentifier), not to \(type.identifier)")
                }
                if case .workoutFigure(let figure, _, let quantity) = node, !quantity.unit.isCompatible(with: figure.unit) {
                    throw CadenceError(.incompatibleUnits,
                                       "the predicate's \(quantity.unit) cannot compare with a workout's \(figure.rawValue) in \(figure.unit)")
                }
            case .and(let nodes), .or(let nodes): try nodes.forEach(visit)
            case .not(let inner): try visit(inner)
            default: break
            }
        }
        try visit(node)
    }

    /// Evaluates the predicate on a stored row (`columns` must have detail columns when the
    /// predicate reads UUIDs or metadata).
    package func matches(columns: SampleColumns, row: Int, provenances: [Provenance], typeIdentifier: String = "",
                         canonicalUnit: HealthUnit? = nil) -> Bool {
        Self.evaluate(node, columns: columns, row: row, provenances: provenances, typeIdentifier: typeIdentifier,
                      canonicalUnit: canonicalUnit)
    }

    private static func evaluate(_ node: Node, columns: SampleColumns, row: Int, provenances: [Provenance],
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
    private static func workoutHead(_ columns: SampleColumns, _ row: Int) -> WorkoutAttributes.Head? {
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

    /// The predicate's date window (<doc:HowCadenceComputes#Collections-and-windows>): the intersection of its date ranges that are AND-ed
    /// at the top (not those under `or` or `not`), or `nil` when it has none. A `nil` bound is open.
    var dateWindow: (start: Int64?, end: Int64?)? {
        var window: (start: Int64?, end: Int64?)?
        func visit(_ node: Node) {
            switch node {
            case .date(let start, let end, _):
                let current = window ?? (nil, nil)
                window = ([current.start, start].compactMap { $0 }.max(), [current.end, end].compactMap { $0 }.min())
            case .and(let nodes): nodes.forEach(visit)
            default: break
            }
        }
        visit(node)
        return window
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
