//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Turns the raw bytes of an XML attribute value into a `String`.
///
/// It decodes the five predefined entities (`&lt; &gt; &amp; &quot; &apos;`) and numeric
/// character references (`&#8217;`, `&#x2019;`), and refuses every other entity reference:
/// nothing a DTD declares is ever expanded, so entity expansion attacks (billion laughs,
/// external entities) cannot happen. It normalizes literal tab, line feed and carriage return
/// to a space as XML 1.0 asks (a CR LF pair to one space), while `&#10;` stays a line feed.
/// Invalid UTF-8 and the control characters XML forbids are replaced with U+FFFD, and the
/// value is reported as repaired.
struct XMLAttributeValueDecoder {
    /// What decoding gave.
    enum Outcome {
        /// The value, and whether bytes had to be replaced with U+FFFD.
        case decoded(String, repaired: Bool)
        /// The value cannot be decoded faithfully; the reason is one phrase.
        case rejected(String)
    }

    /// Scratch bytes reused from one value to the next.
    private var scratch: [UInt8] = []

    /// The longest entity reference looked at, `&` and `;` included (`&#x0010FFFF;` fits).
    private static let maximumReferenceLength = 32

    init() {
        scratch.reserveCapacity(256)
    }

    /// Decodes a value that holds only printable ASCII and no `&` (the common case).
    ///
    /// - Parameter bytes: The bytes between the quotes.
    /// - Returns: The value.
    static func decodePlain(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Decodes a value that may hold references, whitespace to normalize, or non-ASCII bytes.
    ///
    /// - Parameter bytes: The bytes between the quotes.
    /// - Returns: The value, or why it was refused.
    /// - Complexity: O(*n*) in the length of the value.
    mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> Outcome {
        scratch.removeAll(keepingCapacity: true)
        var repaired = false
        var hasNonASCII = false
        var index = 0
        let count = bytes.count
        while index < count {
            var runEnd = index
            while runEnd < count {
                let byte = bytes[runEnd]
                if byte == UInt8(ascii: "&") || byte < 0x20 { break }
                if byte >= 0x80 { hasNonASCII = true }
                runEnd += 1
            }
            if runEnd > index {
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<runEnd]))
                index = runEnd
                continue
            }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "&"):
                switch decodeReference(bytes, at: index) {
                case .success(let next):
                    index = next
                    continue
                case .failure(let failure):
                    return .rejected(failure.reason)
                }
            case 0x0D:
                scratch.append(0x20)
                if index + 1 < count, bytes[index + 1] == 0x0A { index += 1 }
            case 0x09, 0x0A:
                scratch.append(0x20)
            case 0x00..<0x20:
                Self.appendReplacementCharacter(to: &scratch)
                repaired = true
            default:
                if byte >= 0x80 { hasNonASCII = true }
                scratch.append(byte)
            }
            index += 1
        }
        if hasNonASCII && !Self.isValidUTF8(scratch) { repaired = true }
        return .decoded(String(decoding: scratch, as: UTF8.self), repaired: repaired)
    }

    /// Why a reference could not be decoded.
    private struct ReferenceFailure: Error {
        var reason: String
    }

    /// Decodes the reference that starts at `bytes[start] == "&"` into ``scratch``.
    ///
    /// - Returns: The index after the `;`, or why the reference is refused.
    private mutating func decodeReference(
        _ bytes: UnsafeBufferPointer<UInt8>, at start: Int
    ) -> Result<Int, ReferenceFailure> {
        let end = min(bytes.count, start + Self.maximumReferenceLength)
        var semicolon = start + 1
        while semicolon < end && bytes[semicolon] != UInt8(ascii: ";") { semicolon += 1 }
        guard semicolon < end else {
            return .failure(ReferenceFailure(reason: "'&' is not followed by an entity reference ending in ';'"))
        }
        let name = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<semicolon])
        if let first = name.first, first == UInt8(ascii: "#") {
            guard let scalar = Self.characterReference(UnsafeBufferPointer(rebasing: name.dropFirst())) else {
                return .failure(ReferenceFailure(
                    reason: "character reference &\(Self.printable(name)); is not a character XML allows"))
            }
            scratch.append(contentsOf: String(scalar).utf8)
            return .success(semicolon + 1)
        }
        let replacement: UInt8
        switch name.count {
        case 2 where name[0] == UInt8(ascii: "l") && name[1] == UInt8(ascii: "t"): replacement = UInt8(ascii: "<")
        case 2 where name[0] == UInt8(ascii: "g") && name[1] == UInt8(ascii: "t"): replacement = UInt8(ascii: ">")
        case 3 where Self.equals(name, "amp"): replacement = UInt8(ascii: "&")
        case 4 where Self.equals(name, "quot"): replacement = UInt8(ascii: "\"")
        case 4 where Self.equals(name, "apos"): replacement = UInt8(ascii: "'")
        default:
            return .failure(ReferenceFailure(
                reason: "entity reference &\(Self.printable(name)); is not one of XML's five predefined "
                    + "entities, and entities a DTD declares are never expanded"))
        }
        scratch.append(replacement)
        return .success(semicolon + 1)
    }

    /// The scalar a numeric character reference names (the bytes after `&#`), if XML allows it.
    private static func characterReference(_ digits: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        var index = 0
        var radix: UInt32 = 10
        if let first = digits.first, first == UInt8(ascii: "x") {
            radix = 16
            index = 1
        }
        guard index < digits.count else { return nil }
        var value: UInt32 = 0
        while index < digits.count {
            let byte = digits[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt32(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt32(byte - UInt8(ascii: "A")) + 10
            default: return nil
            }
            value = value * radix + digit
            guard value <= 0x10FFFF else { return nil }
            index += 1
        }
        guard isXMLCharacter(value) else { return nil }
        return Unicode.Scalar(value)
    }

    /// Whether XML 1.0 allows the code point in a document (its `Char` production).
    static func isXMLCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// Whether the bytes are well-formed UTF-8.
    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        let hadError = transcode(
            bytes.makeIterator(), from: UTF8.self, to: UTF8.self, stoppingOnError: true, into: { _ in })
        return !hadError
    }

    /// Appends U+FFFD REPLACEMENT CHARACTER as UTF-8.
    private static func appendReplacementCharacter(to bytes: inout [UInt8]) {
        bytes.append(0xEF)
        bytes.append(0xBF)
        bytes.append(0xBD)
    }

    /// Whether the bytes spell the ASCII literal.
    private static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        return bytes.elementsEqual(expected)
    }

    /// A short form of untrusted bytes that is safe to put in a message.
    static func printable(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let shown = bytes.prefix(32).map { byte -> Character in
            (0x20..<0x7F).contains(byte) ? Character(Unicode.Scalar(byte)) : "?"
        }
        return String(shown) + (bytes.count > 32 ? "..." : "")
    }
}
