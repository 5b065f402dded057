//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// The activity summaries of a range of days (HealthKit's `HKActivitySummaryQuery`), run as
/// Cadence's activity summary query: in day order, both ends of the range included.
///
///     var start = DateComponents(year: 2024, month: 1, day: 1)
///     start.calendar = Calendar(identifier: .gregorian)
///     var end = start
///     end.day = 31
///     let predicate = HKQuery.predicate(forActivitySummariesBetweenStart: start, end: end)
///     let query = HKActivitySummaryQuery(predicate: predicate) { query, summaries, error in … }
///     healthStore.execute(query)
///
/// Its results come once; it has no `updateHandler` (follow changes with an anchored query of
/// Cadence's `AnchoredObjectQuery(activitySummariesFrom:through:)`).
public final class HKActivitySummaryQuery: HKQuery, @unchecked Sendable {
    // Immutable after init: safe to share across threads.

    /// The handler of the results.
    public typealias ResultsHandler = @Sendable (HKActivitySummaryQuery, [HKActivitySummary]?, (any Error)?) -> Void

    private let resultsHandler: ResultsHandler

    /// A query of the summaries `predicate` selects (made by
    /// ``HKQuery/predicate(forActivitySummariesBetweenStart:end:)`` or
    /// ``HKQuery/predicateForActivitySummary(with:)``; every summary when `nil`).
    public init(predicate: NSPredicate?, resultsHandler handler: @escaping ResultsHandler) {
        resultsHandler = handler
        super.init(objectType: nil, predicate: predicate)
    }

    override func start(on store: HealthStore) {
        let query: SampleQuery<ActivitySummary>
        do {
            query = SampleQuery(reading: .activitySummaries, predicate: try cadencePredicate, limit: 0, sortDescriptors: [])
        } catch {
            run.perform { self.fail(error) }
            return
        }
        run.perform {
            do {
                self.resultsHandler(self, try store.execute(query).map(HKActivitySummary.init), nil)
            } catch {
                self.fail(error)
            }
        }
    }

    override func fail(_ error: any Error) {
        resultsHandler(self, nil, error)
    }
}

extension HKQuery {
    /// Activity summaries of the days from `startDateComponents` through `endDateComponents`,
    /// both included; the components name days of their `calendar` (Gregorian when it is not set).
    public static func predicate(forActivitySummariesBetweenStart startDateComponents: DateComponents,
                                 end endDateComponents: DateComponents) -> NSPredicate {
        guard let first = activityDay(startDateComponents), let last = activityDay(endDateComponents) else {
            return UnsupportedPredicate("an activity summary predicate of incomplete date components")
        }
        return CadencePredicate(ActivityDay.predicate(from: first, through: last))
    }

    /// The activity summary of one day, named by its components in their `calendar` (Gregorian
    /// when it is not set).
    public static func predicateForActivitySummary(with dateComponents: DateComponents) -> NSPredicate {
        predicate(forActivitySummariesBetweenStart: dateComponents, end: dateComponents)
    }

    /// The Gregorian day that `components` (era, year, month and day of their calendar) name.
    private static func activityDay(_ components: DateComponents) -> ActivityDay? {
        var calendar = components.calendar ?? Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = calendar.timeZone
        var day = DateComponents()
        day.era = components.era
        day.year = components.year
        day.month = components.month
        day.day = components.day
        guard components.year != nil, components.month != nil, components.day != nil,
              let date = calendar.date(from: day) else { return nil }
        let read = gregorian.dateComponents([.year, .month, .day], from: date)
        guard let year = read.year, let month = read.month, let dayOfMonth = read.day else { return nil }
        return try? ActivityDay(year: year, month: month, day: dayOfMonth)
    }
}
