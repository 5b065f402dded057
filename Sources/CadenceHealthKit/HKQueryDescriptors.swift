//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// Samples of one or more types, in order (HealthKit's `HKSampleQueryDescriptor`), run as
/// Cadence's `SampleQuery` (one predicate) or `MergedSampleQuery` (several of one kind).
///
///     let descriptor = HKSampleQueryDescriptor(predicates: [.quantitySample(type: heartRate)],
///                                              sortDescriptors: [SortDescriptor(\.endDate, order: .reverse)],
///                                              limit: 10)
///     let latest = try await descriptor.result(for: healthStore)
public struct HKSampleQueryDescriptor<Sample: HKSample>: Sendable {
    /// The types and predicates, each read on its own and merged.
    public var predicates: [HKSamplePredicate<Sample>]
    /// The order: by start or end date.
    public var sortDescriptors: [SortDescriptor<Sample>]
    /// The most samples to return; `nil` for all.
    public var limit: Int?

    /// A descriptor of `predicates`' samples in `sortDescriptors` order (ascending start without any).
    public init(predicates: [HKSamplePredicate<Sample>], sortDescriptors: [SortDescriptor<Sample>], limit: Int? = nil) {
        self.predicates = predicates
        self.sortDescriptors = sortDescriptors
        self.limit = limit
    }

    /// Runs the query.
    ///
    /// - Throws: `CadenceError` for an unsupported predicate or sort key, predicates of several
    ///   kinds, or a store that cannot be read.
    public func result(for healthStore: HKHealthStore) async throws -> [Sample] {
        let store = try healthStore.opened.get()
        let sort = try sortDescriptors.map { descriptor in
            guard let key = SampleDateKey(descriptor.keyPath) else {
                throw CadenceError(.invalidArgument, "sample query descriptors sort by startDate or endDate only")
            }
            return key.descriptor(ascending: descriptor.order == .forward)
        }
        let parts = try predicates.map { try $0.cadence }
        return try store.healthKitSamples(parts, limit: limit ?? 0, sort: sort).compactMap { $0 as? Sample }
    }
}

/// Statistics over every matching sample (HealthKit's `HKStatisticsQueryDescriptor`), run as
/// Cadence's `StatisticsQuery`.
public struct HKStatisticsQueryDescriptor: Sendable {
    /// The quantity type and predicate.
    public var predicate: HKSamplePredicate<HKQuantitySample>
    /// What the statistics hold.
    public var options: HKStatisticsOptions

    /// A descriptor of `predicate`'s statistics.
    public init(predicate: HKSamplePredicate<HKQuantitySample>, options: HKStatisticsOptions) {
        self.predicate = predicate
        self.options = options
    }

    /// Runs the query; the statistics' values are `nil` when no sample matches.
    ///
    /// - Throws: `CadenceError` for an option the type does not take, an unsupported predicate,
    ///   or a store that cannot be read.
    public func result(for healthStore: HKHealthStore) async throws -> HKStatistics? {
        let store = try healthStore.opened.get()
        guard let type = predicate.sampleType as? HKQuantityType else {
            throw CadenceError(.invalidQuery, "statistics need a quantity type")
        }
        let query = try StatisticsQuery(quantityType: type.cadence, quantitySamplePredicate: predicate.cadence.predicate,
                                        options: options.cadence)
        return HKStatistics(try store.execute(query))
    }
}

/// Statistics over calendar intervals (HealthKit's `HKStatisticsCollectionQueryDescriptor`), run
/// as Cadence's `StatisticsCollectionQuery` in the current calendar.
///
///     let weekly = HKStatisticsCollectionQueryDescriptor(predicate: .quantitySample(type: steps),
///                                                        options: .cumulativeSum, anchorDate: monday,
///                                                        intervalComponents: DateComponents(day: 7))
///     let collection = try await weekly.result(for: healthStore)
///     for try await update in weekly.results(for: healthStore) { render(update.statisticsCollection) }
public struct HKStatisticsCollectionQueryDescriptor: Sendable {
    /// The quantity type and predicate.
    public var predicate: HKSamplePredicate<HKQuantitySample>
    /// What each interval's statistics hold.
    public var options: HKStatisticsOptions
    /// The start of one interval.
    public var anchorDate: Date
    /// The length of each interval.
    public var intervalComponents: DateComponents

    /// A descriptor of `predicate`'s statistics per interval.
    public init(predicate: HKSamplePredicate<HKQuantitySample>, options: HKStatisticsOptions, anchorDate: Date,
                intervalComponents: DateComponents) {
        self.predicate = predicate
        self.options = options
        self.anchorDate = anchorDate
        self.intervalComponents = intervalComponents
    }

    /// One result of the long-running form.
    public struct Result: Sendable {
        /// The collection as of this result.
        public let statisticsCollection: HKStatisticsCollection
        /// The statistics of the intervals that changed (every interval with data, at first).
        public let updatedStatistics: [HKStatistics]
    }

    /// The results of the long-running form.
    public typealias Results = AsyncThrowingStream<Result, any Error>

    /// The Cadence query.
    private var cadenceQuery: StatisticsCollectionQuery {
        get throws {
            guard let type = predicate.sampleType as? HKQuantityType else {
                throw CadenceError(.invalidQuery, "statistics need a quantity type")
            }
            return try StatisticsCollectionQuery(
                quantityType: type.cadence, quantitySamplePredicate: predicate.cadence.predicate, options: options.cadence,
                anchorDate: anchorDate, intervalComponents: IntervalComponents(intervalComponents), calendar: Calendar.current)
        }
    }

