//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// Longer than most files on purpose: the CSV and export.xml writers share one table of byte
// pieces and one formatting loop per format, tuned to write gigabytes without a String a field.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Streams quantity sample batches to a file, as CSV in the command line's import format or as
/// an Apple Health `export.xml`.
///
///     let data = SyntheticHealthData(profile: .realistic, seed: 7, size: .days(30))
///     let rows = try SyntheticExportWriter.export(data, format: .xml, to: "export.xml")
///
/// or, batch by batch:
///
///     let writer = try SyntheticExportWriter(path: "samples.csv", format: .csv)
///     try data.generate { try writer.write($0) }
///     try writer.finish()
///
/// Rows are formatted straight into a byte buffer that is written to the file every 4 MiB, so
/// memory stays bounded and a release build writes well over a million rows a second. The
/// output is fully determined by the batches and the writer's settings: the same data gives
/// byte-identical files.
///
/// **CSV** has the header ``csvHeader``; dates are RFC 3339 (`2024-03-10T08:00:00Z`, or
/// `2024-03-10T09:00:00+01:00` with a UTC offset, with a fraction only when the time is not a
/// whole second); fields that contain a comma, a quote or a line break are quoted as RFC 4180
/// says (device descriptions always are). Metadata is not written. Sources without a version or
/// device leave those fields empty.
///
/// **XML** follows Apple Health's `export.xml`: an XML declaration, a short internal DTD,
/// `<HealthData locale="en_US">`, `<ExportDate>`, `<Me>`, then one `<Record>` per sample with
/// dates like `2024-01-01 08:00:00 +0000` (whole seconds; a fraction is dropped) and a
/// `<MetadataEntry>` child per metadata key, in key order. Attribute values are escaped; control
/// characters that XML 1.0 cannot carry become U+FFFD.
///
/// Both formats give values in the batch type's canonical unit, as the shortest decimal that
/// reads back as the same `Double` when it has at most three decimals (`72`, `0.532`, `71.4`),
/// and Swift's shortest round-trip form otherwise. The creation date is the sample's own when the
/// batch has one, its end date otherwise.
///
/// The writer is a reference type with mutable state: use it from one task at a time.
public final class SyntheticExportWriter {
    /// A file format the writer produces.
    public enum Format: String, CaseIterable, Sendable {
        /// Comma-separated values with the header ``SyntheticExportWriter/csvHeader``.
        case csv
        /// Apple Health's `export.xml`.
        case xml

        /// The usual file name extension, without the dot.
        public var fileExtension: String { rawValue }
    }

    /// The CSV header line (without its line break).
    public static let csvHeader = "type,sourceName,unit,startDate,endDate,value,sourceVersion,device,creationDate"

    /// The format being written.
    public let format: Format
    /// The file being written.
    public let path: String
    /// The offset from UTC of the local time the dates are written in, in seconds.
    public let utcOffsetSeconds: Int
    /// The number of sample rows written so far.
    public internal(set) var rowCount = 0

    private var descriptor: Int32
    private var output: RowBuffer
    private static let flushThreshold = 4 << 20
    /// More than any date or value takes: 20-digit years, six fraction digits, an offset, or
    /// a `Double`'s description.
    private static let fieldBound = 64

