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
/// - Throws: The first error `body` threw, in the order of `items`, after every item ran (typed,
///   so a body that cannot throw needs no `try`).
func concurrentMap<T, R, E: Error>(_ items: [T], parallelism: Int, _ body: (T) throws(E) -> R) throws(E) -> [R] {
    let slots = ResultSlots<Result<R, E>>(count: items.count)
    if parallelism <= 1 || items.count <= 1 {
        for (index, item) in items.enumerated() { slots.set(index, Result { () throws(E) -> R in try body(item) }) }
    } else {
        withoutActuallyEscaping(body) { body in
            let box = UncheckedSendable(body)
            let itemsBox = UncheckedSendable(items)
            DispatchQueue.concurrentPerform(iterations: items.count) { index in
                slots.set(index, Result { () throws(E) -> R in try box.value(itemsBox.value[index]) })
            }
        }
    }
    var results: [R] = []
    results.reserveCapacity(items.count)
    for slot in slots.takeValues() {
        // Consumed, so a result's arrays move into the array returned rather than being retained.
        switch consume slot {
        case .success(let value): results.append(value)
        case .failure(let error): throw error
        }
    }
    return results
}

/// Slots that concurrent iterations each write once, by index.
final class ResultSlots<T>: @unchecked Sendable {
    private var storage: [T?]
    private let lock = NSLock()

    init(count: Int) { storage = [T?](repeating: nil, count: count) }

    /// Stores `value` in slot `index`, moved rather than copied (a partial result holds arrays).
    func set(_ index: Int, _ value: consuming T) {
        lock.lock()
        storage[index] = value
        lock.unlock()
    }

    /// The values set, in order of index, moved out: the slots are empty after.
    func takeValues() -> [T] {
        var values: [T] = []
        values.reserveCapacity(storage.count)
        for index in storage.indices {
            if let value = storage[index].take() { values.append(value) }
        }
        return values
    }
}

/// Wraps a value that is shared read-only across `concurrentPerform` iterations.
struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
