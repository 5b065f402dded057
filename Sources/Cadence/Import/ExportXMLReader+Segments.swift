//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// What a reader of one segment of a file needs from the reader: where it may take over, a copy
// that starts there, and the checks that its assumption held. Kept beside the reader because it
// reads the tokenizer's state.

extension ExportXMLReader: SegmentableReader {
    /// Reads what is left and checks that the file ended where it may (the collector needs nothing more).
    mutating func finish(into collector: inout SampleCollector) throws -> ExportReadSummary { try finish() }

    /// Whether the reader stands between the elements inside the root, with nothing buffered and
    /// no record or correlation open: where a copy may take over at the next top-level tag.
    var isBetweenRecords: Bool {
        guard case .content = state, !isFinished else { return false }
        return openElements.count == 1 && pendingRecord == nil && correlationNesting == 0
    }

    /// A reader for a later segment of the file: the same open root, an empty summary, and
    /// lines counted from 1 at the segment's start.
    func segmentCopy() -> ExportXMLReader {
        var copy = self
        copy.summary = ExportReadSummary()
        copy.line = 1
        // Each thread decodes its own strings: retaining shared ones from two cores makes their
        // reference counts bounce between the cores' caches.
        copy.valueCaches = [CachedValue](repeating: CachedValue(), count: AttributeSlot.cachedCount)
        return copy
    }

    /// Whether this segment reader ended between top-level elements under the same root as
    /// `template`, so that the next segment started where its copy assumed.
    func endsLike(_ template: ExportXMLReader) -> Bool {
        isBetweenRecords && openNameBytes == template.openNameBytes
    }

    /// Whether the root element has been closed, and nothing after it is open.
    var mayEndFile: Bool {
        guard case .content = state, !isFinished else { return false }
        return sawElement && openElements.isEmpty
    }

    /// Whether nothing read was malformed.
    var readCleanly: Bool {
        summary.malformedRecordCount == 0 && summary.malformedWorkoutCount == 0
            && summary.malformedActivitySummaryCount == 0 && summary.issues.isEmpty
    }

    /// Takes the state of a segment copy that read the bytes right after this reader's last
    /// byte, adding its lines and counts to this reader's.
    mutating func absorb(_ segment: ExportXMLReader) {
        let line = self.line + segment.line - 1
        var summary = self.summary
        summary.add(segment.summary)
        summary.lineCount = line
        self = segment
        self.line = line
        self.summary = summary
    }
}

extension ExportXMLReader {
    /// Whether a `<Record` tag starts at `index`, alone on its line but for indentation.
    private static func isTopLevelRecordTag(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let name = "<Record".utf8
        guard index + name.count < bytes.count, bytes[index] == UInt8(ascii: "<") else { return false }
        for (offset, byte) in name.enumerated() where bytes[index + offset] != byte { return false }
        let after = bytes[index + name.count]
        guard after == 0x20 || after == 0x09 || after == 0x0A || after == 0x0D else { return false }
        var before = index - 1
        while before >= 0 && (bytes[before] == 0x20 || bytes[before] == 0x09) { before -= 1 }
        return before >= 0 && bytes[before] == 0x0A
    }

    /// The first `<Record` tag at or after `start` and before `limit`, alone on its line: where a
    /// top-level record most likely starts.
    static func recordStart(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, before limit: Int) -> Int? {
        var index = start
        while index < limit {
            if bytes[index] == UInt8(ascii: "<") && isTopLevelRecordTag(bytes, at: index) { return index }
            index += 1
        }
        return nil
    }

    /// The last `<Record` tag of `bytes` alone on its line.
    static func lastRecordStart(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = bytes.count - 1
        while index > 0 {
            if bytes[index] == UInt8(ascii: "<") && isTopLevelRecordTag(bytes, at: index) { return index }
            index -= 1
        }
        return nil
    }
}
