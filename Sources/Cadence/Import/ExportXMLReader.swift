//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// Longer than most files on purpose: the tokenizer's state, limits and block handling are one
// state machine over bytes, and splitting it would spread its invariants over several files.

/// A streaming reader for Apple Health `export.xml` that hands each `<Record>` to a closure.
///
/// The reader is a hand-written tokenizer over bytes. It holds no tree and no more of the input
/// than one incomplete tag (at most ``Limits/maxTagBytes``), so memory stays bounded whatever
/// the size of the export. Feed it blocks of any size, in order, then call ``finish()``:
///
///     var reader = ExportXMLReader(path: "export.xml")
///     try reader.feed(block) { record in print(record.type, record.value ?? "-") }
///     let summary = try reader.finish()
///
/// ``read(fileAt:limits:handler:)`` and ``read(zipAt:limits:archiveLimits:handler:)`` do this
/// for a file on disk and for the `export.zip` that the Health app shares.
///
/// ## Hostile input
///
/// - The internal DTD (`<!DOCTYPE HealthData [ ... ]>`) is skipped without being interpreted,
///   even when it is broken as in iOS 16 exports; comments, processing instructions and CDATA
///   sections are skipped too.
/// - Only the five predefined entities and numeric character references are decoded. A record
///   whose attributes use any other entity reference is malformed: entities are never
///   expanded, so billion laughs and external entities are impossible by construction.
/// - Invalid UTF-8 and the control characters XML forbids are replaced with U+FFFD, and
///   ``ExportReadSummary/repairedValueCount`` counts the values that were repaired.
/// - An attribute longer than ``Limits/maxAttributeBytes`` or a tag longer than
///   ``Limits/maxTagBytes`` makes its record malformed, and reading goes on; a comment, DTD or
///   tag that runs past ``Limits/maxMarkupBytes`` without closing, elements nested deeper than
///   ``Limits/maxDepth`` and element names longer than 1 KiB stop reading with
///   ``CadenceError/Code/hostileInput``.
/// - A record with more than ``Limits/maxMetadataEntries`` `<MetadataEntry>` children, or more
///   than ``Limits/maxMetadataBytes`` of metadata keys and values, is malformed.
/// - Records without `type`, `sourceName`, `startDate` or `endDate` are malformed: counted
///   in ``ExportReadSummary/malformedRecordCount``, the first few kept with their line in
///   ``ExportReadSummary/issues``, and skipped. Unknown elements and attributes are ignored.
/// - A `<Correlation>` whose members do not make its type (blood pressure: exactly one systolic
///   and one diastolic member; food: at least one) is skipped and kept in
///   ``ExportReadSummary/issues`` with its line and why; its members are still delivered.
/// - A file that ends early throws ``CadenceError/Code/malformedInput`` from ``finish()``
///   saying that it is truncated; the records that were complete before the cut have been
///   delivered by then. An end tag that does not match its start tag throws at once.
///
/// A record is delivered when its element ends, with its `<MetadataEntry>` children. Records
/// inside a `<Correlation>` are delivered with ``ExportRecord/isInsideCorrelation`` set.
///
/// After ``feed(_:to:)`` or ``finish()`` throws, the reader is finished and refuses more bytes.
public struct ExportXMLReader {
    /// Bounds that keep a hostile file from exhausting the reader.
    public struct Limits: Sendable, Equatable {
        /// The longest attribute value, in bytes, of a record that is delivered. Default 1 MiB.
        public var maxAttributeBytes: Int
        /// The longest start tag, in bytes, that is buffered and parsed; a longer tag is
        /// skipped as it streams by and its record is malformed. Default 4 MiB, at least 2 KiB.
        public var maxTagBytes: Int
        /// The longest comment, processing instruction, CDATA section, DTD or skipped tag, in
        /// bytes, before reading stops with ``CadenceError/Code/hostileInput``. Default 64 MiB.
        public var maxMarkupBytes: Int
        /// The deepest element nesting before reading stops with
        /// ``CadenceError/Code/hostileInput``. Real exports nest 4 deep. Default 64.
        public var maxDepth: Int
        /// The most `<MetadataEntry>` children of one record; more make it malformed. Default 1024.
        public var maxMetadataEntries: Int
        /// The most bytes of metadata keys and values one record may hold; more make it
        /// malformed, so that one record never takes more memory than a tag. Default 4 MiB.
        public var maxMetadataBytes: Int
        /// The most issues kept in ``ExportReadSummary/issues``. Default 100.
        public var maxReportedIssues: Int

