//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
// PLACEHOLDER: replaced by the Time layer.
import Foundation

public typealias Timestamp = Int64

extension Date {
    public init(timestamp: Timestamp) { self.init(timeIntervalSince1970: Double(timestamp) / 1_000_000) }
    public var timestamp: Timestamp { Timestamp((timeIntervalSince1970 * 1_000_000).rounded()) }
}
