//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension RandomAccessCollection where Index == Int {
    /// The first index in `range` whose element satisfies `predicate`, for a predicate that is
    /// false for a prefix of the range and true for the rest (`range.upperBound` when it is never
    /// true): the one binary search every sorted lookup in Cadence uses.
    ///
    /// - Complexity: O(log *n*) calls of `predicate` for *n* elements in `range`.
    @inlinable @inline(__always)
    package func partitionPoint(in range: Range<Int>? = nil, where predicate: (Element) throws -> Bool) rethrows -> Int {
        var low = range?.lowerBound ?? startIndex
        var high = range?.upperBound ?? endIndex
        while low < high {
            let middle = (low &+ high) >> 1
            if try predicate(self[middle]) { high = middle } else { low = middle &+ 1 }
        }
        return low
    }
}
