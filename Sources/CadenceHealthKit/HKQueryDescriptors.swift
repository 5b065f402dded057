//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// Samples of one or more types, in order (HealthKit's `HKSampleQueryDescriptor`), run as
/// Cadence's `SampleQueryDescriptor` (a `MergedSampleQuery` of the types, off Swift's cooperative
/// pool).
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
    ///   kinds (quantity, category, correlation), or a store that cannot be read.
    public func result(for healthStore: HKHealthStore) async throws -> [Sample] {
        let store = try healthStore.opened.get()
        let order = try sortDescriptors.map { descriptor in
            guard let key = SampleDateKey(descriptor.keyPath) else {
                throw CadenceError(.invalidArgument, "sample query descriptors sort by startDate or endDate only")
            }
            return (key: key, ascending: descriptor.order == .forward)
        }
        let parts = try predicates.map { try $0.cadence }
        let quantities = parts.compactMap { part -> SampleTypePredicate<QuantitySample>? in
            guard case .quantity(let type) = part.series else { return nil }
            return .quantitySample(type: type, predicate: part.predicate)
        }
        let categories = parts.compactMap { part -> SampleTypePredicate<CategorySample>? in
            guard case .category(let type) = part.series else { return nil }
            return .categorySample(type: type, predicate: part.predicate)
        }
        let correlations = parts.compactMap { part -> SampleTypePredicate<Correlation>? in
            guard case .correlation(let type) = part.series else { return nil }
            return .correlation(type: type, predicate: part.predicate)
        }
        switch parts.count {
        case quantities.count:
            return try await run(quantities, on: store, order: order, dates: (\.startDate, \.endDate), HKQuantitySample.init)
        case categories.count:
            return try await run(categories, on: store, order: order, dates: (\.startDate, \.endDate), HKCategorySample.init)
        case correlations.count:
            return try await run(correlations, on: store, order: order, dates: (\.startDate, \.endDate), HKCorrelation.init)
        default:
            throw CadenceError(.invalidQuery, "the predicates of one query must read types of one kind (quantity, category or correlation)")
        }
    }

    /// Runs Cadence's descriptor of `predicates` in `order`, its samples converted.
    private func run<Stored: Sendable>(_ predicates: [SampleTypePredicate<Stored>], on store: HealthStore,
                                       order: [(key: SampleDateKey, ascending: Bool)],
                                       dates: (start: any KeyPath<Stored, Date> & Sendable, end: any KeyPath<Stored, Date> & Sendable),
                                       _ convert: (Stored) -> HKSample) async throws -> [Sample] {
        let sort = order.map { SortDescriptor($0.key == .start ? dates.start : dates.end, order: $0.ascending ? .forward : .reverse) }
        let descriptor = SampleQueryDescriptor(predicates: predicates, sortDescriptors: sort, limit: limit)
        return try await descriptor.result(for: store).compactMap { convert($0) as? Sample }
    }
}

/// Statistics over every matching sample (HealthKit's `HKStatisticsQueryDescriptor`), run as
/// Cadence's `StatisticsQueryDescriptor`.
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
        let descriptor = StatisticsQueryDescriptor(predicate: try predicate.quantities, options: options.cadence)
        return HKStatistics(try await descriptor.result(for: store))
    }
}

/// Statistics over calendar intervals (HealthKit's `HKStatisticsCollectionQueryDescriptor`), run
/// as Cadence's `StatisticsCollectionQueryDescriptor` in the current calendar.
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

    /// The Cadence descriptor.
    private var cadence: StatisticsCollectionQueryDescriptor {
        get throws {
            StatisticsCollectionQueryDescriptor(predicate: try predicate.quantities, options: options.cadence,
                                                anchorDate: anchorDate,
                                                intervalComponents: try IntervalComponents(intervalComponents),
                                                calendar: Calendar.current)
        }
    }

    /// Runs the query once.
    ///
    /// - Throws: `CadenceError` for an invalid option or interval, an unsupported predicate, or a
    ///   store that cannot be read.
    public func result(for healthStore: HKHealthStore) async throws -> HKStatisticsCollection {
        HKStatisticsCollection(try await cadence.result(for: healthStore.opened.get()))
    }

    /// The initial collection, then a new one after each committed change to the type, until
    /// the iterating task is cancelled (Cadence's `statisticsCollectionUpdates`).
    public func results(for healthStore: HKHealthStore) -> Results {
        do {
            return relay(try cadence.results(for: healthStore.opened.get())) { update in
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
/// as Cadence's `AnchoredObjectQueryDescriptor` for its one predicate.
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
            return page(try await descriptor(.quantitySample(type: type, predicate: predicate)).result(for: store),
                        HKQuantitySample.init)
        case let (.category(type), predicate):
            return page(try await descriptor(.categorySample(type: type, predicate: predicate)).result(for: store),
                        HKCategorySample.init)
        case let (.correlation(type), predicate):
            return page(try await descriptor(.correlation(type: type, predicate: predicate)).result(for: store),
                        HKCorrelation.init)
        case (.document, _), (.clinical, _):
            throw Self.documentsRefused
        }
    }

    /// The changes after the anchor (without a limit), then one page per committed change that
    /// touches matching samples, until the iterating task is cancelled (Cadence's `anchoredUpdates`).
    public func results(for healthStore: HKHealthStore) -> Results {
        do {
            let store = try healthStore.opened.get()
            switch try cadencePart() {
            case let (.quantity(type), predicate):
                return relay(descriptor(.quantitySample(type: type, predicate: predicate)).results(for: store)) {
                    page($0, HKQuantitySample.init)
                }
            case let (.category(type), predicate):
                return relay(descriptor(.categorySample(type: type, predicate: predicate)).results(for: store)) {
                    page($0, HKCategorySample.init)
                }
            case let (.correlation(type), predicate):
                return relay(descriptor(.correlation(type: type, predicate: predicate)).results(for: store)) {
                    page($0, HKCorrelation.init)
                }
            case (.document, _), (.clinical, _):
                throw Self.documentsRefused
            }
        } catch {
            return Results { $0.finish(throwing: error) }
        }
    }

    /// Why a descriptor of documents or clinical records is refused: ``HKAnchoredObjectQuery`` reads them.
    private static var documentsRefused: CadenceError {
        CadenceError(.invalidQuery, "anchored query descriptors read quantity, category and correlation types; "
                     + "read documents and clinical records with HKAnchoredObjectQuery")
    }

    /// The one predicate, in Cadence terms.
    private func cadencePart() throws -> (SeriesType, SamplePredicate) {
        guard predicates.count == 1, let only = predicates.first else {
            throw CadenceError(.invalidQuery, "an anchored query descriptor takes one predicate; run one descriptor per type")
        }
        return try only.cadence
    }

    /// Cadence's descriptor of `predicate` with this one's anchor and limit.
    private func descriptor<Stored>(_ predicate: SampleTypePredicate<Stored>) -> AnchoredObjectQueryDescriptor<Stored> {
        AnchoredObjectQueryDescriptor(predicate: predicate, anchor: anchor?.cadence, limit: limit)
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
