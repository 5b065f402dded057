//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// The app or device that recorded samples (HealthKit's `HKSource`).
public final class HKSource: NSObject, Sendable {
    /// The source in the Cadence module.
    let cadence: Source

    init(_ source: Source) {
        cadence = source
    }

    /// The source's name, such as "Jane’s Apple Watch".
    public var name: String { cadence.name }

    /// The app's bundle identifier; empty when the data did not carry one.
    public var bundleIdentifier: String { cadence.bundleIdentifier ?? "" }

    /// The source that samples saved by this process get: named after the process.
    public static func `default`() -> HKSource {
        HKSource(Source(name: ProcessInfo.processInfo.processName))
    }

    /// Whether `object` is the same source.
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? HKSource)?.cadence == cadence
    }

    /// A hash consistent with ``isEqual(_:)``.
    public override var hash: Int { cadence.hashValue }

    /// The name.
    public override var description: String { name }
}
