//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

@testable import Cadence

extension AggregationOutput {
    /// The measures of a quantity collection, or `nil` for another kind (for `#require`).
    var quantity: QuantityMeasures? {
        guard case .quantity(let measures) = kind else { return nil }
        return measures
    }

    /// The measures of a category collection, or `nil` for another kind (for `#require`).
    var category: CategoryMeasures? {
        guard case .category(let measures) = kind else { return nil }
        return measures
    }
}
