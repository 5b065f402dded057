//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// Byte classes, names and scans for `ExportXMLReader`'s tokenizer.

extension ExportXMLReader {
    // MARK: Byte classes and names

    /// Whether a byte is XML whitespace.
    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// Whether a byte may be part of a name (lenient: anything but whitespace and delimiters).
    @inline(__always)
    static func isNameByte(_ byte: UInt8) -> Bool {
        // One bit per excluded byte, all below 64: a shift and a test instead of a jump table.
        let excluded: UInt64 = 1 << 0x20 | 1 << 0x0A | 1 << 0x09 | 1 << 0x0D | 1 << UInt8(ascii: "/")
            | 1 << UInt8(ascii: ">") | 1 << UInt8(ascii: "=") | 1 << UInt8(ascii: "\"") | 1 << UInt8(ascii: "'")
            | 1 << UInt8(ascii: "<")
        return byte >= 64 || excluded & (1 << UInt64(byte)) == 0
    }

    /// Skips XML whitespace, counting line feeds.
    @inline(__always)
    static func skipWhitespace(
        _ bytes: UnsafePointer<UInt8>, from start: Int, limit: Int, lines: inout Int
    ) -> Int {
        var index = start
        while index < limit {
            let byte = bytes[index]
            guard isWhitespace(byte) else { break }
            lines &+= byte == 0x0A ? 1 : 0
            index += 1
        }
        return index
    }

    /// Skips eight bytes at a time while none is the quote, `&`, a control byte or non-ASCII.
    ///
    /// - Returns: The index of the first such byte, or of the last fewer than eight bytes
    ///   before `limit`.
    @inline(__always)
    static func skipPlainValueBytes(
        _ bytes: UnsafePointer<UInt8>, from start: Int, limit: Int, quote: UInt8
    ) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quotes = ones &* UInt64(quote)
        let ampersands = ones &* UInt64(UInt8(ascii: "&"))
        let raw = UnsafeRawPointer(bytes)
        var index = start
        while limit - index >= 8 {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let quoteBytes = word ^ quotes
            let ampersandBytes = word ^ ampersands
            // A byte is zero in x when (x - 1) borrows into its high bit and x's high bit is clear.
            let isQuote = (quoteBytes &- ones) & ~quoteBytes
            let isAmpersand = (ampersandBytes &- ones) & ~ampersandBytes
            let isControl = (word &- ones &* 0x20) & ~word
            // A borrow can only flag bytes above a byte that really matches, so the lowest flag is exact.
            let flags = (isQuote | isAmpersand | isControl | word) & highs
            if flags != 0 { return index + flags.trailingZeroBitCount >> 3 }
            index += 8
        }
        return index
    }

    /// Counts the line feeds in `bytes[start..<end]`.
    @inline(__always)
    static func countLineFeeds(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var count = 0
        // Eight bytes at a time while they hold no line feed, which is nearly always.
        var index = ByteSearch.skip(bytes, from: start, limit: end, notEqualTo: 0x0A)
        while index < end {
            count &+= bytes[index] == 0x0A ? 1 : 0
            index += 1
        }
        return count
    }

    /// Whether `bytes[start..<end]` spells the ASCII literal.
    @inline(__always)
    static func equals(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard end - start == count else { return false }
        let expected = literal.utf8Start
        var offset = 0
        while offset < count {
            if bytes[start + offset] != expected[offset] { return false }
            offset += 1
        }
        return true
    }

    /// Which element a name is.
    static func elementName(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> ElementName {
        switch end - start {
        case 6 where equals(bytes, start, end, "Record"): .record
        case 13 where equals(bytes, start, end, "MetadataEntry"): .metadataEntry
        case 11 where equals(bytes, start, end, "Correlation"): .correlation
        case 7 where equals(bytes, start, end, "Workout"): .workout
        case 15 where equals(bytes, start, end, "ActivitySummary"): .activitySummary
        default: .other
        }
    }

    /// The slot of a `<Record>` attribute, or `-1` for one the reader ignores.
    static func recordSlot(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        switch end - start {
        case 4:
            if equals(bytes, start, end, "type") { return AttributeSlot.type }
            if equals(bytes, start, end, "unit") { return AttributeSlot.unit }
        case 5 where equals(bytes, start, end, "value"): return AttributeSlot.value
        case 6:
            if equals(bytes, start, end, "device") { return AttributeSlot.device }
            if equals(bytes, start, end, "source") { return AttributeSlot.source }
        case 7 where equals(bytes, start, end, "endDate"): return AttributeSlot.endDate
        case 9 where equals(bytes, start, end, "startDate"): return AttributeSlot.startDate
        case 10 where equals(bytes, start, end, "sourceName"): return AttributeSlot.sourceName
        case 12 where equals(bytes, start, end, "creationDate"): return AttributeSlot.creationDate
        case 13 where equals(bytes, start, end, "sourceVersion"): return AttributeSlot.sourceVersion
        default: break
        }
        return -1
    }

    /// The slot of a `<MetadataEntry>` attribute, or `-1` for one the reader ignores.
    static func metadataSlot(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        if equals(bytes, start, end, "key") { return AttributeSlot.key }
        if equals(bytes, start, end, "value") { return AttributeSlot.value }
        return -1
    }

    /// Whether the raw `type` value starts with `HKCategoryTypeIdentifier`.
    static func hasCategoryPrefix(_ bytes: UnsafePointer<UInt8>, _ value: ValueSlice) -> Bool {
        let prefix: StaticString = "HKCategoryTypeIdentifier"
        let count = prefix.utf8CodeUnitCount
        guard value.start >= 0, value.end - value.start >= count else { return false }
        return equals(bytes, value.start, value.start + count, prefix)
    }

    /// Untrusted bytes made safe to show in a message.
    static func text(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> String {
        XMLAttributeValueDecoder.printable(UnsafeBufferPointer(start: bytes + start, count: end - start))
    }

    /// Untrusted bytes made safe to show in a message.
    static func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        XMLAttributeValueDecoder.printable(bytes)
    }

    /// One byte made safe to show in a message.
    static func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? String(Unicode.Scalar(byte)) : "?"
    }
}

extension ExportXMLReader {
    /// Scans to the `>` that ends a tag, outside quotes, or to `limit`.
    ///
    /// - Parameters:
    ///   - quote: The open quote character (0 when none), carried across calls.
    ///   - last: The last byte that was not whitespace (to tell `/>` from `>`).
    ///   - lines: Incremented for every line feed passed.
    /// - Returns: The index of the `>`, or `limit`.
    /// - Complexity: O(*n*) in the bytes scanned.
    static func scanToTagEnd(_ bytes: UnsafePointer<UInt8>, from start: Int, limit: Int, quote: inout UInt8,
                             last: inout UInt8, lines: inout Int) -> Int {
        var index = start
        while index < limit {
            let byte = bytes[index]
            lines &+= byte == 0x0A ? 1 : 0
            if quote == 0 {
                if byte == UInt8(ascii: ">") { break }
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { quote = byte }
                if !isWhitespace(byte) { last = byte }
            } else if byte == quote {
                quote = 0
            }
            index += 1
        }
        return index
    }
}
