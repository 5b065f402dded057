//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// Fuzzes the Arrow reader, writer and the user-partitioned Arrow import.
///
/// The first byte picks the piece sizes the reader is fed in; the rest is an Arrow stream or file.
/// The reader must read the same rows (or fail with the same error) fed at once and in pieces;
/// what it reads, written again by Cadence's writer, must read back the same; and the input is
/// then read as users' samples, each user's store queried.
enum ArrowFuzzer {
    static func run(_ input: [UInt8]) {
        guard let selector = input.first else { return }
        let body = Array(input.dropFirst())
        let whole = read(body, pieces: [max(1, body.count)])
        let pieces = read(body, pieces: CSVFuzzer.pieceSizes(selector))
        guard whole.rows == pieces.rows, whole.error == pieces.error else {
            fuzzFailure("the Arrow reader reads differently in pieces:\n\(whole)\n\(pieces)")
        }
        if whole.error == nil, let schema = whole.schema, !whole.batches.isEmpty { rewrite(whole, schema: schema) }
        readUsers(body)
    }

    struct Outcome {
        var schema: ArrowSchema?
        var batches: [ArrowRecordBatch] = []
        var rows: [String] = []
        var error: CadenceError?
    }

    static func read(_ bytes: [UInt8], pieces: [Int]) -> Outcome {
        var outcome = Outcome()
        var offset = 0
        var piece = 0
        do {
            var reader = try ArrowStreamReader(path: "fuzz.arrow") { buffer in
                let count = min(buffer.count, bytes.count - offset, pieces[piece % pieces.count])
                piece += 1
                bytes[offset..<(offset + count)].withUnsafeBytes { buffer.copyMemory(from: $0) }
                offset += count
                return count
            }
            outcome.schema = reader.schema
            while let batch = try reader.next() {
                outcome.batches.append(batch)
                outcome.rows += rows(of: batch)
            }
        } catch let error as CadenceError {
            outcome.error = error
        } catch {
            fuzzFailure("the Arrow reader threw a non-Cadence error: \(error)")
        }
        return outcome
    }

    /// Every value of every row through the reader's accessors (which must not trap).
    static func rows(of batch: ArrowRecordBatch) -> [String] {
        (0..<batch.count).map { row in
            batch.columns.map { column in
                "\(column.string(row) ?? "-")|\(column.double(row).map { $0.isNaN ? "nan" : "\($0)" } ?? "-")|\(column.timestamp(row) ?? 0)"
            }.joined(separator: ",")
        }
    }

    /// Writes what was read with plain columns only (the writer's kinds) and reads it back.
    static func rewrite(_ outcome: Outcome, schema: ArrowSchema) {
        let plain = schema.fields.indices.filter { index in
            outcome.batches.allSatisfy { batch in
                switch batch.columns[index].values {
                case .integers, .doubles, .booleans, .strings: true
                case .dictionary, .skipped: false
                }
            }
        }
        let written = ArrowSchema(fields: plain.map { schema.fields[$0] })
        let batches = outcome.batches.map { batch in
            ArrowRecordBatch(schema: written, count: batch.count, columns: plain.map { batch.columns[$0] })
        }
        var bytes: [UInt8] = []
        expectingCadenceErrors("writing Arrow") {
            var writer = try ArrowStreamWriter(schema: written, format: .stream) { bytes += $0 }
            for batch in batches { try writer.write(batch) }
            try writer.finish()
        }
        let again = read(bytes, pieces: [max(1, bytes.count)])
        guard again.error == nil, again.rows == batches.flatMap(rows(of:)) else {
            fuzzFailure("Arrow written by Cadence reads back differently: \(String(describing: again.error))")
        }
    }

    /// Reads the input as users' samples and queries each user's store.
    static func readUsers(_ bytes: [UInt8]) {
        var offset = 0
        expectingCadenceErrors("reading users") {
            try UserPartitionedArrowReader(name: "fuzz.arrow").read(from: { buffer in
                let count = min(buffer.count, bytes.count - offset)
                bytes[offset..<(offset + count)].withUnsafeBytes { buffer.copyMemory(from: $0) }
                offset += count
                return count
            }) { _, store, _ in
                let query = try StatisticsQuery(quantityType: .stepCount, options: [.cumulativeSum, .separateBySource])
                _ = try store.execute(query)
            }
        }
    }
}
