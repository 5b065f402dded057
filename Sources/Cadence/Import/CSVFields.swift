//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// The fields of the row a ``CSVReader`` is reading or delivering, kept as bytes; a field's
/// string is made only when asked for, and taken from the row before when the column's bytes
/// repeat (files repeat type, source, unit and device from row to row).
///
/// A reader reuses one value for every row, so a row costs no allocation once the buffers have
/// grown; a handler may read it only during the call that receives it.
struct CSVFields {
    /// The 1-based line where the row starts.
    var line = 1
    /// The header's column names, when the file has a header.
    var columns: CSVColumns?

    /// The row's unescaped field bytes, one field after another, in the first ``byteCount``
    /// bytes: the array only grows, so that adding bytes is one copy into room already there.
    private var bytes: [UInt8] = []
    private var byteCount = 0
    /// Where each completed field ends in ``bytes``.
    private var ends: [Int] = []
    /// The strings made for this row's fields so far, by column; sized only once one is made, so
    /// that a row read as bytes alone costs nothing here.
    private var strings: [String?] = []
    /// The previous row's bytes, field ends and strings.
    private var previousBytes: [UInt8] = []
    private var previousEnds: [Int] = []
    private var previousStrings: [String?] = []

    /// The number of completed fields.
    var count: Int { ends.count }

    /// Whether the row holds no byte yet.
    var isEmpty: Bool { byteCount == 0 }

    /// Adds bytes to the field being read.
    mutating func append(_ start: UnsafePointer<UInt8>, count: Int) {
        guard count > 0 else { return }
        let offset = byteCount
        byteCount += count
        if byteCount > bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(byteCount - bytes.count, bytes.count))) }
        bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { ($0 + offset).update(from: start, count: count) }
        }
    }

    /// Adds bytes to the field being read.
    mutating func append(contentsOf other: ArraySlice<UInt8>) {
        other.withUnsafeBufferPointer { other in
            if let base = other.baseAddress { append(base, count: other.count) }
        }
    }

    /// Completes the field being read.
    mutating func endField() {
        ends.append(byteCount)
    }

    /// Drops what the row holds.
    mutating func clear() {
        byteCount = 0
        ends.removeAll(keepingCapacity: true)
        if !strings.isEmpty { strings.removeAll(keepingCapacity: true) }
    }

    /// Ends the row: it becomes the previous row, whose strings the next one may reuse.
    mutating func finishRow() {
        swap(&bytes, &previousBytes)
        swap(&ends, &previousEnds)
        swap(&strings, &previousStrings)
        clear()
    }

    /// Calls `body` with the row's fields as plain buffers, which reading a field through does not
    /// retain or copy the row's storage.
    func withView<Result>(_ body: (View) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBufferPointer { bytes in
            try ends.withUnsafeBufferPointer { ends in
                try body(View(line: line, bytes: UnsafeBufferPointer(rebasing: bytes[..<byteCount]), ends: ends))
            }
        }
    }

    /// A delivered row's fields, borrowed as buffers for the duration of ``withView(_:)``.
    struct View {
        /// The 1-based line where the row starts.
        let line: Int
        /// The row's field bytes, one field after another.
        let bytes: UnsafeBufferPointer<UInt8>
        /// Where each field ends in ``bytes``.
        let ends: UnsafeBufferPointer<Int>

        /// Whether the field at `index` is missing or empty.
        func isEmpty(_ index: Int) -> Bool {
            guard index < ends.count else { return true }
            return ends[index] == (index == 0 ? 0 : ends[index - 1])
        }

        /// The bytes of the field at `index`, or nil when the row is shorter.
        func field(_ index: Int) -> UnsafeBufferPointer<UInt8>? {
            guard index < ends.count else { return nil }
            return UnsafeBufferPointer(rebasing: bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]])
        }

        /// Whether the fields at `index` and `other` hold the same bytes (both missing counts as equal).
        func field(_ index: Int, equals other: Int) -> Bool {
            let first = field(index), second = field(other)
            guard let first, let second else { return first == nil && second == nil }
            guard first.count == second.count else { return false }
            guard let firstBase = first.baseAddress, let secondBase = second.baseAddress else { return true }
            return memcmp(firstBase, secondBase, first.count) == 0
        }
    }

    /// The field at `index` as a string (invalid UTF-8 becomes U+FFFD), or nil when the row is shorter.
    mutating func string(_ index: Int) -> String? {
        guard index < ends.count else { return nil }
        if index < strings.count, let made = strings[index] { return made }
        let start = index == 0 ? 0 : ends[index - 1]
        let end = ends[index]
        let made: String
        if let repeated = previousString(index, equalTo: start..<end) {
            made = repeated
        } else {
            made = bytes.withUnsafeBufferPointer { String(decoding: $0[start..<end], as: UTF8.self) }
        }
        if strings.count < ends.count { strings.append(contentsOf: repeatElement(nil, count: ends.count - strings.count)) }
        strings[index] = made
        return made
    }

    /// Every field as a string.
    mutating func allStrings() -> [String] {
        (0..<ends.count).map { string($0) ?? "" }
    }

    /// The row as a ``CSVRow``.
    mutating func row() -> CSVRow {
        CSVRow(line: line, fields: allStrings(), columns: columns)
    }

    /// The previous row's string for a column, if it was made and its bytes equal `range` of ``bytes``.
    private func previousString(_ index: Int, equalTo range: Range<Int>) -> String? {
        guard index < previousEnds.count, index < previousStrings.count, let string = previousStrings[index] else { return nil }
        let previousStart = index == 0 ? 0 : previousEnds[index - 1]
        guard previousEnds[index] - previousStart == range.count else { return nil }
        guard !range.isEmpty else { return string }
        let equal = bytes.withUnsafeBytes { current in
            previousBytes.withUnsafeBytes { previous in
                guard let currentBase = current.baseAddress, let previousBase = previous.baseAddress else { return false }
                return memcmp(currentBase + range.lowerBound, previousBase + previousStart, range.count) == 0
            }
        }
        return equal ? string : nil
    }
}
