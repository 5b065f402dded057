//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// Tag parsing for `ExportXMLReader`: the slot table and caches of the tokenizer's hot loop, and
// the tags it gathers, skips and parses. What an element does once parsed is in
// `ExportXMLReader+Elements.swift`; byte classes and names are in `ExportXMLReader+Bytes.swift`.

extension ExportXMLReader {
    /// The elements the reader tells apart.
    enum ElementName {
        case record, metadataEntry, correlation, workout, activitySummary, other
    }

    /// An element whose end tag has not been read yet.
    struct OpenElement {
        /// What the element is.
        var name: ElementName
        /// Where its name ends in ``ExportXMLReader/openNameBytes``.
        var nameEnd: Int
        /// The line of its start tag.
        var line: Int
        /// Whether it is the record in ``ExportXMLReader/pendingRecord``.
        var ownsPendingRecord: Bool
    }

    /// Where an attribute value lies in the bytes being parsed.
    struct ValueSlice {
        /// The index of its first byte, or `-1` when the attribute was absent.
        var start = -1
        /// The index after its last byte.
        var end = -1
        /// Whether it holds only printable ASCII without `&`, so it can be copied as is.
        var isPlain = true
    }

    /// The attributes the reader keeps, as indexes into ``ExportXMLReader/slots``.
    enum AttributeSlot {
        static let type = 0, sourceName = 1, sourceVersion = 2, device = 3, unit = 4
        static let creationDate = 5, startDate = 6, endDate = 7, value = 8, source = 9
        /// `<MetadataEntry key=...>` shares the first slot; its `value` uses ``value``.
        static let key = 0
        static let count = 10
        /// Slots below this one are looked up in ``ExportXMLReader/valueCaches``.
        static let cachedCount = 5
    }

    /// Ten ``ValueSlice``s, stored inline so that writing one does not copy or check an array.
    struct SlotTable {
        private var slot0 = ValueSlice(), slot1 = ValueSlice(), slot2 = ValueSlice(), slot3 = ValueSlice()
        private var slot4 = ValueSlice(), slot5 = ValueSlice(), slot6 = ValueSlice(), slot7 = ValueSlice()
        private var slot8 = ValueSlice(), slot9 = ValueSlice()

        /// The slice in slot `index` (`0..<AttributeSlot.count`); others read as absent.
        subscript(index: Int) -> ValueSlice {
            @inline(__always) get {
                switch index {
                case 0: slot0
                case 1: slot1
                case 2: slot2
                case 3: slot3
                case 4: slot4
                case 5: slot5
                case 6: slot6
                case 7: slot7
                case 8: slot8
                case 9: slot9
                default: ValueSlice()
                }
            }
            @inline(__always) set {
                switch index {
                case 0: slot0 = newValue
                case 1: slot1 = newValue
                case 2: slot2 = newValue
                case 3: slot3 = newValue
                case 4: slot4 = newValue
                case 5: slot5 = newValue
                case 6: slot6 = newValue
                case 7: slot7 = newValue
                case 8: slot8 = newValue
                case 9: slot9 = newValue
                default: break
                }
            }
        }
    }

    /// A decoded value kept with its raw bytes, to reuse when the same bytes come again.
    struct CachedValue {
        /// The longest value kept.
        static let maximumBytes = 512
        var raw: [UInt8] = []
        var value = ""
        var repaired = false
        var isSet = false

