//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Text from data or arguments made safe to print for people: on a terminal, a control character
/// or a bidirectional mark in a source name, a user id or a file name would move the cursor,
/// recolour, retitle the window or reorder the text around it.
///
///     TerminalText.escaped("Evil\u{1B}[2J")  // "Evil\\u{1B}[2J"
///
/// Every line for people (tables, listings, messages on standard error) passes what it quotes
/// through ``escaped(_:)``; CSV keeps the data byte for byte and JSON escapes by its own rules.
enum TerminalText {
    /// `text` with every control character and bidirectional formatting mark written as a
    /// `\u{…}` escape (uppercase hexadecimal), and everything else as it is.
    ///
    /// - Complexity: O(*n*) in the text; text with nothing to escape is returned without a copy.
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
}
