//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The app or device that wrote a sample (HealthKit's `HKSource`).
///
/// Two sources are the same when their names and bundle identifiers are equal. Source merging
/// (<doc:HowCadenceComputes#Merging-sources>) ranks sources, never individual devices.
public struct Source: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The name shown to people, such as `Jane’s Apple Watch`.
    public var name: String
    /// The bundle identifier of the writing app, where known (`com.apple.health.…`).
    public var bundleIdentifier: String?

    /// Creates a source.
    public init(name: String, bundleIdentifier: String? = nil) {
        self.name = name
        self.bundleIdentifier = bundleIdentifier
    }

    public var description: String { name }
}

extension Source {
    /// Byte-exact: sources whose names differ only in Unicode normalisation are different sources
    /// (see How Cadence computes, Identity).
    public static func == (lhs: Source, rhs: Source) -> Bool {
        lhs.name.isIdentical(to: rhs.name) && lhs.bundleIdentifier.isIdentical(to: rhs.bundleIdentifier)
    }

    /// Hashes the UTF-8 bytes, consistent with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        hasher.combineBytes(of: name)
        hasher.combineBytes(of: bundleIdentifier)
    }
}
