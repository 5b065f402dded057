//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Runs `produce` on a thread of its own, at most `capacity` blocks ahead of `consume`, which
/// gets the blocks in order on the calling thread: an `export.zip` is inflated (and its CRC
/// computed) while the blocks before are read, instead of in turns with them.
///
/// Memory holds at most `capacity` produced blocks. When `consume` throws, `produce` is
/// stopped (its `deliver` throws) and waited for, and `consume`'s error is rethrown; when
/// `produce` throws, its error is rethrown after every block it delivered before was consumed.
/// No thread is left running when the call returns or throws.
///
/// - Parameters:
///   - capacity: The most blocks produced and not yet consumed (at least 1).
///   - produce: Makes the blocks, handing each to `deliver`, which waits while `capacity`
///     blocks are pending.
///   - consume: Takes each block, in order.
func readAhead(
    capacity: Int, produce: @escaping @Sendable (_ deliver: (UnsafeRawBufferPointer) throws -> Void) throws -> Void,
    consume: (UnsafeRawBufferPointer) throws -> Void
) throws {
    let queue = BlockQueue(capacity: max(1, capacity))
    let producer = Thread {
        do {
            try produce { block in try queue.push(Array(block)) }
            queue.finish(throwing: nil)
        } catch {
            queue.finish(throwing: error)
        }
    }
    producer.start()
    do {
        while let block = try queue.pop() {
            try block.withUnsafeBytes { try consume($0) }
        }
    } catch {
        queue.cancel()
        throw error
    }
}

/// The blocks between the producing thread and the consuming one.
private final class BlockQueue: @unchecked Sendable {
    // Every field is read and written under `condition`'s lock.
    private let condition = NSCondition()
    private let capacity: Int
    private var blocks: [[UInt8]] = []
    private var head = 0
    private var isFinished = false
    private var failure: (any Error)?
    private var isCancelled = false

    /// Why the producer stopped: the consumer gave up.
    struct Cancelled: Error {}

    init(capacity: Int) { self.capacity = capacity }

    /// Adds a block, waiting while the queue is full.
    ///
    /// - Throws: ``Cancelled`` once the consumer gave up.
    func push(_ block: [UInt8]) throws {
        condition.lock()
        defer { condition.unlock() }
        while blocks.count - head >= capacity && !isCancelled { condition.wait() }
        if isCancelled { throw Cancelled() }
        blocks.append(block)
        condition.broadcast()
    }

    /// Marks the end of the blocks, with the producer's error if it failed.
    func finish(throwing error: (any Error)?) {
        condition.lock()
        isFinished = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    /// The next block, waiting for it; nil after the last.
    ///
    /// - Throws: The producer's error, once the blocks before it were taken.
    func pop() throws -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        while head == blocks.count && !isFinished { condition.wait() }
        guard head < blocks.count else {
            if let failure { throw failure }
            return nil
        }
        let block = blocks[head]
        blocks[head] = []
        head += 1
        if head == blocks.count {
            blocks.removeAll(keepingCapacity: true)
            head = 0
        }
        condition.broadcast()
        return block
    }

    /// Stops the producer and waits until it has finished.
    func cancel() {
        condition.lock()
        isCancelled = true
        condition.broadcast()
        while !isFinished { condition.wait() }
        condition.unlock()
    }
}
