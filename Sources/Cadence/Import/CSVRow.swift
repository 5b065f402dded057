//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// One row of a CSV file: its fields, the line where it starts, and the header's names.
///
///     let summary = try CSVReader.read(fileAt: "heart_rate.csv") { row in
///         guard let value = row["value"] else { return }
///         print(row.line, value)
///     }
public struct CSVRow: Sendable {
    /// The 1-based line where the row starts (a quoted field may run over several lines).
    public var line: Int
    /// The fields, unquoted, with `""` turned into `"`. Invalid UTF-8 became U+FFFD.
    public var fields: [String]
    /// The header's column names, when the file has a header.
    public var columns: CSVColumns?

    /// Creates a row.
    ///
    /// - Parameters:
    ///   - line: The 1-based line where the row starts.
    ///   - fields: The fields.
    ///   - columns: The header's column names.
    public init(line: Int, fields: [String], columns: CSVColumns? = nil) {
        self.line = line
        self.fields = fields
        self.columns = columns
    }

    /// The field at `index`, or `nil` if the row is shorter.
    public subscript(index: Int) -> String? {
        fields.indices.contains(index) ? fields[index] : nil
    }

    /// The field under the column named `name`, or `nil` if there is no such column or the
    /// row is shorter than the header.
    public subscript(column name: String) -> String? {
        guard let index = columns?.index(of: name) else { return nil }
        return self[index]
    }

    /// The field under the column named `name`; the same as ``subscript(column:)``.
    public subscript(name: String) -> String? {
        self[column: name]
    }
}

/// The column names a CSV header row gives.
public struct CSVColumns: Sendable, Equatable {
    /// The names, in file order.
    public let names: [String]
    private let indexes: [ExactString: Int]

    /// Creates columns from header fields; a repeated name refers to its first column. Names
    /// match byte for byte: `café` precomposed and decomposed are two columns.
    ///
    /// - Parameter names: The header fields.
    public init(names: [String]) {
        self.names = names
        var indexes: [ExactString: Int] = [:]
        for (index, name) in names.enumerated() where indexes[ExactString(name)] == nil {
            indexes[ExactString(name)] = index
        }
        self.indexes = indexes
    }

    /// The index of the first column named `name`, if any.
    ///
    /// - Complexity: O(1) on average.
    public func index(of name: String) -> Int? {
        indexes[ExactString(name)]
    }

    /// The first name that appears twice, byte for byte, if any.
    ///
    /// - Complexity: O(*k*) in the number of columns, on average.
    public var repeatedName: String? {
        names.indices.first { indexes[ExactString(names[$0])] != $0 }.map { names[$0] }
    }
}
