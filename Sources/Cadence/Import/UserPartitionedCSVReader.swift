//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Reads the samples of many users from one CSV stream — the import CSV's columns plus a user
/// column, rows grouped by user — into one in-memory store per user, handing each user's store
/// over as soon as the user's last row has been read.
///
/// This is the stateless mode for batch engines: one long-lived process reads a whole partition of
/// users from standard input and never writes a store to disk. Only one user's samples are held at
/// a time.
///
///     var reader = UserPartitionedCSVReader(name: "<stdin>")
///     try reader.read(from: { buffer in try standardInput.read(into: buffer) }) { user, store, summary in
///         print(user, try store.execute(query).sumQuantity()?.value ?? 0)
///     }
///
/// Rows of one user must be consecutive; a user whose rows appear again after another user's is
/// an error (sorting by user makes the rows consecutive). Users are told apart byte for byte:
/// `café` precomposed and decomposed are two users (see How Cadence computes, Identity).
public struct UserPartitionedCSVReader {
    /// The header name of the user column.
    public var userColumn: String
    /// The input's name in errors and summaries, such as `<stdin>`.
    public var name: String

    /// Creates a reader.
    ///
    /// - Parameters:
    ///   - userColumn: The header name of the user column (default `user`).
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
    ///     and what importing them did (rows that could not be read are rejected there, with
    ///     their line, and the rest of the user's rows still count).
    /// - Returns: How many users were read.
    /// - Throws: ``CadenceError`` with ``CadenceError/Code/malformedInput`` naming the input and
    ///   the line: no header (an empty stream), a column named twice, a missing column, an empty
    ///   user, or a user whose rows are not consecutive; whatever `read` and `body` throw.
    /// - Complexity: O(*n*) in the size of the stream; memory O(the largest user's samples).
    @discardableResult
    public func read(from read: (UnsafeMutableRawBufferPointer) throws -> Int,
                     body: (_ user: String, _ store: HealthStore, _ summary: ImportSummary) throws -> Void) throws -> Int {
        var reader = try CSVReader(path: name)
        var columns: CSVImportColumns?
        var userIndex = 0
        var users = UserPartitions<HealthStore>(name: name)

        func readHeader(_ header: CSVColumns?) throws {
            columns = try CSVImportColumns(header, path: name)
            guard let index = header?.index(of: userColumn) else {
                throw CadenceError(.malformedInput, "the CSV header lacks the user column '\(userColumn)'",
                                   path: name, line: 1)
            }
            userIndex = index
        }

        let handler: (inout CSVFields) throws -> Void = { row in
            if columns == nil { try readHeader(row.columns) }
            guard let columns else { return }
            try users.rows(of: row.string(userIndex) ?? "", line: row.line, userColumn: userColumn, body: body) {
                $0.add(&row, columns: columns)
            }
        }

        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try read(buffer)
            guard count > 0 else { break }
            try reader.feedFields(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), to: handler)
            try Self.check(reader.summary, name: name)
        }
        let summary = try reader.finishFields(to: handler)
        try Self.check(summary, name: name)
        // A stream without data rows still needs a header, and a sound one.
        if columns == nil { try readHeader(summary.columns) }
        try users.finish(body: body)
        return users.count
    }

    /// Fails on a row the CSV reader could not split into fields: its user is unknown, so it
    /// cannot be counted against one.
    private static func check(_ summary: CSVReadSummary, name: String) throws {
        if let issue = summary.issues.first {
            throw CadenceError(.malformedInput, issue.reason, path: name, line: issue.line)
        }
    }
}
