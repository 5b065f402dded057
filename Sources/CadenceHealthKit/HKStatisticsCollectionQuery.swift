//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// Statistics over fixed calendar intervals (HealthKit's `HKStatisticsCollectionQuery`), run as
/// Cadence's `StatisticsCollectionQuery` in the current calendar and time zone.
///
///     let query = HKStatisticsCollectionQuery(quantityType: steps, quantitySamplePredicate: nil,
///                                             options: .cumulativeSum, anchorDate: midnight,
///                                             intervalComponents: DateComponents(day: 1))
///     query.initialResultsHandler = { query, collection, error in … }
///     healthStore.execute(query)
///
/// Without a ``statisticsUpdateHandler`` the query ends after its initial results. With one, it
/// keeps running as Cadence's `statisticsCollectionUpdates` does: after each committed save or
/// delete that touches the type, the handler gets the new collection.
public final class HKStatisticsCollectionQuery: HKQuery, @unchecked Sendable {
    // The handlers are behind a lock; everything else is immutable after init.

    /// The handler of the initial results.
    public typealias InitialResultsHandler = @Sendable (HKStatisticsCollectionQuery, HKStatisticsCollection?, (any Error)?) -> Void
    /// The handler of updates.
    public typealias UpdateHandler = @Sendable (HKStatisticsCollectionQuery, HKStatistics?, HKStatisticsCollection?, (any Error)?) -> Void

    /// The start of one interval; the others follow from it in both directions.
    public let anchorDate: Date
    /// The length of each interval: positive minutes, hours, days (7 for a week), weekOfYear,
    /// months or years, alone or together (`DateComponents(day: 1, hour: 12)`).
    public let intervalComponents: DateComponents
    /// What each interval's statistics hold.
    public let options: HKStatisticsOptions
    private let handlers = LockedState<(initial: InitialResultsHandler?, update: UpdateHandler?)>((nil, nil))

    /// A query of `quantityType`'s samples that `quantitySamplePredicate` selects (all when `nil`).
    public init(quantityType: HKQuantityType, quantitySamplePredicate: NSPredicate?,
                options: HKStatisticsOptions = [], anchorDate: Date, intervalComponents: DateComponents) {
        self.anchorDate = anchorDate
        self.intervalComponents = intervalComponents
        self.options = options
        super.init(objectType: quantityType, predicate: quantitySamplePredicate)
    }

    /// Called once with the statistics of the samples stored when the query starts, or the error
    /// that stopped it (an invalid option or interval, an unsupported predicate, an unreadable store).
    public var initialResultsHandler: InitialResultsHandler? {
        get { handlers.withLock { $0.initial } }
        set { handlers.withLock { $0.initial = newValue } }
    }

    /// When set before the query runs, keeps it running: called after each committed change to
    /// the type with the statistics of the last interval that changed and the whole new
    /// collection. Without an ``initialResultsHandler`` it also gets the initial results (with
    /// `nil` statistics).
    public var statisticsUpdateHandler: UpdateHandler? {
        get { handlers.withLock { $0.update } }
        set { handlers.withLock { $0.update = newValue } }
    }

    /// The Cadence query this one runs.
    var cadenceQuery: StatisticsCollectionQuery {
        get throws {
            guard let type = objectType as? HKQuantityType else {
                throw CadenceError(.invalidQuery, "HKStatisticsCollectionQuery needs a quantity type")
            }
            return try StatisticsCollectionQuery(
                quantityType: type.cadence, quantitySamplePredicate: cadencePredicate, options: options.cadence,
                anchorDate: anchorDate, intervalComponents: IntervalComponents(intervalComponents),
                calendar: Calendar.current)
        }
    }

    override func start(on store: HealthStore) {
        let query: StatisticsCollectionQuery
        do {
            query = try cadenceQuery
        } catch {
            run.perform { self.fail(error) }
            return
        }
        guard statisticsUpdateHandler != nil else {
            run.perform {
                do {
                    let collection = try store.execute(query)
                    self.initialResultsHandler?(self, HKStatisticsCollection(collection), nil)
                } catch {
                    self.fail(error)
                }
            }
            return
        }
        let isInitial = LockedState(true)
        run.follow(store.statisticsCollectionUpdates(query), element: { update in
            let collection = HKStatisticsCollection(update.collection)
            let first = isInitial.withLock { first in
                defer { first = false }
                return first
            }
            if first, let initial = self.initialResultsHandler {
                initial(self, collection, nil)
            } else {
                let changed = first ? nil : update.changedIntervals.last.flatMap { collection.statistics(for: $0.start) }
                self.statisticsUpdateHandler?(self, changed, collection, nil)
            }
        }, failure: { self.fail($0) })
    }

    override func fail(_ error: any Error) {
        if let initial = initialResultsHandler {
            initial(self, nil, error)
        } else {
            statisticsUpdateHandler?(self, nil, nil, error)
        }
    }
}
