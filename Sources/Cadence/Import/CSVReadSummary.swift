//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What a ``CSVReader`` saw: rows delivered, rows skipped, and the header.
public struct CSVReadSummary: Sendable, Equatable {
    /// Data rows handed to the handler (the header is not counted).
    public var rowCount = 0
    /// Rows skipped because they were malformed: too long, too many fields, an unterminated
    /// quote. The first few are in ``issues``.
    public var malformedRowCount = 0
    /// Empty lines, which are skipped.
    public var blankLineCount = 0
    /// The header's column names, if the reader expected a header and the file had a row.
    public var columns: CSVColumns?
    /// Bytes read.
    public var byteCount = 0
    /// Lines read.
    public var lineCount = 1
    /// The first problems met, in file order, at most the reader's
    /// ``CSVReader/Options/maxReportedIssues``.
    public var issues: [ImportIssue] = []

    /// Creates an empty summary.
    public init() {}
}
