//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// An import CSV file's reader: its rows go into a ``SampleCollector`` through the columns its
/// header names, on one core or, through a ``SegmentedReader``, on every core in segments cut at
/// line starts.
struct CSVImportReader: SegmentableReader {
    /// The file's rows, as bytes.
    private(set) var reader: CSVReader
    /// The header's columns, found at the first data row.
    private var columns: CSVImportColumns?
    /// The file named in errors.
    let path: String
    /// Entries of series samples, kept until the file is read.
    private var seriesRows = CSVSeriesRows()

    static var blockSize: Int { 1 << 20 }

    /// Creates a reader for the file at `path` (named in errors; the reader never opens it).
    init(path: String) throws {
        reader = try CSVReader(path: path)
        self.path = path
    }

    mutating func feed(_ bytes: UnsafeRawBufferPointer, into collector: inout SampleCollector) throws {
        var columns = self.columns
        // Moved out and back, so that appending does not copy the rows kept so far.
        var series = seriesRows
        seriesRows = CSVSeriesRows()
        defer { (self.columns, seriesRows) = (columns, series) }
        try reader.feedFields(bytes) { row in
            try Self.add(&row, columns: &columns, series: &series, path: path, to: &collector)
        }
    }

    /// Delivers a last row without a line break, then passes the reader's issues (rows it could
    /// not split into fields) to the collector as rejections with their lines.
    mutating func finish(into collector: inout SampleCollector) throws -> CSVReadSummary {
        var columns = self.columns
        var series = seriesRows
        seriesRows = CSVSeriesRows()
        defer { self.columns = columns }
        let path = self.path
        let read = try reader.finishFields { row in
            try Self.add(&row, columns: &columns, series: &series, path: path, to: &collector)
        }
        // A file without data rows still needs a header, and a sound one.
        if columns == nil { columns = try CSVImportColumns(read.columns, path: path) }
        if !series.isEmpty { try collector.add(series.series(store: collector.store, summary: &collector.summary)) }
        for issue in read.issues { collector.summary.reject(line: issue.line, issue.reason) }
        // The reader keeps only the first issues; count the rest without reasons.
        collector.summary.rejected += max(0, read.malformedRowCount - read.issues.count)
        return read
    }

    /// Adds a data row, finding the columns at the first one.
    ///
    /// - Throws: ``CadenceError/Code/malformedInput`` when the header lacks a required column.
    private static func add(_ row: inout CSVFields, columns: inout CSVImportColumns?, series: inout CSVSeriesRows,
                            path: String, to collector: inout SampleCollector) throws {
        if columns == nil { columns = try CSVImportColumns(row.columns, path: path) }
        if let columns, !series.take(&row, columns: columns) { collector.add(&row, columns: columns) }
    }

    // MARK: Segments

    var isBetweenRecords: Bool { reader.isBetweenRows }

    func segmentCopy() -> CSVImportReader {
        var copy = self
        copy.reader = reader.segmentCopy()
        copy.seriesRows = CSVSeriesRows()
        return copy
    }

    func endsLike(_ template: CSVImportReader) -> Bool { reader.isBetweenRows }

    var mayEndFile: Bool { reader.isOutsideQuotes }

    var readCleanly: Bool { reader.summary.malformedRowCount == 0 && reader.summary.issues.isEmpty }

    mutating func absorb(_ segment: CSVImportReader) {
        seriesRows.absorb(segment.seriesRows, lineOffset: reader.line - 1)
        reader.absorb(segment.reader)
        columns = columns ?? segment.columns
    }

    static func recordStart(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, before limit: Int) -> Int? {
        CSVReader.lineStart(in: bytes, from: start, before: limit)
    }

    static func lastRecordStart(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        CSVReader.lastLineStart(in: bytes)
    }
}
