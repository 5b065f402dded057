//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// Longer than most files on purpose: every element the reader tells apart is parsed here, in the
// hot loop of the tokenizer, where its slot table and caches are one unit of tuned code.

// Tag parsing and element handling for `ExportXMLReader`.

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
        return .complete(next: tagEnd + 1)
    }

    // MARK: Handling elements

    /// Handles a start tag: counts it, builds or extends a record, opens the element.
    ///
    /// - Parameter bytes: The bytes ``slots`` point into, or `nil` for an oversized tag.
    mutating func handleStartTag<Sink: ExportRecordSink>(
        _ element: ElementName, name: UnsafeBufferPointer<UInt8>, bytes: UnsafePointer<UInt8>?,
        isSelfClosing: Bool, problem: String?, line tagLine: Int, handler: inout Sink
    ) throws {
        if openElements.count >= limits.maxDepth {
            throw CadenceError(
                .hostileInput, "elements nest deeper than \(limits.maxDepth) levels at line \(tagLine)",
                path: path, line: tagLine)
        }
        sawElement = true
        var ownsPendingRecord = false
        switch element {
        case .record:
            summary.recordCount += 1
            let isInsideCorrelation = correlationNesting > 0
            if isInsideCorrelation { summary.correlationRecordCount += 1 }
            if let bytes, Self.hasCategoryPrefix(bytes, slots[AttributeSlot.type]) {
                summary.categoryRecordCount += 1
            }
            if Sink.receivesRecordViews, isSelfClosing, problem == nil, pendingRecord == nil, !isInsideCorrelation,
               let bytes, let view = recordView(bytes, line: tagLine) {
                summary.deliveredRecordCount += 1
                try handler.receive(view)
                return
            }
            var record = ExportRecord(
                type: "", sourceName: "", startDate: "", endDate: "", line: tagLine,
                isInsideCorrelation: isInsideCorrelation)
            var recordProblem = problem
            var repairs = 0
            if pendingRecord != nil {
                recordProblem = recordProblem ?? "it sits inside another <Record>"
            } else if recordProblem == nil, let bytes {
                fill(&record, from: bytes, problem: &recordProblem, repairs: &repairs)
            }
            if isSelfClosing {
                try finishRecord(record, problem: recordProblem, repairs: repairs, handler: &handler)
            } else if pendingRecord == nil {
                pendingRecord = record
                pendingProblem = recordProblem
                pendingRepairs = repairs
                ownsPendingRecord = true
            } else {
                try finishRecord(record, problem: recordProblem, repairs: repairs, handler: &handler)
            }
        case .metadataEntry:
            summary.metadataEntryCount += 1
            if pendingRecord != nil && openElements.count == pendingRecordDepth {
                attachMetadataEntry(from: bytes, problem: problem, line: tagLine)
            } else if pendingCorrelation.record != nil && pendingRecord == nil && openElements.count == pendingCorrelation.depth {
                // The correlation's own entry: attached as a record's would be, to the correlation.
                swap(&pendingCorrelation.record, &pendingRecord)
                swap(&pendingCorrelation.problem, &pendingProblem)
                swap(&pendingCorrelation.repairs, &pendingRepairs)
                attachMetadataEntry(from: bytes, problem: problem, line: tagLine)
                swap(&pendingCorrelation.record, &pendingRecord)
                swap(&pendingCorrelation.problem, &pendingProblem)
                swap(&pendingCorrelation.repairs, &pendingRepairs)
            } else if let problem {
                addIssue(line: tagLine, "a <MetadataEntry> was skipped: \(problem)")
            }
        case .correlation:
            summary.correlationCount += 1
            if !isSelfClosing { correlationNesting += 1 }
            if Sink.receivesCorrelations, pendingRecord == nil, pendingCorrelation.record == nil {
                // Delivered after its end tag, or reported there as skipped with the reason.
                var record = ExportRecord(type: "", sourceName: "", startDate: "", endDate: "", line: tagLine)
                record.correlationMemberCount = 0
                var recordProblem = problem
                var repairs = 0
                if recordProblem == nil, let bytes { fill(&record, from: bytes, problem: &recordProblem, repairs: &repairs) }
                pendingCorrelation = PendingCorrelation(record: record, problem: recordProblem, repairs: repairs,
                                                        depth: openElements.count + 1)
                if isSelfClosing { try finishCorrelation(handler: &handler) }
            } else if let problem {
                addIssue(line: tagLine, "a <Correlation> tag is malformed: \(problem)")
            }
        case .workout:
            summary.workoutCount += 1
            if let problem { addIssue(line: tagLine, "a <Workout> tag is malformed: \(problem)") }
        case .activitySummary:
            summary.activitySummaryCount += 1
            if let problem { addIssue(line: tagLine, "an <ActivitySummary> tag is malformed: \(problem)") }
        case .other:
            summary.otherElementCount += 1
            if let problem {
                addIssue(line: tagLine, "a <\(Self.text(name))> tag is malformed: \(problem)")
            }
        }
        if !isSelfClosing {
            openNameBytes.append(contentsOf: name)
            openElements.append(OpenElement(
                name: element, nameEnd: openNameBytes.count, line: tagLine,
                ownsPendingRecord: ownsPendingRecord))
            if ownsPendingRecord { pendingRecordDepth = openElements.count }
        }
    }

    /// Handles an end tag: checks that it closes the innermost element, and delivers a record.
    mutating func handleEndTag<Sink: ExportRecordSink>(
        name: UnsafeBufferPointer<UInt8>, problem: String?, line tagLine: Int,
        handler: inout Sink
    ) throws {
        guard let innermost = openElements.last else {
            throw CadenceError(
                .malformedInput, "the end tag </\(Self.text(name))> at line \(tagLine) closes no element",
                path: path, line: tagLine)
        }
        let nameStart = openElements.count >= 2 ? openElements[openElements.count - 2].nameEnd : 0
        guard openNameBytes[nameStart..<innermost.nameEnd].elementsEqual(name) else {
            let openName = String(decoding: openNameBytes[nameStart..<innermost.nameEnd], as: UTF8.self)
            throw CadenceError(
                .malformedInput,
                "the end tag </\(Self.text(name))> at line \(tagLine) does not match <\(openName)> "
                    + "opened at line \(innermost.line)",
                path: path, line: tagLine)
        }
        if let problem { addIssue(line: tagLine, "an end tag is malformed: \(problem)") }
        openElements.removeLast()
        openNameBytes.removeLast(openNameBytes.count - nameStart)
        switch innermost.name {
        case .record where innermost.ownsPendingRecord:
            if let record = pendingRecord {
                pendingRecord = nil
                try finishRecord(record, problem: pendingProblem, repairs: pendingRepairs, handler: &handler)
            }
        case .correlation:
            correlationNesting -= 1
            if pendingCorrelation.record != nil && openElements.count + 1 == pendingCorrelation.depth {
                try finishCorrelation(handler: &handler)
            }
        default:
            break
        }
    }

    /// Delivers a record, or counts and reports it as malformed.
    private mutating func finishRecord<Sink: ExportRecordSink>(
        _ record: ExportRecord, problem: String?, repairs: Int, handler: inout Sink
    ) throws {
        if let problem {
            summary.malformedRecordCount += 1
            addIssue(line: record.line, "a <Record> was skipped: \(problem)")
            return
        }
        summary.deliveredRecordCount += 1
        summary.repairedValueCount += repairs
        if record.isInsideCorrelation { pendingCorrelation.record?.correlationMemberCount? += 1 }
        try handler.receive(record)
    }

    /// Delivers the pending correlation (after its records), or reports it as malformed.
    private mutating func finishCorrelation<Sink: ExportRecordSink>(handler: inout Sink) throws {
        let pending = pendingCorrelation
        pendingCorrelation = PendingCorrelation()
        guard let record = pending.record else { return }
        if let problem = pending.problem {
            return addIssue(line: record.line, "a <Correlation> was skipped: \(problem)")
        }
        summary.repairedValueCount += pending.repairs
        try handler.receive(record)
    }

    /// Decodes the kept attributes of a `<Record>` tag into `record`.
    private mutating func fill(
        _ record: inout ExportRecord, from bytes: UnsafePointer<UInt8>, problem: inout String?,
        repairs: inout Int
    ) {
        let type = decode(AttributeSlot.type, "type", bytes, &problem, &repairs)
        var sourceName = decode(AttributeSlot.sourceName, "sourceName", bytes, &problem, &repairs)
        if sourceName == nil && slots[AttributeSlot.sourceName].start < 0 {
            sourceName = decode(AttributeSlot.source, "source", bytes, &problem, &repairs)
        }
        record.startTimestamp = timestamp(AttributeSlot.startDate, bytes)
        record.endTimestamp = timestamp(AttributeSlot.endDate, bytes)
        record.creationTimestamp = timestamp(AttributeSlot.creationDate, bytes)
        let startDate = record.startTimestamp != nil ? "" : decode(AttributeSlot.startDate, "startDate", bytes, &problem, &repairs)
        let endDate = record.endTimestamp != nil ? "" : decode(AttributeSlot.endDate, "endDate", bytes, &problem, &repairs)
        record.sourceVersion = decode(AttributeSlot.sourceVersion, "sourceVersion", bytes, &problem, &repairs)
        record.device = decode(AttributeSlot.device, "device", bytes, &problem, &repairs)
        record.unit = decode(AttributeSlot.unit, "unit", bytes, &problem, &repairs)
        if record.creationTimestamp == nil {
            record.creationDate = decode(AttributeSlot.creationDate, "creationDate", bytes, &problem, &repairs)
        }
        record.value = decode(AttributeSlot.value, "value", bytes, &problem, &repairs)
        guard problem == nil else { return }
        problem = Self.missing(type, "type") ?? Self.missing(sourceName, "sourceName")
            ?? (record.startTimestamp == nil ? Self.missing(startDate, "startDate") : nil)
            ?? (record.endTimestamp == nil ? Self.missing(endDate, "endDate") : nil)
        guard problem == nil else { return }
        record.type = type ?? ""
        record.sourceName = sourceName ?? ""
        record.startDate = startDate ?? ""
        record.endDate = endDate ?? ""
    }

    /// Why a required attribute's value is unusable, or nil when it is there and not empty.
    private static func missing(_ value: String?, _ attribute: StaticString) -> String? {
        guard let value else { return "it has no \(attribute) attribute" }
        return value.isEmpty ? "its \(attribute) attribute is empty" : nil
    }

    /// With ``parsesExportDates``, a plain date in the export's format as a timestamp (and no
    /// string is made of it); otherwise nil.
    private mutating func timestamp(_ slot: Int, _ bytes: UnsafePointer<UInt8>) -> Timestamp? {
        parsesExportDates ? exportTimestamp(slot, bytes) : nil
    }

    /// A plain date in the export's format as a timestamp, or nil.
    private mutating func exportTimestamp(_ slot: Int, _ bytes: UnsafePointer<UInt8>) -> Timestamp? {
        let value = slots[slot]
        guard value.start >= 0, value.isPlain, value.end > value.start else { return nil }
        return exportDates.parse(UnsafeBufferPointer(start: bytes + value.start, count: value.end - value.start))
    }

    /// The view of a self-closing `<Record>` tag whose kept attributes all come out as
    /// ``ExportRecordView`` needs them, their repairs counted; nil for any other, which then
    /// takes the ``fill(_:from:problem:repairs:)`` path that reports what is wrong with it.
    private mutating func recordView(_ bytes: UnsafePointer<UInt8>, line: Int) -> ExportRecordView? {
        // iOS 8's exports name the source in `source`: it stands in for `sourceName` for the view
        // alone (the general path reports a problem under the attribute's own name).
        let source = slots[AttributeSlot.source]
        if slots[AttributeSlot.sourceName].start < 0 && source.start >= 0 {
            slots[AttributeSlot.sourceName] = source
            defer { slots[AttributeSlot.sourceName] = ValueSlice() }
            return recordView(bytes, line: line)
        }
        guard let start = exportTimestamp(AttributeSlot.startDate, bytes),
              let end = exportTimestamp(AttributeSlot.endDate, bytes) else { return nil }
        var creation: Timestamp?
        if slots[AttributeSlot.creationDate].start >= 0 {
            guard let parsed = exportTimestamp(AttributeSlot.creationDate, bytes) else { return nil }
            creation = parsed
        }
        let valueSlice = slots[AttributeSlot.value]
        var value: UnsafeBufferPointer<UInt8>?
        if valueSlice.start >= 0 {
            guard valueSlice.isPlain else { return nil }
            value = UnsafeBufferPointer(start: bytes + valueSlice.start, count: valueSlice.end - valueSlice.start)
        }
        var present: UInt8 = 0
        var repairs = 0
        for slot in 0..<AttributeSlot.cachedCount where slots[slot].start >= 0 {
            guard cache(slot, bytes, repairs: &repairs) else { return nil }
            present |= 1 << slot
        }
        let required: UInt8 = 1 << AttributeSlot.type | 1 << AttributeSlot.sourceName
        guard present & required == required, !valueCaches[AttributeSlot.type].value.isEmpty,
              !valueCaches[AttributeSlot.sourceName].value.isEmpty else { return nil }
        summary.repairedValueCount += repairs
        return ExportRecordView(
            line: line, startTimestamp: start, endTimestamp: end, creationTimestamp: creation, value: value,
            texts: valueCaches, presentTexts: present)
    }

    /// Makes the cache of a present slot below ``AttributeSlot/cachedCount`` hold its value,
    /// counting a repair; false when the value is too long to cache or cannot be decoded.
    private mutating func cache(_ slot: Int, _ bytes: UnsafePointer<UInt8>, repairs: inout Int) -> Bool {
        let value = slots[slot]
        let raw = UnsafeBufferPointer(start: bytes + value.start, count: value.end - value.start)
        guard raw.count <= CachedValue.maximumBytes else { return false }
        if !valueCaches[slot].matches(raw) {
            let outcome = value.isPlain
                ? .decoded(XMLAttributeValueDecoder.decodePlain(raw), repaired: false)
                : valueDecoder.decode(raw)
            guard case .decoded(let text, let repaired) = outcome else { return false }
            valueCaches[slot] = CachedValue(raw: Array(raw), value: text, repaired: repaired, isSet: true)
        }
        if valueCaches[slot].repaired { repairs += 1 }
        return true
    }

    /// Adds a `<MetadataEntry>` to the pending record, or marks the record malformed.
    private mutating func attachMetadataEntry(from bytes: UnsafePointer<UInt8>?, problem: String?, line: Int) {
        guard pendingProblem == nil else { return }
        if let problem {
            pendingProblem = "its <MetadataEntry> at line \(line) is malformed: \(problem)"
            return
        }
        guard let bytes else { return }
        if let count = pendingRecord?.metadata.count, count >= limits.maxMetadataEntries {
            pendingProblem = "it has more than \(limits.maxMetadataEntries) <MetadataEntry> children"
            return
        }
        var entryProblem: String?
        var repairs = 0
        let key = decode(AttributeSlot.key, "key", bytes, &entryProblem, &repairs)
        let value = decode(AttributeSlot.value, "value", bytes, &entryProblem, &repairs)
        if let entryProblem {
            pendingProblem = "its <MetadataEntry> at line \(line): \(entryProblem)"
            return
        }
        guard let key, let value else {
            pendingProblem = "its <MetadataEntry> at line \(line) has no \(key == nil ? "key" : "value") attribute"
            return
        }
        pendingRepairs += repairs
        pendingRecord?.metadata.append((key: key, value: value))
    }

    /// Decodes one kept attribute; `nil` if it is absent or cannot be decoded (then `problem`
    /// says why, unless it already held a reason).
    private mutating func decode(
        _ slot: Int, _ attribute: String, _ bytes: UnsafePointer<UInt8>, _ problem: inout String?,
        _ repairs: inout Int
    ) -> String? {
        let value = slots[slot]
        guard value.start >= 0 else { return nil }
        if slot < AttributeSlot.cachedCount && cache(slot, bytes, repairs: &repairs) {
            return valueCaches[slot].value
        }
        let raw = UnsafeBufferPointer(start: bytes + value.start, count: value.end - value.start)
        let outcome = value.isPlain
            ? .decoded(XMLAttributeValueDecoder.decodePlain(raw), repaired: false)
            : valueDecoder.decode(raw)
        switch outcome {
        case .decoded(let text, let repaired):
            if repaired { repairs += 1 }
            return text
        case .rejected(let reason):
            if problem == nil { problem = "attribute \(attribute): \(reason)" }
            return nil
        }
    }

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
