//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// Element handling for `ExportXMLReader`: what each start and end tag the tokenizer parsed does to
// the pending record, correlation and open elements, and how kept attributes become values.

extension ExportXMLReader {
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
                pendingMetadataBytes = 0
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
            // Read, or reported with its problem, by `readActivitySummaryTag`.
            summary.activitySummaryCount += 1
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
        if record.isInsideCorrelation { pendingCorrelation.countMember(record) }
        try handler.receive(record)
    }

    /// Delivers the pending correlation (after its records), or reports it as malformed.
    private mutating func finishCorrelation<Sink: ExportRecordSink>(handler: inout Sink) throws {
        let pending = pendingCorrelation
        pendingCorrelation = PendingCorrelation()
        guard let record = pending.record else { return }
        if let problem = pending.problem ?? pending.memberProblem {
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
        pendingMetadataBytes += key.utf8.count + value.utf8.count
        guard pendingMetadataBytes <= limits.maxMetadataBytes else {
            pendingProblem = "its metadata holds more than \(limits.maxMetadataBytes) bytes"
            pendingRecord?.metadata = []
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
}
