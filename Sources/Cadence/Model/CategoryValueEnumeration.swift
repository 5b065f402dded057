//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The values of a group of category types as a Swift enumeration (HealthKit's `HKCategoryValue…`
/// enumerations), such as ``CategoryValueSleepAnalysis``: raw values are HealthKit's integers.
///
///     let asleep = SamplePredicate.categoryValue(in: CategoryValueSleepAnalysis.allAsleepValues)
public protocol CategoryValueEnumeration: RawRepresentable<Int>, CaseIterable, Hashable, Sendable {}

extension CategoryValueSleepAnalysis {
    /// Every stage of being asleep (HealthKit's `allAsleepValues`): unspecified, core, deep and REM;
    /// not in bed or awake.
    public static let allAsleepValues: Set<CategoryValueSleepAnalysis> = [.asleepUnspecified, .asleepCore, .asleepDeep,
                                                                           .asleepREM]
}

extension SamplePredicate {
    /// Category samples whose value is `value` (HealthKit's `predicateForCategorySamples(with:value:)`).
    public static func categoryValue<Value: CategoryValueEnumeration>(equalTo value: Value) -> SamplePredicate {
        categoryValue(in: [value.rawValue])
    }

    /// Category samples whose value is one of `values` (HealthKit's
    /// `predicateForCategorySamples(equalToValues:)`).
    public static func categoryValue<Value: CategoryValueEnumeration>(in values: some Sequence<Value>) -> SamplePredicate {
        categoryValue(in: values.map(\.rawValue))
    }
}

extension CategorySample {
    /// The value as the enumeration of its group, or `nil` when the raw value is not one of it
    /// (`sample.value(as: CategoryValueSleepAnalysis.self)`).
    public func value<Value: CategoryValueEnumeration>(as type: Value.Type) -> Value? { Value(rawValue: value) }
}
