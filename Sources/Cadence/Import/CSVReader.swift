//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A streaming RFC 4180 CSV reader that hands each row to a closure with its line number.
///
/// It reads quoted fields (with `,`, line breaks and `""` inside), CRLF, LF or CR line
/// breaks, and a UTF-8 byte order mark at the start. The first row is the header when
/// ``Options/hasHeader`` is set; it is not delivered, and every row carries its names.
/// Memory stays bounded: a row longer than ``Options/maxRowBytes`` is reported as malformed
/// and skipped as it streams by, without being held.
///
///     var reader = try CSVReader(path: "steps.csv")
///     try reader.feed(block) { row in print(row.line, row["value"] ?? "") }
///     let summary = try reader.finish { row in print(row.line, row["value"] ?? "") }
///
/// It is lenient where real files are sloppy, and says so here:
/// - A quote inside an unquoted field is kept as a character (`5"` stays `5"`), and text
///   after a closing quote continues the field (`"ab"c` reads `abc`).
/// - Empty lines are skipped and counted in ``CSVReadSummary/blankLineCount``.
/// - Rows may have fewer or more fields than the header; the caller decides.
/// - Invalid UTF-8 is replaced with U+FFFD.
///
/// Malformed rows (too long, too many fields, a quote still open at the end of the file) are
/// counted in ``CSVReadSummary/malformedRowCount`` and the first few kept with their line in
/// ``CSVReadSummary/issues``; reading goes on.
public struct CSVReader {
    /// How to read the file, and the bounds that keep a hostile file from exhausting the reader.
    public struct Options: Sendable, Equatable {
        /// The field delimiter, an ASCII character other than `"`, CR and LF. Default `,`.
        public var delimiter: Unicode.Scalar
        /// Whether the first row names the columns. Default `true`.
        public var hasHeader: Bool
        /// The longest row, in bytes, that is delivered. Default 1 MiB.
        public var maxRowBytes: Int
        /// The most fields in a row that is delivered. Default 10,000.
        public var maxFieldCount: Int
        /// The most issues kept in ``CSVReadSummary/issues``. Default 100.
        public var maxReportedIssues: Int

        /// Creates options.
        ///
        /// - Parameters:
        ///   - delimiter: The field delimiter.
        ///   - hasHeader: Whether the first row names the columns.
        ///   - maxRowBytes: The longest row delivered.
        ///   - maxFieldCount: The most fields in a row delivered.
        ///   - maxReportedIssues: The most issues kept in the summary.
        public init(
            delimiter: Unicode.Scalar = ",", hasHeader: Bool = true, maxRowBytes: Int = 1 << 20,
            maxFieldCount: Int = 10_000, maxReportedIssues: Int = 100
        ) {
            self.delimiter = delimiter
            self.hasHeader = hasHeader
            self.maxRowBytes = max(1, maxRowBytes)
            self.maxFieldCount = max(1, maxFieldCount)
            self.maxReportedIssues = max(0, maxReportedIssues)
        }
    }

    /// Where the reader is inside the current field.
    private enum FieldState {
        /// Before the first byte of a field.
        case fieldStart
        /// In a field that did not start with a quote.
        case unquoted
        /// Inside quotes.
        case quoted
        /// Right after a quote inside quotes: `""` or the end of the quoted part.
        case quoteInQuoted
    }

    /// How the file is read.
    public let options: Options
    /// The file named in errors, if any.
    public let path: String?
    /// What the reader has seen so far; complete after ``finish(to:)``.
    public private(set) var summary = CSVReadSummary()

    private let delimiter: UInt8
    private var fieldState = FieldState.fieldStart
    /// The row being read, as bytes.
    private var row = CSVFields()
    private(set) var line = 1
    private var rowLine = 1
    private var quoteLine = 1
    private var rowBytes = 0
    private var rowHasContent = false
    private var skipReason: String?
    private var swallowsLineFeed = false
    private var byteOrderMarkMatched = 0
    private var isAtFileStart = true
    private var hasReadHeader = false
    private var isFinished = false

