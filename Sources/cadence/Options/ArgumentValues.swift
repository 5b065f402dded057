//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// Turns the text of command-line values into library values, with one-sentence errors that name
/// the option and say what was expected.
enum ArgumentValues {
    /// Parses a date given to `option`.
    ///
    /// Accepted forms: RFC 3339 with an offset (`2024-03-10T00:00:00-05:00`), the Apple Health
    /// export's `2024-03-10 00:00:00 -0500`, and a plain day (`2024-03-10`), read as local midnight in
    /// `timeZone`.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` naming the option and the text.
    static func date(_ text: String, option: String, timeZone: TimeZone) throws -> Date {
        if let timestamp = try? parseRFC3339(text) { return Date(timestamp: timestamp) }
        if let timestamp = try? parseExport(text) { return Date(timestamp: timestamp) }
        if text.utf8.count == 10, (try? parseRFC3339(text + "T00:00:00Z")) != nil {
            let fields = text.split(separator: "-").compactMap { Int($0) }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            if fields.count == 3,
               let midnight = calendar.date(from: DateComponents(year: fields[0], month: fields[1], day: fields[2])) {
                return midnight
            }
        }
        // Explain what is wrong with the form the text looks like: a day, or a full timestamp.
        var reason = ""
        let looksLikeDay = text.utf8.count == 10
        do { _ = try parseRFC3339(looksLikeDay ? text + "T00:00:00Z" : text) } catch let error as CadenceError {
            var message = error.message
            if message.hasSuffix(".") { message.removeLast() }
            if looksLikeDay { message = message.replacingOccurrences(of: "T00:00:00Z", with: "") }
            reason = " (" + message + ")"
        } catch {}
        throw CadenceError(
            .invalidArgument,
            "Invalid \(option) \"\(text)\": expected an RFC 3339 date such as 2024-03-10T00:00:00-05:00 or a day such as 2024-03-10\(reason).")
    }

    /// The time zone named by `--time-zone`, or the host's zone.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` for an unknown zone name.
    static func timeZone(_ name: String?) throws -> TimeZone {
        guard let name else { return TimeZone.current }
        return try Cadence.timeZone(named: name)
    }

    /// The name to report for a time zone: what the user typed, else the host zone's identifier.
    static func timeZoneName(_ name: String?, zone: TimeZone) -> String {
        name ?? zone.identifier
    }

