//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// Samples of one type (HealthKit's `HKSampleQuery`), run as Cadence's `SampleQuery`.
///
///     let latest = NSSortDescriptor(key: HKSampleSortIdentifierEndDate, ascending: false)
///     let query = HKSampleQuery(sampleType: sleepType, predicate: lastWeek, limit: 10,
///                               sortDescriptors: [latest]) { query, samples, error in … }
///     healthStore.execute(query)
///
/// Without sort descriptors the samples come in ascending start order; a limit of
/// ``HKObjectQueryNoLimit`` (0) returns every match. Correlations come with their members.
public final class HKSampleQuery: HKQuery, @unchecked Sendable {
    // Immutable after init: safe to share across threads.

    /// The handler of the results.
    public typealias ResultsHandler = @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void

    /// The most samples to return; ``HKObjectQueryNoLimit`` for all.
    public let limit: Int
    /// The order of the results: by start or end date.
    public let sortDescriptors: [NSSortDescriptor]?
    private let resultsHandler: ResultsHandler

    /// A query of `sampleType`'s samples that `predicate` selects (all when `nil`).
    public init(sampleType: HKSampleType, predicate: NSPredicate?, limit: Int, sortDescriptors: [NSSortDescriptor]?,
                resultsHandler: @escaping ResultsHandler) {
        self.limit = limit
        self.sortDescriptors = sortDescriptors
        self.resultsHandler = resultsHandler
        super.init(objectType: sampleType, predicate: predicate)
    }

    override func start(on store: HealthStore) {
        run.perform {
            do {
                let samples = try self.samples(in: store)
                self.resultsHandler(self, samples, nil)
            } catch {
                self.fail(error)
            }
        }
    }

    /// Runs the Cadence sample query of the query's kind.
    private func samples(in store: HealthStore) throws -> [HKSample] {
        guard let sampleType else { throw CadenceError(.invalidQuery, "HKSampleQuery needs a sample type") }
        return try store.healthKitSamples([(sampleType.series, try cadencePredicate)], limit: limit,
                                          sort: try SampleSortDescriptor.translating(sortDescriptors))
    }

    override func fail(_ error: any Error) {
        resultsHandler(self, nil, error)
    }
}