        /// Creates limits; values below their minimum are raised to it.
        ///
        /// - Parameters:
        ///   - maxAttributeBytes: The longest attribute value of a delivered record.
        ///   - maxTagBytes: The longest start tag that is parsed.
        ///   - maxMarkupBytes: The longest construct before reading stops.
        ///   - maxDepth: The deepest element nesting.
        ///   - maxMetadataEntries: The most metadata entries of one record.
        ///   - maxMetadataBytes: The most bytes of metadata of one record.
        ///   - maxReportedIssues: The most issues kept in the summary.
        public init(
            maxAttributeBytes: Int = 1 << 20, maxTagBytes: Int = 4 << 20, maxMarkupBytes: Int = 64 << 20,
            maxDepth: Int = 64, maxMetadataEntries: Int = 1024, maxMetadataBytes: Int = 4 << 20,
            maxReportedIssues: Int = 100
        ) {
            self.maxAttributeBytes = max(1, maxAttributeBytes)
            self.maxTagBytes = min(max(2 * ExportXMLReader.maximumNameBytes, maxTagBytes), Int.max / 4)
            self.maxMarkupBytes = max(self.maxTagBytes, maxMarkupBytes)
            self.maxDepth = max(1, maxDepth)
            self.maxMetadataEntries = max(0, maxMetadataEntries)
            self.maxMetadataBytes = max(0, maxMetadataBytes)
            self.maxReportedIssues = max(0, maxReportedIssues)
        }
    }

    /// The bounds this reader enforces.
    public let limits: Limits
    /// The file named in errors, if any.
    public let path: String?
    /// What the reader has seen so far; complete after ``finish()``.
    public internal(set) var summary = ExportReadSummary()

    // MARK: Tokenizer state

    /// Where the tokenizer is between two calls to ``feed(_:to:)``.
    enum ScanState {
        /// At the start of the file, `matched` bytes of a UTF-8 byte order mark seen.
        case byteOrderMark(matched: Int)
        /// Between tags.
        case content
        /// Right after a `<` that ended the previous block.
        case markupOpen
        /// After `<!`; the bytes after it gather in ``bangBytes`` until they tell what follows.
        case bang
        /// In a comment, after `dashes` consecutive `-`.
        case comment(dashes: Int)
        /// In a processing instruction, right after a `?` or not.
        case processingInstruction(sawQuestionMark: Bool)
        /// In a CDATA section, after `brackets` consecutive `]`.
        case characterData(brackets: Int)
        /// In a `<!...>` declaration outside the DTD, inside a quoted literal or not (`0`).
        case declaration(quote: UInt8)
        /// In `<!DOCTYPE ...>`.
        case doctype(DoctypePhase)
        /// In a tag whose first bytes are in ``carry``, inside a quoted value or not (`0`).
        case tag(quote: UInt8)
        /// In a tag longer than ``Limits/maxTagBytes``, described by ``oversized``.
        case oversizedTag
    }

    /// Where the tokenizer is inside `<!DOCTYPE ...>`.
    enum DoctypePhase {
        /// Before the internal subset, inside a quoted literal or not (`0`).
        case beforeSubset(quote: UInt8)
        /// Inside `[ ... ]`, between declarations.
        case subset
        /// Right after a `<` inside the subset.
        case subsetMarkupOpen
        /// After `<!` inside the subset, with `dashes` `-` seen.
        case subsetBang(dashes: Int)
        /// In a comment inside the subset.
        case subsetComment(dashes: Int)
        /// In a processing instruction inside the subset.
        case subsetProcessingInstruction(sawQuestionMark: Bool)
        /// In a declaration inside the subset, inside a quoted literal or not (`0`).
        case subsetDeclaration(quote: UInt8)
        /// After the `]` that closes the subset.
        case afterSubset
    }

