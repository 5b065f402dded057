//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// One set of statistics over every matching sample (HealthKit's `HKStatisticsQuery`), run as
/// Cadence's `StatisticsQuery`.
///
///     let query = HKStatisticsQuery(quantityType: bodyMass, quantitySamplePredicate: nil,
///                                   options: .mostRecent) { query, statistics, error in
///         let kilograms = statistics?.mostRecentQuantity()?.doubleValue(for: .gramUnit(with: .kilo))
///     }
///
/// A cumulative sum prorates samples that straddle the edges of the predicate's date range, so
/// it equals the collection query's interval over the same range. With no matching sample the
/// handler gets statistics whose values are `nil`.
public final class HKStatisticsQuery: HKQuery, @unchecked Sendable {
    // Immutable after init: safe to share across threads.

    /// The handler of the result.
    public typealias CompletionHandler = @Sendable (HKStatisticsQuery, HKStatistics?, (any Error)?) -> Void

    /// What the statistics hold.
    public let options: HKStatisticsOptions
    private let completionHandler: CompletionHandler

    /// A query of `quantityType`'s samples that `quantitySamplePredicate` selects (all when `nil`).
    public init(quantityType: HKQuantityType, quantitySamplePredicate: NSPredicate?, options: HKStatisticsOptions = [],
                completionHandler handler: @escaping CompletionHandler) {
        self.options = options
        completionHandler = handler
        super.init(objectType: quantityType, predicate: quantitySamplePredicate)
    }

    /// The Cadence query this one runs.
    var cadenceQuery: StatisticsQuery {
        get throws {
            guard let type = objectType as? HKQuantityType else {
                throw CadenceError(.invalidQuery, "HKStatisticsQuery needs a quantity type")
            }
            return try StatisticsQuery(quantityType: type.cadence, quantitySamplePredicate: cadencePredicate,
                                       options: options.cadence)
        }
    }

    override func start(on store: HealthStore) {
        run.perform {
            do {
                let statistics = try store.execute(self.cadenceQuery)
                self.completionHandler(self, HKStatistics(statistics), nil)
            } catch {
                self.fail(error)
            }
        }
    }

    override func fail(_ error: any Error) {
        completionHandler(self, nil, error)
    }
}