    /// Creates (or truncates) the file and writes the format's header.
    ///
    /// - Parameters:
    ///   - path: The file to write.
    ///   - format: CSV or Apple Health XML.
    ///   - exportDate: The XML `<ExportDate>` value, in microseconds since 1970; ignored for CSV.
    ///   - utcOffsetSeconds: The offset from UTC for the written dates: a whole number of minutes
    ///     less than a day either way; 0 (UTC) by default.
    /// - Throws: ``CadenceError/Code/invalidArgument`` for a bad offset, ``CadenceError/Code/io``
    ///   (or ``CadenceError/Code/notFound`` for a missing directory) when the file cannot be created.
    public init(path: String, format: Format, exportDate: Timestamp = SyntheticHealthData.defaultStartTimestamp,
                utcOffsetSeconds: Int = 0) throws {
        guard utcOffsetSeconds % 60 == 0, abs(utcOffsetSeconds) < 86_400 else {
            throw CadenceError(.invalidArgument,
                               "the UTC offset must be whole minutes under a day, not \(utcOffsetSeconds) s")
        }
        self.format = format
        self.path = path
        self.utcOffsetSeconds = utcOffsetSeconds
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Self.failure("open", path) }
        output = RowBuffer(capacity: Self.flushThreshold + (64 << 10), isCSV: format == .csv,
                           offsetMicroseconds: Int64(utcOffsetSeconds) * 1_000_000,
                           offsetSuffix: Self.offsetSuffix(utcOffsetSeconds, format: format))
        switch format {
        case .csv:
            output.append(Array((Self.csvHeader + "\n").utf8))
        case .xml:
            output.append(Array((Self.xmlPreamble + " <ExportDate value=\"").utf8))
            output.reserve(Self.fieldBound)
            output.appendDate(exportDate)
            output.append(Array(("\"/>\n" + Self.xmlMe).utf8))
        }
    }

    deinit {
        if descriptor >= 0 { _ = close(descriptor) }
        output.deallocate()
    }

    /// Writes every sample of a batch, in the batch's row order.
    ///
    /// - Parameter batch: The samples to write.
    /// - Throws: ``CadenceError/Code/io`` when the file cannot be written,
    ///   ``CadenceError/Code/closed`` after ``finish()``.
    /// - Complexity: O(*n*) for *n* rows, with no allocation per row.
    public func write(_ batch: QuantitySampleBatch) throws {
        guard descriptor >= 0 else { throw CadenceError(.closed, "the writer is already finished", path: path) }
        switch format {
        case .csv: try writeCSV(batch)
        case .xml: try writeXML(batch)
        }
    }

    /// Writes the format's footer, flushes the buffer and closes the file.
    ///
    /// Calling it again does nothing.
    ///
    /// - Throws: ``CadenceError/Code/io`` when the file cannot be written or closed.
    public func finish() throws {
        guard descriptor >= 0 else { return }
        if format == .xml { output.append(Array("</HealthData>\n".utf8)) }
        try flush(&output)
        let result = close(descriptor)
        descriptor = -1
        guard result == 0 else { throw Self.failure("close", path) }
    }

    /// Generates `data` straight into a file.
    ///
    /// The XML export date is the end of the generated period when it is known in advance, and
    /// an estimate of it for the realistic profile sized in samples.
    ///
    /// - Parameters:
    ///   - data: The generator.
    ///   - format: CSV or Apple Health XML.
    ///   - path: The file to write (created or truncated).
    ///   - batchSize: The generator's batch size.
    ///   - utcOffsetSeconds: The offset from UTC for the written dates.
    /// - Returns: The number of rows written.
    /// - Throws: What ``SyntheticHealthData/generate(batchSize:_:)`` and the writer throw.
    /// - Complexity: O(*n*) time for *n* samples; memory for a few batches and the 4 MiB buffer.
    @discardableResult
    public static func export(_ data: SyntheticHealthData, format: Format, to path: String,
                              batchSize: Int = 65_536, utcOffsetSeconds: Int = 0) throws -> Int {
        let writer = try SyntheticExportWriter(path: path, format: format, exportDate: plannedEnd(of: data),
                                               utcOffsetSeconds: utcOffsetSeconds)
        try data.generate(batchSize: batchSize) { try writer.write($0) }
        try writer.finish()
        return writer.rowCount
    }

    /// Appends bytes as they are (markup written elsewhere), flushing the buffer when it is full.
    func writeBytes(_ bytes: [UInt8]) throws {
        guard descriptor >= 0 else { throw CadenceError(.closed, "the writer is already finished", path: path) }
        if output.count + bytes.count > Self.flushThreshold { try flush(&output) }
        output.append(bytes)
    }

    // MARK: Rows

    private func writeCSV(_ batch: QuantitySampleBatch) throws {
        // Per provenance, the row's head (type, source name, unit) and the fields after the value
        // (source version, device); the dates and the value are formatted per row.
        var pieces = PieceTable()
        let typeField = Self.csvField(batch.quantityType.identifier) + [UInt8(ascii: ",")]
        let unitField = [UInt8(ascii: ",")] + Self.csvField(batch.quantityType.canonicalUnit.unitString)
            + [UInt8(ascii: ",")]
        var heads: [Int] = []
        var tails: [Int] = []
        for provenance in batch.provenances {
            heads.append(pieces.add(typeField + Self.csvField(provenance.source.name) + unitField))
            tails.append(pieces.add(Self.csvField(provenance.sourceVersion ?? "") + [UInt8(ascii: ",")]
                + Self.csvField(provenance.device?.descriptionString ?? "") + [UInt8(ascii: ",")]))
        }
        let rowBound = pieces.longest * 2 + 4 * Self.fieldBound
        let columns = batch.columns
        let hasCreation = !columns.creation.isEmpty
        try formatRows(columns.count, rowBound: rowBound, pieces: pieces) { output, table, row in
            let provenance = Int(columns.provenance[row])
            let end = columns.end[row]
            output.append(pieces.piece(heads[provenance], in: table))
            output.appendDate(columns.start[row])
            output.append(UInt8(ascii: ","))
            output.appendDate(end)
            output.append(UInt8(ascii: ","))
            output.appendValue(columns.value[row])
            output.append(UInt8(ascii: ","))
            output.append(pieces.piece(tails[provenance], in: table))
            let creation = hasCreation ? columns.creation[row] : SampleColumns.absent
            output.appendDate(creation == SampleColumns.absent ? end : creation)
            output.append(UInt8(ascii: "\n"))
        }
        rowCount += columns.count
    }

    private func writeXML(_ batch: QuantitySampleBatch) throws {
        var pieces = PieceTable()
        let type = Self.xmlEscaped(batch.quantityType.identifier)
        let unit = Self.xmlEscaped(batch.quantityType.canonicalUnit.unitString)
        // Everything before the creation date's value, per provenance.
        let prefixes = batch.provenances.map { provenance in
            var prefix = Array(" <Record type=\"".utf8) + type
            prefix += Array("\" sourceName=\"".utf8) + Self.xmlEscaped(provenance.source.name)
            if let version = provenance.sourceVersion {
                prefix += Array("\" sourceVersion=\"".utf8) + Self.xmlEscaped(version)
            }
            if let device = provenance.device {
                prefix += Array("\" device=\"".utf8) + Self.xmlEscaped(device.descriptionString)
            }
            prefix += Array("\" unit=\"".utf8) + unit + Array("\" creationDate=\"".utf8)
            return pieces.add(prefix)
        }
        let columns = batch.columns
        // The value's closing quote, the metadata entries in key order and the closing tag, per
        // metadata set; index 0 is a row without metadata.
        var endings = [pieces.add(Array("\"/>\n".utf8))]
        for metadata in columns.metadataSets {
            var element = Array("\">\n".utf8)
            for key in metadata.keys.sorted() {
                element += Array("  <MetadataEntry key=\"".utf8) + Self.xmlEscaped(key)
                element += Array("\" value=\"".utf8) + Self.xmlEscaped(metadata[key] ?? "") + Array("\"/>\n".utf8)
            }
            endings.append(pieces.add(element + Array(" </Record>\n".utf8)))
        }
        let startAttribute = pieces.add(Array("\" startDate=\"".utf8))
        let endAttribute = pieces.add(Array("\" endDate=\"".utf8))
        let valueAttribute = pieces.add(Array("\" value=\"".utf8))
        let rowBound = pieces.longest * 6 + 4 * Self.fieldBound
        let hasCreation = !columns.creation.isEmpty
        let hasMetadata = !columns.metadataIndex.isEmpty
        try formatRows(columns.count, rowBound: rowBound, pieces: pieces) { output, table, row in
            let end = columns.end[row]
            output.append(pieces.piece(prefixes[Int(columns.provenance[row])], in: table))
            let creation = hasCreation ? columns.creation[row] : SampleColumns.absent
            output.appendDate(creation == SampleColumns.absent ? end : creation)
            output.append(pieces.piece(startAttribute, in: table))
            output.appendDate(columns.start[row])
            output.append(pieces.piece(endAttribute, in: table))
            output.appendDate(end)
            output.append(pieces.piece(valueAttribute, in: table))
            output.appendValue(columns.value[row])
            let metadataSet = hasMetadata ? Int(columns.metadataIndex[row]) : 0
            output.append(pieces.piece(endings[metadataSet < endings.count ? metadataSet : 0], in: table))
        }
        rowCount += columns.count
    }

    /// Formats `count` rows of at most `rowBound` bytes each into the output, flushing it when full.
    /// The output is formatted as a local copy, so the loop pays no exclusivity checks on the
    /// class's property.
    private func formatRows(_ count: Int, rowBound: Int, pieces: PieceTable,
                            _ format: (inout RowBuffer, UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws {
        var output = self.output
        defer { self.output = output }
        try pieces.bytes.withUnsafeBufferPointer { table in
            for row in 0..<count {
                if output.count + rowBound > Self.flushThreshold { try flush(&output) }
                output.reserve(rowBound)
                try format(&output, table, row)
            }
        }
    }

    // MARK: Formatting

    /// `Z` or `±HH:MM` for CSV, ` ±HHMM` (with a leading space) for XML.
    private static func offsetSuffix(_ seconds: Int, format: Format) -> [UInt8] {
        if format == .csv && seconds == 0 { return [UInt8(ascii: "Z")] }
        let minutes = abs(seconds) / 60
        let sign = seconds < 0 ? "-" : "+"
        let hours = String(minutes / 60)
        let rest = String(minutes % 60)
        let hh = hours.count < 2 ? "0" + hours : hours
        let mm = rest.count < 2 ? "0" + rest : rest
        switch format {
        case .csv: return Array("\(sign)\(hh):\(mm)".utf8)
        case .xml: return Array(" \(sign)\(hh)\(mm)".utf8)
        }
    }

    @inline(__always)
    static func floorDivide(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        var quotient = value / divisor
        var remainder = value % divisor
        if remainder < 0 {
            quotient -= 1
            remainder += divisor
        }
        return (quotient, remainder)
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01, by the era-based
    /// civil-from-days method (eras of 400 years, years starting on 1 March).
    @inline(__always)
    static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int, day: Int) {
        let shifted = days + 719_468  // days since 0000-03-01
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097  // 0 ... 146096
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // from 1 March
        let shiftedMonth = (5 * dayOfYear + 2) / 153  // 0 = March
        let day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
        let month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// A CSV field, quoted when it contains a comma, a quote or a line break (RFC 4180).
    static func csvField(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        let needsQuotes = bytes.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"")
            || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }
        guard needsQuotes else { return bytes }
        var field: [UInt8] = [UInt8(ascii: "\"")]
        for byte in bytes {
            if byte == UInt8(ascii: "\"") { field.append(byte) }
            field.append(byte)
        }
        field.append(UInt8(ascii: "\""))
        return field
    }

    /// Text escaped for a double-quoted XML attribute value.
    static func xmlEscaped(_ text: String) -> [UInt8] {
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += Array("&amp;".utf8)
            case "<": escaped += Array("&lt;".utf8)
            case ">": escaped += Array("&gt;".utf8)
            case "\"": escaped += Array("&quot;".utf8)
            case "\t": escaped += Array("&#9;".utf8)
            case "\n": escaped += Array("&#10;".utf8)
            case "\r": escaped += Array("&#13;".utf8)
            default:
                let isForbidden = scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF
                escaped += Array(String(isForbidden ? "\u{FFFD}" : Character(scalar)).utf8)
            }
        }
        return escaped
    }

    // MARK: File

    /// Writes the buffered bytes to the file and empties the buffer.
    private func flush(_ buffer: inout RowBuffer) throws {
        var written = 0
        while written < buffer.count {
            let result = systemWrite(descriptor, buffer.base + written, buffer.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                throw Self.failure("write", path)
            }
            if result == 0 { throw CadenceError(.io, "write made no progress", path: path) }
            written += result
        }
        buffer.count = 0
    }

    @inline(__always)
    private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, bytes, count)
        #else
        Darwin.write(descriptor, bytes, count)
        #endif
    }

    private static func failure(_ operation: String, _ path: String) -> CadenceError {
        let number = errno
        let reason = String(cString: strerror(number))
        return CadenceError(number == ENOENT ? .notFound : .io, "\(operation) failed: \(reason)", path: path)
    }

    /// The end of the period `data` covers, for the XML export date.
    static func plannedEnd(of data: SyntheticHealthData) -> Timestamp {
        let days: Int
        switch (data.size, data.profile) {
        case (.days(let count), _):
            days = count
        case (.samples(let count), .dense):
            days = (count + SyntheticHealthData.denseSamplesPerDay - 1) / SyntheticHealthData.denseSamplesPerDay
        case (.samples(let count), .realistic):
            days = (count + 1_799) / 1_800
        }
        let clamped = min(max(days, 0), SyntheticHealthData.maximumDays)
        return data.startTimestamp + Int64(clamped) * SyntheticHealthData.microsecondsPerDay
    }

    // MARK: XML boilerplate

    private static let xmlPreamble = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!-- Cadence synthetic export, in the layout of an Apple Health export -->
        <!ELEMENT HealthData (ExportDate,Me,Record*)>
        <!ATTLIST HealthData
          locale CDATA #REQUIRED
        >
        <!ELEMENT ExportDate EMPTY>
        <!ATTLIST ExportDate
          value CDATA #REQUIRED
        >
        <!ELEMENT Me EMPTY>
        <!ATTLIST Me
          HKCharacteristicTypeIdentifierDateOfBirth         CDATA #REQUIRED
          HKCharacteristicTypeIdentifierBiologicalSex       CDATA #REQUIRED
          HKCharacteristicTypeIdentifierBloodType           CDATA #REQUIRED
          HKCharacteristicTypeIdentifierFitzpatrickSkinType CDATA #REQUIRED
        >
        <!ELEMENT Record (MetadataEntry*)>
        <!ATTLIST Record
          type          CDATA #REQUIRED
          unit          CDATA #IMPLIED
          value         CDATA #IMPLIED
          sourceName    CDATA #REQUIRED
          sourceVersion CDATA #IMPLIED
          device        CDATA #IMPLIED
          creationDate  CDATA #IMPLIED
          startDate     CDATA #REQUIRED
          endDate       CDATA #REQUIRED
        >
        <!ELEMENT MetadataEntry EMPTY>
        <!ATTLIST MetadataEntry
          key   CDATA #REQUIRED
          value CDATA #REQUIRED
        >
        ]>
        <HealthData locale="en_US">

        """

    private static let xmlMe = """
         <Me HKCharacteristicTypeIdentifierDateOfBirth="1988-06-15" \
        HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexNotSet" \
        HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" \
        HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet"/>

        """
}


/// Constant byte strings of one batch's rows, kept end to end in one array so that the row loop
/// can copy them from a single buffer pointer.
private struct PieceTable {
    /// Every piece, end to end.
    var bytes: [UInt8] = []
    /// Each piece's offset and length in ``bytes``.
    private var ranges: [(offset: Int, length: Int)] = []
    /// The length of the longest piece.
    private(set) var longest = 0

    /// Adds a piece and returns its number.
    mutating func add(_ piece: [UInt8]) -> Int {
        ranges.append((bytes.count, piece.count))
        bytes += piece
        longest = max(longest, piece.count)
        return ranges.count - 1
    }

    /// The bytes of piece `number`, inside `table` (the pointer to ``bytes``).
    @inline(__always)
    func piece(_ number: Int, in table: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        let range = ranges[number]
        return UnsafeBufferPointer(rebasing: table[range.offset..<(range.offset + range.length)])
    }
}

/// The writer's output buffer, with the number and date formatting that appends to it.
///
/// The memory is manual so that the row loop writes bytes with no uniqueness or capacity check
/// per byte: callers ``reserve(_:)`` room for a whole row first. The writer owns the memory and
/// calls ``deallocate()`` once; copies of this value are only the row loop's local handle.
private struct RowBuffer {
    /// The start of the memory.
    private(set) var base: UnsafeMutablePointer<UInt8>
    /// The bytes the memory holds.
    private(set) var capacity: Int
    /// The bytes in use, not yet written to the file.
    var count = 0
    /// RFC 3339 dates (`T`, fractions) when `true`, Apple export dates otherwise.
    let isCSV: Bool
    /// The UTC offset added to every timestamp.
    let offsetMicroseconds: Int64
    /// What follows the time: `Z`, `+01:00` or ` +0100`.
    let offsetSuffix: [UInt8]

    init(capacity: Int, isCSV: Bool, offsetMicroseconds: Int64, offsetSuffix: [UInt8]) {
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        self.capacity = capacity
        self.isCSV = isCSV
        self.offsetMicroseconds = offsetMicroseconds
        self.offsetSuffix = offsetSuffix
    }

    /// Frees the memory; the buffer must not be used afterwards.
    func deallocate() { base.deallocate() }

    /// Makes room for at least `extra` more bytes.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private mutating func grow(_ needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Appends one byte; room must have been reserved.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    /// Appends bytes; room must have been reserved.
    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends bytes, reserving room for them.
    mutating func append(_ bytes: [UInt8]) {
        reserve(bytes.count)
        bytes.withUnsafeBufferPointer { append($0) }
    }

    @inline(__always)
    private mutating func appendTwoDigits(_ number: Int) {
        append(UInt8(truncatingIfNeeded: 48 + number / 10))
        append(UInt8(truncatingIfNeeded: 48 + number % 10))
    }

    /// Appends the decimal digits of a non-negative integer.
    private mutating func appendDigits(_ number: UInt64) {
        if number < 10 {
            append(UInt8(truncatingIfNeeded: 48 + number))
            return
        }
        var divisor: UInt64 = 10
        while divisor <= number / 10 { divisor *= 10 }
        var remaining = number
        while divisor > 0 {
            append(UInt8(truncatingIfNeeded: 48 + remaining / divisor))
            remaining %= divisor
            divisor /= 10
        }
    }

    /// The day whose `YYYY-MM-DD` and separator ``dayPrefix`` holds, or `Int64.min`.
    private var cachedDay = Int64.min
    /// `YYYY-MM-DDT` (CSV) or `YYYY-MM-DD ` (XML), little-endian, in the first 11 of 16 bytes.
    private var dayPrefix: (low: UInt64, high: UInt64) = (0, 0)

    @inline(__always)
    private static func digit(_ number: Int) -> UInt64 { UInt64(truncatingIfNeeded: 48 + number) }

    /// Appends a date in the format's style, in the writer's local time (at most 64 bytes).
    ///
    /// Dates of the same day as the previous one (the common case) reuse its formatted
    /// `YYYY-MM-DD`; the time is stored as one 8-byte word.
    mutating func appendDate(_ timestamp: Timestamp) {
        let local = timestamp &+ offsetMicroseconds
        let (seconds, microseconds) = SyntheticExportWriter.floorDivide(local, 1_000_000)
        let (days, secondOfDay) = SyntheticExportWriter.floorDivide(seconds, 86_400)
        if days != cachedDay {
            let (year, month, day) = SyntheticExportWriter.civilDate(daysSince1970: days)
            guard year >= 0 && year <= 9_999 else {
                appendUnusualDay(year: year, month: month, day: day)
                appendTime(Int(secondOfDay), microseconds: microseconds)
                return
            }
            let century = Int(year / 100)
            let yearOfCentury = Int(year % 100)
            let low = Self.digit(century / 10) | Self.digit(century % 10) << 8 | Self.digit(yearOfCentury / 10) << 16
                | Self.digit(yearOfCentury % 10) << 24 | UInt64(UInt8(ascii: "-")) << 32 | Self.digit(month / 10) << 40
                | Self.digit(month % 10) << 48 | UInt64(UInt8(ascii: "-")) << 56
            let separator = isCSV ? UInt8(ascii: "T") : UInt8(ascii: " ")
            let high = Self.digit(day / 10) | Self.digit(day % 10) << 8 | UInt64(separator) << 16
            dayPrefix = (low, high)
            cachedDay = days
        }
        let raw = UnsafeMutableRawPointer(base + count)
        raw.storeBytes(of: dayPrefix.low.littleEndian, toByteOffset: 0, as: UInt64.self)
        raw.storeBytes(of: dayPrefix.high.littleEndian, toByteOffset: 8, as: UInt64.self)
        count += 11
        appendTime(Int(secondOfDay), microseconds: microseconds)
    }

    /// A year outside 0–9999: written in full, with its sign, never cached.
    private mutating func appendUnusualDay(year: Int64, month: Int, day: Int) {
        if year < 0 { append(UInt8(ascii: "-")) }
        appendDigits(year.magnitude)
        append(UInt8(ascii: "-"))
        appendTwoDigits(month)
        append(UInt8(ascii: "-"))
        appendTwoDigits(day)
        append(isCSV ? UInt8(ascii: "T") : UInt8(ascii: " "))
    }

    /// `HH:MM:SS`, the CSV fraction when there is one, and the offset.
    @inline(__always)
    private mutating func appendTime(_ second: Int, microseconds: Int64) {
        let hour = second / 3_600
        let minute = second / 60 % 60
        let secondOfMinute = second % 60
        let colon = UInt64(UInt8(ascii: ":"))
        let time = Self.digit(hour / 10) | Self.digit(hour % 10) << 8 | colon << 16 | Self.digit(minute / 10) << 24
            | Self.digit(minute % 10) << 32 | colon << 40 | Self.digit(secondOfMinute / 10) << 48
            | Self.digit(secondOfMinute % 10) << 56
        UnsafeMutableRawPointer(base + count).storeBytes(of: time.littleEndian, as: UInt64.self)
        count += 8
        if isCSV && microseconds != 0 {
            append(UInt8(ascii: "."))
            var fraction = Int(microseconds)
            var divisor = 100_000
            while fraction != 0 {
                append(UInt8(truncatingIfNeeded: 48 + fraction / divisor))
                fraction %= divisor
                divisor /= 10
            }
        }
        offsetSuffix.withUnsafeBufferPointer { append($0) }
    }

    /// Appends a value: integers without a fraction, up to three decimals exactly, otherwise
    /// Swift's shortest round-trip form (at most 64 bytes).
    mutating func appendValue(_ value: Double) {
        let magnitude = value.magnitude
        if magnitude < 1e15 {
            let thousandths = (magnitude * 1_000).rounded()
            if thousandths / 1_000 == magnitude {
                let scaled = UInt64(thousandths)
                var fraction = Int(scaled % 1_000)
                if value < 0 && scaled != 0 { append(UInt8(ascii: "-")) }
                appendDigits(scaled / 1_000)
                if fraction != 0 {
                    append(UInt8(ascii: "."))
                    var divisor = 100
                    while fraction != 0 {
                        append(UInt8(truncatingIfNeeded: 48 + fraction / divisor))
                        fraction %= divisor
                        divisor /= 10
                    }
                }
                return
            }
        }
        Array(value.description.utf8).withUnsafeBufferPointer { append($0) }
    }
}