    /// Runs the query once.
    ///
    /// - Throws: `CadenceError` for an invalid option or interval, an unsupported predicate, or a
    ///   store that cannot be read.
    public func result(for healthStore: HKHealthStore) async throws -> HKStatisticsCollection {
        HKStatisticsCollection(try healthStore.opened.get().execute(cadenceQuery))
    }

    /// The initial collection, then a new one after each committed change to the type, until
    /// the iterating task is cancelled (Cadence's `statisticsCollectionUpdates`).
    public func results(for healthStore: HKHealthStore) -> Results {
        do {
            let store = try healthStore.opened.get()
            let query = try cadenceQuery
            return relay(store.statisticsCollectionUpdates(query)) { update in
                let collection = HKStatisticsCollection(update.collection)
                return Result(statisticsCollection: collection,
                              updatedStatistics: update.changedIntervals.compactMap { collection.statistics(for: $0.start) })
            }
        } catch {
            return Results { $0.finish(throwing: error) }
        }
    }
}

/// Samples added and deleted since an anchor (HealthKit's `HKAnchoredObjectQueryDescriptor`), run
/// as Cadence's `AnchoredObjectQuery` for its one predicate.
public struct HKAnchoredObjectQueryDescriptor<Sample: HKSample>: Sendable {
    /// The type and predicate (one).
    public var predicates: [HKSamplePredicate<Sample>]
    /// Changes after this anchor; `nil` for every stored sample and retained deletion.
    public var anchor: HKQueryAnchor?
    /// The most samples and deleted objects to return at once; `nil` for all.
    public var limit: Int?

    /// A descriptor of changes to `predicates`' samples after `anchor`.
    public init(predicates: [HKSamplePredicate<Sample>], anchor: HKQueryAnchor?, limit: Int? = nil) {
        self.predicates = predicates
        self.anchor = anchor
        self.limit = limit
    }

    /// One page of changes.
    public struct Result: Sendable {
        /// Samples added after the anchor, in change order.
        public let addedSamples: [Sample]
        /// Samples deleted after the anchor, in change order.
        public let deletedObjects: [HKDeletedObject]
        /// The anchor to pass next time.
        public let newAnchor: HKQueryAnchor
    }

    /// The results of the long-running form.
    public typealias Results = AsyncThrowingStream<Result, any Error>

    /// Runs the query once.
    ///
    /// - Throws: `CadenceError` for several predicates, an unsupported predicate, another store's
    ///   or an expired anchor, or a store that cannot be read.
    public func result(for healthStore: HKHealthStore) async throws -> Result {
        let store = try healthStore.opened.get()
        switch try cadencePart() {
        case let (.quantity(type), predicate):
            return page(try store.execute(configured(AnchoredObjectQuery(quantityType: type, predicate: predicate))),
                        HKQuantitySample.init)
        case let (.category(type), predicate):
            return page(try store.execute(configured(AnchoredObjectQuery(categoryType: type, predicate: predicate))),
                        HKCategorySample.init)
        case let (.correlation(type), predicate):
            return page(try store.execute(configured(AnchoredObjectQuery(correlationType: type, predicate: predicate))),
                        HKCorrelation.init)
        }
    }

    /// The changes after the anchor (without a limit), then one page per committed change that
    /// touches matching samples, until the iterating task is cancelled (Cadence's `anchoredUpdates`).
    public func results(for healthStore: HKHealthStore) -> Results {
        do {
            let store = try healthStore.opened.get()
            switch try cadencePart() {
            case let (.quantity(type), predicate):
                return relay(store.anchoredUpdates(configured(AnchoredObjectQuery(quantityType: type, predicate: predicate)))) {
                    page($0, HKQuantitySample.init)
                }
            case let (.category(type), predicate):
                return relay(store.anchoredUpdates(configured(AnchoredObjectQuery(categoryType: type, predicate: predicate)))) {
                    page($0, HKCategorySample.init)
                }
            case let (.correlation(type), predicate):
                return relay(store.anchoredUpdates(configured(AnchoredObjectQuery(correlationType: type, predicate: predicate)))) {
                    page($0, HKCorrelation.init)
                }
            }
        } catch {
            return Results { $0.finish(throwing: error) }
        }
    }

    /// The one predicate, in Cadence terms.
    private func cadencePart() throws -> (SeriesType, SamplePredicate) {
        guard predicates.count == 1, let only = predicates.first else {
            throw CadenceError(.invalidQuery, "an anchored query descriptor takes one predicate; run one descriptor per type")
        }
        return try only.cadence
    }

    /// `query` with the descriptor's anchor and limit.
    private func configured<Stored>(_ query: AnchoredObjectQuery<Stored>) -> AnchoredObjectQuery<Stored> {
        var query = query
        query.anchor = anchor?.cadence
        query.limit = limit ?? 0
        return query
    }

    /// A Cadence page as a result.
    private func page<Stored>(_ page: AnchoredObjectQuery<Stored>.Result, _ convert: (Stored) -> HKSample) -> Result {
        Result(addedSamples: page.samples.compactMap { convert($0) as? Sample },
               deletedObjects: page.deletedObjects.map(HKDeletedObject.init), newAnchor: HKQueryAnchor(page.anchor))
    }
}

/// A stream of `source`'s elements transformed; cancelling the consumer ends `source` too.
func relay<Element: Sendable, Output: Sendable>(_ source: AsyncThrowingStream<Element, any Error>,
                                                _ transform: @escaping @Sendable (Element) -> Output)
    -> AsyncThrowingStream<Output, any Error>
{
    AsyncThrowingStream { continuation in
        let task = Task {
            do {
                for try await element in source { continuation.yield(transform(element)) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
    }
}