    private static let quote = UInt8(ascii: "\"")
    private static let lineFeed: UInt8 = 0x0A
    private static let carriageReturn: UInt8 = 0x0D
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Creates a reader.
    ///
    /// - Parameters:
    ///   - options: How to read the file.
    ///   - path: The file to name in errors and nothing else; the reader never opens it.
    /// - Throws: ``CadenceError`` with ``CadenceError/Code/invalidArgument`` if the delimiter
    ///   is not ASCII or is `"`, CR or LF.
    public init(options: Options = Options(), path: String? = nil) throws {
        let value = options.delimiter.value
        guard value < 0x80, value != 0x22, value != 0x0A, value != 0x0D else {
            throw CadenceError(
                .invalidArgument, "the CSV delimiter must be an ASCII character other than '\"', CR and LF",
                path: path)
        }
        self.options = options
        self.path = path
        self.delimiter = UInt8(value)
    }

    /// Reads the next block of the file, delivering every row that it completes.
    ///
    /// Blocks may split the file anywhere, even inside a field or a UTF-8 sequence.
    ///
    /// - Parameters:
    ///   - bytes: The next bytes of the file.
    ///   - handler: Called once per well-formed data row, in file order.
    /// - Throws: ``CadenceError`` with ``CadenceError/Code/malformedInput`` if the header row
    ///   is malformed, ``CadenceError/Code/invalidArgument`` after ``finish(to:)``; and
    ///   whatever `handler` throws. Either way the reader is finished.
    /// - Complexity: O(*n*) in the length of `bytes`.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, to handler: (CSVRow) throws -> Void) throws {
        try feedFields(bytes) { fields in try handler(fields.row()) }
    }

    /// Reads the next block of the file, delivering every row it completes as bytes, whose
    /// strings the handler makes only for the fields it needs (see ``feed(_:to:)``).
    mutating func feedFields(_ bytes: UnsafeRawBufferPointer, to handler: (inout CSVFields) throws -> Void) throws {
        guard !isFinished else {
            throw CadenceError(.invalidArgument, "the CSV reader was fed after it finished", path: path)
        }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        do {
            try scan(base.assumingMemoryBound(to: UInt8.self), count: bytes.count, handler: handler)
        } catch {
            isFinished = true
            throw error
        }
    }

    /// Tells the reader that the file has ended, delivering a last row that has no line break.
    ///
    /// - Parameter handler: Called with the last row, if it is complete and well-formed.
    /// - Returns: The summary of the whole file.
    /// - Throws: ``CadenceError`` with ``CadenceError/Code/malformedInput`` if the header row
    ///   is malformed; and whatever `handler` throws. A quoted field still open at the end is
    ///   a malformed row, not an error.
    @discardableResult
    public mutating func finish(to handler: (CSVRow) throws -> Void) throws -> CSVReadSummary {
        try finishFields { fields in try handler(fields.row()) }
    }

    /// Tells the reader that the file has ended, delivering a last row as ``feedFields(_:to:)`` does.
    @discardableResult
    mutating func finishFields(to handler: (inout CSVFields) throws -> Void) throws -> CSVReadSummary {
        guard !isFinished else { return summary }
        isFinished = true
        if fieldState == .quoted {
            try reportMalformedRow(
                "a quoted field that starts at line \(quoteLine) is not closed before the end of the file")
            resetRow()
        } else if rowHasContent || skipReason != nil || !row.isEmpty {
            try endRow(handler: handler)
        }
        summary.lineCount = line
        return summary
    }

    /// Reads a CSV file in blocks of 1 MiB, delivering every data row to `handler`.
    ///
    ///     let summary = try CSVReader.read(fileAt: "export.csv") { row in
    ///         print(row.line, row["startDate"] ?? "", row["value"] ?? "")
    ///     }
    ///
    /// - Parameters:
    ///   - path: The CSV file.
    ///   - options: How to read it.
    ///   - handler: Called once per well-formed data row, in file order.
    /// - Returns: What the file held.
    /// - Throws: ``CadenceError`` naming the file: ``CadenceError/Code/notFound`` or
    ///   ``CadenceError/Code/io`` if it cannot be read, ``CadenceError/Code/malformedInput``
    ///   if its header row is malformed, ``CadenceError/Code/invalidArgument`` for a bad
    ///   delimiter; and whatever `handler` throws.
    /// - Complexity: O(*n*) in the size of the file; memory O(``Options/maxRowBytes``).
    public static func read(
        fileAt path: String, options: Options = Options(), handler: (CSVRow) throws -> Void
    ) throws -> CSVReadSummary {
        var reader = try CSVReader(options: options, path: path)
        let source = try FileByteSource(path: path)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try source.read(into: buffer)
            guard count > 0 else { break }
            try reader.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), to: handler)
        }
        return try reader.finish(to: handler)
    }

    // MARK: Scanning

    private mutating func scan(
        _ bytes: UnsafePointer<UInt8>, count: Int, handler: (inout CSVFields) throws -> Void
    ) throws {
        summary.byteCount += count
        var index = 0
        if isAtFileStart {
            while index < count && byteOrderMarkMatched < Self.byteOrderMark.count {
                guard bytes[index] == Self.byteOrderMark[byteOrderMarkMatched] else {
                    // Not a byte order mark after all: the bytes matched so far are data.
                    if byteOrderMarkMatched > 0 {
                        row.append(contentsOf: Self.byteOrderMark[0..<byteOrderMarkMatched])
                        rowBytes = byteOrderMarkMatched
                        rowHasContent = true
                        fieldState = .unquoted
                    }
                    byteOrderMarkMatched = Self.byteOrderMark.count
                    break
                }
                byteOrderMarkMatched += 1
                index += 1
            }
            guard byteOrderMarkMatched == Self.byteOrderMark.count else { return }
            isAtFileStart = false
        }
        while index < count {
            let byte = bytes[index]
            if swallowsLineFeed {
                swallowsLineFeed = false
                if byte == Self.lineFeed {
                    index += 1
                    continue
                }
            }
            switch fieldState {
            case .fieldStart:
                if byte == Self.quote {
                    fieldState = .quoted
                    quoteLine = line
                    rowHasContent = true
                    countRowBytes(1)
                    index += 1
                } else if byte == delimiter {
                    rowHasContent = true
                    countRowBytes(1)
                    endField()
                    index += 1
                } else if byte == Self.lineFeed || byte == Self.carriageReturn {
                    try endLine(at: byte, handler: handler)
                    index += 1
                } else {
                    rowHasContent = true
                    fieldState = .unquoted
                }
            case .unquoted:
                var end = ByteSearch.skip(
                    bytes, from: index, limit: count, notEqualTo: delimiter, Self.lineFeed, Self.carriageReturn)
                while end < count {
                    let next = bytes[end]
                    if next == delimiter || next == Self.lineFeed || next == Self.carriageReturn { break }
                    end += 1
                }
                append(bytes, from: index, to: end)
                index = end
                guard end < count else { break }
                let next = bytes[end]
                index += 1
                if next == delimiter {
                    countRowBytes(1)
                    endField()
                    fieldState = .fieldStart
                } else {
                    try endLine(at: next, handler: handler)
                }
            case .quoted:
                var end = index
                var lineFeeds = 0
                while end < count {
                    end = ByteSearch.skip(
                        bytes, from: end, limit: count, notEqualTo: Self.quote, Self.lineFeed, Self.lineFeed)
                    guard end < count else { break }
                    let next = bytes[end]
                    if next == Self.quote { break }
                    lineFeeds &+= next == Self.lineFeed ? 1 : 0
                    end += 1
                }
                line += lineFeeds
                append(bytes, from: index, to: end)
                index = end
                guard end < count else { break }
                countRowBytes(1)
                fieldState = .quoteInQuoted
                index += 1
            case .quoteInQuoted:
                if byte == Self.quote {
                    append(bytes, from: index, to: index + 1)
                    fieldState = .quoted
                    index += 1
                } else if byte == delimiter {
                    countRowBytes(1)
                    endField()
                    fieldState = .fieldStart
                    index += 1
                } else if byte == Self.lineFeed || byte == Self.carriageReturn {
                    try endLine(at: byte, handler: handler)
                    index += 1
                } else {
                    fieldState = .unquoted
                }
            }
        }
        summary.lineCount = line
    }

    /// Adds bytes to the current field, or starts skipping the row when it grows too long.
    private mutating func append(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) {
        guard end > start else { return }
        countRowBytes(end - start)
        if skipReason == nil {
            row.append(bytes + start, count: end - start)
        }
    }

    /// Counts bytes of the current row, and starts skipping it past ``Options/maxRowBytes``.
    private mutating func countRowBytes(_ added: Int) {
        rowBytes += added
        if skipReason == nil && rowBytes > options.maxRowBytes {
            startSkipping("the row is longer than \(options.maxRowBytes) bytes")
        }
    }

    /// Drops what the row holds and skips the rest of it.
    private mutating func startSkipping(_ reason: String) {
        skipReason = reason
        row.clear()
    }

    /// Ends the current field.
    private mutating func endField() {
        guard skipReason == nil else { return }
        guard row.count < options.maxFieldCount else {
            startSkipping("the row has more than \(options.maxFieldCount) fields")
            return
        }
        row.endField()
    }

    /// Ends the current row: delivers it, takes it as the header, or reports it.
    private mutating func endRow(handler: (inout CSVFields) throws -> Void) throws {
        defer { resetRow() }
        if skipReason == nil && !rowHasContent && row.isEmpty {
            summary.blankLineCount += 1
            return
        }
        endField()
        if let skipReason {
            try reportMalformedRow(skipReason)
            return
        }
        if options.hasHeader && !hasReadHeader {
            hasReadHeader = true
            summary.columns = CSVColumns(names: row.allStrings())
            row.columns = summary.columns
            return
        }
        summary.rowCount += 1
        row.line = rowLine
        try handler(&row)
    }

    /// Counts a malformed row; a malformed header stops reading.
    private mutating func reportMalformedRow(_ reason: String) throws {
        if options.hasHeader && !hasReadHeader {
            throw CadenceError(.malformedInput, "the header row is malformed: \(reason)", path: path, line: rowLine)
        }
        summary.malformedRowCount += 1
        if summary.issues.count < options.maxReportedIssues {
            summary.issues.append(ImportIssue(line: rowLine, reason: "a row was skipped: \(reason)"))
        }
    }

    /// Clears the row just ended.
    private mutating func resetRow() {
        row.finishRow()
        rowBytes = 0
        rowHasContent = false
        skipReason = nil
        fieldState = .fieldStart
    }

    /// Ends the current row at a line break, and moves to the next line.
    private mutating func endLine(at byte: UInt8, handler: (inout CSVFields) throws -> Void) throws {
        try endRow(handler: handler)
        breakLine(byte)
    }

    /// Moves to the next line after a line break that ended a row.
    private mutating func breakLine(_ byte: UInt8) {
        line += 1
        swallowsLineFeed = byte == Self.carriageReturn
        rowLine = line
    }
}

