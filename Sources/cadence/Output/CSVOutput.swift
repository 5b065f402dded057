//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Writing CSV as RFC 4180 describes it: fields holding a comma, a quote or a line break are
/// quoted, with quotes doubled; lines end in `\n`.
enum CSVOutput {
    /// One line of fields, ending in a newline.
    static func line(_ fields: [String]) -> String {
        var text = OutputText()
        appendLine(fields, to: &text)
        return text.string
    }

    /// Appends one line of fields, ending in a newline.
    static func appendLine(_ fields: [String], to text: inout OutputText) {
        for (index, field) in fields.enumerated() {
            if index > 0 { text.append(byte: UInt8(ascii: ",")) }
            text.appendCSVField(field)
        }
        text.append(byte: UInt8(ascii: "\n"))
    }
}
