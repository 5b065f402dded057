//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// An input format an import reads: its bytes go through its reader into an ``ImportPipeline``.
protocol ImportSource {
    /// Reads the whole input into `pipeline`, calling ``ImportPipeline/didRead(bytes:)`` after each block.
    func read(into pipeline: inout ImportPipeline) throws
}

/// The source for a file, by its extension: `.csv`, `.zip` (an Apple Health `export.zip`), Arrow
/// (`.arrow`, `.arrows`, `.feather`, `.ipc`), or else an `export.xml`.
func importSource(forFileAt path: String) -> any ImportSource {
    let lowercased = path.lowercased()
    if lowercased.hasSuffix(".csv") { return CSVFileSource(path: path) }
    if lowercased.hasSuffix(".zip") { return ExportArchiveSource(path: path) }
    if ArrowFileSource.handles(path) { return ArrowFileSource(path: path) }
    if DocumentFiles.handles(path) { return DocumentFileSource(path: path) }
    return ExportXMLFileSource(path: path)
}

/// A CSV file of the import's columns, read on every core in segments cut at line starts.
struct CSVFileSource: ImportSource {
    let path: String

    func read(into pipeline: inout ImportPipeline) throws {
        var reader = SegmentedReader(reader: try CSVImportReader(path: path), parallelism: pipeline.importer.parallelism,
                                     segmentBytes: pipeline.importer.segmentBytes)
        _ = try reader.readFile(at: path, into: &pipeline)
    }
}

/// An `export.xml` file, read on every core in segments.
struct ExportXMLFileSource: ImportSource {
    let path: String

    func read(into pipeline: inout ImportPipeline) throws {
        var reader = exportReader(path: path, pipeline)
        pipeline.routeFiles = .besideExport(atPath: path)
        do {
            pipeline.collector.note(try reader.readFile(at: path, into: &pipeline))
        } catch {
            throw reader.stopped(by: error, noting: &pipeline)
        }
    }
}

/// An Apple Health `export.zip`: its `export.xml` inflated on a thread of its own, up to a window
/// of segments ahead of the reading, and read like ``ExportXMLFileSource``.
struct ExportArchiveSource: ImportSource {
    let path: String

    func read(into pipeline: inout ImportPipeline) throws {
        let archive = try ExportArchive(path: path)
        var reader = exportReader(path: path + "/" + archive.entryPath, pipeline)
        pipeline.routeFiles = .archive(archive)
        let ahead = max(2, pipeline.importer.parallelism * pipeline.importer.segmentBytes / ExportArchive.streamBlockSize)
        do {
            try readAhead(capacity: ahead, produce: { deliver in try archive.streamExport(to: deliver) }) { block in
                try reader.feed(block, into: &pipeline.collector)
                try pipeline.didRead(bytes: block.count)
            }
            pipeline.collector.note(try reader.finish(into: &pipeline.collector))
        } catch {
            throw reader.stopped(by: error, noting: &pipeline)
        }
        try archive.readDocuments(into: &pipeline)
    }
}

extension SegmentedReader where Reader == ExportXMLReader {
    /// After `error` stopped the reading: notes what the reader saw before it (elements, malformed
    /// records) and the bytes it read before the damage it stopped at, and returns the error naming the line reading stopped at when it names none and
    /// records were read (a broken archive, a failed read; not a file that cannot be opened).
    func stopped(by error: any Error, noting pipeline: inout ImportPipeline) -> any Error {
        pipeline.collector.note(reader.summary)
        // The reader stopped at damage (not the archive, the disk or a save): what it read.
        if reader.isFinished { pipeline.readerStopped(afterBytes: reader.summary.byteCount) }
        guard let error = error as? CadenceError, error.line == nil, pipeline.hasReadRecords else { return error }
        return error.located(path: nil, line: reader.line)
    }
}

extension SegmentedReader {
    /// Reads the whole file at `path` into the pipeline's collector, block by block, reporting
    /// progress after each; returns what the reader reports.
    mutating func readFile(at path: String, into pipeline: inout ImportPipeline) throws -> Reader.Summary {
        let source = try FileByteSource(path: path)
        pipeline.totalBytes = Int(source.size)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Reader.blockSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try source.read(into: buffer)
            guard count > 0 else { break }
            try feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), into: &pipeline.collector)
            try pipeline.didRead(bytes: count)
        }
        return try finish(into: &pipeline.collector)
    }
}

/// A segmented reader for the export at `path` that hands over dates parsed (the collector needs
/// only the instants).
private func exportReader(path: String, _ pipeline: ImportPipeline) -> SegmentedReader<ExportXMLReader> {
    var reader = ExportXMLReader(path: path)
    reader.parsesExportDates = true
    return SegmentedReader(reader: reader, parallelism: pipeline.importer.parallelism,
                           segmentBytes: pipeline.importer.segmentBytes)
}

extension SampleCollector {
    /// Takes the reader's counts of what it does not hand over as records, and its issues.
    mutating func note(_ read: ExportReadSummary) {
        summary.correlations = read.correlationCount
        summary.workouts = read.workoutCount
        summary.activitySummaries = read.activitySummaryCount
        for issue in read.issues { summary.reject(line: issue.line, issue.reason) }
        // The reader keeps only the first issues; count the rest without reasons.
        summary.rejected += max(0, read.malformedRecordCount - read.issues.count)
    }
}
