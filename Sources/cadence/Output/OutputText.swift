//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// Output text built as UTF-8 bytes in one growing buffer: dates, numbers, CSV fields and JSON
/// strings are formatted into it directly, without a `String` per field.
///
///     var text = OutputText()
///     text.append("sum,")
///     text.appendNumber(8_123)
///     StandardStreams.writeOutput(text.bytes)
struct OutputText {
    /// The text so far (since the last write, for text that streams to standard output).
    private(set) var bytes: [UInt8] = []
    /// Whether ``writeIfLarge()`` writes the text to standard output once it is large.
    private var streamsToStandardOutput = false

    /// The bytes from which ``writeIfLarge()`` writes streaming text: large enough that a write
    /// costs little per row, small enough to stay in the processor's cache.
    static var streamingWriteCount: Int { 1 << 18 }

    init() {}

    /// Text for standard output, written there in pieces of about ``streamingWriteCount`` bytes
    /// (by ``writeIfLarge()``, which the writers of many rows call between rows) and at
    /// ``writeRemainder()``: output of any length in a buffer of bounded size, one `write` per piece.
    static func streamingToStandardOutput() -> OutputText {
        var text = OutputText()
        text.streamsToStandardOutput = true
        text.bytes.reserveCapacity(streamingWriteCount + (streamingWriteCount >> 2))
        return text
    }

    /// Writes the text so far to standard output and empties it, when it streams there and holds
    /// ``streamingWriteCount`` bytes or more; else nothing.
    ///
    /// A failure to write ends the command, as ``StandardStreams/writeOutput(_:)`` says.
    @inline(__always)
    mutating func writeIfLarge() {
        if streamsToStandardOutput && bytes.count >= Self.streamingWriteCount { writeRemainder() }
    }

