//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Reads an `export.xml` into a ``SampleCollector`` on every core: the bytes gather into a
/// window, the window is cut at top-level `<Record` tags into one segment per core, and the
/// segments are read and converted at the same time by copies of the reader and the collector.
///
/// A copy assumes that its segment starts between top-level elements, as the file's reader
/// stood when the window began. That is checked afterwards, in file order: a segment counts
/// only if it ended between top-level elements under the same root (so the next copy's
/// assumption held; at the end of the file, after the root), and only if it read cleanly (no malformed markup, no rejected record, no error, no type whose
/// unit is still undecided). From the first segment that fails, the rest of the window is read
/// again by the file's reader alone, so lines, issues and errors come out exactly as a serial
/// reading gives them. A cut inside a `<Correlation>`, a comment or a value only costs speed.
///
/// Memory stays bounded: the window holds at most `segmentBytes` per core plus one block.
struct SegmentedExportReader {
    /// The file's reader: its state is that after every byte handed over so far.
    private(set) var reader: ExportXMLReader
    /// The cores to use.
    let parallelism: Int
    /// The bytes per segment.
    let segmentBytes: Int
    /// Bytes not read yet, starting between top-level elements whenever the reader stands there.
    private var window: [UInt8] = []
    /// Segments whose parallel reading was kept (the rest were read again serially).
    private(set) var segmentsRead = 0

    /// The default bytes per segment: large enough that a window's bookkeeping is noise, small
    /// enough that the window and its batches stay a few tens of megabytes.
    static let defaultSegmentBytes = 8 << 20

    /// Creates a reader that hands records to collectors through `reader`.
    init(reader: ExportXMLReader, parallelism: Int, segmentBytes: Int) {
        self.reader = reader
        self.parallelism = max(1, parallelism)
        self.segmentBytes = max(1, segmentBytes)
        window.reserveCapacity(self.parallelism * self.segmentBytes + ExportXMLReader.blockSize)
    }

