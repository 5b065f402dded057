//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Lays out rows of text as aligned columns, for people.
///
///     var table = TableRenderer(columns: [.init("Day"), .init("Sum (count)", alignment: .right)])
///     table.append(["2024-03-10", "8123"])
///     print(table.render())
///
/// ```
/// Day         Sum (count)
/// ----------  -----------
/// 2024-03-10         8123
/// ```
struct TableRenderer {
    /// Which side of its column a cell keeps to.
    enum Alignment {
        case left, right
    }

    /// A column's header and alignment.
    struct Column {
        let title: String
        let alignment: Alignment

        /// A column headed `title`, escaped as cells are (a heading may name a unit from the data).
        init(_ title: String, alignment: Alignment = .left) {
            self.title = TerminalText.escaped(title)
            self.alignment = alignment
        }
    }

    /// The columns.
    var columns: [Column]
    /// Whether the header and its rule are printed.
    var showsHeader = true
    /// Every cell's text, one after another, row by row.
    private var cellText = OutputText()
    /// Where each cell ends in ``cellText``.
    private var cellEnds: [Int] = []
    /// Each cell's width in characters.
    private var cellWidths: [Int] = []

    init(columns: [Column]) {
        self.columns = columns
    }

    /// The number of complete rows.
    var rowCount: Int { columns.isEmpty ? 0 : cellEnds.count / columns.count }

    /// Adds a row; missing cells are blank and extra cells are ignored. Control characters and
    /// bidirectional marks in a cell are written as `\u{…}` escapes: a cell holds data (source
    /// names, metadata) that must not move the cursor, recolour or reorder the terminal's text.
    mutating func append(_ cells: [String]) {
        for index in columns.indices { appendCell(index < cells.count ? cells[index] : "") }
    }

    /// Adds the next cell of the row being filled (rows fill column by column), escaped as
    /// ``append(_:)`` escapes cells.
    mutating func appendCell(_ text: String) {
        let cell = TerminalText.escaped(text)
        cellText.append(cell)
        endCell(width: cell.count)
    }

    /// Adds the next cell, written by `write` straight into the table's buffer; it must write
    /// printable ASCII only (dates, numbers), so that its width is its byte count.
    mutating func appendASCIICell(_ write: (inout OutputText) -> Void) {
        let start = cellText.bytes.count
        write(&cellText)
        endCell(width: cellText.bytes.count - start)
    }

    private mutating func endCell(width: Int) {
        cellEnds.append(cellText.bytes.count)
        cellWidths.append(width)
    }

    /// The table as lines of text (header, rule, rows), each ending in a newline.
    func render() -> String {
        var text = OutputText()
        write(to: &text)
        return text.string
    }

    /// Appends the table as lines of text (header, rule, rows), each ending in a newline.
    ///
    /// - Complexity: O(*n*) in the table's text, with no allocation per cell.
    func write(to text: inout OutputText) {
        let rows = rowCount
        var widths = columns.map { showsHeader ? $0.title.count : 0 }
        for row in 0..<rows {
            for column in columns.indices { widths[column] = max(widths[column], cellWidths[row * columns.count + column]) }
        }
        if showsHeader {
            for (index, column) in columns.enumerated() {
                writeCell(column: index, width: column.title.count, widths: widths, to: &text) { $0.append(column.title) }
            }
            for (index, width) in widths.enumerated() {
                writeCell(column: index, width: width, widths: widths, to: &text) {
                    $0.append(contentsOf: repeatElement(UInt8(ascii: "-"), count: width))
                }
            }
        }
        for cell in 0..<(rows * columns.count) {
            let start = cell == 0 ? 0 : cellEnds[cell - 1]
            writeCell(column: cell % columns.count, width: cellWidths[cell], widths: widths, to: &text) {
                $0.append(contentsOf: cellText.bytes[start..<cellEnds[cell]])
            }
        }
    }

    /// Writes a cell padded to its column's width, two spaces after the one before, and a line
    /// break after the last (which, aligned left, is not padded).
    private func writeCell(column: Int, width: Int, widths: [Int], to text: inout OutputText,
                           _ write: (inout OutputText) -> Void) {
        if column > 0 { text.appendSpaces(2) }
        let padding = max(0, widths[column] - width)
        let isLast = column == columns.count - 1
        switch columns[column].alignment {
        case .left:
            write(&text)
            if !isLast { text.appendSpaces(padding) }
        case .right:
            text.appendSpaces(padding)
            write(&text)
        }
        if isLast { text.append(byte: UInt8(ascii: "\n")) }
    }
}