    var state: ScanState = .byteOrderMark(matched: 0)
    /// The 1-based line the tokenizer is on.
    var line = 1
    /// The line where the current markup construct starts.
    var constructLine = 1
    /// The bytes of the file before the current markup construct: what was read before it, when
    /// it is where reading stops.
    var constructOffset = 0
    /// The bytes of the file before the block being scanned.
    var blockOffset = 0
    /// Bytes of the current skipped construct (comment, DTD, ...) so far.
    var constructBytes = 0
    /// The first bytes of a tag cut by the end of a block.
    var carry: [UInt8] = []
    /// The bytes after `<!` while it is not yet known what they start.
    var bangBytes: [UInt8] = []
    /// The tag being skipped in ``ScanState/oversizedTag``.
    var oversized = OversizedTag()
    /// The open elements, innermost last.
    var openElements: [OpenElement] = []
    /// The names of the open elements, one after another; ``OpenElement/nameEnd`` splits them.
    var openNameBytes: [UInt8] = []
    /// The record whose end tag has not been read yet.
    var pendingRecord: ExportRecord?
    /// Why ``pendingRecord`` is malformed, if it is.
    var pendingProblem: String?
    /// Values of ``pendingRecord`` repaired with U+FFFD.
    var pendingRepairs = 0
    /// Bytes of ``pendingRecord``'s metadata keys and values, against ``Limits/maxMetadataBytes``.
    var pendingMetadataBytes = 0
    /// The depth of ``pendingRecord`` (the count of open elements, itself included).
    var pendingRecordDepth = 0
    /// How many `<Correlation>` elements are open.
    var correlationNesting = 0
    /// The correlation whose end tag has not been read yet, for sinks that receive correlations.
    var pendingCorrelation = PendingCorrelation()
    /// Whether any element has been read.
    var sawElement = false
    /// Whether ``finish()`` was called or a fatal error was thrown.
    var isFinished = false
    /// Where the wanted attributes of the tag being parsed are, by ``AttributeSlot``.
    var slots = SlotTable()
    /// The last value decoded for each of the first ``AttributeSlot/cachedCount`` slots
    /// (type, source, version, device, unit), which repeat from record to record.
    var valueCaches = [CachedValue](repeating: CachedValue(), count: AttributeSlot.cachedCount)
    /// Decodes attribute values that need more than a copy.
    var valueDecoder = XMLAttributeValueDecoder()
    /// Whether dates in the export's own format are handed over parsed, in
    /// ``ExportRecord/startTimestamp`` and its siblings, instead of as strings: the importer
    /// needs only the instants, and three strings per record cost three allocations.
    var parsesExportDates = false
    /// Parses the dates of records in the export's format, remembering the last day.
    var exportDates = ExportTimestampParser()
    /// The workout being read, if a `<Workout>` is open (see `ExportXMLReader+Workouts.swift`).
    var workoutBuilder = ExportWorkoutBuilder()

    /// The longest element name accepted.
    static let maximumNameBytes = 1024

    /// Creates a reader.
    ///
    /// - Parameters:
    ///   - limits: The bounds to enforce.
    ///   - path: The file to name in errors and nothing else; the reader never opens it.
    public init(limits: Limits = Limits(), path: String? = nil) {
        self.limits = limits
        self.path = path
        carry.reserveCapacity(4096)
    }

    /// Reads the next block of the file, delivering every record that it completes.
    ///
    /// Blocks may split the file anywhere, even inside a UTF-8 sequence or a tag.
    ///
    /// - Parameters:
    ///   - bytes: The next bytes of the file.
    ///   - handler: Called once per complete, well-formed `<Record>`, in file order.
    /// - Throws: ``CadenceError`` with ``CadenceError/Code/malformedInput`` for a mismatched end
    ///   tag, ``CadenceError/Code/hostileInput`` when a limit meant to stop an attack is
    ///   passed, ``CadenceError/Code/invalidArgument`` after ``finish()``; and whatever
    ///   `handler` throws, unchanged. Either way the reader is finished.
    /// - Complexity: O(*n*) in the length of `bytes`, amortized.
    public mutating func feed(
        _ bytes: UnsafeRawBufferPointer, to handler: (ExportRecord) throws -> Void
    ) throws {
        try withoutActuallyEscaping(handler) { handler in
            var sink = ClosureRecordSink(handler: handler)
            try feed(bytes, into: &sink)
        }
    }

