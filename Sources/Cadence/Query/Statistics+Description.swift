//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

// One line for a statistics value, in the form of the samples' (`ReadableDescriptions.swift`).

extension Statistics: CustomStringConvertible {
    /// `stepCount 2024-05-01T00:00:00Z – 2024-05-02T00:00:00Z: sum 8500 count`: the
    /// merged values that are present, or `no data`.
    public var description: String {
        let unit = quantityType.canonicalUnit
        let values: [(String, Double?)] = [
            ("sum", sumQuantity()?.value), ("average", averageQuantity()?.value), ("minimum", minimumQuantity()?.value),
            ("maximum", maximumQuantity()?.value), ("most recent", mostRecentQuantity()?.value),
        ]
        var present = values.compactMap { name, value in value.map { "\(name) \(ReadableDescription.number($0)) \(unit)" } }
        if let duration = duration() { present.append("duration \(ReadableDescription.number(duration.value)) s") }
        if let count = count() { present.append("count \(count)") }
        let dates = ReadableDescription.dates(startDate, endDate)
        return "\(quantityType.shortIdentifier) \(dates): \(present.isEmpty ? "no data" : present.joined(separator: ", "))"
    }
}
