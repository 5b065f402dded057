//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// UTF-8 strings stored end to end, as an Arrow `utf8` array keeps them.
///
/// Strings read from a stream keep the message body they were read from as ``bytes``, so that
/// reading a column copies no text: its strings are the bytes from `offsets[0]` to the last offset.
package struct ArrowStrings: Sendable, Equatable {
    /// `count + 1` offsets into ``bytes``, checked to be non-decreasing and within it.
    package var offsets: [Int]
    package var bytes: [UInt8]

    /// The same strings, whatever buffer holds them.
    package static func == (lhs: ArrowStrings, rhs: ArrowStrings) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.bytes.withUnsafeBufferPointer { left in
            rhs.bytes.withUnsafeBufferPointer { right in
                (0..<lhs.count).allSatisfy { index in
                    left[lhs.offsets[index]..<lhs.offsets[index + 1]].elementsEqual(right[rhs.offsets[index]..<rhs.offsets[index + 1]])
                }
            }
        }
    }

    package init() {
        offsets = [0]
        bytes = []
    }

    /// Strings from checked offsets (the caller's guarantee: non-decreasing, within `bytes`).
    init(checkedOffsets offsets: [Int], bytes: [UInt8]) {
        self.offsets = offsets
        self.bytes = bytes
    }

    package var count: Int { offsets.count - 1 }

    /// The string at `index`; bytes that are not UTF-8 read as U+FFFD.
    package subscript(index: Int) -> String {
        String(decoding: bytes[offsets[index]..<offsets[index + 1]], as: UTF8.self)
    }

    package mutating func append(_ text: String) {
        bytes += text.utf8
        offsets.append(bytes.count)
    }

    /// Appends every string of `other` (a dictionary delta).
    mutating func append(contentsOf other: ArrowStrings) {
        let base = bytes.count - (other.offsets.first ?? 0)
        bytes += other.text
        offsets += other.offsets.dropFirst().map { $0 + base }
    }

    /// The bytes of the strings, end to end (what an Arrow `utf8` array's data buffer holds).
    package var text: ArraySlice<UInt8> { bytes[(offsets.first ?? 0)..<(offsets.last ?? 0)] }
}

/// One column of a record batch, decoded and checked: its values in Swift arrays, so reading a
/// row can no longer leave a buffer.
package struct ArrowColumn: Sendable {
    /// A column's values by kind.
    package indirect enum Values: Sendable {
        /// Integers, and timestamps in their column's unit.
        case integers([Int64])
        case doubles([Double])
        case booleans([Bool])
        case strings(ArrowStrings)
        /// Indices, each checked to be a row of `dictionary`.
        case dictionary(indices: [Int], dictionary: ArrowColumn)
        /// A column of a type Cadence does not read.
        case skipped
    }

    package let field: ArrowField
    package let count: Int
    /// Whether each row holds a value; nil when every row does.
    package let validity: [Bool]?
    package let values: Values

    package init(field: ArrowField, count: Int, validity: [Bool]?, values: Values) {
        self.field = field
        self.count = count
        self.validity = validity
        self.values = values
    }

    /// Whether `row` holds no value (its dictionary entry's nulls included).
    package func isNull(_ row: Int) -> Bool {
        if let validity, !validity[row] { return true }
        if case .dictionary(let indices, let dictionary) = values { return dictionary.isNull(indices[row]) }
        return false
    }

    /// The text at `row`, or nil when it is null or the column holds no text.
    package func string(_ row: Int) -> String? {
        if let validity, !validity[row] { return nil }
        switch values {
        case .strings(let strings): return strings[row]
        case .dictionary(let indices, let dictionary): return dictionary.string(indices[row])
        default: return nil
        }
    }

    /// Calls `body` with the UTF-8 bytes of the text at `row`, or with nil when it is null or the
    /// column holds no text.
    package func withUTF8<Result>(_ row: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        if let validity, !validity[row] { return body(nil) }
        switch values {
        case .strings(let strings):
            return strings.bytes.withUnsafeBufferPointer { bytes in
                body(UnsafeBufferPointer(rebasing: bytes[strings.offsets[row]..<strings.offsets[row + 1]]))
            }
        case .dictionary(let indices, let dictionary): return dictionary.withUTF8(indices[row], body)
        default: return body(nil)
        }
    }

    /// Whether each row holds the same text as the row before it (both null, or the same bytes;
    /// false for the first row and for a column without text): runs of equal text found in one
    /// pass over the buffers, for readers that act once per run.
    ///
    /// - Complexity: O(*n*) in the column's bytes.
    package func repeatsPreviousText() -> [Bool] {
        var repeats = [Bool](repeating: false, count: count)
        guard count > 1 else { return repeats }
        func sameValidity(_ row: Int) -> Bool { validity.map { $0[row] == $0[row - 1] } ?? true }
        switch values {
        case .dictionary(let indices, _):
            for row in 1..<count where indices[row] == indices[row - 1] && sameValidity(row) { repeats[row] = true }
        case .strings(let strings):
            strings.bytes.withUnsafeBufferPointer { bytes in
                strings.offsets.withUnsafeBufferPointer { offsets in
                    for row in 1..<count where sameValidity(row) {
                        if let validity, !validity[row] {
                            repeats[row] = true
                            continue
                        }
                        let start = offsets[row], length = offsets[row + 1] - start
                        let previous = offsets[row - 1]
                        guard length == start - previous else { continue }
                        guard length > 0, let base = bytes.baseAddress else {
                            repeats[row] = true
                            continue
                        }
                        repeats[row] = memcmp(base + start, base + previous, length) == 0
                    }
                }
            }
        default:
            break
        }
        return repeats
    }

    /// The number at `row`, or nil when it is null or not numeric.
    package func double(_ row: Int) -> Double? {
        if let validity, !validity[row] { return nil }
        switch values {
        case .doubles(let doubles): return doubles[row]
        case .integers(let integers): return Double(integers[row])
        case .dictionary(let indices, let dictionary): return dictionary.double(indices[row])
        default: return nil
        }
    }

    /// The instant at `row` in microseconds since 1970 (a naive timestamp read as UTC), or nil when
    /// it is null, not a timestamp, or beyond ``supportedTimestampRange``; sub-microsecond parts
    /// are dropped toward the past.
    package func timestamp(_ row: Int) -> Timestamp? {
        if let validity, !validity[row] { return nil }
        guard case .timestamp(let unit, _) = field.type, case .integers(let integers) = values else { return nil }
        let value = integers[row]
        let micros: Int64
        switch unit {
        case .second:
            let (product, overflow) = value.multipliedReportingOverflow(by: 1_000_000)
            guard !overflow else { return nil }
            micros = product
        case .millisecond:
            let (product, overflow) = value.multipliedReportingOverflow(by: 1_000)
            guard !overflow else { return nil }
            micros = product
        case .microsecond: micros = value
        case .nanosecond: micros = TimestampArithmetic.floorDivide(value, 1_000)
        }
        return supportedTimestampRange.contains(micros) ? micros : nil
    }
}
