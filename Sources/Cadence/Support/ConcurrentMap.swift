//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Dispatch
import Foundation

/// Maps `items` with `body` on the cores through `DispatchQueue.concurrentPerform`, keeping
/// their order; with a `parallelism` of 1 (or a single item) it runs on the calling thread.
///
/// - Returns: `body` of each item, in the order of `items`.
/// - Throws: The first error `body` threw, in the order of `items`, after every item ran.
func concurrentMap<T, R>(_ items: [T], parallelism: Int, _ body: (T) throws -> R) throws -> [R] {
    let slots = ResultSlots<Result<R, any Error>>(count: items.count)
    if parallelism <= 1 || items.count <= 1 {
        for (index, item) in items.enumerated() { slots.set(index, Result { try body(item) }) }
    } else {
        withoutActuallyEscaping(body) { body in
            let box = UncheckedSendable(body)
            let itemsBox = UncheckedSendable(items)
            DispatchQueue.concurrentPerform(iterations: items.count) { index in
                slots.set(index, Result { try box.value(itemsBox.value[index]) })
            }
        }
    }
    return try slots.values().map { try $0.get() }
}

/// Slots that concurrent iterations each write once, by index.
final class ResultSlots<T>: @unchecked Sendable {
    private var storage: [T?]
    private let lock = NSLock()

    init(count: Int) { storage = [T?](repeating: nil, count: count) }

    func set(_ index: Int, _ value: T) {
        lock.lock()
        storage[index] = value
        lock.unlock()
    }

    func values() -> [T] { storage.compactMap { $0 } }
}

/// Wraps a value that is shared read-only across `concurrentPerform` iterations.
struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
