//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

extension StatisticsCollectionQuery {
    /// A collection over a category type and a set of its values (<doc:HowCadenceComputes#Category-durations>) **[Cadence rule]**:
    /// per interval, the time during which the best-ranked source with a sample of the values'
    /// track has one whose value is in the set (``Statistics/duration(for:)``), and the samples
    /// in the set that start in the interval (``Statistics/count(for:)``); per source too with
    /// `separateBySource`.
    ///
    ///     // Time asleep per night: days anchored at noon.
    ///     let sleep = CategoryType.sleepAnalysis
    ///     let query = try StatisticsCollectionQuery(
    ///         categoryType: sleep, values: [1, 3, 4, 5], options: .duration,
    ///         anchorDate: noon, intervalComponents: .days(1))
    ///
    /// - Parameters:
    ///   - values: Raw values, all from one of the type's tracks (``CategoryType/tracks``).
    ///   - options: `duration` and `separateBySource`; counts are always given.
    /// - Throws: ``CadenceError/Code/invalidQuery`` for an empty set, values from several tracks or
    ///   values the type does not have, or options other than `duration` and `separateBySource`.
    public init(categoryType: CategoryType, values: Set<Int>, predicate: SamplePredicate = .all,
                options: StatisticsOptions, anchorDate: Date, intervalComponents: IntervalComponents,
                calendar: Calendar? = nil, sourcePriority: [String]? = nil) throws {
        let allowed: StatisticsOptions = [.duration, .separateBySource]
        if let (name, _) = StatisticsOptions.names.first(where: { options.contains($0.1) && !allowed.contains($0.1) }) {
            throw CadenceError(.invalidQuery, "the option \(name) does not apply to the category type \(categoryType.shortIdentifier); use duration")
        }
        guard !values.isEmpty else { throw CadenceError(.invalidQuery, "a category collection needs at least one value") }
        if categoryType.isKnown {
            guard categoryType.tracks.contains(where: { values.isSubset(of: $0) }) else {
                let names = values.sorted().map { categoryType.valueName($0).map { CategoryValue(rawValue: 0, name: $0).shortName } ?? String($0) }
                throw CadenceError(.invalidQuery, "the values \(names.joined(separator: ", ")) are not all values of one track of \(categoryType.shortIdentifier)")
            }
        }
        try self.init(quantityType: .series(categoryType.identifier), quantitySamplePredicate: predicate, options: options,
                      anchorDate: anchorDate, intervalComponents: intervalComponents, calendar: calendar,
                      sourcePriority: sourcePriority)
        category = (categoryType, values)
    }
}

extension CategoryType {
    /// The track holding `values` (<doc:HowCadenceComputes#Category-durations>): the type's track that contains them all, or `nil`
    /// for every value (a type without a table has one track of whatever values it holds).
    package func track(of values: Set<Int>) -> Set<Int>? {
        tracks.first { values.isSubset(of: $0) }
    }
}
