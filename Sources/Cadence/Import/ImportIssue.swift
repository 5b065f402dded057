//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// One problem an import met and stepped over: where it was and why it was skipped (a record the
/// import rejected is one too, ``ImportSummary/Rejection``).
///
/// Readers keep going after a malformed record or row; they count every one and keep the first
/// few as issues in their summary (``ExportReadSummary/issues``, ``CSVReadSummary/issues``), so
/// that a person can find and fix the input.
public struct ImportIssue: Sendable, Codable, Equatable, CustomStringConvertible {
    /// The 1-based line of the input where the skipped record or row starts.
    public var line: Int
    /// One sentence that says what was wrong.
    public var reason: String

    /// Creates an issue.
    ///
    /// - Parameters:
    ///   - line: The 1-based line where the skipped record or row starts.
    ///   - reason: One sentence that says what was wrong.
    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    /// `line N: reason`.
    public var description: String { "line \(line): \(reason)" }
}