    /// Takes the next bytes of the file; when a window is full, reads it into `collector`.
    ///
    /// - Throws: What ``ExportXMLReader/feed(_:to:)`` throws, after the records before the
    ///   damage reached `collector`.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, into collector: inout SampleCollector) throws {
        guard parallelism > 1 else {
            return try reader.feed(bytes, into: &collector)
        }
        window.append(contentsOf: bytes)
        if window.count >= parallelism * segmentBytes { try readWindow(into: &collector, final: false) }
    }

    /// Reads what is left and checks that the file ended where it may.
    mutating func finish(into collector: inout SampleCollector) throws -> ExportReadSummary {
        try readWindow(into: &collector, final: true)
        return try reader.finish()
    }

    // MARK: Windows

    /// One segment's copies after reading it.
    private struct SegmentRead {
        var reader: ExportXMLReader
        var collector: SampleCollector
        var failed: Bool
    }

    /// Reads the window up to its last top-level `<Record` (all of it when `final`), in parallel
    /// where the reader stands between top-level elements, and keeps the rest for later.
    private mutating func readWindow(into collector: inout SampleCollector, final: Bool) throws {
        // Up to the last top-level `<Record`: the reader then most likely stops between elements.
        let end = final ? window.count : window.withUnsafeBufferPointer { Self.lastRecordTag(in: $0) } ?? window.count
        var start = 0
        if !reader.isBetweenTopLevelElements {
            // The prolog, or the rest of an element the last window cut, is read alone.
            start = window.withUnsafeBufferPointer { Self.recordTag(in: $0, from: 0, before: end) } ?? end
            try readSerially(start: 0, end: start, into: &collector)
        }
        let cuts = reader.isBetweenTopLevelElements ? segmentStarts(start: start, end: end) : []
        if cuts.count >= 3 {
            let ranges = zip(cuts, cuts.dropFirst()).map { $0..<$1 }
            let template = reader.segmentCopy()
            let seed = collector.segmentCopy()
            let reads: [SegmentRead] = window.withUnsafeBytes { bytes in
                let shared = UncheckedSendable(bytes)
                return concurrentMap(ranges, parallelism: parallelism) { range in
                    var read = SegmentRead(reader: template, collector: seed, failed: false)
                    do {
                        try read.reader.feed(UnsafeRawBufferPointer(rebasing: shared.value[range]), into: &read.collector)
                    } catch {
                        read.failed = true
                    }
                    return read
                }
            }
            // Keep segments in order while each ends where the next one's copy started (or, at
            // the end of the file, after the root): its lines then all lie behind the reader.
            for (range, read) in zip(ranges, reads) {
                let endsRight = read.reader.endsLike(template) || (final && range.upperBound == end && read.reader.closedRoot)
                guard !read.failed, endsRight, read.reader.readCleanly, read.collector.isClean else { break }
                reader.absorb(read.reader)
                collector.absorb(read.collector)
                segmentsRead += 1
                start = range.upperBound
            }
        }
        try readSerially(start: start, end: end, into: &collector)
        window.removeSubrange(0..<end)
    }

    /// Feeds `window[start..<end]` to the file's reader.
    private mutating func readSerially(start: Int, end: Int, into collector: inout SampleCollector) throws {
        guard start < end else { return }
        try window.withUnsafeBytes { bytes in
            try reader.feed(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), into: &collector)
        }
    }

    /// Where the segments of `window[start..<end]` start, and `end`: `start` and the first
    /// top-level-looking `<Record` after each further `segmentBytes` (a full window has one
    /// segment per core). Fewer than three offsets when it cannot be cut.
    private func segmentStarts(start: Int, end: Int) -> [Int] {
        window.withUnsafeBufferPointer { bytes in
            var cuts = [start]
            let segments = max(1, (end - start + segmentBytes / 2) / segmentBytes)
            for share in 1..<segments {
                let target = start + (end - start) / segments * share
                if let cut = Self.recordTag(in: bytes, from: max(target, cuts[cuts.count - 1] + 1), before: end) {
                    cuts.append(cut)
                }
            }
            cuts.append(end)
            return cuts
        }
    }

    /// Whether a `<Record` tag starts at `index`, alone on its line but for indentation.
    private static func isRecordTag(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let name = "<Record".utf8
        guard index + name.count < bytes.count, bytes[index] == UInt8(ascii: "<") else { return false }
        for (offset, byte) in name.enumerated() where bytes[index + offset] != byte { return false }
        let after = bytes[index + name.count]
        guard after == 0x20 || after == 0x09 || after == 0x0A || after == 0x0D else { return false }
        var before = index - 1
        while before >= 0 && (bytes[before] == 0x20 || bytes[before] == 0x09) { before -= 1 }
        return before >= 0 && bytes[before] == 0x0A
    }

    /// The first `<Record` tag at or after `start` and before `limit`.
    private static func recordTag(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, before limit: Int) -> Int? {
        var index = start
        while index < limit {
            if bytes[index] == UInt8(ascii: "<") && isRecordTag(bytes, at: index) { return index }
            index += 1
        }
        return nil
    }

    /// The last `<Record` tag of the window.
    private static func lastRecordTag(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = bytes.count - 1
        while index > 0 {
            if bytes[index] == UInt8(ascii: "<") && isRecordTag(bytes, at: index) { return index }
            index -= 1
        }
        return nil
    }
}

extension ExportXMLReader {
    /// Whether the reader stands between the elements inside the root, with nothing buffered and
    /// no record or correlation open: where a copy may take over at the next top-level tag.
    var isBetweenTopLevelElements: Bool {
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
        isBetweenTopLevelElements && openNameBytes == template.openNameBytes
    }

    /// Whether the root element has been closed, and nothing after it is open.
    var closedRoot: Bool {
        guard case .content = state, !isFinished else { return false }
        return sawElement && openElements.isEmpty
    }

    /// Whether nothing read was malformed.
    var readCleanly: Bool {
        summary.malformedRecordCount == 0 && summary.malformedWorkoutCount == 0 && summary.issues.isEmpty
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

extension ExportReadSummary {
    /// Adds the counts of a later part of the same file.
    mutating func add(_ other: ExportReadSummary) {
        recordCount += other.recordCount
        correlationRecordCount += other.correlationRecordCount
        categoryRecordCount += other.categoryRecordCount
        deliveredRecordCount += other.deliveredRecordCount
        malformedRecordCount += other.malformedRecordCount
        correlationCount += other.correlationCount
        workoutCount += other.workoutCount
        deliveredWorkoutCount += other.deliveredWorkoutCount
        malformedWorkoutCount += other.malformedWorkoutCount
        activitySummaryCount += other.activitySummaryCount
        metadataEntryCount += other.metadataEntryCount
        otherElementCount += other.otherElementCount
        repairedValueCount += other.repairedValueCount
        byteCount += other.byteCount
        issues += other.issues
    }
}

extension SampleCollector {
    /// Whether everything read went in as it would have in one serial reading.
    var isClean: Bool { summary.rejected == 0 && !metNewUnknownType }
}