    /// Writes the text so far to standard output and empties it.
    ///
    /// A failure to write ends the command, as ``StandardStreams/writeOutput(_:)`` says.
    mutating func writeRemainder() {
        StandardStreams.writeOutput(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    /// The text as a string.
    var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends literal text.
    mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends text.
    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends bytes of UTF-8 text.
    mutating func append(contentsOf text: some Sequence<UInt8>) {
        bytes.append(contentsOf: text)
    }

    /// Appends one ASCII byte.
    mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends `count` spaces.
    mutating func appendSpaces(_ count: Int) {
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
    }

    /// Appends an instant as RFC 3339 in the zone of `dates` (as ``formatRFC3339(_:timeZone:)``).
    mutating func appendRFC3339(_ timestamp: Timestamp, dates: inout RFC3339Writer) {
        appendASCII(maximumCount: RFC3339Writer.maximumCount) { $0.appendRFC3339(timestamp, dates: &dates) }
    }

    /// Appends a finite number as JSON writes it: whole numbers that a `Double` holds exactly
    /// without a fraction (and `0` for negative zero), others in the shortest form that reads back
    /// as the same `Double`; a number that is not finite as `null`.
    mutating func appendNumber(_ number: Double) {
        appendASCII(maximumCount: ASCIIWriter.numberMaximumCount) { $0.appendNumber(number) }
    }

    /// Appends what `write` writes into scratch memory of `maximumCount` bytes, in one append:
    /// a row's dates and numbers are formatted straight into memory, with no array growth per field.
    ///
    ///     text.appendASCII(maximumCount: 2 * RFC3339Writer.maximumCount + 1) { row in
    ///         row.appendRFC3339(start, dates: &dates)
    ///         row.append(byte: UInt8(ascii: ","))
    ///         row.appendRFC3339(end, dates: &dates)
    ///     }
    @inline(__always)
    mutating func appendASCII(maximumCount: Int, _ write: (inout ASCIIWriter) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumCount) { scratch in
            guard let base = scratch.baseAddress else { return }
            var writer = ASCIIWriter(base: base, capacity: maximumCount)
            write(&writer)
            bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: writer.count))
        }
    }

    /// Appends an integer in decimal.
    mutating func appendInteger(_ integer: Int64) {
        if integer < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = integer.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for the 19 digits of any Int64, filled from the end
        withUnsafeMutableBytes(of: &digits) { scratch in
            var position = scratch.count
            repeat {
                position -= 1
                scratch[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: scratch[position...])
        }
    }

    /// Appends `text` as one CSV field (RFC 4180): quoted, with quotes doubled, when it holds a
    /// comma, a quote or a line break, or begins or ends with a space.
    mutating func appendCSVField(_ text: String) {
        let needsQuotes = text.utf8.contains {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r")
        }
        guard needsQuotes || text.hasPrefix(" ") || text.hasSuffix(" ") else { return append(text) }
        append("\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"")
    }

    /// Appends `text` as a quoted JSON string, escaping quotes, backslashes and control characters.
    mutating func appendJSONString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case UInt8(ascii: "\n"): append("\\n")
            case UInt8(ascii: "\r"): append("\\r")
            case UInt8(ascii: "\t"): append("\\t")
            case 0..<0x20, 0x7F:
                append("\\u00")
                let hex: StaticString = "0123456789abcdef"
                bytes.append(hex.utf8Start[Int(byte >> 4)])
                bytes.append(hex.utf8Start[Int(byte & 0xF)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

/// ASCII text written into scratch memory that ``OutputText/appendASCII(maximumCount:_:)`` lends:
/// each call needs room for its most bytes (``numberMaximumCount``, ``RFC3339Writer/maximumCount``,
/// one for a byte), which the scratch memory's size must have counted in.
struct ASCIIWriter {
    /// The most bytes ``appendNumber(_:)`` writes.
    static var numberMaximumCount: Int { numberTextMaximumCount }

    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// The bytes written so far.
    private(set) var count = 0

    fileprivate init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// Appends one ASCII byte.
    @inline(__always)
    mutating func append(byte: UInt8) {
        reserve(1)
        base[count] = byte
        count &+= 1
    }

    /// Appends a number as ``OutputText/appendNumber(_:)`` does.
    @inline(__always)
    mutating func appendNumber(_ number: Double) {
        reserve(Self.numberMaximumCount)
        guard number.isFinite else {
            for byte in "null".utf8 { append(byte: byte) }
            return
        }
        count &+= writeOutputNumber(number, to: base + count)
    }

    /// Appends an instant as RFC 3339 in the zone of `dates`.
    @inline(__always)
    mutating func appendRFC3339(_ timestamp: Timestamp, dates: inout RFC3339Writer) {
        reserve(RFC3339Writer.maximumCount)
        count &+= dates.write(timestamp, to: base + count)
    }

    /// Stops when the scratch memory was sized too small for what its writer was given: writing
    /// on would overrun it.
    @inline(__always)
    private func reserve(_ bytes: Int) {
        precondition(capacity - count >= bytes, "ASCIIWriter: scratch memory of \(capacity) bytes is too small")
    }
}

/// Writes the members of one JSON object or the elements of one array into ``OutputText``, on
/// one line or indented by two spaces per level, as ``JSONValue/serialized(compact:)`` lays them out.
struct JSONContainerWriter {
    /// The container's own indentation, or `nil` for one line.
    let indentation: Int?
    private let closing: StaticString
    private var itemCount = 0

    /// Opens an object (`{`) or, with `array`, an array (`[`).
    init(array: Bool = false, indentation: Int?, into text: inout OutputText) {
        self.indentation = indentation
        closing = array ? "]" : "}"
        text.append(array ? "[" : "{")
    }

    /// The indentation of the values inside.
    var innerIndentation: Int? { indentation.map { $0 + 2 } }

    /// Starts the next element of an array.
    mutating func beginElement(into text: inout OutputText) {
        if itemCount > 0 { text.append(byte: UInt8(ascii: ",")) }
        if let indentation {
            text.append(byte: UInt8(ascii: "\n"))
            text.appendSpaces(indentation + 2)
        }
        itemCount += 1
    }

    /// Starts the next member of an object: its key and the colon.
    mutating func beginMember(_ key: String, into text: inout OutputText) {
        beginElement(into: &text)
        text.appendJSONString(key)
        if indentation == nil { text.append(byte: UInt8(ascii: ":")) } else { text.append(": ") }
    }

    /// Closes the container (`{}` or `[]` when it is empty).
    func close(into text: inout OutputText) {
        if itemCount > 0, let indentation {
            text.append(byte: UInt8(ascii: "\n"))
            text.appendSpaces(indentation)
        }
        text.append(closing)
    }
}
