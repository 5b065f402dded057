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
        var users = UserPartitions<HealthStore>(name: name)
        return try self.read(from: read, keeping: nil, into: &users, body: body)
    }

    /// Reads the whole stream keeping the samples of `type` only, calling `body` once per user in
    /// input order with the snapshot a store of the user's samples would give queries on `type`:
    /// ``read(from:body:)`` without the store, for a statistics query on one type.
    ///
    /// Rows of other types are not parsed: a malformed one is not reported. Their sources still
    /// count, in order, as they do in a store holding every sample (see
    /// <doc:HowCadenceComputes#Merging-sources>); the type column is read once per distinct entry
    /// of a dictionary-encoded column, or once per run of equal text.
    ///
    /// - Throws: As ``read(from:body:)``.
    /// - Complexity: O(*n*) in the size of the stream, reading the user, type and source columns
    ///   of every row and the others of `type`'s rows only; memory O(one batch and the largest
    ///   user's samples of `type`).
    @discardableResult
    package func read(from read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int, keeping type: QuantityType,
                      body: (_ user: String, _ snapshot: StoreSnapshot, _ summary: ImportSummary) throws -> Void) throws -> Int {
        var users = UserPartitions<StoreSnapshot>(name: name, type: type, store: HealthStore.inMemory())
        return try self.read(from: read, keeping: type, into: &users, body: body)
    }

    /// What the reader does with a row, by its type.
    private enum RowKind: Equatable {
        /// Collected into its user's samples.
        case collected
        /// Read for its source only, filed under the series numbered so.
        case noted(Int)
        /// Neither: a record no series holds (the collector would count or reject it).
        case skipped
    }

    private func read<Collected>(from read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int, keeping type: QuantityType?,
                                 into users: inout UserPartitions<Collected>,
                                 body: UserPartitions<Collected>.Body) throws -> Int {
        var reader = try ArrowStreamReader(path: name, read: read)
        let columns = try ArrowSampleColumns(reader.schema, path: name)
        guard let userIndex = reader.schema.index(of: userColumn) else {
            throw CadenceError(.malformedInput, "the Arrow schema lacks the user column '\(userColumn)'", path: name)
        }
        var kinds = RowKinds(keeping: type)
        var line = 0
        // The current user's bytes: a row of the same user is told by comparing bytes, no string made.
        var userBytes: [UInt8] = []

        while let batch = try reader.next() {
            let userValues = batch.columns[userIndex]
            kinds.start(batch, columns: columns)
            for row in 0..<batch.count {
                line += 1
                let sameUser = users.user != nil && userValues.withUTF8(row) { $0?.elementsEqual(userBytes) ?? false }
                if !sameUser {
                    let user = userValues.string(row) ?? ""
                    try users.begin(user, line: line, userColumn: userColumn, body: body)
                    userBytes = Array(user.utf8)
                    kinds.userChanged()
                }
                switch kinds.kind(of: row) {
                case .collected:
                    users.addToCurrentUser { $0.add(row: row, of: batch, columns: columns, line: line) }
                case .noted(let series):
                    guard kinds.startsProvenance(row) else { continue }
                    let fields = batch.columns
                    func text(_ index: Int?) -> String? {
                        guard let index, let text = fields[index].string(row), !text.isEmpty else { return nil }
                        return text
                    }
                    // A record without a source is rejected, not stored: it brings no source.
                    guard let source = text(columns.sourceName) else { continue }
                    users.addToCurrentUser {
                        $0.noteProvenance(ofSeries: kinds.series[series], sourceName: source,
                                          sourceVersion: text(columns.sourceVersion), device: text(columns.device))
                    }
                case .skipped:
                    continue
                }
            }
        }
        try users.finish(body: body)
        return users.count
    }

    /// The kind of each row of a batch, found from its type column once per distinct type; and,
    /// for rows read for their source, whether a row starts a new provenance.
    private struct RowKinds {
        /// The type whose rows are collected; nil to collect every row.
        let keeping: QuantityType?
        /// The series met, numbered in order.
        private(set) var series: [String] = []
        private var seriesNumbers: [ExactString: Int] = [:]
        private var batch: ArrowRecordBatch?
        private var columns: ArrowSampleColumns?
        /// The kind of each entry of a dictionary-encoded type column.
        private var entryKinds: [RowKind] = []
        /// The last row of a plain type column whose kind was found, and that kind.
        private var lastTextRow = -1
        private var lastTextKind = RowKind.skipped
        /// The last row whose provenance was noted, in this batch and user; -1 for none.
        private var lastNotedRow = -1

        init(keeping: QuantityType?) { self.keeping = keeping }

        mutating func start(_ batch: ArrowRecordBatch, columns: ArrowSampleColumns) {
            self.batch = batch
            self.columns = columns
            lastTextRow = -1
            lastNotedRow = -1
            guard keeping != nil else { return }
            if case .dictionary(_, let dictionary) = batch.columns[columns.type].values {
                entryKinds = (0..<dictionary.count).map { kind(ofType: dictionary.string($0) ?? "") }
            }
        }

        mutating func userChanged() { lastNotedRow = -1 }

        mutating func kind(of row: Int) -> RowKind {
            guard keeping != nil, let batch, let columns else { return .collected }
            let types = batch.columns[columns.type]
            if types.isNull(row) { return .collected }
            if case .dictionary(let indices, _) = types.values { return entryKinds[indices[row]] }
            if lastTextRow >= 0, Self.sameText(types, lastTextRow, row) { return lastTextKind }
            lastTextRow = row
            lastTextKind = kind(ofType: types.string(row) ?? "")
            return lastTextKind
        }

        /// Whether `row`, read for its source, may bring a provenance the row noted before it did
        /// not: its type, source, version or device differs.
        mutating func startsProvenance(_ row: Int) -> Bool {
            guard let batch, let columns else { return true }
            defer { lastNotedRow = row }
            guard lastNotedRow >= 0 else { return true }
            let fields = batch.columns
            for index in [columns.type, columns.sourceName, columns.sourceVersion, columns.device] {
                guard let index else { continue }
                if !Self.sameText(fields[index], lastNotedRow, row) { return true }
            }
            return false
        }

        /// A row of type `identifier`: collected when it is filed in the type kept, else noted
        /// under its series, or skipped when it has none. A row without a type is collected, for
        /// the collector to reject.
        private mutating func kind(ofType identifier: String) -> RowKind {
            guard !identifier.isEmpty, let keeping else { return .collected }
            guard let seriesIdentifier = SampleCollector.seriesIdentifier(ofRecordType: identifier) else { return .skipped }
            if seriesIdentifier.isIdentical(to: keeping.identifier) { return .collected }
            if let number = seriesNumbers[ExactString(seriesIdentifier)] { return .noted(number) }
            series.append(seriesIdentifier)
            seriesNumbers[ExactString(seriesIdentifier)] = series.count - 1
            return .noted(series.count - 1)
        }

        /// Whether two rows of a text column hold the same text (both null, or the same bytes).
        private static func sameText(_ column: ArrowColumn, _ first: Int, _ second: Int) -> Bool {
            if case .dictionary(let indices, _) = column.values, indices[first] == indices[second],
               column.isNull(first) == column.isNull(second) {
                return true
            }
            return column.withUTF8(first) { left in
                column.withUTF8(second) { right in
                    switch (left, right) {
                    case (nil, nil): true
                    case (let left?, let right?): left.elementsEqual(right)
                    default: false
                    }
                }
            }
        }
    }
}
