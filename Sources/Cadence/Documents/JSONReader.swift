//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A strict JSON reader (RFC 8259) for the FHIR resources of clinical records.
///
/// Strict means: one value and nothing but whitespace around it, no comments, no trailing commas,
/// no leading zeros, no control characters in strings, valid UTF-8, no unpaired surrogate escapes,
/// and no duplicate keys in an object. Input is untrusted: a document over ``Limits/maxBytes`` or
/// nesting deeper than ``Limits/maxDepth`` is refused with ``CadenceError/Code/hostileInput``
/// before it can exhaust memory or the stack; anything else wrong is
/// ``CadenceError/Code/malformedInput`` naming the file, the line and the reason.
public enum JSONReader {
    /// Bounds that keep a hostile document from exhausting the reader.
    public struct Limits: Sendable, Equatable {
        /// The largest document accepted. Default 16 MiB (a FHIR resource is a few KiB).
        public var maxBytes: Int
        /// The deepest nesting of arrays and objects. Default 64 (FHIR resources nest about 8 deep).
        public var maxDepth: Int

        /// Creates limits; values below their minimum are raised to it.
        public init(maxBytes: Int = 16 << 20, maxDepth: Int = 64) {
            self.maxBytes = max(16, maxBytes)
            self.maxDepth = max(1, maxDepth)
        }
    }

    /// A JSON value. Numbers keep their text, so that nothing is lost or rounded.
    public indirect enum Value: Sendable, Equatable {
        case null
        case bool(Bool)
        case number(String)
        case string(String)
        case array([Value])
        /// Members in document order.
        case object([(key: String, value: Value)])

        public static func == (left: Value, right: Value) -> Bool {
            switch (left, right) {
            case (.null, .null): true
            case (.bool(let a), .bool(let b)): a == b
            case (.number(let a), .number(let b)): a == b
            case (.string(let a), .string(let b)): a == b
            case (.array(let a), .array(let b)): a == b
            case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
            default: false
            }
        }

        /// The member named `key` of an object, else `nil`.
        public subscript(key: String) -> Value? {
            guard case .object(let members) = self else { return nil }
            return members.first { $0.key == key }?.value
        }

        /// The string, if this is one.
        public var string: String? {
            guard case .string(let text) = self else { return nil }
            return text
        }

        /// The elements, if this is an array.
        public var array: [Value]? {
            guard case .array(let elements) = self else { return nil }
            return elements
        }
    }

