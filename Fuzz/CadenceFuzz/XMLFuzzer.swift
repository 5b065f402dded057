//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence

/// Fuzzes the `export.xml` reader and the export importer (of `export.xml` and `export.zip`).
///
/// The first byte of an input picks the reader's limits (defaults or tight ones), how the
/// file is fed in pieces, how the importer runs (strict, tiny batches), and whether the rest of
/// the input is imported as an `export.xml` or as an `export.zip`. The reader must deliver the
/// same records, summary and error whether it is fed the file at once or in small pieces.
enum XMLFuzzer {
    /// What reading a file gave.
    struct Outcome: Equatable {
        var records: [String] = []
        var summary: ExportReadSummary?
        var error: CadenceError?
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
        }
        CSVFuzzer.importFile(body, extension: isZip ? "zip" : "xml", strict: selector & 0x40 != 0,
                             batchSize: selector & 0x20 != 0 ? 2 : 100_000)
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
            try bytes.withUnsafeBytes { buffer in
                var offset = 0
                var piece = 0
                while offset < buffer.count {
                    let end = min(buffer.count, offset + max(1, pieces[piece % pieces.count]))
                    try reader.feed(UnsafeRawBufferPointer(rebasing: buffer[offset..<end]), to: handler)
                    offset = end
                    piece += 1
                }
            }
            outcome.summary = try reader.finish()
        } catch let error as CadenceError {
            outcome.error = error
        } catch {
            fuzzFailure("the export reader threw a non-Cadence error: \(error)")
        }
        return outcome
    }
}