        /// Whether `bytes` are the bytes this value was decoded from.
        func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard isSet, raw.count == bytes.count, let other = bytes.baseAddress else { return false }
            return raw.withUnsafeBytes { mine in
                guard let base = mine.baseAddress else { return bytes.isEmpty }
                var offset = 0
                let count = bytes.count
                let theirs = UnsafeRawPointer(other)
                while count - offset >= 8 {
                    let left = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    let right = theirs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    if left != right { return false }
                    offset += 8
                }
                while offset < count {
                    if base.load(fromByteOffset: offset, as: UInt8.self)
                        != theirs.load(fromByteOffset: offset, as: UInt8.self) { return false }
                    offset += 1
                }
                return true
            }
        }
    }

    /// A tag longer than ``Limits/maxTagBytes`` being skipped.
    struct OversizedTag {
        var name: [UInt8] = []
        var element: ElementName = .other
        var isEndTag = false
        var quote: UInt8 = 0
        var lastSignificantByte: UInt8 = 0
        var line = 1
        var bytes = 0
    }

    /// What came of parsing a tag.
    enum TagScan {
        /// The tag was complete and has been handled; reading goes on at this index.
        case complete(next: Int)
        /// The bytes ended first; the tag is to be gathered in ``ExportXMLReader/carry``, and
        /// the bytes ended inside a quoted value (`quote`) or not (`0`).
        case incomplete(quote: UInt8)
        /// The tag is longer than ``Limits/maxTagBytes``; it is skipped from this index on.
        case oversized(resume: Int)
    }

    // MARK: Gathering a tag cut by a block boundary

    /// Gathers the rest of a tag that started in an earlier block, then parses it.
    mutating func continueTag<Sink: ExportRecordSink>(
        _ bytes: UnsafePointer<UInt8>, from start: Int, count: Int, quote quoteAtStart: UInt8,
        handler: inout Sink
    ) throws -> Int {
        var quote = quoteAtStart
        var index = start
        let room = max(0, limits.maxTagBytes - carry.count)
        let end = count - start > room ? start + room : count
        while index < end {
            let byte = bytes[index]
            if quote == 0 {
                if byte == UInt8(ascii: ">") { break }
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { quote = byte }
            } else if byte == quote {
                quote = 0
            }
            index += 1
        }
        if index < end {
            carry.append(contentsOf: UnsafeBufferPointer(start: bytes + start, count: index + 1 - start))
            try parseCarry(expectingEnd: true, handler: &handler)
            return index + 1
        }
        carry.append(contentsOf: UnsafeBufferPointer(start: bytes + start, count: end - start))
        if carry.count >= limits.maxTagBytes {
            try parseCarry(expectingEnd: false, handler: &handler)
            return end
        }
        state = .tag(quote: quote)
        return end
    }

    /// Parses the tag gathered in ``carry``: a complete tag, or the first
    /// ``Limits/maxTagBytes`` bytes of an oversized one.
    private mutating func parseCarry<Sink: ExportRecordSink>(expectingEnd: Bool, handler: inout Sink) throws {
        var gathered: [UInt8] = []
        swap(&gathered, &carry)
        defer {
            swap(&gathered, &carry)
            carry.removeAll(keepingCapacity: true)
        }
        let consistent = try gathered.withUnsafeBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            switch try scanTag(base, start: 0, limit: buffer.count, handler: &handler) {
            case .complete(let next):
                state = .content
                return expectingEnd && next == buffer.count
            case .incomplete:
                return false
            case .oversized(let resume):
                state = .oversizedTag
                guard !expectingEnd else { return false }
                let next = try continueOversizedTag(base, from: resume, count: buffer.count, handler: &handler)
                return next == buffer.count
            }
        }
        guard consistent else {
            throw CadenceError(
                .malformedInput, "the tag that starts at line \(constructLine) cannot be parsed",
                path: path, line: constructLine)
        }
    }

    // MARK: Skipping an oversized tag

    /// Skips the rest of a tag longer than ``Limits/maxTagBytes`` and handles its element.
    mutating func continueOversizedTag<Sink: ExportRecordSink>(
        _ bytes: UnsafePointer<UInt8>, from start: Int, count: Int, handler: inout Sink
    ) throws -> Int {
        var quote = oversized.quote
        var last = oversized.lastSignificantByte
        var lines = 0
        let index = Self.scanToTagEnd(bytes, from: start, limit: count, quote: &quote, last: &last, lines: &lines)
        line += lines
        oversized.bytes += index - start
        if oversized.bytes > limits.maxMarkupBytes {
            throw CadenceError(
                .hostileInput,
                "a tag that starts at line \(oversized.line) runs for more than \(limits.maxMarkupBytes) "
                    + "bytes without closing",
                path: path, line: oversized.line)
        }
        guard index < count else {
            oversized.quote = quote
            oversized.lastSignificantByte = last
            return count
        }
        state = .content
        let skipped = oversized
        let problem = "its tag is longer than \(limits.maxTagBytes) bytes"
        try skipped.name.withUnsafeBufferPointer { name in
            if skipped.isEndTag {
                try handleEndTag(name: name, problem: problem, line: skipped.line, handler: &handler)
            } else {
                try handleStartTag(
                    skipped.element, name: name, bytes: nil, isSelfClosing: last == UInt8(ascii: "/"),
                    problem: problem, line: skipped.line, handler: &handler)
            }
            if readsWorkoutTag(skipped.element) {
                try readWorkoutTag(
                    nil, name: name, isEndTag: skipped.isEndTag, isSelfClosing: last == UInt8(ascii: "/"),
                    problem: problem, line: skipped.line, handler: &handler)
            }
            if skipped.element == .activitySummary && !skipped.isEndTag {
                try readActivitySummaryTag(nil, problem: problem, line: skipped.line, handler: &handler)
            }
        }
        return index + 1
    }

    // MARK: Parsing a tag

    /// Parses the tag at `bytes[start] == "<"` and, when it is complete, handles it.
    ///
    /// Attribute syntax is read leniently: a name without `=value` is ignored (iOS 8 wrote
    /// attribute names with spaces), and any other slip makes the element malformed while the
    /// tag's end is found by skipping to the first `>` outside quotes. Nothing is changed
    /// unless the tag is complete, except when it turns out oversized.
    mutating func scanTag<Sink: ExportRecordSink>(
        _ bytes: UnsafePointer<UInt8>, start: Int, limit: Int, handler: inout Sink
    ) throws -> TagScan {
        let maxTagBytes = limits.maxTagBytes
        let hardLimit = limit - start > maxTagBytes ? start + maxTagBytes : limit
        var index = start + 1
        var isEndTag = false
        if index < hardLimit && bytes[index] == UInt8(ascii: "/") {
            isEndTag = true
            index += 1
        }
        let nameStart = index
        while index < hardLimit && Self.isNameByte(bytes[index]) { index += 1 }
        let nameEnd = index
        if nameEnd - nameStart > Self.maximumNameBytes {
            throw CadenceError(
                .hostileInput,
                "an element name at line \(constructLine) is longer than \(Self.maximumNameBytes) bytes",
                path: path, line: constructLine)
        }
        let element = Self.elementName(bytes, nameStart, nameEnd)
        let keepsAttributes = element == .record || element == .metadataEntry || element == .correlation
        if keepsAttributes {
            slots = SlotTable()
        }
        var problem: String?
        if nameEnd == nameStart && index < hardLimit { problem = "a tag has no element name" }
        var isSelfClosing = false
        var tagEnd = -1
        var outOfBytesQuote: UInt8 = 0
        var lines = 0

        attributes: while problem == nil {
            index = Self.skipWhitespace(bytes, from: index, limit: hardLimit, lines: &lines)
            guard index < hardLimit else { break attributes }
            let byte = bytes[index]
            if byte == UInt8(ascii: ">") {
                tagEnd = index
                break attributes
            }
            if byte == UInt8(ascii: "/") && !isEndTag {
                guard index + 1 < hardLimit else {
                    index += 1
                    break attributes
                }
                if bytes[index + 1] == UInt8(ascii: ">") {
                    isSelfClosing = true
                    tagEnd = index + 1
                    break attributes
                }
                problem = "a '/' inside a tag is not followed by '>'"
                index += 1
                break attributes
            }
            if isEndTag {
                problem = "an end tag holds more than its name"
                break attributes
            }
            let attributeStart = index
            while index < hardLimit && Self.isNameByte(bytes[index]) { index += 1 }
            let attributeEnd = index
            guard index < hardLimit else { break attributes }
            if attributeEnd == attributeStart {
                problem = "a tag holds a stray '\(Self.describe(byte))'"
                break attributes
            }
            index = Self.skipWhitespace(bytes, from: index, limit: hardLimit, lines: &lines)
            guard index < hardLimit else { break attributes }
            guard bytes[index] == UInt8(ascii: "=") else { continue attributes }
            index += 1
            index = Self.skipWhitespace(bytes, from: index, limit: hardLimit, lines: &lines)
            guard index < hardLimit else { break attributes }
            let quote = bytes[index]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                problem = "attribute \(Self.text(bytes, attributeStart, attributeEnd)) has a value without quotes"
                break attributes
            }
            index += 1
            let valueStart = index
            var isPlain = true
            index = Self.skipPlainValueBytes(bytes, from: index, limit: hardLimit, quote: quote)
            while index < hardLimit {
                let valueByte = bytes[index]
                if valueByte == quote { break }
                index += 1
                if valueByte < 0x20 || valueByte >= 0x80 || valueByte == UInt8(ascii: "&") {
                    // Once the value needs decoding, only its closing quote matters.
                    isPlain = false
                    index = ByteSearch.skip(bytes, from: index, limit: hardLimit, notEqualTo: quote)
                }
            }
            guard index < hardLimit else {
                outOfBytesQuote = quote
                break attributes
            }
            let valueEnd = index
            index += 1
            if !isPlain { lines += Self.countLineFeeds(bytes, valueStart, valueEnd) }
            if valueEnd - valueStart > limits.maxAttributeBytes {
                problem = "attribute \(Self.text(bytes, attributeStart, attributeEnd)) is longer than "
                    + "\(limits.maxAttributeBytes) bytes"
            } else if keepsAttributes {
                let slot = element != .metadataEntry
                    ? Self.recordSlot(bytes, attributeStart, attributeEnd)
                    : Self.metadataSlot(bytes, attributeStart, attributeEnd)
                if slot >= 0 {
                    if slots[slot].start >= 0 {
                        problem = "attribute \(Self.text(bytes, attributeStart, attributeEnd)) appears twice"
                    } else {
                        slots[slot] = ValueSlice(start: valueStart, end: valueEnd, isPlain: isPlain)
                    }
                }
            }
        }

        if tagEnd < 0 && problem != nil {
            // Recover: the tag ends at the first '>' outside quotes.
            var quote: UInt8 = 0
            var last: UInt8 = index > start ? bytes[index - 1] : 0
            index = Self.scanToTagEnd(bytes, from: index, limit: hardLimit, quote: &quote, last: &last, lines: &lines)
            if index < hardLimit {
                tagEnd = index
                isSelfClosing = !isEndTag && last == UInt8(ascii: "/")
            } else {
                outOfBytesQuote = quote
            }
        }

        guard tagEnd >= 0 else {
            // The bytes ran out before the tag's end.
            guard index - start >= maxTagBytes else { return .incomplete(quote: outOfBytesQuote) }
            oversized = OversizedTag(
                name: Array(UnsafeBufferPointer(start: bytes + nameStart, count: nameEnd - nameStart)),
                element: element, isEndTag: isEndTag, quote: outOfBytesQuote,
                lastSignificantByte: outOfBytesQuote == 0 && index > start ? bytes[index - 1] : 0,
                line: constructLine, bytes: index - start)
            line += Self.countLineFeeds(bytes, start, index)
            return .oversized(resume: index)
        }

        let tagLine = constructLine
        line += lines
        let name = UnsafeBufferPointer(start: bytes + nameStart, count: nameEnd - nameStart)
        if isEndTag {
            try handleEndTag(name: name, problem: problem, line: tagLine, handler: &handler)
        } else {
            try handleStartTag(
                element, name: name, bytes: bytes, isSelfClosing: isSelfClosing, problem: problem,
                line: tagLine, handler: &handler)
        }
        if readsWorkoutTag(element) {
            try readWorkoutTag(
                UnsafeBufferPointer(start: bytes + start, count: tagEnd + 1 - start), name: name, isEndTag: isEndTag,
                isSelfClosing: isSelfClosing, problem: problem, line: tagLine, handler: &handler)
        }
        if element == .activitySummary && !isEndTag {
            try readActivitySummaryTag(
                UnsafeBufferPointer(start: bytes + start, count: tagEnd + 1 - start), problem: problem, line: tagLine,
                handler: &handler)
        }
        return .complete(next: tagEnd + 1)
    }
}
