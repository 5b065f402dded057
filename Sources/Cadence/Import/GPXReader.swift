//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A streaming reader for the GPX files of workout routes (`workout-routes/route_….gpx` in an
/// Apple Health `export.zip`), into a ``LocationSeries``.
///
///     <trkpt lat="47.3769" lon="8.5417"><ele>408.2</ele><time>2024-05-01T05:05:00Z</time>
///       <extensions><speed>2.9</speed><course>81.5</course><hAcc>3.1</hAcc><vAcc>2.0</vAcc></extensions>
///     </trkpt>
///
/// Feed it blocks of any size, in order, then call ``finish()``. It keeps the points and no more of
/// the input than one incomplete tag or text (at most ``Limits/maxTokenBytes``). `<trkpt>` and
/// `<rtept>` are read wherever they sit; namespace prefixes are ignored (`gpxtpx:speed` is `speed`);
/// other elements are skipped.
///
/// ## Hostile input
///
/// Handled as ``ExportXMLReader`` handles a hostile `export.xml`:
/// - No DTD is read: a `<!DOCTYPE` or any other `<!` declaration stops reading with
///   ``CadenceError/Code/hostileInput`` (route files have none), so no entity is ever expanded;
///   only the five predefined entities and numeric references are decoded.
/// - A tag or text longer than ``Limits/maxTokenBytes``, a comment or processing instruction longer
///   than ``Limits/maxMarkupBytes`` and nesting deeper than ``Limits/maxDepth`` stop reading with
///   ``CadenceError/Code/hostileInput``, so memory stays bounded whatever the file.
/// - A route of more than ``Limits/maxPoints`` points keeps its first ``Limits/maxPoints``: the
///   rest are read and counted in ``Summary/droppedPointCount``, never kept, so the route as far
///   as the limit survives and memory stays bounded.
/// - A point without a valid latitude (−90…90), longitude (−180…180) and time, or with a field that
///   is not a number, is skipped and counted in ``Summary/skippedPointCount``; the first few are in
///   ``Summary/issues`` with their line.
/// - A file that ends early, or an end tag that does not match, throws
///   ``CadenceError/Code/malformedInput``; the points read before stay in ``locations``.
public struct GPXReader {
    /// Bounds that keep a hostile file from exhausting the reader.
    public struct Limits: Sendable, Equatable {
        /// The most points kept; later ones are counted in ``Summary/droppedPointCount``.
        /// Default 128 Ki: a day and a half at one point a second (a Watch records about one), 8 MiB
        /// of columns, about 11 MB once stored with its workout.
        public var maxPoints: Int
        /// The longest tag or text value buffered. Default 64 KiB.
        public var maxTokenBytes: Int
        /// The longest comment or processing instruction. Default 1 MiB.
        public var maxMarkupBytes: Int
        /// The deepest element nesting. Real route files nest 5 deep. Default 32.
        public var maxDepth: Int
        /// The most issues kept in ``Summary/issues``. Default 20.
        public var maxReportedIssues: Int

        /// Creates limits; values below their minimum are raised to it.
        public init(maxPoints: Int = 1 << 17, maxTokenBytes: Int = 64 << 10, maxMarkupBytes: Int = 1 << 20,
                    maxDepth: Int = 32, maxReportedIssues: Int = 20) {
            self.maxPoints = max(0, maxPoints)
            self.maxTokenBytes = max(256, maxTokenBytes)
            self.maxMarkupBytes = max(self.maxTokenBytes, maxMarkupBytes)
            self.maxDepth = max(1, maxDepth)
            self.maxReportedIssues = max(0, maxReportedIssues)
        }
    }

    /// What the reader saw.
    public struct Summary: Sendable, Equatable {
        /// Points kept.
        public var pointCount = 0
        /// Points skipped because a required field was missing or a field could not be read.
        public var skippedPointCount = 0
        /// Valid points after the first ``Limits/maxPoints``: read, but not kept.
        public var droppedPointCount = 0
        /// The first skipped points, with their line and why.
        public var issues: [ImportIssue] = []
        /// Bytes read.
        public var byteCount = 0
    }

    /// The bounds this reader enforces.
    public let limits: Limits
    /// The file named in errors, if any.
    public let path: String?
    /// The points read so far, in file order.
    public private(set) var locations = LocationSeries()
    /// What the reader has seen so far.
    public private(set) var summary = Summary()

