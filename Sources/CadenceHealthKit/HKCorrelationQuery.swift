//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// Correlations whose members meet conditions per member type (HealthKit's `HKCorrelationQuery`),
/// run as Cadence's `CorrelationQuery`.
///
///     let high = HKQuery.predicateForQuantitySamples(with: .greaterThanOrEqualTo,
///                                                    quantity: HKQuantity(unit: .millimeterOfMercury(), doubleValue: 140))
///     let query = HKCorrelationQuery(type: bloodPressure, predicate: nil,
///                                    samplePredicates: [systolic: high]) { query, correlations, error in … }
///
/// A correlation is listed when `predicate` selects it, it has a member of each key type of
/// `samplePredicates`, and each member of a key type matches that key's predicate. Results come
/// in ascending start order, with their members.
public final class HKCorrelationQuery: HKQuery, @unchecked Sendable {
    // Immutable after init: safe to share across threads.

    /// The handler of the results.
    public typealias CompletionHandler = @Sendable (HKCorrelationQuery, [HKCorrelation]?, (any Error)?) -> Void

    /// Conditions on the members, by member type.
    public let samplePredicates: [HKSampleType: NSPredicate]?
    private let completion: CompletionHandler

    /// A query of `correlationType`'s correlations that `predicate` selects (all when `nil`) and
    /// whose members meet `samplePredicates`.
    public init(type correlationType: HKCorrelationType, predicate: NSPredicate?,
                samplePredicates: [HKSampleType: NSPredicate]?, completion: @escaping CompletionHandler) {
        self.samplePredicates = samplePredicates
        self.completion = completion
        super.init(objectType: correlationType, predicate: predicate)
    }

    /// The correlation type listed.
    public var correlationType: HKCorrelationType? { objectType as? HKCorrelationType }

    /// The Cadence query this one runs.
    ///
    /// - Throws: `CadenceError` (`invalidArgument`) for a key that is not a quantity type or a
    ///   predicate the factories did not make.
    var cadenceQuery: CorrelationQuery {
        get throws {
            guard let correlationType else {
                throw CadenceError(.invalidQuery, "HKCorrelationQuery needs a correlation type")
            }
            var members: [QuantityType: SamplePredicate] = [:]
            for (type, predicate) in samplePredicates ?? [:] {
                guard case .quantity(let quantityType) = type.series else {
                    throw CadenceError(.invalidArgument, "a correlation's members are quantity samples; \(type.identifier) cannot key its sample predicates")
                }
                members[quantityType] = try SamplePredicate(translating: predicate)
            }
            return CorrelationQuery(type: correlationType.cadence, predicate: try cadencePredicate, samplePredicates: members)
        }
    }

    override func start(on store: HealthStore) {
        perform({ try cadenceQuery }) { query in
            self.completion(self, try store.execute(query).map(HKCorrelation.init), nil)
        }
    }

    override func fail(_ error: any Error) {
        completion(self, nil, error)
    }
}