    /// Reads the next block of the file, handing every record that it completes to `sink`;
    /// otherwise as ``feed(_:to:)``.
    mutating func feed<Sink: ExportRecordSink>(_ bytes: UnsafeRawBufferPointer, into handler: inout Sink) throws {
        guard !isFinished else {
            throw CadenceError(.invalidArgument, "the export reader was fed after it finished", path: path)
        }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        do {
            try scan(base.assumingMemoryBound(to: UInt8.self), count: bytes.count, handler: &handler)
        } catch {
            isFinished = true
            summary.lineCount = line
            // What was read is what came before the construct reading stopped at, however the
            // file was cut into blocks (a serial and a segmented reading report the same).
            summary.byteCount = constructOffset
            throw error
        }
    }

    /// Tells the reader that the file has ended, and checks that it ended where it may.
    ///
    /// Calling it again, or after ``feed(_:to:)`` threw, returns the summary so far.
    ///
    /// - Returns: The summary of the whole file.
    /// - Throws: ``CadenceError`` with ``CadenceError/Code/malformedInput`` if the file ends
    ///   inside a tag, a comment, the DTD or an open element (it is truncated), or holds no
    ///   element at all.
    @discardableResult
    public mutating func finish() throws -> ExportReadSummary {
        guard !isFinished else { return summary }
        isFinished = true
        summary.lineCount = line
        let unfinished: String?
        switch state {
        case .byteOrderMark, .content: unfinished = nil
        case .markupOpen, .tag, .oversizedTag: unfinished = "a tag"
        case .bang, .declaration: unfinished = "a declaration"
        case .comment: unfinished = "a comment"
        case .processingInstruction: unfinished = "a processing instruction"
        case .characterData: unfinished = "a CDATA section"
        case .doctype: unfinished = "the DTD (<!DOCTYPE ...>)"
        }
        if let unfinished {
            throw CadenceError(
                .malformedInput,
                "the export is truncated: it ends inside \(unfinished) that starts at line \(constructLine)",
                path: path, line: line)
        }
        if let innermost = openElements.last {
            let start = openElements.count >= 2 ? openElements[openElements.count - 2].nameEnd : 0
            let name = String(decoding: openNameBytes[start..<innermost.nameEnd], as: UTF8.self)
            throw CadenceError(
                .malformedInput,
                "the export is truncated: it ends before <\(name)> opened at line \(innermost.line) is closed",
                path: path, line: line)
        }
        guard sawElement else {
            throw CadenceError(
                .malformedInput, "holds no XML element: it is empty, truncated, or not an Apple Health export",
                path: path, line: line)
        }
        return summary
    }

    // MARK: Scanning

    /// Runs the tokenizer over one block.
    private mutating func scan<Sink: ExportRecordSink>(
        _ bytes: UnsafePointer<UInt8>, count: Int, handler: inout Sink
    ) throws {
        blockOffset = summary.byteCount
        summary.byteCount += count
        var index = 0
        while index < count {
            switch state {
            case .content:
                var cursor = index
                var lines = 0
                while cursor < count {
                    let byte = bytes[cursor]
                    if byte == UInt8(ascii: "<") { break }
                    lines &+= byte == 0x0A ? 1 : 0
                    cursor += 1
                }
                line += lines
                index = cursor < count ? try beginMarkup(bytes, at: cursor, count: count, handler: &handler) : count
            case .byteOrderMark(let matched):
                index = try scanByteOrderMark(bytes, at: index, matched: matched)
            case .markupOpen:
                index = continueMarkupOpen(bytes, at: index)
            case .bang:
                index = try scanBang(bytes, from: index, count: count)
            case .comment, .processingInstruction, .characterData, .declaration:
                index = try scanSkippedMarkup(bytes, from: index, count: count)
            case .doctype(let phase):
                index = try scanDoctype(bytes, from: index, count: count, phase: phase)
            case .tag(let quote):
                index = try continueTag(bytes, from: index, count: count, quote: quote, handler: &handler)
            case .oversizedTag:
                index = try continueOversizedTag(bytes, from: index, count: count, handler: &handler)
            }
        }
        summary.lineCount = line
    }

