//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Walks the attributes of one start tag, for readers that keep every attribute of a rare element
/// (a workout's tags in `export.xml`, a GPX file's points).
///
/// Read as the export reader reads record tags: a name without `=value` is ignored (iOS 8 wrote
/// attribute names with spaces); a value must be quoted with `"` or `'`.
enum XMLTagAttributes {
    /// Calls `body` with each attribute's name and raw value bytes (between the quotes, not decoded).
    ///
    /// - Parameters:
    ///   - tag: The bytes of the tag after its element name, up to but not including its `>`
    ///     (a trailing `/` is allowed).
    ///   - body: Called once per `name="value"`, in order.
    /// - Returns: Why the tag is malformed, or `nil`.
    /// - Complexity: O(*n*) in the length of the tag.
    static func forEach(
        in tag: UnsafeBufferPointer<UInt8>,
        _ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) throws -> Void
    ) rethrows -> String? {
        let count = tag.count
        var index = 0
        while true {
            while index < count && ExportXMLReader.isWhitespace(tag[index]) { index += 1 }
            guard index < count else { return nil }
            if tag[index] == UInt8(ascii: "/") {
                return index + 1 == count ? nil : "a '/' inside a tag is not at its end"
            }
            let nameStart = index
            while index < count && ExportXMLReader.isNameByte(tag[index]) { index += 1 }
            guard index > nameStart else { return "a tag holds a stray '\(ExportXMLReader.describe(tag[index]))'" }
            let name = UnsafeBufferPointer(rebasing: tag[nameStart..<index])
            while index < count && ExportXMLReader.isWhitespace(tag[index]) { index += 1 }
            guard index < count && tag[index] == UInt8(ascii: "=") else { continue }
            index += 1
            while index < count && ExportXMLReader.isWhitespace(tag[index]) { index += 1 }
            guard index < count, tag[index] == UInt8(ascii: "\"") || tag[index] == UInt8(ascii: "'") else {
                return "attribute \(ExportXMLReader.text(name)) has a value without quotes"
            }
            let quote = tag[index]
            index += 1
            let valueStart = index
            while index < count && tag[index] != quote { index += 1 }
            guard index < count else { return "attribute \(ExportXMLReader.text(name)) has no closing quote" }
            try body(name, UnsafeBufferPointer(rebasing: tag[valueStart..<index]))
            index += 1
        }
    }
}
