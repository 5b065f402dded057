//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Reads what HealthKit extracts from an HL7 CDA R2 document's header: title, patient, first
/// author, custodian and `effectiveTime` (<doc:HowCadenceComputes#Documents-and-clinical-records>).
///
/// The whole document is checked to be well-formed (every tag closed in order), since it is stored
/// as it came; only the header fields are decoded. Elements are matched by local name within the
/// root's namespace (`urn:hl7-org:v3`); elements of other namespaces (`sdtc:`) are passed over.
///
/// ## Hostile input
///
/// Read as ``GPXReader`` reads a route file: a `<!DOCTYPE` or any other declaration is refused with
/// ``CadenceError/Code/hostileInput``, so no entity is ever expanded (only the five predefined ones
/// and numeric references are decoded); nesting deeper than ``Limits/maxDepth`` and a document over
/// ``Limits/maxBytes`` are refused the same way, before any of it is kept.
public enum CDADocumentReader {
    /// Bounds that keep a hostile document from exhausting the reader.
    public struct Limits: Sendable, Equatable {
        /// The largest document accepted. Default 64 MiB (a C-CDA with an embedded PDF is a few MiB).
        public var maxBytes: Int
        /// The deepest element nesting. Published C-CDA documents nest about 20 deep. Default 256.
        public var maxDepth: Int

        /// Creates limits; values below their minimum are raised to it.
        public init(maxBytes: Int = 64 << 20, maxDepth: Int = 256) {
            self.maxBytes = max(1024, maxBytes)
            self.maxDepth = max(4, maxDepth)
        }
    }

    /// The fields of a document's header.
    public struct Header: Sendable, Equatable {
        /// `/ClinicalDocument/title`.
        public var title: String
        /// Given names then family names of `recordTarget/patientRole/patient/name`.
        public var patientName: String
        /// The name of the first `author/assignedAuthor/assignedPerson`.
        public var authorName: String
        /// `custodian/assignedCustodian/representedCustodianOrganization/name`.
        public var custodianName: String
        /// `/ClinicalDocument/effectiveTime/@value`, if the document has a readable one.
        public var effectiveTime: Date?
    }

    /// The namespace every CDA document's root is in.
    public static let namespace = "urn:hl7-org:v3"

    /// Reads a document's header.
    ///
    /// - Throws: ``CadenceError`` naming `path`: ``CadenceError/Code/hostileInput`` for a DTD or
    ///   entity declaration, nesting deeper than the limit or a document over it;
    ///   ``CadenceError/Code/malformedInput`` (with the line) for XML that is not well-formed, a
    ///   root that is not `ClinicalDocument` in `urn:hl7-org:v3`, a missing title or an
    ///   `effectiveTime` that cannot be read.
    /// - Complexity: O(*n*) in the document's bytes.
    public static func read(_ bytes: [UInt8], path: String? = nil, limits: Limits = Limits()) throws -> Header {
        guard bytes.count <= limits.maxBytes else {
            throw CadenceError(.hostileInput, "the document is \(bytes.count) bytes, over the \(limits.maxBytes) bytes a CDA document may hold",
                               path: path)
        }
        var walker = Walker(path: path, limits: limits)
        try bytes.withUnsafeBufferPointer { try walker.walk($0) }
        return try walker.header()
    }

    /// One pass over the document: the open elements, and the header fields as they are met.
    private struct Walker: XMLMarkupReader {
        let path: String?
        let limits: Limits
        var line = 1
        /// The open elements' local names when in the document's namespace, else `nil`.
        var open: [String?] = []
        /// The open elements' names as written, which end tags must match.
        var openNames: [String] = []
        var rootPrefix: [UInt8]?
        var sawRoot = false
        var decoder = XMLAttributeValueDecoder()
        /// The field whose text is gathered, the depth it opened at, and the name part being read.
        var field: Field?
        var fieldDepth = 0
        var part: NamePart?
        var text: [UInt8] = []
        var title: String?
        var effectiveTime: Date?
        var patient: PersonName?
        var author: PersonName?
        var custodian: String?
        var seen: Set<Field> = []

        enum Field: Hashable { case title, patient, author, custodian }
        enum NamePart { case given, family, other }

        /// A person's name as its parts arrive.
        struct PersonName {
            var given: [String] = []
            var family: [String] = []
            var plain: [String] = []
            var text: String {
                let parts = given + family
                return (parts.isEmpty ? plain : parts).joined(separator: " ")
            }
        }

        init(path: String?, limits: Limits) {
            self.path = path
            self.limits = limits
        }