    /// Skips a UTF-8 byte order mark at the start of the file; refuses UTF-16 and UTF-32.
    private mutating func scanByteOrderMark(
        _ bytes: UnsafePointer<UInt8>, at index: Int, matched: Int
    ) throws -> Int {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let byte = bytes[index]
        if matched == 0 && (byte == 0xFE || byte == 0xFF || byte == 0x00) {
            throw CadenceError(
                .malformedInput, "is not UTF-8 (it looks like UTF-16 or UTF-32); Apple Health exports are UTF-8",
                path: path, line: 1)
        }
        if byte == mark[matched] {
            state = matched + 1 == mark.count ? .content : .byteOrderMark(matched: matched + 1)
            return index + 1
        }
        state = .content
        return index
    }

    /// Handles the `<` at `index`: a tag, a comment, a declaration, a processing instruction.
    private mutating func beginMarkup<Sink: ExportRecordSink>(
        _ bytes: UnsafePointer<UInt8>, at index: Int, count: Int, handler: inout Sink
    ) throws -> Int {
        constructLine = line
        constructOffset = blockOffset + index
        guard index + 1 < count else {
            state = .markupOpen
            return count
        }
        let next = bytes[index + 1]
        if next == UInt8(ascii: "/") || Self.isNameStart(next) {
            switch try scanTag(bytes, start: index, limit: count, handler: &handler) {
            case .complete(let after):
                return after
            case .incomplete(let quote):
                carry.removeAll(keepingCapacity: true)
                carry.append(contentsOf: UnsafeBufferPointer(start: bytes + index, count: count - index))
                state = .tag(quote: quote)
                return count
            case .oversized(let resume):
                state = .oversizedTag
                return resume
            }
        }
        return startNonTagMarkup(next, at: index + 1)
    }

    /// Handles the byte after a `<` that ended the previous block.
    private mutating func continueMarkupOpen(_ bytes: UnsafePointer<UInt8>, at index: Int) -> Int {
        let next = bytes[index]
        if next == UInt8(ascii: "/") || Self.isNameStart(next) {
            carry.removeAll(keepingCapacity: true)
            carry.append(UInt8(ascii: "<"))
            state = .tag(quote: 0)
            return index
        }
        return startNonTagMarkup(next, at: index)
    }

    /// Starts `<!...`, `<?...`, or reads a stray `<` as text; `index` is that of `next`.
    private mutating func startNonTagMarkup(_ next: UInt8, at index: Int) -> Int {
        switch next {
        case UInt8(ascii: "!"):
            bangBytes.removeAll(keepingCapacity: true)
            constructBytes = 2
            state = .bang
            return index + 1
        case UInt8(ascii: "?"):
            constructBytes = 2
            state = .processingInstruction(sawQuestionMark: false)
            return index + 1
        default:
            addIssue(line: constructLine, "a '<' that starts no tag was read as text")
            state = .content
            return index
        }
    }

    /// Reads the bytes after `<!` until they tell a comment, CDATA, DOCTYPE or declaration apart.
    private mutating func scanBang(_ bytes: UnsafePointer<UInt8>, from start: Int, count: Int) throws -> Int {
        var index = start
        while index < count {
            let byte = bytes[index]
            bangBytes.append(byte)
            index += 1
            constructBytes += 1
            if bangBytes.elementsEqual("--".utf8) {
                state = .comment(dashes: 0)
                return index
            }
            if bangBytes.elementsEqual("[CDATA[".utf8) {
                state = .characterData(brackets: 0)
                return index
            }
            if bangBytes.elementsEqual("DOCTYPE".utf8) {
                state = .doctype(.beforeSubset(quote: 0))
                return index
            }
            let isPrefix = "--".utf8.starts(with: bangBytes) || "[CDATA[".utf8.starts(with: bangBytes)
                || "DOCTYPE".utf8.starts(with: bangBytes)
            if !isPrefix {
                // Some other declaration: let the declaration state see this byte again.
                constructBytes -= 1
                state = .declaration(quote: 0)
                return index - 1
            }
        }
        return count
    }

