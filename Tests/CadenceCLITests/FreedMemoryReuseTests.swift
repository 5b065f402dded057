//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Testing

@testable import cadence

/// The allocator settings `cadence batch` and `cadence stats --input` run with.
@Suite("Freed memory reuse")
struct FreedMemoryReuseTests {
    /// glibc refuses a mapping threshold above its largest (32 MiB on 64-bit machines) and a
    /// negative one: the settings must be ones it takes, else batches run on the defaults.
    @Test("glibc takes both thresholds")
    func glibcTakesBothThresholds() {
        #if canImport(Glibc)
        #expect(FreedMemoryReuse.enable())
        #endif
    }
}
