//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// How much memory a structure that moves keys to disk (``OccurrenceCounter``, ``UUIDSet``) may
/// use, and where it puts what does not fit.
package struct SpillBudget: Sendable {
    /// The keys held in memory before they go to disk.
    package var tableKeys: Int
    /// The size of the filter of the keys on disk, in bits.
    package var filterBits: Int
    /// Where the temporary files go (the system's temporary directory by default).
    package var directory: String

    /// 131,072 keys in memory and a filter of 64 Mi bits (8 MiB): about 0.07% of 4 M keys look
    /// on disk without need.
    package static let standard = SpillBudget(tableKeys: 1 << 17, filterBits: 1 << 26,
                                      directory: FileManager.default.temporaryDirectory.path)
}