    /// A Gregorian calendar in `timeZone`.
    static func calendar(in timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// The quantity type named `text` (`stepCount` or `HKQuantityTypeIdentifierStepCount`): a type
    /// in Cadence's table, or one the store holds under that identifier (imported unknown types).
    ///
    /// - Throws: ``CadenceError/Code/unknownType``.
    static func quantityType(_ text: String, in store: HealthStore?) throws -> QuantityType {
        if let known = QuantityType.known(text) { return known }
        let identifier = QuantityType.fullIdentifier(text)
        if let stored = store?.quantityTypes.first(where: { $0.identifier == identifier }) { return stored }
        throw CadenceError(
            .unknownType,
            "Unknown quantity type \"\(text)\": use a HealthKit identifier such as stepCount or HKQuantityTypeIdentifierHeartRate.")
    }

    /// A sample type of any kind named by `text`: a long identifier decides the kind by its prefix;
    /// a short name is looked up among quantity, then category, then correlation types, then
    /// among the types the store holds; `workout` is the workout type.
    enum SampleTypeName {
        case quantity(QuantityType)
        case category(CategoryType)
        case correlation(CorrelationType)
        case workout
        case activitySummary
    }

    /// The short name of the workout type on the command line.
    static let workoutTypeName = "workout"

    /// The short name of the activity summary type on the command line.
    static let activitySummaryTypeName = "activitySummary"

    /// A day written `yyyy-MM-dd`.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` naming `option`.
    static func day(_ text: String, option: String) throws -> ActivityDay {
        do {
            return try ActivityDay(text)
        } catch let error as CadenceError {
            throw CadenceError(.invalidArgument, "Invalid \(option): \(error.message).")
        }
    }

    /// The sample type of any kind named `text` (`sleepAnalysis`, `HKCategoryTypeIdentifierSleepAnalysis`,
    /// `stepCount`, `bloodPressure`, `workout`, `HKWorkoutTypeIdentifier`).
    ///
    /// - Throws: ``CadenceError/Code/unknownType``.
    static func sampleType(_ text: String, in store: HealthStore?) throws -> SampleTypeName {
        switch SampleKind(identifier: text) {
        case .category: return .category(CategoryType(identifier: text))
        case .correlation: return .correlation(CorrelationType(identifier: text))
        case .workout where text == Workout.typeIdentifier: return .workout
        case .activitySummary where text == ActivitySummary.typeIdentifier: return .activitySummary
        case .document, .clinicalRecord:
            throw CadenceError(.invalidArgument, "\(text) holds documents or clinical records: list them with cadence documents.")
        case .quantity, .workout, .activitySummary: break
        }
        if text == workoutTypeName { return .workout }
        if text == activitySummaryTypeName { return .activitySummary }
        if let known = QuantityType.known(text) { return .quantity(known) }
        if let known = CategoryType.known(text) { return .category(known) }
        if let known = try? CorrelationType(text) { return .correlation(known) }
        if let stored = store?.categoryTypes.first(where: { $0.identifier == CategoryType.fullIdentifier(text) }) {
            return .category(stored)
        }
        do {
            return .quantity(try quantityType(text, in: store))
        } catch {
            throw CadenceError(
                .unknownType,
                "Unknown sample type \"\(text)\": use a HealthKit identifier such as stepCount, sleepAnalysis, workout or HKQuantityTypeIdentifierHeartRate.")
        }
    }

    /// The raw values of `type` named in a `--values` list (short or export names, or numbers).
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` naming the first unknown value and the type's values.
    static func categoryValues(_ text: String, of type: CategoryType) throws -> [Int] {
        try list(text).map { name in
            if let value = type.value(named: name) ?? (type.isKnown ? nil : Int(name)) { return value }
            let known = type.values.map(\.shortName).joined(separator: ", ")
            throw CadenceError(.invalidArgument,
                               "Unknown --values \"\(name)\" for \(type.shortIdentifier)\(known.isEmpty ? "" : ": use \(known)").")
        }
    }

    /// The unit to report values of `type` in: `text` when given, else the type's canonical unit.
    ///
    /// - Throws: ``CadenceError/Code/unknownUnit`` for text outside HealthKit's unit grammar;
    ///   ``CadenceError/Code/incompatibleUnits`` for a unit of another dimension.
    static func unit(_ text: String?, for type: QuantityType) throws -> HealthUnit {
        guard let text else { return type.canonicalUnit }
        let unit: HealthUnit
        do {
            unit = try HealthUnit(text)
        } catch let error as CadenceError {
            throw CadenceError(.unknownUnit, "Invalid --unit \"\(text)\": \(error.message)")
        }
        guard unit.isCompatible(with: type.canonicalUnit) else {
            throw CadenceError(
                .incompatibleUnits,
                "The unit \"\(text)\" cannot express \(type.shortIdentifier), which is measured in \(type.canonicalUnit.unitString).")
        }
        return unit
    }

    /// A non-negative quantity given to `option` as a number and a unit in HealthKit's grammar
    /// (`200kcal`, `5 km`, `20min`), of the dimension of `unit`; `example` shows the form in errors.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` naming the option, the text and the reason.
    static func quantity(_ text: String, option: String, like example: String, dimensionOf unit: HealthUnit) throws
        -> Quantity
    {
        let number = text.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let unitText = text.dropFirst(number.count).trimmingCharacters(in: .whitespaces)
        guard let value = Double(number), value.isFinite, !unitText.isEmpty else {
            throw CadenceError(.invalidArgument, "Invalid \(option) \"\(text)\": expected a number and a unit such as \(example).")
        }
        let parsed: HealthUnit
        do {
            parsed = try HealthUnit(unitText)
        } catch let error as CadenceError {
            throw CadenceError(.invalidArgument, "Invalid \(option) \"\(text)\": \(error.message)")
        }
        guard parsed.isCompatible(with: unit) else {
            throw CadenceError(.invalidArgument, "Invalid \(option) \"\(text)\": \(unitText) does not measure what \(example) does.")
        }
        return Quantity(value: value, unit: parsed)
    }

    /// A workout activity type given to `option`: a short name Cadence knows (`running`,
    /// `traditionalStrengthTraining`) or a full `HKWorkoutActivityType…` name, kept as it is.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` for a short name Cadence does not know.
    static func activityType(_ text: String, option: String) throws -> WorkoutActivityType {
        let type = WorkoutActivityType(text)
        guard type.isKnown || text.hasPrefix(WorkoutActivityType.identifierPrefix) else {
            throw CadenceError(.invalidArgument, """
                Unknown \(option) "\(text)": use a HealthKit activity type such as running, walking or cycling, \
                or a full name such as \(WorkoutActivityType.identifierPrefix)Running.
                """)
        }
        return type
    }

    /// A sample UUID.
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument``.
    static func uuid(_ text: String) throws -> UUID {
        guard let uuid = UUID(uuidString: text) else {
            throw CadenceError(.invalidArgument, "Invalid --uuid \"\(text)\": expected a UUID such as 0F8FAD5B-D9CB-469F-A165-70867728950E.")
        }
        return uuid
    }

    /// A comma-separated list, with blanks around items removed and empty items dropped.
    static func list(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