    /// Reads one JSON document.
    ///
    /// - Throws: ``CadenceError`` naming `path`, as the type describes.
    /// - Complexity: O(*n*) in the document's bytes.
    public static func read(_ bytes: [UInt8], path: String? = nil, limits: Limits = Limits()) throws -> Value {
        guard bytes.count <= limits.maxBytes else {
            throw CadenceError(.hostileInput, "is refused: \(bytes.count) bytes of JSON, over the \(limits.maxBytes) bytes allowed",
                               path: path)
        }
        return try bytes.withUnsafeBufferPointer { buffer in
            var parser = Parser(bytes: buffer, path: path, limits: limits)
            parser.skipWhitespace()
            let value = try parser.value(depth: 0)
            parser.skipWhitespace()
            guard parser.index == buffer.count else { throw parser.fail("there is more after the JSON value") }
            return value
        }
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        let path: String?
        let limits: Limits
        var index = 0
        var line = 1

        init(bytes: UnsafeBufferPointer<UInt8>, path: String?, limits: Limits) {
            self.bytes = bytes
            self.path = path
            self.limits = limits
        }

        func fail(_ reason: String, _ code: CadenceError.Code = .malformedInput) -> CadenceError {
            CadenceError(code, "is not valid JSON: \(reason)", path: path, line: line)
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x0A: line += 1
                case 0x20, 0x09, 0x0D: break
                default: return
                }
                index += 1
            }
        }

        mutating func value(depth: Int) throws -> Value {
            guard index < bytes.count else { throw fail("the document ends where a value should be") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth + 1)
            case UInt8(ascii: "["): return try array(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw fail("unexpected character '\(ExportXMLReader.describe(bytes[index]))'")
            }
        }

        mutating func literal(_ word: StaticString) throws {
            let length = word.utf8CodeUnitCount
            guard let base = bytes.baseAddress, index + length <= bytes.count,
                  ExportXMLReader.equals(base, index, index + length, word) else {
                throw fail("unexpected word where \(word) was expected")
            }
            index += length
        }

        mutating func object(depth: Int) throws -> Value {
            guard depth <= limits.maxDepth else { throw fail("nesting deeper than \(limits.maxDepth) levels", .hostileInput) }
            index += 1
            var members: [(key: String, value: Value)] = []
            var keys: Set<String> = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count else { throw fail("the document ends inside an object") }
                guard bytes[index] == UInt8(ascii: "\"") else { throw fail("an object key must be a string") }
                let key = try string()
                guard keys.insert(key).inserted else { throw fail("the key \"\(key)\" appears twice in one object") }
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("a ':' must follow an object key") }
                index += 1
                skipWhitespace()
                members.append((key, try value(depth: depth)))
                skipWhitespace()
                guard index < bytes.count else { throw fail("the document ends inside an object") }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                }
                guard bytes[index] == UInt8(ascii: ",") else { throw fail("expected ',' or '}' in an object") }
                index += 1
            }
        }

        mutating func array(depth: Int) throws -> Value {
            guard depth <= limits.maxDepth else { throw fail("nesting deeper than \(limits.maxDepth) levels", .hostileInput) }
            index += 1
            var elements: [Value] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                elements.append(try value(depth: depth))
                skipWhitespace()
                guard index < bytes.count else { throw fail("the document ends inside an array") }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(elements)
                }
                guard bytes[index] == UInt8(ascii: ",") else { throw fail("expected ',' or ']' in an array") }
                index += 1
            }
        }

        mutating func number() throws -> String {
            let start = index
            func isDigit(_ at: Int) -> Bool { at < bytes.count && bytes[at] >= UInt8(ascii: "0") && bytes[at] <= UInt8(ascii: "9") }
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { throw fail("a '-' without digits") }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
                if isDigit(index) { throw fail("a number with a leading zero") }
            } else {
                while isDigit(index) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard isDigit(index) else { throw fail("a '.' without digits after it") }
                while isDigit(index) { index += 1 }
            }
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard isDigit(index) else { throw fail("an exponent without digits") }
                while isDigit(index) { index += 1 }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }

        mutating func string() throws -> String {
            index += 1
            var scalars = String.UnicodeScalarView()
            var run = index
            func flush(_ end: Int) throws {
                guard run < end else { return }
                let raw = Array(UnsafeBufferPointer(rebasing: bytes[run..<end]))
                guard let text = String(validating: raw, as: UTF8.self) else { throw fail("a string holds invalid UTF-8") }
                scalars.append(contentsOf: text.unicodeScalars)
            }
            while true {
                guard index < bytes.count else { throw fail("the document ends inside a string") }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    try flush(index)
                    index += 1
                    return String(scalars)
                }
                if byte < 0x20 { throw fail("a string holds a raw control character") }
                if byte != UInt8(ascii: "\\") {
                    index += 1
                    continue
                }
                try flush(index)
                index += 1
                guard index < bytes.count else { throw fail("the document ends inside an escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    let first = try hex4()
                    var code = first
                    if (0xD800...0xDBFF).contains(first) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw fail("a string holds an unpaired surrogate escape")
                        }
                        index += 2
                        let second = try hex4()
                        guard (0xDC00...0xDFFF).contains(second) else { throw fail("a string holds an unpaired surrogate escape") }
                        code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw fail("a string holds an unpaired surrogate escape") }
                    scalars.append(scalar)
                default:
                    throw fail("a string holds the unknown escape '\\\(ExportXMLReader.describe(escape))'")
                }
                run = index
            }
        }

        mutating func hex4() throws -> UInt32 {
            guard index + 4 <= bytes.count else { throw fail("a \\u escape needs four hex digits") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt32
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a")) + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A")) + 10
                default: throw fail("a \\u escape needs four hex digits")
                }
                value = value << 4 | digit
                index += 1
            }
            return value
        }
    }
}