        mutating func walk(_ bytes: UnsafeBufferPointer<UInt8>) throws {
            var index = 0
            let count = bytes.count
            while index < count {
                guard bytes[index] == UInt8(ascii: "<") else {
                    var end = index
                    while end < count && bytes[end] != UInt8(ascii: "<") { end += 1 }
                    let segment = UnsafeBufferPointer(rebasing: bytes[index..<end])
                    try takeText(segment)
                    line += XMLMarkup.lineFeeds(segment)
                    index = end
                    continue
                }
                let rest = UnsafeBufferPointer(rebasing: bytes[index..<count])
                let length = try markupLength(rest)
                let markup = UnsafeBufferPointer(rebasing: rest[0..<length])
                try XMLMarkup.take(markup, into: &self)
                line += XMLMarkup.lineFeeds(markup)
                index += length
            }
            if let name = openNames.last {
                throw error(.malformedInput, "the document ends before <\(name)> is closed: it is truncated")
            }
            guard sawRoot else { throw error(.malformedInput, "holds no XML element: it is empty or not a CDA document") }
        }

        func header() throws -> Header {
            guard let title, !title.isEmpty else {
                throw CadenceError(.malformedInput, "is refused: the CDA document has no title", path: path)
            }
            return Header(title: title, patientName: patient?.text ?? "", authorName: author?.text ?? "",
                          custodianName: custodian ?? "", effectiveTime: effectiveTime)
        }

        // MARK: Markup

        /// The length of the markup at the start of `bytes`.
        func markupLength(_ bytes: UnsafeBufferPointer<UInt8>) throws -> Int {
            if XMLMarkup.starts(bytes, with: "<!--") { return try end(of: bytes, "-->", from: 4, what: "a comment") }
            if XMLMarkup.starts(bytes, with: "<![CDATA[") { return try end(of: bytes, "]]>", from: 9, what: "a CDATA section") }
            if XMLMarkup.starts(bytes, with: "<?") { return try end(of: bytes, "?>", from: 2, what: "a processing instruction") }
            if bytes.count >= 2 && bytes[1] == UInt8(ascii: "!") {
                throw error(.hostileInput, "is refused: it declares a DTD or entity at line \(line); entities are never expanded")
            }
            var quote: UInt8 = 0
            for index in 1..<bytes.count {
                let byte = bytes[index]
                if quote != 0 {
                    if byte == quote { quote = 0 }
                } else if byte == UInt8(ascii: ">") {
                    return index + 1
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: "<") {
                    throw error(.malformedInput, "a tag at line \(line) holds a '<'")
                }
            }
            throw error(.malformedInput, "the document ends inside a tag at line \(line): it is truncated")
        }

        func end(of bytes: UnsafeBufferPointer<UInt8>, _ terminator: StaticString, from start: Int, what: String) throws -> Int {
            guard let index = XMLMarkup.find(terminator, in: bytes, from: start) else {
                throw error(.malformedInput, "\(what) at line \(line) is not closed: the document is truncated")
            }
            return index + terminator.utf8CodeUnitCount
        }

        // MARK: Elements

        mutating func startElement(_ name: UnsafeBufferPointer<UInt8>, attributes: UnsafeBufferPointer<UInt8>) throws {
            guard open.count < limits.maxDepth else {
                throw error(.hostileInput, "is refused: elements nest deeper than \(limits.maxDepth) levels at line \(line)")
            }
            let (prefix, local) = Self.split(name)
            var values: [(name: String, value: String)] = []
            if let problem = try XMLTagAttributes.forEach(in: attributes, { key, value in
                values.append((ExportXMLReader.text(key), try decode(value)))
            }) {
                throw error(.malformedInput, "a tag at line \(line) is malformed: \(problem)")
            }
            if open.isEmpty {
                guard !sawRoot else { throw error(.malformedInput, "a second root element starts at line \(line)") }
                sawRoot = true
                let declaration = prefix.isEmpty ? "xmlns" : "xmlns:" + ExportXMLReader.text(prefix)
                let namespace = values.first { $0.name == declaration }?.value
                guard local == "ClinicalDocument", namespace == CDADocumentReader.namespace else {
                    let found = namespace.map { " in namespace \($0)" } ?? " in no namespace"
                    throw error(.malformedInput, "is refused: its root is <\(ExportXMLReader.text(name))>\(found), "
                                + "not <ClinicalDocument> in \(CDADocumentReader.namespace)")
                }
                rootPrefix = Array(prefix)
                open.append(local)
                openNames.append(ExportXMLReader.text(name))
                return
            }
            let inNamespace = rootPrefix.map { prefix.elementsEqual($0) } ?? false
            open.append(inNamespace ? local : nil)
            openNames.append(ExportXMLReader.text(name))
            guard inNamespace else { return }
            try noteStart(local, attributes: values)
        }

        /// The path of the open elements below the root, in the document's namespace.
        func isPath(_ names: String...) -> Bool {
            guard open.count == names.count + 1 else { return false }
            return zip(open.dropFirst(), names).allSatisfy { $0 == $1 }
        }

