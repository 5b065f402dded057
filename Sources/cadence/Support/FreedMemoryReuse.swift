//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(Glibc)
import Glibc
#endif

/// Keeps the memory a query frees for the next query of the same process, for the commands that
/// run one query per user (`cadence batch`, `cadence stats --input`).
///
/// Each user's query allocates and frees buffers of megabytes (a chunk's bytes, its decompressed
/// and decoded columns, the rows the source-merging sweep sorts). By default glibc's allocator
/// gives each such buffer its own `mmap` and returns it with `munmap`, and trims the freed top of
/// each thread's heap, so the next user's query faults the same pages in again, zero-filled by the
/// kernel; the mappings and faults of the workers also take turns on the process's one address-space
/// lock. Raising the two thresholds keeps those pages mapped and reused instead: a process holds at
/// most the largest query of each worker (tens of megabytes for a user-year of steps).
enum FreedMemoryReuse {
    /// Buffers below this are carved from the heap, not mapped one by one (glibc's largest).
    static let mappingThreshold: Int32 = 32 << 20
    /// Freed memory at the top of a heap is returned to the system only beyond this much.
    static let trimThreshold: Int32 = 512 << 20

    /// Sets glibc's `M_MMAP_THRESHOLD` and `M_TRIM_THRESHOLD` for this process.
    ///
    /// `mallopt` is declared in `<malloc.h>`, which Swift's Glibc module does not include, so it is
    /// looked up by name in the C library already loaded.
    ///
    /// - Returns: Whether glibc took both settings (`false` on another C library, where nothing is done).
    @discardableResult
    static func enable() -> Bool {
        #if canImport(Glibc)
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "mallopt") else { return false }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        // <malloc.h>: M_TRIM_THRESHOLD is -1, M_MMAP_THRESHOLD is -3 (fixed in glibc's ABI); 1 is success.
        let trimmed = mallopt(-1, trimThreshold)
        let mapped = mallopt(-3, mappingThreshold)
        return trimmed == 1 && mapped == 1
        #else
        return false
        #endif
    }
}
