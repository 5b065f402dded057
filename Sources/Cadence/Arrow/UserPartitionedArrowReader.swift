//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Reads the samples of many users from one Arrow stream — the import CSV's columns plus a user
/// column, rows grouped by user — into one in-memory store per user, handing each user's store
/// over as soon as the user's last row has been read: ``UserPartitionedCSVReader`` for Arrow.
///
///     let reader = UserPartitionedArrowReader(name: "<stdin>")
///     try reader.read(from: { buffer in try standardInput.read(into: buffer) }) { user, store, summary in
///         print(user, try store.execute(query).sumQuantity()?.value ?? 0)
///     }
///
/// Dates are Arrow timestamps (of any unit; a timestamp without a zone is read as UTC) or
/// RFC 3339 text, values numbers or text, and text columns plain or dictionary-encoded. Rows are
/// numbered from 1 across the stream's batches; a rejected row is reported with its number.
public struct UserPartitionedArrowReader {
    /// The name of the user column.
    public var userColumn: String
    /// The input's name in errors and summaries, such as `<stdin>`.
    public var name: String

    /// Creates a reader.
    ///
    /// - Parameters:
    ///   - userColumn: The name of the user column (default `user`).
    ///   - name: The input's name in errors and summaries.
    public init(userColumn: String = "user", name: String) {
        self.userColumn = userColumn
        self.name = name
    }

    /// Reads the whole stream, calling `body` once per user in input order.
    ///
    /// - Parameters:
    ///   - read: Fills the buffer with the next bytes of the stream and returns how many it
    ///     wrote; 0 at the end of the stream.
    ///   - body: Receives the user's identifier, an in-memory store holding the user's samples,
    ///     and what importing them did.
    /// - Returns: How many users were read.
    /// - Throws: ``CadenceError`` with ``CadenceError/Code/malformedInput`` naming the input: a
    ///   malformed stream, a missing column, an empty user, or a user whose rows are not
    ///   consecutive; whatever `read` and `body` throw.
    /// - Complexity: O(*n*) in the size of the stream; memory O(one batch and the largest user's samples).
    @discardableResult
    public func read(from read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int,
                     body: (_ user: String, _ store: HealthStore, _ summary: ImportSummary) throws -> Void) throws -> Int {
        var reader = try ArrowStreamReader(path: name, read: read)
        let columns = try ArrowSampleColumns(reader.schema, path: name)
        guard let userIndex = reader.schema.index(of: userColumn) else {
            throw CadenceError(.malformedInput, "the Arrow schema lacks the user column '\(userColumn)'", path: name)
        }
        var users = UserPartitions(name: name)
        var line = 0

        while let batch = try reader.next() {
            let userValues = batch.columns[userIndex]
            for row in 0..<batch.count {
                line += 1
                try users.rows(of: userValues.string(row) ?? "", line: line, userColumn: userColumn, body: body) {
                    $0.add(row: row, of: batch, columns: columns, line: line)
                }
            }
        }
        try users.finish(body: body)
        return users.count
    }
}
