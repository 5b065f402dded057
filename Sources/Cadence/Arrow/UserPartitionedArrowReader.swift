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

        while let batch = try reader.next() {
            let userValues = batch.columns[userIndex]
            // Each column's runs of equal text, found once a batch: a row of the same user, or
            // of another type's same provenance, costs no string and no comparison of its own.
            let sameUser = userValues.repeatsPreviousText()
            let rowKinds = kinds.kinds(of: batch.columns[columns.type])
            let sameProvenance = kinds.keeping == nil ? [] : Self.repeatsPreviousProvenance(batch, columns: columns)
            for row in 0..<batch.count {
                line += 1
                if users.user == nil || row == 0 || !sameUser[row] {
                    let user = userValues.string(row) ?? ""
                    // A batch's first row may continue the user of the batch before.
                    if row > 0 || !(users.user?.isIdentical(to: user) ?? false) {
                        try users.begin(user, line: line, userColumn: userColumn, body: body)
                    }
                }
                switch rowKinds[row] {
                case .collected:
                    users.addToCurrentUser { $0.add(row: row, of: batch, columns: columns, line: line) }
                case .noted(let series):
                    // The row before, of the same user, type and provenance, noted it already.
                    if row > 0, sameProvenance[row], sameUser[row], rowKinds[row - 1] == rowKinds[row] { continue }
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

    /// Whether each row has the type, source, version and device of the row before it.
    private static func repeatsPreviousProvenance(_ batch: ArrowRecordBatch, columns: ArrowSampleColumns) -> [Bool] {
        var repeats = batch.columns[columns.type].repeatsPreviousText()
        for index in [columns.sourceName, columns.sourceVersion, columns.device] {
            guard let index else { continue }
            let same = batch.columns[index].repeatsPreviousText()
            for row in repeats.indices where !same[row] { repeats[row] = false }
        }
        return repeats
    }

    /// The kind of each row of a batch, found from its type column once per distinct type.
    private struct RowKinds {
        /// The type whose rows are collected; nil to collect every row.
        let keeping: QuantityType?
        /// The series met, numbered in order.
        private(set) var series: [String] = []
        private var seriesNumbers: [ExactString: Int] = [:]

        init(keeping: QuantityType?) { self.keeping = keeping }

        /// The kind of each row whose type `types` holds: each distinct entry of a
        /// dictionary-encoded column looked at once, a plain column's text once per run.
        mutating func kinds(of types: ArrowColumn) -> [RowKind] {
            guard keeping != nil else { return [RowKind](repeating: .collected, count: types.count) }
            var kinds: [RowKind] = []
            kinds.reserveCapacity(types.count)
            if case .dictionary(let indices, let dictionary) = types.values {
                let entryKinds = (0..<dictionary.count).map { kind(ofType: dictionary.string($0) ?? "") }
                // A null entry's kind is already `.collected`; only the row's own nulls remain.
                for row in 0..<types.count {
                    kinds.append(types.validity.map { !$0[row] } ?? false ? .collected : entryKinds[indices[row]])
                }
                return kinds
            }
            let repeats = types.repeatsPreviousText()
            for row in 0..<types.count {
                if row > 0, repeats[row] {
                    kinds.append(kinds[row - 1])
                } else {
                    kinds.append(types.isNull(row) ? .collected : kind(ofType: types.string(row) ?? ""))
                }
            }
            return kinds
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
    }
}
