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
            try checkSeries(store)
            try store.flush()
            try LogFuzzer.exercise(store)
            try checkSeries(store)
        }
    }

    /// Checks every quantity type's samples against their entries (series read from CSV rows
    /// naming a `sample`, or ordinary samples, each its own entry): each sample has `count`
    /// entries, all inside its interval, whose sum (cumulative) or average (discrete) is its
    /// value, and the entries grouped by sample are the entries merged by start.
    static func checkSeries(_ store: HealthStore) throws {
        for entry in store.snapshot().types.values where SampleKind(identifier: entry.type.identifier) == .quantity {
            let type = entry.type
            let samples = try store.execute(SampleQuery(quantityType: type))
            let merged = try store.execute(QuantitySeriesSampleQuery(quantityType: type, includeSample: true))
            let grouped = try store.execute(QuantitySeriesSampleQuery(quantityType: type, includeSample: true,
                                                                      orderByQuantitySampleStartDate: true))
            func described(_ entries: [QuantitySeriesSampleQuery.Entry]) -> [String] {
                entries.map { "\($0.sample?.uuid as Any) \($0.dateInterval) \($0.quantity.value)" }.sorted()
            }
            if described(merged) != described(grouped) {
                fuzzFailure("\(type.identifier): the entries merged by start and grouped by sample differ")
            }
            if zip(merged, merged.dropFirst()).contains(where: { $0.dateInterval.start > $1.dateInterval.start }) {
                fuzzFailure("\(type.identifier): entries are not in ascending start order")
            }
            let byOwner = Dictionary(grouping: merged) { $0.sample?.uuid }
            if byOwner.count != samples.count || byOwner[nil] != nil {
                fuzzFailure("\(type.identifier): \(samples.count) samples own entries of \(byOwner.count) owners")
            }
            for sample in samples {
                let entries = byOwner[sample.uuid] ?? []
                guard entries.count == sample.count else {
                    fuzzFailure("\(type.identifier): sample \(sample.uuid) counts \(sample.count) entries, lists \(entries.count)")
                }
                // A `DateInterval` keeps a start and a duration, so its end can lie a few `Double` steps
                // (of the largest of start, end and duration) past the sample's `endDate` for the same
                // instant: far from 2001, or over centuries, a step is microseconds.
                let start = sample.startDate.timeIntervalSinceReferenceDate
                let end = sample.endDate.timeIntervalSinceReferenceDate
                let slack = 4 * max(start.magnitude, end.magnitude, end - start).ulp
                for entry in entries where entry.dateInterval.start < sample.startDate
                    || entry.dateInterval.end.timeIntervalSinceReferenceDate > end + slack {
                    fuzzFailure("\(type.identifier): an entry \(entry.dateInterval) lies outside its sample \(sample.dateInterval)")
                }
                let values = entries.map(\.quantity.value)
                let sum = values.reduce(0, +)
                let expected = type.aggregationStyle == .cumulative ? sum : sum / Double(max(1, values.count))
                let tolerance = 1e-9 * max(1, values.map(abs).reduce(0, +))
                if !(abs(sample.value - expected) <= tolerance) {
                    fuzzFailure("\(type.identifier): sample \(sample.uuid) has value \(sample.value), its entries make \(expected)")
                }
            }
        }
    }
}
