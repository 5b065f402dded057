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
        var title: String
        var alignment: Alignment

        init(_ title: String, alignment: Alignment = .left) {
            self.title = title
            self.alignment = alignment
        }
    }

    /// The columns.
    var columns: [Column]
    /// The rows, one cell per column.
    private(set) var rows: [[String]] = []
    /// Whether the header and its rule are printed.
    var showsHeader = true

    init(columns: [Column]) {
        self.columns = columns
    }

    /// Adds a row; missing cells are blank and extra cells are ignored. Control characters and
    /// bidirectional marks in a cell are written as `\u{…}` escapes: a cell holds data (source
    /// names, metadata) that must not move the cursor, recolour or reorder the terminal's text.
    mutating func append(_ cells: [String]) {
        rows.append((0..<columns.count).map { $0 < cells.count ? Self.escaped(cells[$0]) : "" })
    }

    /// `text` with every control character and bidirectional formatting mark escaped.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// C0 and C1 controls, DEL, line and paragraph separators, and the bidirectional marks,
    /// embeddings, overrides and isolates.
    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// The table as lines of text (header, rule, rows), each ending in a newline.
    func render() -> String {
        var widths = columns.map { showsHeader ? $0.title.count : 0 }
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        var output = ""
        if showsHeader {
            output += line(columns.map(\.title), widths: widths)
            output += line(widths.map { String(repeating: "-", count: $0) }, widths: widths)
        }
        for row in rows { output += line(row, widths: widths) }
        return output
    }

    private func line(_ cells: [String], widths: [Int]) -> String {
        var parts: [String] = []
        for (index, cell) in cells.enumerated() {
            let padding = String(repeating: " ", count: max(0, widths[index] - cell.count))
            let isLast = index == cells.count - 1
            switch columns[index].alignment {
            case .left: parts.append(isLast ? cell : cell + padding)
            case .right: parts.append(padding + cell)
            }
        }
        return parts.joined(separator: "  ") + "\n"
    }
}