        mutating func noteStart(_ local: String, attributes: [(name: String, value: String)]) throws {
            if field != nil {
                if field != .custodian && open.count == fieldDepth + 1 {
                    part = local == "given" ? .given : local == "family" ? .family : .other
                    text.removeAll(keepingCapacity: true)
                }
                return
            }
            if isPath("title") && !seen.contains(.title) {
                begin(.title)
            } else if isPath("effectiveTime") && effectiveTime == nil {
                guard let value = attributes.first(where: { $0.name == "value" })?.value else { return }
                do {
                    effectiveTime = try HL7Time.parse(value)
                } catch let failure as CadenceError {
                    throw error(.malformedInput, "its effectiveTime at line \(line): \(failure.message)")
                }
            } else if isPath("recordTarget", "patientRole", "patient", "name") && !seen.contains(.patient) {
                begin(.patient)
                patient = PersonName()
            } else if isPath("author", "assignedAuthor", "assignedPerson", "name") && !seen.contains(.author) {
                begin(.author)
                author = PersonName()
            } else if isPath("custodian", "assignedCustodian", "representedCustodianOrganization", "name")
                        && !seen.contains(.custodian) {
                begin(.custodian)
            }
        }

        mutating func begin(_ field: Field) {
            self.field = field
            fieldDepth = open.count
            part = nil
            text.removeAll(keepingCapacity: true)
        }

        mutating func endElement(_ name: UnsafeBufferPointer<UInt8>) throws {
            let written = ExportXMLReader.text(name)
            guard let last = openNames.last else {
                throw error(.malformedInput, "the end tag </\(written)> at line \(line) closes no element")
            }
            guard last == written else {
                throw error(.malformedInput, "the end tag </\(written)> at line \(line) does not match <\(last)>")
            }
            if let field {
                if open.count == fieldDepth {
                    try finish(field)
                } else if open.count == fieldDepth + 1, let part {
                    try finishPart(part)
                }
            }
            open.removeLast()
            openNames.removeLast()
        }

        /// A name part closes: its text joins the person's name.
        mutating func finishPart(_ part: NamePart) throws {
            let value = try collapsed()
            self.part = nil
            text.removeAll(keepingCapacity: true)
            guard !value.isEmpty else { return }
            func add(_ name: inout PersonName?) {
                switch part {
                case .given: name?.given.append(value)
                case .family: name?.family.append(value)
                case .other: break
                }
            }
            if field == .patient { add(&patient) } else { add(&author) }
        }

        mutating func finish(_ field: Field) throws {
            let value = try collapsed()
            switch field {
            case .title: title = value
            case .custodian: custodian = value
            case .patient: if !value.isEmpty { patient?.plain.append(value) }
            case .author: if !value.isEmpty { author?.plain.append(value) }
            }
            seen.insert(field)
            self.field = nil
            part = nil
            text.removeAll(keepingCapacity: true)
        }

        /// Text inside a field is kept: for a name, only what is directly in the name or in a part.
        mutating func takeText(_ bytes: UnsafeBufferPointer<UInt8>, raw: Bool = false) throws {
            guard field != nil else { return }
            if field == .patient || field == .author, open.count > fieldDepth + 1 || (open.count == fieldDepth + 1 && part == nil) {
                return
            }
            if raw {
                // CDATA is literal: escape what the decoder would read as markup.
                for byte in bytes {
                    if byte == UInt8(ascii: "&") { text += Array("&amp;".utf8) } else { text.append(byte) }
                }
            } else {
                text.append(contentsOf: bytes)
            }
            guard text.count <= 1 << 20 else {
                throw error(.hostileInput, "is refused: a header field at line \(line) is over 1 MiB")
            }
        }

        /// The gathered text, decoded, trimmed, runs of whitespace made one space.
        mutating func collapsed() throws -> String {
            let decoded = try text.withUnsafeBufferPointer { try decode($0) }
            return decoded.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        }

        mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws -> String {
            switch decoder.decode(bytes) {
            case .decoded(let value, _): return value
            case .rejected(let reason): throw error(.malformedInput, "a value at line \(line) cannot be read: \(reason)")
            }
        }

        // MARK: Helpers

        static func split(_ name: UnsafeBufferPointer<UInt8>) -> (prefix: UnsafeBufferPointer<UInt8>, local: String) {
            guard let colon = name.firstIndex(of: UInt8(ascii: ":")) else {
                return (UnsafeBufferPointer(rebasing: name[0..<0]), ExportXMLReader.text(name))
            }
            return (UnsafeBufferPointer(rebasing: name[..<colon]), ExportXMLReader.text(UnsafeBufferPointer(rebasing: name[(colon + 1)...])))
        }

        func error(_ code: CadenceError.Code, _ message: String) -> CadenceError {
            CadenceError(code, message, path: path, line: line)
        }
    }
}
