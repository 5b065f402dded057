//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The app or device that wrote a sample (HealthKit's `HKSource`).
///
/// Two sources are the same when their names and bundle identifiers are equal. Source merging
/// (SPEC §5) ranks sources, never individual devices.
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
