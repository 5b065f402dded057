//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// The entries of quantity samples, series or ordinary (HealthKit's `HKQuantitySeriesSampleQuery`),
/// run as Cadence's `QuantitySeriesSampleQuery`.
///
///     let query = HKQuantitySeriesSampleQuery(quantityType: steps, predicate: today) {
///         query, quantity, interval, sample, done, error in …
///     }
///     query.includeSample = true
///     store.execute(query)
///
/// The handler is called once per entry with `done` false, then once with `done` true and no
/// quantity (or once with an error).
public final class HKQuantitySeriesSampleQuery: HKQuery, @unchecked Sendable {
    // Its options are set before the query is executed, then only read.

    /// The handler of each entry.
    public typealias QuantityHandler = @Sendable (HKQuantitySeriesSampleQuery, HKQuantity?, DateInterval?,
                                                  HKQuantitySample?, Bool, (any Error)?) -> Void

    /// Whether each entry comes with its sample.
    public var includeSample = false
    /// Whether entries come sample by sample, samples ascending by start.
    public var orderByQuantitySampleStartDate = false
    private let handler: QuantityHandler

    /// A query of the entries of `quantityType`'s samples that `predicate` selects (all when `nil`).
    public init(quantityType: HKQuantityType, predicate: NSPredicate?, quantityHandler: @escaping QuantityHandler) {
        handler = quantityHandler
        super.init(objectType: quantityType, predicate: predicate)
    }

    override func start(on store: HealthStore) {
        let query: QuantitySeriesSampleQuery
        do {
            guard let type = objectType as? HKQuantityType else {
                throw CadenceError(.invalidQuery, "HKQuantitySeriesSampleQuery needs a quantity type")
            }
            query = QuantitySeriesSampleQuery(quantityType: type.cadence, predicate: try cadencePredicate,
                                              includeSample: includeSample,
                                              orderByQuantitySampleStartDate: orderByQuantitySampleStartDate)
        } catch {
            run.perform { self.fail(error) }
            return
        }
        run.perform {
            do {
                for entry in try store.execute(query) {
                    self.handler(self, HKQuantity(entry.quantity), entry.dateInterval,
                                 entry.sample.map(HKQuantitySample.init), false, nil)
                }
                self.handler(self, nil, nil, nil, true, nil)
            } catch {
                self.fail(error)
            }
        }
    }

    override func fail(_ error: any Error) {
        handler(self, nil, nil, nil, true, error)
    }
}
