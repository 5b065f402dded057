//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// The `NSPredicate` the factories of ``HKQuery`` return: it carries the Cadence predicate it
/// stands for, so that a query hands it to its Cadence query unchanged.
final class CadencePredicate: NSPredicate {
    /// The Cadence predicate.
    let cadence: SamplePredicate

    init(_ predicate: SamplePredicate) {
        cadence = predicate
        super.init(value: true)
    }

    /// Cadence predicates are not archived: decoding one gives `nil`.
    required init?(coder: NSCoder) { nil }

    override var description: String { cadence.description }
}

extension SamplePredicate {
    /// The Cadence predicate an `NSPredicate` passed to a query stands for: one made by the
    /// factories of ``HKQuery``, or an `NSCompoundPredicate` (and, or, not) of such predicates;
    /// `nil` selects everything.
    ///
    /// - Throws: `CadenceError` (`invalidArgument`) for any other predicate: a format string or a
    ///   block cannot be run against the columnar store (HealthKit refuses them too).
    init(translating predicate: NSPredicate?) throws {
        guard let predicate else {
            self = .all
            return
        }
        if let made = predicate as? CadencePredicate {
            self = made.cadence
            return
        }
        if let unsupported = predicate as? UnsupportedPredicate {
            throw CadenceError(.invalidArgument, "\(unsupported.request) has no Cadence predicate")
        }
        guard let compound = predicate as? NSCompoundPredicate else {
            throw CadenceError(
                .invalidArgument,
                "the predicate \(type(of: predicate)) was not made by an HKQuery predicate factory or NSCompoundPredicate of them")
        }
        let parts = try compound.subpredicates.map { try SamplePredicate(translating: $0) }
        switch compound.compoundPredicateType {
        case .and:
            self = parts.reduce(SamplePredicate.all) { $0 && $1 }
        case .or:
            guard let first = parts.first else {
                self = !SamplePredicate.all
                return
            }
            self = parts.dropFirst().reduce(first) { $0 || $1 }
        case .not:
            // Foundation's NOT of several subpredicates negates their conjunction.
            self = !parts.reduce(SamplePredicate.all) { $0 && $1 }
        @unknown default:
            throw CadenceError(.invalidArgument, "an NSCompoundPredicate of an unknown kind")
        }
    }
}
