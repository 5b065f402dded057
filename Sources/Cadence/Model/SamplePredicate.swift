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
}
