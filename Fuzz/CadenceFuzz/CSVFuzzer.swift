//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// Fuzzes the CSV reader and the CSV importer.
///
/// The first byte of an input picks the options (delimiter, header, tight row and field
/// limits) and how the importer runs (strict, tiny batches); the rest is the file. The reader
/// must deliver the same rows, summary and error whether it is fed the file at once or in small
/// pieces; then the file is imported end to end into an in-memory store, which is queried.
enum CSVFuzzer {
    /// What reading a file gave.
    struct Outcome: Equatable {
        var rows: [String] = []
        var summary: CSVReadSummary?
        var error: CadenceError?
    }

    static func run(_ input: [UInt8]) {
        guard let selector = input.first else { return }
        let body = Array(input.dropFirst())
        let delimiters: [Unicode.Scalar] = [",", ";", "\t", "|"]
        let options = CSVReader.Options(
            delimiter: delimiters[Int(selector & 3)], hasHeader: selector & 4 == 0,
            maxRowBytes: selector & 8 == 0 ? 1 << 20 : 48, maxFieldCount: selector & 16 == 0 ? 10_000 : 4,
            maxReportedIssues: selector & 16 == 0 ? 100 : 1)
        let whole = read(body, options: options, pieces: [body.count])
        let pieces = read(body, options: options, pieces: pieceSizes(selector))
        if whole != pieces {
            fuzzFailure("the CSV reader reads differently in pieces:\n\(whole)\n\(pieces)")
        }
        importFile(body, extension: "csv", strict: selector & 0x40 != 0, batchSize: selector & 0x80 != 0 ? 2 : 100_000)
    }

    /// Piece sizes to feed a file in, cycling.
    static func pieceSizes(_ selector: UInt8) -> [Int] {
        let sizes = [1, 2, 3, 5, 8, 13, 1, 1]
        let first = Int(selector >> 5)
        return Array(sizes[first...] + sizes[..<first])
    }

    /// Reads `bytes` fed in pieces of the sizes given (cycling).
    static func read(_ bytes: [UInt8], options: CSVReader.Options, pieces: [Int]) -> Outcome {
        var outcome = Outcome()
        do {
            var reader = try CSVReader(options: options, path: "fuzz.csv")
            let handler: (CSVRow) -> Void = { row in
                outcome.rows.append("\(row.line): \(row.fields)")
            }
            try forEachPiece(of: bytes, sizes: pieces) { try reader.feed($0, to: handler) }
            outcome.summary = try reader.finish(to: handler)
        } catch let error as CadenceError {
            outcome.error = error
        } catch {
            fuzzFailure("the CSV reader threw a non-Cadence error: \(error)")
        }
        return outcome
    }

    /// Imports `bytes` as a file with the extension given into an in-memory store, then queries,
    /// flushes and queries it.
    static func importFile(_ bytes: [UInt8], extension: String, strict: Bool, batchSize: Int, tightRoutes: Bool = false) {
        let path = NSTemporaryDirectory() + "/cadence-fuzz-\(getpid()).\(`extension`)"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            fuzzFailure("cannot write \(path)")
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = HealthStore.inMemory()
        var importer = HealthDataImporter(store: store, strict: strict, batchSize: batchSize)
        if tightRoutes {
            // Two points a route, three an import: the cuts and refusals of both limits are reached.
            importer.routeLimits.maxPoints = 2
            importer.routePointBudget = 3
        }
        let summary = expectingCadenceErrors("import") { try importer.importFile(atPath: path) }
        if let summary, summary.imported < 0 || summary.rejected < 0 || summary.rejections.count > summary.rejected {
            fuzzFailure("an inconsistent import summary: \(summary)")
        }
        expectingCadenceErrors("queries after import") {
            try LogFuzzer.exercise(store)
            try store.flush()
            try LogFuzzer.exercise(store)
        }
    }
}
