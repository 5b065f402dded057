//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A chunk's block summaries merged bottom-up in aligned runs of 2, 4, 8, … blocks, as a segment
/// tree merges its leaves, so that an interval holding many whole blocks (a local day of hour-long
/// blocks) is answered by O(log *b*) merged summaries instead of one summary a block.
///
/// Level *k* (from 1) holds, for every whole run of blocks [*i* · 2*ᵏ*, (*i* + 1) · 2*ᵏ*), the
/// union of their summaries (``SampleSummary/formUnion(_:)``): a node answers a query exactly when
/// every block under it would (its span, sequences and provenances are the unions of theirs), and
/// its statistics are theirs merged. A partial run at a chunk's end gets no node.
///
/// It is derived in memory when a chunk file is opened, from the block summaries alone (about one
/// merge a block), and kept with the file: nothing is stored, so files of every version get it.
package struct SummaryPyramid: Sendable {
    /// Every level's nodes, level 1 first, each level in order of its runs.
    private let nodes: NodeStorage
    /// Where level *k*'s first node is in ``nodes`` (at `levelStart[k - 1]`), for levels 1 up.
    private let levelStart: [Int]
    /// The number of blocks below level 1.
    private let blockCount: Int

    /// The pyramid over `blocks`.
    ///
    /// - Complexity: O(*b*) merges for *b* blocks.
    package init(blocks: [SampleSummary]) {
        var levelStart: [Int] = []
        var nodeCount = 0
        var levelCount = blocks.count / 2
        while levelCount >= 1 {
            levelStart.append(nodeCount)
            nodeCount += levelCount
            levelCount /= 2
        }
        // Each node is the union of two below it: the blocks for level 1, else the previous level's nodes.
        nodes = NodeStorage(count: nodeCount) { base in
            for (level, start) in levelStart.enumerated() {
                let pairs = (level + 1 < levelStart.count ? levelStart[level + 1] : nodeCount) - start
                let below = level == 0 ? nil : base + levelStart[level - 1]
                for pair in 0..<pairs {
                    var node = below.map { $0[2 * pair] } ?? blocks[2 * pair]
                    node.formUnion(below.map { $0[2 * pair + 1] } ?? blocks[2 * pair + 1])
                    (base + start + pair).initialize(to: node)
                }
            }
        }
        self.levelStart = levelStart
        blockCount = blocks.count
    }

    /// The highest level that has nodes (0 when there is none above the blocks).
    package var topLevel: Int { levelStart.count }

    /// The node covering blocks [`index` · 2^`level`, (`index` + 1) · 2^`level`), by its place
    /// for ``subscript(_:)``, or `nil` when the level has no such node.
    @inline(__always)
    package func node(level: Int, index: Int) -> Int? {
        guard level >= 1, level <= levelStart.count, index >= 0, (index + 1) << level <= blockCount else { return nil }
        return levelStart[level - 1] + index
    }

    /// The summary of the node at `place` (from ``node(level:index:)``), lent in place rather
    /// than copied: a scan reads a few a day of data asked for.
    package subscript(place: Int) -> SampleSummary {
        unsafeAddress {
            precondition(place >= 0 && place < nodes.count, "a pyramid node out of range")
            return UnsafePointer(nodes.base + place)
        }
    }

    /// Calls `body` with the node at `place` where it lies, for a hot loop that changes other
    /// values while it reads the node (a node lent as a value across such changes is copied).
    @inline(__always)
    package func withNode<Result>(_ place: Int, _ body: (UnsafePointer<SampleSummary>) throws -> Result) rethrows -> Result {
        precondition(place >= 0 && place < nodes.count, "a pyramid node out of range")
        return try withExtendedLifetime(nodes) { try body(UnsafePointer(nodes.base + place)) }
    }

    /// The nodes in one allocation of their own, so that a node is read where it lies (an
    /// array's subscript returns a copy, which retains and copies some 200 bytes a node).
    private final class NodeStorage: @unchecked Sendable {
        let base: UnsafeMutablePointer<SampleSummary>
        let count: Int

        /// Storage for `count` nodes, which `initialize` initialises, each once, in order.
        init(count: Int, _ initialize: (UnsafeMutablePointer<SampleSummary>) -> Void) {
            self.count = count
            base = .allocate(capacity: max(count, 1))
            initialize(base)
        }

        deinit {
            base.deinitialize(count: count)
            base.deallocate()
        }
    }
}
