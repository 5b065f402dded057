//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// An Arrow stream or file of samples in the import CSV's columns (see ``ArrowSampleColumns``),
/// read on one core a record batch at a time. Rows are numbered from 1 across the batches.
struct ArrowFileSource: ImportSource {
    let path: String

    /// Whether a file name says Arrow: `.arrow`, `.arrows`, `.feather` or `.ipc`.
    static func handles(_ path: String) -> Bool {
        let lowercased = path.lowercased()
        return [".arrow", ".arrows", ".feather", ".ipc"].contains { lowercased.hasSuffix($0) }
    }

    func read(into pipeline: inout ImportPipeline) throws {
        let file = try FileByteSource(path: path)
        var bytesRead = 0
        var reader = try ArrowStreamReader(path: path) { buffer in
            let count = try file.read(into: buffer)
            bytesRead += count
            return count
        }
        let columns = try ArrowSampleColumns(reader.schema, path: path)
        var line = 0
        var reported = 0
        while let batch = try reader.next() {
            for row in 0..<batch.count {
                line += 1
                pipeline.collector.add(row: row, of: batch, columns: columns, line: line)
            }
            try pipeline.didRead(bytes: bytesRead - reported)
            reported = bytesRead
        }
        try pipeline.didRead(bytes: bytesRead - reported)
    }
}
