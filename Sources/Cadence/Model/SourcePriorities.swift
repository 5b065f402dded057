//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The source priority lists a store keeps for merging sources (<doc:HowCadenceComputes#Merging-sources>): one per type where one
/// was set — the Health app keeps one per data type — and one for every other type.
///
/// No export carries the Health app's lists, so totals identical to the phone's need the user's
/// own order set here (or passed with each query).
///
///     var priorities = SourcePriorities(storeWide: ["Jane’s Apple Watch", "Jane’s iPhone"])
///     priorities.byType["HKQuantityTypeIdentifierStepCount"] = ["Jane’s iPhone"]
///     priorities.list(for: "HKQuantityTypeIdentifierStepCount")  // ["Jane’s iPhone"]
public struct SourcePriorities: Sendable, Hashable {
    /// The list for types that have none of their own.
    public var storeWide: [String]
    /// Lists of single types, keyed by full type identifier.
    public var byType: [String: [String]]

    /// Creates priority lists.
    public init(storeWide: [String] = [], byType: [String: [String]] = [:]) {
        self.storeWide = storeWide
        self.byType = byType
    }

    /// The list that ranks sources of a type: the type's own, else the store-wide one.
    ///
    /// - Parameter typeIdentifier: A full type identifier.
    public func list(for typeIdentifier: String) -> [String] { byType.exactly(typeIdentifier) ?? storeWide }
}
