//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation
import Synchronization

/// Fuzzes the `export.xml` reader and the export importer (of `export.xml` and `export.zip`).
///
/// The first byte of an input picks the reader's limits (defaults or tight ones), how the
/// file is fed in pieces, how the importer runs (strict, tiny batches), and whether the rest of
/// the input is imported as an `export.xml` or as an `export.zip`. The reader must deliver the
/// same records, summary and error (and bytes read before it) whether it is fed the file at once
/// or in small pieces, and an `export.xml` must import the same read serially and in tiny
/// parallel segments. An `export.zip` with the tight-limits bit is imported with tight route limits.
enum XMLFuzzer {
    /// What reading a file gave.
    struct Outcome: Equatable {
        var records: [String] = []
        var summary: ExportReadSummary?
        var error: CadenceError?
        /// After an error, the bytes the reader counts as read: those before the damage.
        var bytesBeforeError: Int?
    }

    static func run(_ input: [UInt8]) {
        guard let selector = input.first else { return }
        let body = Array(input.dropFirst())
        let isZip = selector & 0x80 != 0
        if !isZip {
            let limits = selector & 1 == 0
                ? ExportXMLReader.Limits()
                : ExportXMLReader.Limits(maxAttributeBytes: 32, maxTagBytes: 0, maxMarkupBytes: 0, maxDepth: 3,
                                         maxMetadataEntries: 2, maxReportedIssues: 2)
            let whole = read(body, limits: limits, pieces: [body.count])
            let pieces = read(body, limits: limits, pieces: CSVFuzzer.pieceSizes(selector << 1))
            if whole != pieces {
                fuzzFailure("the export reader reads differently in pieces:\n\(whole)\n\(pieces)")
            }
            compareSegmentedImport(body, strict: selector & 0x40 != 0, segmentBytes: 8 + Int(selector & 0x1E) * 8)
        }
        if !isZip { readDocument(body) }
        CSVFuzzer.importFile(body, extension: isZip ? "zip" : "xml", strict: selector & 0x40 != 0,
                             batchSize: selector & 0x20 != 0 ? 2 : 100_000, tightRoutes: isZip && selector & 1 != 0)
    }

    /// Reads `bytes` as a CDA document: the header or a ``CadenceError``, and the same twice.
    static func readDocument(_ bytes: [UInt8]) {
        func header() -> Result<CDADocumentReader.Header, CadenceError> {
            do {
                return .success(try CDADocumentReader.read(bytes, path: "document.xml"))
            } catch let error as CadenceError {
                return .failure(error)
            } catch {
                fuzzFailure("the CDA reader threw a non-Cadence error: \(error)")
            }
        }
        if header() != header() { fuzzFailure("the CDA reader reads the same bytes differently") }
    }

    /// Reads `bytes` fed in pieces of the sizes given (cycling).
    static func read(_ bytes: [UInt8], limits: ExportXMLReader.Limits, pieces: [Int]) -> Outcome {
        var outcome = Outcome()
        var reader = ExportXMLReader(limits: limits, path: "export.xml")
        let handler: (ExportRecord) -> Void = { record in
            outcome.records.append(
                "\(record.line) \(record.isInsideCorrelation) \(record.type) \(record.sourceName) "
                    + "\(String(describing: record.sourceVersion)) \(String(describing: record.device)) "
                    + "\(String(describing: record.unit)) \(String(describing: record.creationDate)) "
                    + "\(record.startDate) \(record.endDate) \(String(describing: record.value)) "
                    + "\(record.metadata.map { "\($0.key)=\($0.value)" })")
        }
        do {
            try forEachPiece(of: bytes, sizes: pieces) { try reader.feed($0, to: handler) }
            outcome.summary = try reader.finish()
        } catch let error as CadenceError {
            outcome.error = error
            outcome.bytesBeforeError = reader.summary.byteCount
        } catch {
            fuzzFailure("the export reader threw a non-Cadence error: \(error)")
        }
        return outcome
    }

    /// Imports an `export.xml` serially and in parallel segments of about `segmentBytes`: the
    /// summary (or error) and the stored samples must be the same.
    static func compareSegmentedImport(_ bytes: [UInt8], strict: Bool, segmentBytes: Int) {
        let path = NSTemporaryDirectory() + "/cadence-fuzz-segments-\(getpid()).xml"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            fuzzFailure("cannot write \(path)")
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let serial = importOutcome(path, strict: strict, parallelism: 1, segmentBytes: segmentBytes)
        let segmented = importOutcome(path, strict: strict, parallelism: 2, segmentBytes: segmentBytes)
        if serial != segmented {
            fuzzFailure("the import differs in segments:\n\(serial.joined(separator: "\n"))\n---\n"
                        + segmented.joined(separator: "\n"))
        }
    }

    /// An import's summary or error, then every stored sample, as text.
    static func importOutcome(_ path: String, strict: Bool, parallelism: Int, segmentBytes: Int) -> [String] {
        let store = HealthStore.inMemory()
        var importer = HealthDataImporter(store: store, strict: strict, batchSize: 3, parallelism: parallelism)
        importer.segmentBytes = segmentBytes
        let workouts = Mutex<[String]>([])
        importer.workoutHandler = { batch in
            workouts.withLock { lines in
                lines += batch.map { workout in
                    "\(workout.uuid) \(workout.activityType) \(workout.source.name) \(workout.startDate) \(workout.duration) "
                        + "\(String(describing: workout.totalEnergyBurned)) \(String(describing: workout.totalDistance)) "
                        + "\(workout.metadata.sorted { $0.key < $1.key }) \(workout.events.count) "
                        + "\(workout.statistics.count) \(workout.activities.count) "
                        + "\(workout.routes.map { "\(String(describing: $0.filePath)) \($0.locations.count)" })"
                }
            }
        }
        var lines: [String] = []
        do {
            let summary = try importer.importFile(atPath: path)
            let unknownTypes = summary.unknownTypes.sorted { $0.key < $1.key }
            let unknownValues = summary.unknownCategoryValues.sorted { $0.key < $1.key }
            lines.append("\(summary.imported) \(summary.duplicates) \(summary.rejected) \(summary.rejections) "
                         + "\(unknownTypes) \(unknownValues) \(summary.otherRecords) \(summary.correlationRecords) "
                         + "\(summary.correlations) \(summary.workouts) \(summary.activitySummaries) \(summary.bytesRead) "
                         + "\(summary.workoutRoutes) \(summary.routeIssueCount)")
        } catch {
            lines.append("error: \(error)")
        }
        do {
            for type in try store.info().types {
                guard let quantityType = store.snapshotType(type.identifier) else { continue }
                for sample in try store.execute(SampleQuery(quantityType: quantityType)) {
                    lines.append("\(sample.uuid) \(type.identifier) \(sample.source.name) \(sample.startDate) "
                                 + "\(sample.endDate) \(sample.value) \(sample.metadata.sorted { $0.key < $1.key })")
                }
            }
        } catch {
            fuzzFailure("the imported store cannot be read back: \(error)")
        }
        return lines + workouts.withLock { $0 }
    }
}
