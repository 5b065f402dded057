//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Synchronization

/// Which sections of a loaded file have passed their checksums.
///
/// A loaded chunk file's bytes never change in memory, so a section that passed its checksum once
/// passes it every time: checking it at each query only costs time (a month of workouts spent a
/// fifth of its time checking its chunk's detail section again). A file read anew from disk, as
/// verification does, starts with nothing checked.
final class CheckedSections: Sendable {
    private let checked: Mutex<[Bool]>

    /// A record of `count` sections, none checked.
    init(count: Int) { checked = Mutex([Bool](repeating: false, count: count)) }

    /// Whether section `index` has passed its checksum.
    func contains(_ index: Int) -> Bool { checked.withLock { index < $0.count && $0[index] } }

    /// Records that section `index` passed its checksum.
    func insert(_ index: Int) { checked.withLock { if index < $0.count { $0[index] = true } } }
}