    /// Skips comments, processing instructions, CDATA sections and declarations.
    private mutating func scanSkippedMarkup(
        _ bytes: UnsafePointer<UInt8>, from start: Int, count: Int
    ) throws -> Int {
        var index = start
        var lines = 0
        var ended = false
        switch state {
        case .comment(var dashes):
            while index < count {
                let byte = bytes[index]
                index += 1
                lines &+= byte == 0x0A ? 1 : 0
                if byte == UInt8(ascii: "-") {
                    dashes += 1
                } else if byte == UInt8(ascii: ">") && dashes >= 2 {
                    ended = true
                    break
                } else {
                    dashes = 0
                }
            }
            if !ended { state = .comment(dashes: dashes) }
        case .processingInstruction(var sawQuestionMark):
            while index < count {
                let byte = bytes[index]
                index += 1
                lines &+= byte == 0x0A ? 1 : 0
                if byte == UInt8(ascii: ">") && sawQuestionMark {
                    ended = true
                    break
                }
                sawQuestionMark = byte == UInt8(ascii: "?")
            }
            if !ended { state = .processingInstruction(sawQuestionMark: sawQuestionMark) }
        case .characterData(var brackets):
            while index < count {
                let byte = bytes[index]
                index += 1
                lines &+= byte == 0x0A ? 1 : 0
                if byte == UInt8(ascii: "]") {
                    brackets += 1
                } else if byte == UInt8(ascii: ">") && brackets >= 2 {
                    ended = true
                    break
                } else {
                    brackets = 0
                }
            }
            if !ended { state = .characterData(brackets: brackets) }
        case .declaration(var quote):
            while index < count {
                let byte = bytes[index]
                index += 1
                lines &+= byte == 0x0A ? 1 : 0
                if quote != 0 {
                    if byte == quote { quote = 0 }
                } else if byte == UInt8(ascii: ">") {
                    ended = true
                    break
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                }
            }
            if !ended { state = .declaration(quote: quote) }
        default:
            return start
        }
        line += lines
        try countConstructBytes(index - start)
        if ended { state = .content }
        return index
    }

    /// Skips `<!DOCTYPE ...>` and its internal subset without interpreting a declaration.
    ///
    /// Declarations are told apart only by `<`, `>`, quotes, comments and `]`, so a quoted `>`
    /// or a comment is stepped over, and a declaration that lacks its `>` (as in iOS 16
    /// exports) ends at the next `<` or `]`.
    private mutating func scanDoctype(
        _ bytes: UnsafePointer<UInt8>, from start: Int, count: Int, phase phaseAtStart: DoctypePhase
    ) throws -> Int {
        var phase = phaseAtStart
        var index = start
        var lines = 0
        var ended = false
        scanning: while index < count {
            let byte = bytes[index]
            index += 1
            lines &+= byte == 0x0A ? 1 : 0
            switch phase {
            case .beforeSubset(let quote):
                if quote != 0 {
                    if byte == quote { phase = .beforeSubset(quote: 0) }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    phase = .beforeSubset(quote: byte)
                } else if byte == UInt8(ascii: "[") {
                    phase = .subset
                } else if byte == UInt8(ascii: ">") {
                    ended = true
                    break scanning
                }
            case .subset:
                if byte == UInt8(ascii: "]") {
                    phase = .afterSubset
                } else if byte == UInt8(ascii: "<") {
                    phase = .subsetMarkupOpen
                }
            case .subsetMarkupOpen:
                if byte == UInt8(ascii: "!") {
                    phase = .subsetBang(dashes: 0)
                } else if byte == UInt8(ascii: "?") {
                    phase = .subsetProcessingInstruction(sawQuestionMark: false)
                } else {
                    phase = .subsetDeclaration(quote: 0)
                    index -= 1
                    lines &-= byte == 0x0A ? 1 : 0
                }
            case .subsetBang(let dashes):
                if byte == UInt8(ascii: "-") {
                    phase = dashes == 1 ? .subsetComment(dashes: 0) : .subsetBang(dashes: 1)
                } else {
                    phase = .subsetDeclaration(quote: 0)
                    index -= 1
                    lines &-= byte == 0x0A ? 1 : 0
                }
            case .subsetComment(let dashes):
                if byte == UInt8(ascii: "-") {
                    phase = .subsetComment(dashes: dashes + 1)
                } else if byte == UInt8(ascii: ">") && dashes >= 2 {
                    phase = .subset
                } else {
                    phase = .subsetComment(dashes: 0)
                }
            case .subsetProcessingInstruction(let sawQuestionMark):
                if byte == UInt8(ascii: ">") && sawQuestionMark {
                    phase = .subset
                } else {
                    phase = .subsetProcessingInstruction(sawQuestionMark: byte == UInt8(ascii: "?"))
                }
            case .subsetDeclaration(let quote):
                if quote != 0 {
                    if byte == quote { phase = .subsetDeclaration(quote: 0) }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    phase = .subsetDeclaration(quote: byte)
                } else if byte == UInt8(ascii: ">") {
                    phase = .subset
                } else if byte == UInt8(ascii: "<") {
                    // The declaration lacked its '>': this '<' starts the next one.
                    phase = .subsetMarkupOpen
                } else if byte == UInt8(ascii: "]") {
                    phase = .afterSubset
                }
            case .afterSubset:
                if byte == UInt8(ascii: ">") {
                    ended = true
                    break scanning
                }
            }
        }
        line += lines
        try countConstructBytes(index - start)
        state = ended ? .content : .doctype(phase)
        return index
    }