    /// Bytes not consumed yet: an incomplete token at the end of the last block.
    private var pending: [UInt8] = []
    /// How far the incomplete token at the start of ``pending`` has been scanned, and whether the
    /// scan stopped inside a quoted value (its quote) or not (`0`).
    private var partialScan = 0
    private var partialQuote: UInt8 = 0
    /// The 1-based line at the start of ``pending``.
    private(set) var line = 1
    /// The names of the open elements, one after another; ``openEnds`` splits them.
    private var openNames: [UInt8] = []
    private var openEnds: [Int] = []
    /// The point being read, if a `<trkpt>` is open, and the depth it was opened at.
    private var point: PointFields?
    private var pointDepth = 0
    /// The field whose text is being gathered, and the text.
    private var field: Field?
    private var text: [UInt8] = []
    /// The line of the open field's start tag, which names a text value that is too long however
    /// the file was cut into blocks.
    private var fieldLine = 1
    private var sawRoot = false
    private var isFinished = false
    private var valueDecoder = XMLAttributeValueDecoder()

    /// The fields of a point read from its children's text.
    private enum Field: CaseIterable {
        case elevation, time, speed, course, horizontalAccuracy, verticalAccuracy
    }

    /// A point as read so far.
    private struct PointFields {
        var line: Int
        var location = LocationSeries.Location(timestamp: 0, latitude: .nan, longitude: .nan)
        var hasTime = false
        var problem: String?
    }

    /// Creates a reader.
    ///
    /// - Parameters:
    ///   - limits: The bounds to enforce.
    ///   - path: The file to name in errors; the reader never opens it.
    public init(limits: Limits = Limits(), path: String? = nil) {
        self.limits = limits
        self.path = path
    }

