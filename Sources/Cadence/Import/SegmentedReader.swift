//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A reader of a file's records into a ``SampleCollector`` that a ``SegmentedReader`` can run on
/// several segments of the file at once: it says where a record may start, makes copies that
/// start there, and tells afterwards whether a copy's assumption held.
protocol SegmentableReader {
    /// What reading the whole file reports.
    associatedtype Summary

    /// The smallest block worth reading on its own; a window holds one beyond its segments.
    static var blockSize: Int { get }

    /// Reads the next bytes of the file into `collector`.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, into collector: inout SampleCollector) throws

    /// Reads what is left and checks that the file ended where it may.
    mutating func finish(into collector: inout SampleCollector) throws -> Summary

    /// Whether the reader stands between records, where a copy may take over.
    var isBetweenRecords: Bool { get }

    /// A reader for a later segment: the same context (header, open root), nothing counted, and
    /// lines counted from 1 at the segment's start.
    func segmentCopy() -> Self

    /// Whether this segment reader ended where the next segment's copy, made from `template`,
    /// assumed it would start.
    func endsLike(_ template: Self) -> Bool

    /// Whether this reader, having read the last segment of the file, stands where the file may
    /// end as a serial reading would see it.
    var mayEndFile: Bool { get }

    /// Whether nothing read was malformed (a copy that met damage is read again serially, so that
    /// lines and reasons come out exactly).
    var readCleanly: Bool { get }

    /// Takes the state of a segment copy that read the bytes right after this reader's last
    /// byte, adding its lines and counts to this reader's.
    mutating func absorb(_ segment: Self)

    /// Where a record most likely starts, at or after `start` and before `limit`.
    static func recordStart(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, before limit: Int) -> Int?

    /// Where the last record of `bytes` most likely starts.
    static func lastRecordStart(in bytes: UnsafeBufferPointer<UInt8>) -> Int?
}

/// Reads a file into a ``SampleCollector`` on every core: the bytes gather into a window, the
/// window is cut where records most likely start into one segment per core, and the segments
/// are read and converted at the same time by copies of the reader and the collector.
///
/// A copy assumes that its segment starts between records, as the file's reader stood when the
/// window began. That is checked afterwards, in file order: a segment counts only if it ended
/// between records as the next copy assumed (at the end of the file, where the file may end),
/// and only if it read cleanly (no malformed record, no rejected one, no error, no type whose
/// unit is still undecided). From the first segment that fails, the rest of the window is read
/// again by the file's reader alone, so lines, issues and errors come out exactly as a serial
/// reading gives them. A cut in the wrong place (inside an XML `<Correlation>` or comment, inside
/// a quoted CSV field) only costs speed.
///
/// Memory stays bounded: the window holds at most `segmentBytes` per core plus one block.
struct SegmentedReader<Reader: SegmentableReader> {
    /// The file's reader: its state is that after every byte handed over so far.
    private(set) var reader: Reader
    /// The cores to use.
    let parallelism: Int
    /// The bytes per segment.
    let segmentBytes: Int
    /// Bytes not read yet, starting between records whenever the reader stands there.
    private var window: [UInt8] = []
    /// Segments whose parallel reading was kept (the rest were read again serially).
    private(set) var segmentsRead = 0

    /// Creates a reader that hands records to collectors through `reader`.
    init(reader: Reader, parallelism: Int, segmentBytes: Int) {
        self.reader = reader
        self.parallelism = max(1, parallelism)
        self.segmentBytes = max(1, segmentBytes)
        window.reserveCapacity(self.parallelism * self.segmentBytes + Reader.blockSize)
    }

    /// Takes the next bytes of the file; when a window is full, reads it into `collector`.
    ///
    /// - Throws: What the reader throws, after the records before the damage reached `collector`.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, into collector: inout SampleCollector) throws {
        guard parallelism > 1 else {
            return try reader.feed(bytes, into: &collector)
        }
        window.append(contentsOf: bytes)
        if window.count >= parallelism * segmentBytes { try readWindow(into: &collector, final: false) }
    }

    /// Reads what is left and checks that the file ended where it may.
    mutating func finish(into collector: inout SampleCollector) throws -> Reader.Summary {
        try readWindow(into: &collector, final: true)
        return try reader.finish(into: &collector)
    }

    // MARK: Windows

    /// One segment's copies after reading it.
    private struct SegmentRead {
        var reader: Reader
        var collector: SampleCollector
        var failed: Bool
    }

    /// Reads the window up to where its last record starts (all of it when `final`), in parallel
    /// where the reader stands between records, and keeps the rest for later.
    private mutating func readWindow(into collector: inout SampleCollector, final: Bool) throws {
        // Up to the last record's start: the reader then most likely stops between records.
        let end = final ? window.count : window.withUnsafeBufferPointer { Reader.lastRecordStart(in: $0) } ?? window.count
        var start = 0
        if !reader.isBetweenRecords {
            // The file's start, or the rest of a record the last window cut, is read alone.
            start = window.withUnsafeBufferPointer { Reader.recordStart(in: $0, from: 0, before: end) } ?? end
            try readSerially(start: 0, end: start, into: &collector)
        }
        let cuts = reader.isBetweenRecords ? segmentStarts(start: start, end: end) : []
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
            // the end of the file, where the file may end): its lines then all lie behind the reader.
            for (range, read) in zip(ranges, reads) {
                let endsRight = read.reader.endsLike(template) || (final && range.upperBound == end && read.reader.mayEndFile)
                guard !read.failed, endsRight, read.reader.readCleanly, read.collector.isClean,
                      collector.sources.hasRoom(for: read.collector.sources),
                      collector.types.hasRoom(for: read.collector.types) else { break }
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
    /// likely record start after each further `segmentBytes` (a full window has one segment per
    /// core). Fewer than three offsets when it cannot be cut.
    private func segmentStarts(start: Int, end: Int) -> [Int] {
        window.withUnsafeBufferPointer { bytes in
            var cuts = [start]
            let segments = max(1, (end - start + segmentBytes / 2) / segmentBytes)
            for share in 1..<segments {
                let target = start + (end - start) / segments * share
                if let cut = Reader.recordStart(in: bytes, from: max(target, cuts[cuts.count - 1] + 1), before: end) {
                    cuts.append(cut)
                }
            }
            cuts.append(end)
            return cuts
        }
    }
}

extension SampleCollector {
    /// Whether everything read went in as it would have in one serial reading.
    var isClean: Bool { summary.rejected == 0 && !metNewUnknownType && refusal == nil }
}