    /// Adds to the size of the current skipped construct and stops a runaway one.
    private mutating func countConstructBytes(_ added: Int) throws {
        constructBytes += added
        if constructBytes > limits.maxMarkupBytes {
            throw CadenceError(
                .hostileInput,
                "markup that starts at line \(constructLine) runs for more than \(limits.maxMarkupBytes) "
                    + "bytes without closing",
                path: path, line: constructLine)
        }
    }

    /// Keeps an issue if fewer than ``Limits/maxReportedIssues`` are kept.
    mutating func addIssue(line: Int, _ reason: String) {
        if summary.issues.count < limits.maxReportedIssues {
            summary.issues.append(ImportIssue(line: line, reason: reason))
        }
    }

    /// Whether a byte may start an element name (lenient: any letter, `_`, `:` or non-ASCII).
    @inline(__always)
    static func isNameStart(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "_"), UInt8(ascii: ":"), 0x80...0xFF:
            true
        default:
            false
        }
    }
}

/// A `<Correlation>` being read: delivered as a record after its end tag, with the number of
/// records it holds (``ExportRecord/correlationMemberCount``).
struct PendingCorrelation {
    var record: ExportRecord?
    /// Why it is malformed, if it is.
    var problem: String?
    /// Values repaired with U+FFFD.
    var repairs = 0
    /// Its depth (the count of open elements, itself included).
    var depth = 0
    /// Its members delivered so far that are systolic and diastolic blood pressures.
    var systolicMembers = 0
    var diastolicMembers = 0

    private static let systolic = QuantityType.identifierPrefix + "BloodPressureSystolic"
    private static let diastolic = QuantityType.identifierPrefix + "BloodPressureDiastolic"

    /// Counts a member record delivered.
    mutating func countMember(_ member: ExportRecord) {
        record?.correlationMemberCount? += 1
        if member.type == Self.systolic { systolicMembers += 1 }
        if member.type == Self.diastolic { diastolicMembers += 1 }
    }

    /// Why its members cannot make a correlation of its type, or nil: blood pressure needs exactly
    /// one systolic and one diastolic member and nothing else, food at least one member (see How
    /// Cadence computes, Identity).
    var memberProblem: String? {
        guard let record, let members = record.correlationMemberCount else { return nil }
        switch CorrelationType(identifier: record.type) {
        case .bloodPressure where systolicMembers != 1 || diastolicMembers != 1 || members != 2:
            return "a blood pressure correlation needs exactly one systolic and one diastolic member; it has "
                + "\(systolicMembers) systolic, \(diastolicMembers) diastolic and "
                + "\(members - systolicMembers - diastolicMembers) other member(s)"
        case .food where members == 0:
            return "a food correlation needs at least one member; it has none"
        default:
            return nil
        }
    }
}