    /// Reads the next block of the file.
    ///
    /// - Throws: ``CadenceError`` with ``CadenceError/Code/hostileInput`` when a limit is passed or the
    ///   file declares a DTD, ``CadenceError/Code/malformedInput`` for a mismatched end tag; the reader
    ///   is then finished.
    /// - Complexity: O(*n*) in the length of `bytes`, amortized.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) throws {
        guard !isFinished else { throw error(.invalidArgument, "the GPX reader was fed after it finished") }
        summary.byteCount += bytes.count
        pending.append(contentsOf: bytes)
        do {
            try consume(final: false)
        } catch {
            isFinished = true
            throw error
        }
    }

    /// Tells the reader that the file has ended.
    ///
    /// - Returns: The points read.
    /// - Throws: ``CadenceError/Code/malformedInput`` when the file ends inside a tag or an element
    ///   (it is truncated), holds no element, or its root is not `<gpx>`.
    @discardableResult
    public mutating func finish() throws -> LocationSeries {
        guard !isFinished else { return locations }
        isFinished = true
        try consume(final: true)
        if !pending.isEmpty { throw error(.malformedInput, "the GPX file is truncated: it ends inside a tag") }
        if !openEnds.isEmpty {
            throw error(.malformedInput, "the GPX file is truncated: it ends before <\(openName(openEnds.count - 1))> is closed")
        }
        guard sawRoot else { throw error(.malformedInput, "holds no XML element: it is empty or not a GPX file") }
        return locations
    }

    // MARK: Tokens

    /// Reads every complete token of ``pending`` and keeps the rest.
    private mutating func consume(final: Bool) throws {
        var bytes: [UInt8] = []
        swap(&bytes, &pending)
        let consumed = try bytes.withUnsafeBufferPointer { try tokens($0, final: final) }
        bytes.removeSubrange(0..<consumed)
        swap(&bytes, &pending)
    }

    /// Reads the tokens of `bytes`; returns how many bytes were consumed.
    private mutating func tokens(_ bytes: UnsafeBufferPointer<UInt8>, final: Bool) throws -> Int {
        let count = bytes.count
        var index = 0
        while index < count {
            if bytes[index] != UInt8(ascii: "<") {
                var end = index
                while end < count && bytes[end] != UInt8(ascii: "<") { end += 1 }
                try takeText(UnsafeBufferPointer(rebasing: bytes[index..<end]))
                index = end
                continue
            }
            let rest = UnsafeBufferPointer(rebasing: bytes[index..<count])
            let length = try tokenLength(rest)
            // Checked on complete and incomplete tokens alike, so that where the blocks end never
            // decides between a truncated file and an oversized token.
            let limit = XMLMarkup.starts(rest, with: "<!--") || XMLMarkup.starts(rest, with: "<?")
                ? limits.maxMarkupBytes : limits.maxTokenBytes
            if (length ?? rest.count) > limit {
                throw error(.hostileInput, "a tag or comment at line \(line) runs for more than \(limit) bytes")
            }
            guard let length else {
                partialScan = rest.count
                return index
            }
            partialScan = 0
            partialQuote = 0
            try takeMarkup(UnsafeBufferPointer(rebasing: rest[0..<length]))
            index += length
        }
        return count
    }

    /// The length of the markup at the start of `bytes` (which starts with `<`), or `nil` if it is
    /// not complete yet. An incomplete token is scanned again from where the last scan stopped
    /// (``partialScan``), so a long one costs linear time whatever the block size.
    private mutating func tokenLength(_ bytes: UnsafeBufferPointer<UInt8>) throws -> Int? {
        func resume(_ prefix: Int, _ terminator: Int) -> Int { max(prefix, partialScan - terminator) }
        if XMLMarkup.starts(bytes, with: "<!--") { return XMLMarkup.find("-->", in: bytes, from: resume(4, 3)).map { $0 + 3 } }
        if XMLMarkup.starts(bytes, with: "<![CDATA[") { return XMLMarkup.find("]]>", in: bytes, from: resume(9, 3)).map { $0 + 3 } }
        if XMLMarkup.starts(bytes, with: "<?") { return XMLMarkup.find("?>", in: bytes, from: resume(2, 2)).map { $0 + 2 } }
        if bytes.count >= 2 && bytes[1] == UInt8(ascii: "!") {
            // Not yet known to be a comment or CDATA: wait for more bytes.
            if "<!--".utf8.starts(with: bytes) || "<![CDATA[".utf8.starts(with: bytes) { return nil }
            throw error(.hostileInput, "declares a DTD or entity at line \(line); GPX route files have none, and "
                                       + "entities are never expanded")
        }
        var quote = partialQuote
        var index = max(1, partialScan)
        while index < bytes.count {
            let byte = bytes[index]
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == UInt8(ascii: ">") {
                return index + 1
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            }
            index += 1
        }
        partialQuote = quote
        return nil
    }

    /// Handles one complete piece of markup.
    private mutating func takeMarkup(_ markup: UnsafeBufferPointer<UInt8>) throws {
        defer { line += XMLMarkup.lineFeeds(markup) }
        try XMLMarkup.take(markup, into: &self)
    }

    // MARK: Elements

    mutating func startElement(_ name: UnsafeBufferPointer<UInt8>, attributes: UnsafeBufferPointer<UInt8>) throws {
        if openEnds.count >= limits.maxDepth {
            throw error(.hostileInput, "elements nest deeper than \(limits.maxDepth) levels at line \(line)")
        }
        if openEnds.isEmpty {
            guard !sawRoot else { throw error(.malformedInput, "a second root element starts at line \(line)") }
            guard Self.localName(name).elementsEqual("gpx".utf8) else {
                throw error(.malformedInput, "is not a GPX file: its root element is <\(ExportXMLReader.text(name))>")
            }
            sawRoot = true
        }
        openNames.append(contentsOf: name)
        openEnds.append(openNames.count)
        let local = Self.localName(name)
        if point == nil {
            if local.elementsEqual("trkpt".utf8) || local.elementsEqual("rtept".utf8) {
                point = PointFields(line: line)
                pointDepth = openEnds.count
                readCoordinates(attributes)
            }
        } else if let field = Self.field(local) {
            self.field = field
            fieldLine = line
            text.removeAll(keepingCapacity: true)
        }
    }

    mutating func endElement(_ name: UnsafeBufferPointer<UInt8>) throws {
        guard let last = openEnds.last else {
            throw error(.malformedInput, "the end tag </\(ExportXMLReader.text(name))> at line \(line) closes no element")
        }
        let start = openEnds.count >= 2 ? openEnds[openEnds.count - 2] : 0
        guard openNames[start..<last].elementsEqual(name) else {
            throw error(.malformedInput, "the end tag </\(ExportXMLReader.text(name))> at line \(line) does not match "
                                         + "<\(openName(openEnds.count - 1))>")
        }
        if let field {
            takeField(field)
            self.field = nil
        }
        if point != nil && openEnds.count == pointDepth { finishPoint() }
        openEnds.removeLast()
        openNames.removeSubrange(start...)
    }

    /// Gathers text for the open field; other text is only counted for lines.
    mutating func takeText(_ bytes: UnsafeBufferPointer<UInt8>, raw: Bool = false) throws {
        if !raw { line += XMLMarkup.lineFeeds(bytes) }
        guard field != nil else { return }
        if text.count + bytes.count > limits.maxTokenBytes {
            throw error(.hostileInput, "a text value starting at line \(fieldLine) is longer than \(limits.maxTokenBytes) bytes",
                        line: fieldLine)
        }
        text.append(contentsOf: bytes)
    }

    private mutating func readCoordinates(_ attributes: UnsafeBufferPointer<UInt8>) {
        var latitude: Double?
        var longitude: Double?
        let syntax = XMLTagAttributes.forEach(in: attributes) { name, value in
            let local = Self.localName(name)
            if local.elementsEqual("lat".utf8) {
                latitude = number(value)
            } else if local.elementsEqual("lon".utf8) {
                longitude = number(value)
            }
        }
        if let syntax {
            point?.problem = syntax
        } else if let latitude, let longitude, (-90...90).contains(latitude), (-180...180).contains(longitude) {
            point?.location.latitude = latitude
            point?.location.longitude = longitude
        } else {
            point?.problem = "it has no valid lat and lon"
        }
    }

    private mutating func takeField(_ field: Field) {
        guard point != nil, point?.problem == nil else { return }
        let gathered = text
        text.removeAll(keepingCapacity: true)
        if field == .time {
            guard let timestamp = gathered.withUnsafeBufferPointer({ bytes in
                try? parseRFC3339(Self.trimmed(bytes))
            }) else {
                point?.problem = "its time \"\(gathered.withUnsafeBufferPointer(ExportXMLReader.text))\" cannot be read"
                return
            }
            point?.location.timestamp = timestamp
            point?.hasTime = true
            return
        }
        guard let value = gathered.withUnsafeBufferPointer({ number($0) }) else {
            point?.problem = "its \(field) \"\(gathered.withUnsafeBufferPointer(ExportXMLReader.text))\" is not a number"
            return
        }
        switch field {
        case .elevation: point?.location.altitude = value
        case .speed: point?.location.speed = value < 0 ? .nan : value
        case .course: point?.location.course = value < 0 ? .nan : value
        case .horizontalAccuracy: point?.location.horizontalAccuracy = value < 0 ? .nan : value
        case .verticalAccuracy: point?.location.verticalAccuracy = value < 0 ? .nan : value
        case .time: break
        }
    }

    private mutating func finishPoint() {
        guard let finished = point else { return }
        point = nil
        let problem = finished.problem ?? (finished.hasTime ? nil : "it has no time")
        if let problem {
            summary.skippedPointCount += 1
            if summary.issues.count < limits.maxReportedIssues {
                summary.issues.append(ImportIssue(line: finished.line, reason: "a point was skipped: \(problem)"))
            }
            return
        }
        guard locations.count < limits.maxPoints else {
            summary.droppedPointCount += 1
            return
        }
        locations.append(finished.location)
        summary.pointCount += 1
    }

    // MARK: Helpers

    /// A number from raw text (entities decoded, whitespace trimmed), or `nil`.
    private mutating func number(_ raw: UnsafeBufferPointer<UInt8>) -> Double? {
        let trimmed = Self.trimmed(raw)
        if let plain = parsePlainDecimal(trimmed), plain.isFinite { return plain }
        guard case .decoded(let decoded, _) = valueDecoder.decode(trimmed),
              let value = SampleCollector.parseNumber(decoded), value.isFinite else { return nil }
        return value
    }

    private static func field(_ local: UnsafeBufferPointer<UInt8>) -> Field? {
        switch local.count {
        case 3 where local.elementsEqual("ele".utf8): .elevation
        case 4 where local.elementsEqual("time".utf8): .time
        case 4 where local.elementsEqual("hAcc".utf8): .horizontalAccuracy
        case 4 where local.elementsEqual("vAcc".utf8): .verticalAccuracy
        case 5 where local.elementsEqual("speed".utf8): .speed
        case 6 where local.elementsEqual("course".utf8): .course
        default: nil
        }
    }

    /// The name without its namespace prefix.
    private static func localName(_ name: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard let colon = name.lastIndex(of: UInt8(ascii: ":")) else { return name }
        return UnsafeBufferPointer(rebasing: name[(colon + 1)...])
    }

    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = bytes.count
        while start < end && ExportXMLReader.isWhitespace(bytes[start]) { start += 1 }
        while end > start && ExportXMLReader.isWhitespace(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    private func openName(_ index: Int) -> String {
        let start = index > 0 ? openEnds[index - 1] : 0
        return openNames[start..<openEnds[index]].withUnsafeBufferPointer(ExportXMLReader.text)
    }

    private func error(_ code: CadenceError.Code, _ message: String, line: Int? = nil) -> CadenceError {
        CadenceError(code, message, path: path, line: line ?? self.line)
    }
}

extension GPXReader: XMLMarkupReader {}
