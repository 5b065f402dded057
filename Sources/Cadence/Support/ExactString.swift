//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// A string that equals and hashes by its UTF-8 bytes, for text that identifies something: user
/// identifiers, source names, type identifiers and metadata keys.
///
/// Swift's `String ==` is canonical equivalence, so `"café"` precomposed (NFC) equals `"café"`
/// with a combining accent (NFD), and a `[String: X]` keeps one entry for both. Identifiers are
/// data, not prose: two users, sources or types whose names differ in any byte are different
/// (see How Cadence computes, Identity).
package struct ExactString: Hashable, Sendable, CustomStringConvertible {
    /// The text.
    package let string: String

    /// Wraps `string`.
    package init(_ string: String) { self.string = string }

    package var description: String { string }

    package static func == (lhs: ExactString, rhs: ExactString) -> Bool { lhs.string.isIdentical(to: rhs.string) }

    package func hash(into hasher: inout Hasher) { hasher.combineBytes(of: string) }
}

extension String {
    /// Whether the two strings hold the same UTF-8 bytes (unlike `==`, which is canonical equivalence).
    ///
    /// - Complexity: O(length).
    package func isIdentical(to other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        // Native strings compare their bytes at once (device descriptions run to 100 bytes and
        // are compared per record); others byte by byte.
        let contiguous = utf8.withContiguousStorageIfAvailable { lhs in
            other.utf8.withContiguousStorageIfAvailable { rhs in
                guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
                return memcmp(left, right, lhs.count) == 0
            }
        }
        return (contiguous ?? nil) ?? utf8.elementsEqual(other.utf8)
    }
}

extension Optional where Wrapped == String {
    /// Whether both are absent or both hold the same UTF-8 bytes.
    package func isIdentical(to other: String?) -> Bool {
        switch (self, other) {
        case (nil, nil): true
        case let (lhs?, rhs?): lhs.isIdentical(to: rhs)
        default: false
        }
    }
}

extension Hasher {
    /// Feeds the UTF-8 bytes of `string`, and its length so that consecutive strings stay apart.
    package mutating func combineBytes(of string: String) {
        var copy = string
        copy.withUTF8 { bytes in
            combine(bytes.count)
            combine(bytes: UnsafeRawBufferPointer(bytes))
        }
    }

    /// Feeds an optional string's bytes, distinguishing absent from empty.
    package mutating func combineBytes(of string: String?) {
        combine(string != nil)
        if let string { combineBytes(of: string) }
    }
}

extension Dictionary where Key == String {
    /// The value whose key holds exactly `key`'s bytes. Subscripting also finds a key that is only
    /// canonically equivalent (the Kelvin sign `K` finds `K`); for a dictionary whose keys are
    /// pairwise not equivalent, such as Cadence's tables, this finds the one byte-identical key.
    ///
    /// - Complexity: O(1) on average.
    package func exactly(_ key: String) -> Value? {
        guard let index = index(forKey: key), self[index].key.isIdentical(to: key) else { return nil }
        return self[index].value
    }
}

extension String {
    /// Whether the string's UTF-8 bytes start with `prefix`'s (unlike `hasPrefix`, which compares
    /// characters by canonical equivalence).
    package func hasExactPrefix(_ prefix: String) -> Bool { utf8.starts(with: prefix.utf8) }
}