// MARK: Segments

extension CSVReader {
    /// Whether the reader stands between two rows after the header, with nothing of a row read:
    /// where a copy may take over at the start of the next line.
    var isBetweenRows: Bool {
        !isFinished && !isAtFileStart && (hasReadHeader || !options.hasHeader) && fieldState == .fieldStart
            && !rowHasContent && row.isEmpty && row.count == 0 && rowBytes == 0 && skipReason == nil && !swallowsLineFeed
    }

    /// Whether the reader is not inside a quoted field, so that what it holds of a last row
    /// without a line break is read as a serial reading would.
    var isOutsideQuotes: Bool { fieldState != .quoted && fieldState != .quoteInQuoted }

    /// A reader for a later segment of the file: the same header and options, an empty summary,
    /// and lines counted from 1 at the segment's start.
    func segmentCopy() -> CSVReader {
        var copy = self
        copy.summary = CSVReadSummary()
        copy.summary.columns = summary.columns
        copy.line = 1
        copy.rowLine = 1
        copy.quoteLine = 1
        return copy
    }

    /// Takes the state of a segment copy that read the bytes right after this reader's last
    /// byte, adding its lines and counts to this reader's.
    mutating func absorb(_ segment: CSVReader) {
        let offset = line - 1
        var summary = self.summary
        summary.rowCount += segment.summary.rowCount
        summary.malformedRowCount += segment.summary.malformedRowCount
        summary.blankLineCount += segment.summary.blankLineCount
        summary.byteCount += segment.summary.byteCount
        summary.issues += segment.summary.issues.map { ImportIssue(line: $0.line + offset, reason: $0.reason) }
        self = segment
        line += offset
        rowLine += offset
        quoteLine += offset
        summary.lineCount = line
        self.summary = summary
    }

    /// The start of the first line at or after `start` and before `limit`: just after a line feed.
    static func lineStart(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, before limit: Int) -> Int? {
        var index = max(start, 1)
        while index < limit {
            if bytes[index - 1] == lineFeed { return index }
            index += 1
        }
        return nil
    }

    /// The start of the last line of `bytes` (just after its last line feed), if there is one.
    static func lastLineStart(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = bytes.count
        while index > 0 {
            if bytes[index - 1] == lineFeed { return index }
            index -= 1
        }
        return nil
    }
}
