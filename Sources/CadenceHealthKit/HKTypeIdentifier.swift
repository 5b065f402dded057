//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// The identifier of a quantity type (HealthKit's `HKQuantityTypeIdentifier`), such as
/// ``stepCount``; its raw value is the full identifier, `HKQuantityTypeIdentifierStepCount`.
public struct HKQuantityTypeIdentifier: RawRepresentable, Hashable, Sendable {
    /// The full identifier.
    public let rawValue: String

    /// Wraps a full identifier.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps a full identifier.
    public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// The identifier of a category type (HealthKit's `HKCategoryTypeIdentifier`), such as
/// ``sleepAnalysis``; its raw value is the full identifier.
public struct HKCategoryTypeIdentifier: RawRepresentable, Hashable, Sendable {
    /// The full identifier.
    public let rawValue: String

    /// Wraps a full identifier.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps a full identifier.
    public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// The identifier of a correlation type (HealthKit's `HKCorrelationTypeIdentifier`).
public struct HKCorrelationTypeIdentifier: RawRepresentable, Hashable, Sendable {
    /// The full identifier.
    public let rawValue: String

    /// Wraps a full identifier.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps a full identifier.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// `HKCorrelationTypeIdentifierBloodPressure`: a systolic and a diastolic reading.
    public static let bloodPressure = HKCorrelationTypeIdentifier(rawValue: "HKCorrelationTypeIdentifierBloodPressure")
    /// `HKCorrelationTypeIdentifierFood`: the nutrients of one food.
    public static let food = HKCorrelationTypeIdentifier(rawValue: "HKCorrelationTypeIdentifierFood")
}
