//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// One complete piece of markup, from its `<` to its `>`, as the small XML readers (``GPXReader``,
/// ``CDADocumentReader``) split it: each finds where a piece ends in its own way (streaming or
/// whole, refusing declarations first), then both read it alike.
enum XMLMarkup {
    /// A CDATA section: its text, between `<![CDATA[` and `]]>`.
    case characterData(UnsafeBufferPointer<UInt8>)
    /// A comment or a processing instruction, which carries nothing a reader keeps.
    case ignored
    /// A start tag: its element name, the bytes of its attributes (without the `/` of a tag that
    /// closes itself), and whether it closes itself.
    case start(name: UnsafeBufferPointer<UInt8>, attributes: UnsafeBufferPointer<UInt8>, isSelfClosing: Bool)
    /// An end tag's element name.
    case end(name: UnsafeBufferPointer<UInt8>)

    /// Splits `markup`, a comment, processing instruction or CDATA section with its terminator, or
    /// a tag up to its `>`; `nil` for a tag that has no element name.
    init?(_ markup: UnsafeBufferPointer<UInt8>) {
        if Self.starts(markup, with: "<![CDATA[") {
            self = .characterData(UnsafeBufferPointer(rebasing: markup[9..<(markup.count - 3)]))
            return
        }
        if Self.starts(markup, with: "<!--") || Self.starts(markup, with: "<?") {
            self = .ignored
            return
        }
        let isEndTag = markup.count > 1 && markup[1] == UInt8(ascii: "/")
        var nameEnd = isEndTag ? 2 : 1
        while nameEnd < markup.count && ExportXMLReader.isNameByte(markup[nameEnd]) { nameEnd += 1 }
        let name = UnsafeBufferPointer(rebasing: markup[(isEndTag ? 2 : 1)..<nameEnd])
        guard !name.isEmpty else { return nil }
        if isEndTag {
            self = .end(name: name)
            return
        }
        // A '/' is not a name byte, so the name ends before it.
        let isSelfClosing = markup.count >= 3 && markup[markup.count - 2] == UInt8(ascii: "/")
        self = .start(name: name, attributes: UnsafeBufferPointer(rebasing: markup[nameEnd..<(markup.count - (isSelfClosing ? 2 : 1))]),
                      isSelfClosing: isSelfClosing)
    }

    /// Hands `markup` to `reader`: a start tag's element (and its end, when the tag closes
    /// itself), an end tag, a CDATA section's text; comments and processing instructions are
    /// passed over.
    ///
    /// - Throws: What `reader` throws; ``CadenceError/Code/malformedInput`` for a tag without an
    ///   element name.
    static func take<Reader: XMLMarkupReader>(_ markup: UnsafeBufferPointer<UInt8>, into reader: inout Reader) throws {
        switch XMLMarkup(markup) {
        case .characterData(let text): try reader.takeText(text, raw: true)
        case .ignored: break
        case .end(let name): try reader.endElement(name)
        case .start(let name, let attributes, let isSelfClosing):
            try reader.startElement(name, attributes: attributes)
            if isSelfClosing { try reader.endElement(name) }
        case nil:
            throw CadenceError(.malformedInput, "a tag at line \(reader.line) has no element name", path: reader.path,
                               line: reader.line)
        }
    }

    /// Whether `bytes` starts with `prefix`.
    static func starts(_ bytes: UnsafeBufferPointer<UInt8>, with prefix: StaticString) -> Bool {
        guard let base = bytes.baseAddress, bytes.count >= prefix.utf8CodeUnitCount else { return false }
        return ExportXMLReader.equals(base, 0, prefix.utf8CodeUnitCount, prefix)
    }

    /// The index of `pattern` in `bytes` at or after `start`.
    ///
    /// - Complexity: O(*n*·*m*) for *m* the pattern's length (a few bytes).
    static func find(_ pattern: StaticString, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let length = pattern.utf8CodeUnitCount
        guard let base = bytes.baseAddress, bytes.count >= length else { return nil }
        var index = start
        while index + length <= bytes.count {
            if ExportXMLReader.equals(base, index, index + length, pattern) { return index }
            index += 1
        }
        return nil
    }

    /// The line feeds in `bytes`.
    static func lineFeeds(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        return ExportXMLReader.countLineFeeds(base, 0, bytes.count)
    }
}

/// A reader that ``XMLMarkup/take(_:into:)`` hands the pieces of markup to.
protocol XMLMarkupReader {
    /// The file named in errors.
    var path: String? { get }
    /// The line the markup starts on.
    var line: Int { get }
    /// An element starts, with the bytes of its attributes.
    mutating func startElement(_ name: UnsafeBufferPointer<UInt8>, attributes: UnsafeBufferPointer<UInt8>) throws
    /// An element ends.
    mutating func endElement(_ name: UnsafeBufferPointer<UInt8>) throws
    /// Text, `raw` (a CDATA section's, whose `&` is literal) or as written.
    mutating func takeText(_ bytes: UnsafeBufferPointer<UInt8>, raw: Bool) throws
}
