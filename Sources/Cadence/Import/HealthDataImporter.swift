//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// What an import did (`cadence import` prints it).
public struct ImportSummary: Sendable, Codable {
    /// A record that was not imported, and why.
    public struct Rejection: Sendable, Codable, Equatable, CustomStringConvertible {
        /// The 1-based line where the record starts.
        public var line: Int
        /// One sentence saying what was wrong.
        public var reason: String

        public var description: String { "line \(line): \(reason)" }
    }

    /// The file imported.
    public var file: String
    /// Samples stored.
    public var imported = 0
    /// Records skipped because the store already had them (same UUID, SPEC §1).
    public var duplicates = 0
    /// Records that could not be read or converted.
    public var rejected = 0
    /// The first rejections, in file order.
    public var rejections: [Rejection] = []
    /// Quantity types Cadence does not know, with their record counts: stored with the unit they
    /// arrived in and the discrete arithmetic style (SPEC §1).
    public var unknownTypes: [String: Int] = [:]
    /// Category records (`HKCategoryTypeIdentifier…`), counted and not stored.
    public var categoryRecords = 0
    /// Records of other kinds (`HKDataType…`, correlation types), counted and not stored.
    public var otherRecords = 0
    /// Records inside `<Correlation>`s, skipped because exports repeat them at top level.
    public var correlationRecords = 0
    /// `<Correlation>`, `<Workout>` and `<ActivitySummary>` elements, counted and not stored.
    public var correlations = 0
    public var workouts = 0
    public var activitySummaries = 0
    /// Bytes read (of the uncompressed XML for a zip).
    public var bytesRead = 0

    /// The most rejections kept with their reasons.
    static let keptRejections = 20

    mutating func reject(line: Int, _ reason: String) {
        rejected += 1
        if rejections.count < Self.keptRejections { rejections.append(Rejection(line: line, reason: reason)) }
    }
}

/// How far an import has come, for progress bars.
public struct ImportProgress: Sendable {
    /// Bytes read so far.
    public var bytesRead: Int
    /// The input's size, when known (an `export.xml` or CSV file; not a zip's inflated size).
    public var totalBytes: Int?
    /// Records read so far.
    public var records: Int
}

/// Imports Apple Health exports (`export.zip`, `export.xml`) and CSV files into a store, with
/// bounded memory whatever the input's size.
///
///     let summary = try HealthDataImporter(store: store).importFile(atPath: "export.zip")
///
/// Display units are converted to each type's canonical unit; a record without a UUID gets the
/// derived one, so importing the same file twice adds nothing and a newer export adds only what
/// is new. A record that cannot be read is counted and reported with its line, and the rest
/// imports; with `strict`, any such record fails the whole file and the store is left exactly as
/// it was (the file is checked in a first pass, then imported in a second).
///
/// CSV columns: `type,sourceName,unit,startDate,endDate,value` required;
/// `uuid,sourceVersion,device,creationDate` optional; `metadata:KEY` columns for metadata. Dates
/// are RFC 3339 or the export's `yyyy-MM-dd HH:mm:ss Z`.
public struct HealthDataImporter: Sendable {
    /// The store to import into.
    public let store: HealthStore
    /// Whether one bad record fails the whole file.
    public var strict: Bool
    /// Samples buffered before each save.
    public var batchSize: Int
    /// Called every few thousand records.
    public var progress: (@Sendable (ImportProgress) -> Void)?

    /// Creates an importer.
    public init(store: HealthStore, strict: Bool = false, batchSize: Int = 100_000,
                progress: (@Sendable (ImportProgress) -> Void)? = nil) {
        self.store = store
        self.strict = strict
        self.batchSize = max(1, batchSize)
        self.progress = progress
    }

    /// Imports one file, choosing the reader by its extension (`.zip`, `.xml`, `.csv`).
    ///
    /// - Throws: ``CadenceError`` naming the file: `notFound`/`io` when it cannot be read,
    ///   `malformedInput` when it is truncated or not what its name says (after the complete
    ///   records before the damage were imported, unless `strict`), `hostileInput` for a refused
    ///   archive, and in strict mode `malformedInput` for the first bad record.
    public func importFile(atPath path: String) throws -> ImportSummary {
        if strict {
            var check = Session(importer: self, path: path, dryRun: true)
            try check.run()
            if let first = check.summary.rejections.first {
                throw CadenceError(.malformedInput,
                                   "\(check.summary.rejected) record(s) cannot be imported (strict mode, nothing was imported); first: \(first.reason)",
                                   path: path, line: first.line)
            }
        }
        var session = Session(importer: self, path: path, dryRun: false)
        try session.run()
        return session.summary
    }
}

extension HealthDataImporter {
    /// One pass over one file.
    struct Session {
        let importer: HealthDataImporter
        let path: String
        let dryRun: Bool
        var summary: ImportSummary
        private var batches: [QuantitySampleBatch] = []
        /// Where each type's batch is in ``batches``.
        private var batchIndexes: [String: Int] = [:]
        private var pending = 0
        private var records = 0
        private var bytesRead = 0
        private var totalBytes: Int?
        private var units: [String: HealthUnit] = [:]
        private var conversions: [String: UnitConversion] = [:]
        private var devices: [String: Device] = [:]
        /// The previous record's type identifier and unit, resolved.
        private var lastConversion: (identifier: String, unitText: String, type: QuantityType, conversion: UnitConversion,
                                     isKnown: Bool, validValues: ClosedRange<Double>)?
        /// Types Cadence does not know, as first met in this file.
        private var unknownTypes: [String: QuantityType] = [:]
        /// The provenance of the previous record and its index in its type's batch.
        private var lastProvenance: (type: String, sourceName: String, sourceVersion: String?, device: String?, batch: Int,
                                     index: Int)?

        init(importer: HealthDataImporter, path: String, dryRun: Bool) {
            self.importer = importer
            self.path = path
            self.dryRun = dryRun
            summary = ImportSummary(file: path)
        }

        mutating func run() throws {
            let lowercased = path.lowercased()
            if lowercased.hasSuffix(".csv") {
                try runCSV()
            } else if lowercased.hasSuffix(".zip") {
                let archive = try ExportArchive(path: path)
                var reader = ExportXMLReader(path: path + "/" + archive.entryPath)
                do {
                    try archive.streamExport { block in
                        bytesRead += block.count
                        try reader.feed(block) { try self.handle($0) }
                    }
                    finishXML(try reader.finish())
                } catch {
                    try flush()
                    throw error
                }
            } else {
                let source = try FileByteSource(path: path)
                totalBytes = Int(source.size)
                var reader = ExportXMLReader(path: path)
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
                defer { buffer.deallocate() }
                do {
                    while true {
                        let count = try source.read(into: buffer)
                        guard count > 0 else { break }
                        bytesRead += count
                        try reader.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { try self.handle($0) }
                    }
                    finishXML(try reader.finish())
                } catch {
                    // What was complete before the damage stays imported (unless strict checked first).
                    try flush()
                    throw error
                }
            }
            try flush()
            summary.bytesRead = bytesRead
        }

        private mutating func finishXML(_ read: ExportReadSummary) {
            summary.correlations = read.correlationCount
            summary.workouts = read.workoutCount
            summary.activitySummaries = read.activitySummaryCount
            for issue in read.issues { summary.reject(line: issue.line, issue.reason) }
            // The reader keeps only the first issues; count the rest without reasons.
            summary.rejected += max(0, read.malformedRecordCount - read.issues.count)
        }

        private mutating func runCSV() throws {
            let source = try FileByteSource(path: path)
            totalBytes = Int(source.size)
            var reader = try CSVReader(path: path)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
            defer { buffer.deallocate() }
            var columns: CSVColumnIndexes?
            let handler: (CSVRow) throws -> Void = { row in
                if columns == nil { columns = try CSVColumnIndexes(row.columns, path: self.path) }
                if let columns { self.handle(row, columns: columns) }
            }
            while true {
                let count = try source.read(into: buffer)
                guard count > 0 else { break }
                bytesRead += count
                try reader.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), to: handler)
            }
            let read = try reader.finish(to: handler)
            for issue in read.issues { summary.reject(line: issue.line, issue.reason) }
            summary.rejected += max(0, read.malformedRowCount - read.issues.count)
        }

        // MARK: Records

        private mutating func handle(_ record: ExportRecord) throws {
            if record.isInsideCorrelation {
                summary.correlationRecords += 1
                return
            }
            let metadata = record.metadata.isEmpty ? [:]
                : Dictionary(record.metadata.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            try add(line: record.line, type: record.type, sourceName: record.sourceName, unit: record.unit,
                    start: record.startDate, end: record.endDate, value: record.value, uuid: nil,
                    sourceVersion: record.sourceVersion, device: record.device, creation: record.creationDate,
                    metadata: metadata)
        }

        private mutating func handle(_ row: CSVRow, columns: CSVColumnIndexes) {
            func field(_ index: Int?) -> String? {
                guard let index, index < row.fields.count, !row.fields[index].isEmpty else { return nil }
                return row.fields[index]
            }
            var metadata: [String: String] = [:]
            for (key, index) in columns.metadata { if let value = field(index) { metadata[key] = value } }
            var uuid: UUID?
            if let text = field(columns.uuid) {
                guard let parsed = UUID(uuidString: text) else {
                    summary.reject(line: row.line, "'\(text.prefix(64))' is not a UUID")
                    return
                }
                uuid = parsed
            }
            do {
                try add(line: row.line, type: field(columns.type) ?? "", sourceName: field(columns.sourceName) ?? "",
                        unit: field(columns.unit), start: field(columns.startDate) ?? "", end: field(columns.endDate) ?? "",
                        value: field(columns.value), uuid: uuid, sourceVersion: field(columns.sourceVersion),
                        device: field(columns.device), creation: field(columns.creationDate), metadata: metadata)
            } catch {
                summary.reject(line: row.line, "\(error)")
            }
        }

        private mutating func add(line: Int, type identifier: String, sourceName: String, unit unitText: String?,
                                  start startText: String, end endText: String, value valueText: String?, uuid: UUID?,
                                  sourceVersion: String?, device deviceText: String?, creation creationText: String?,
                                  metadata: [String: String]) throws {
            records += 1
            if records % 50_000 == 0 {
                importer.progress?(ImportProgress(bytesRead: bytesRead, totalBytes: totalBytes, records: records))
            }
            if identifier.hasPrefix("HKCategoryTypeIdentifier") {
                summary.categoryRecords += 1
                return
            }
            guard identifier.hasPrefix(QuantityType.identifierPrefix) || QuantityType.known(identifier) != nil else {
                if identifier.isEmpty || sourceName.isEmpty {
                    summary.reject(line: line, identifier.isEmpty ? "the type is missing" : "the source name is missing")
                } else {
                    summary.otherRecords += 1
                }
                return
            }
            guard !sourceName.isEmpty else { return summary.reject(line: line, "the source name is missing") }
            guard let valueText, let value = Self.parseNumber(valueText), value.isFinite else {
                return summary.reject(line: line, "the value '\(valueText?.prefix(64) ?? "")' is not a finite number")
            }
            let start: Timestamp
            let end: Timestamp
            var creation: Timestamp?
            do {
                start = try Self.parseDate(startText)
                end = try Self.parseDate(endText)
                creation = try creationText.map(Self.parseDate)
            } catch let error as CadenceError {
                return summary.reject(line: line, error.message)
            }
            guard start <= end else { return summary.reject(line: line, "the start date \(startText) is after the end date \(endText)") }
            // Resolve the type and convert the value to its canonical unit: consecutive records
            // mostly repeat the previous record's type and unit, so that case does no hashing.
            guard let unitText, !unitText.isEmpty else { return summary.reject(line: line, "the unit is missing") }
            let type: QuantityType
            let conversion: UnitConversion
            let validValues: ClosedRange<Double>
            if let last = lastConversion, last.identifier == identifier, last.unitText == unitText {
                type = last.type
                conversion = last.conversion
                validValues = last.validValues
                if !last.isKnown { summary.unknownTypes[type.identifier, default: 0] += 1 }
            } else {
                let unit: HealthUnit
                if let cached = units[unitText] {
                    unit = cached
                } else {
                    do { unit = try HealthUnit(unitText) } catch let error as CadenceError {
                        return summary.reject(line: line, error.message)
                    }
                    units[unitText] = unit
                }
                if let known = QuantityType.known(identifier) {
                    type = known
                } else {
                    // Unknown types keep the unit of their first record; later records convert to it.
                    type = unknownTypes[QuantityType.fullIdentifier(identifier)]
                        ?? store.snapshotType(identifier) ?? QuantityType.unknown(identifier, unit: unit)
                    unknownTypes[type.identifier] = type
                    summary.unknownTypes[type.identifier, default: 0] += 1
                }
                let conversionKey = unitText + "\u{0}" + type.identifier
                if let cached = conversions[conversionKey] {
                    conversion = cached
                } else {
                    do { conversion = try unit.conversion(to: type.canonicalUnit) } catch let error as CadenceError {
                        return summary.reject(line: line, "\(error.message) for \(type.shortIdentifier)")
                    }
                    conversions[conversionKey] = conversion
                }
                validValues = type.validValues
                lastConversion = (identifier, unitText, type, conversion, type.isKnown, validValues)
            }
            let canonical = conversion.apply(value)
            guard canonical.isFinite else { return summary.reject(line: line, "the value \(valueText) overflows \(type.canonicalUnit)") }
            if !validValues.contains(canonical) {
                do { try type.validate(value: canonical) } catch let error as CadenceError {
                    return summary.reject(line: line, error.message)
                }
            }
            guard !dryRun else { return }
            // Consecutive records mostly share their type and provenance: reuse the previous
            // record's batch and provenance index without hashing anything.
            let batchIndex: Int
            let index: Int
            if let last = lastProvenance, last.type == type.identifier, last.sourceName == sourceName,
               last.sourceVersion == sourceVersion, last.device == deviceText {
                batchIndex = last.batch
                index = last.index
            } else {
                if let existing = batchIndexes[type.identifier] {
                    batchIndex = existing
                } else {
                    batchIndex = batches.count
                    batches.append(QuantitySampleBatch(type: type))
                    batchIndexes[type.identifier] = batchIndex
                }
                index = batches[batchIndex].addProvenance(Provenance(source: Source(name: sourceName), sourceVersion: sourceVersion,
                                                                     device: device(deviceText)))
                lastProvenance = (type.identifier, sourceName, sourceVersion, deviceText, batchIndex, index)
            }
            do {
                // Appended in place: the batch is never copied out of the array.
                try batches[batchIndex].append(startTimestamp: start, endTimestamp: end, value: canonical, provenanceIndex: index,
                                               uuid: uuid, creationTimestamp: creation, metadata: metadata)
            } catch let error as CadenceError {
                return summary.reject(line: line, error.message)
            }
            pending += 1
            if pending >= importer.batchSize { try flush() }
        }

        /// The device for a description string, parsed once per distinct string.
        private mutating func device(_ text: String?) -> Device? {
            guard let text else { return nil }
            if let cached = devices[text] { return cached }
            let device = Device(description: text)
            devices[text] = device
            return device
        }

        private var store: HealthStore { importer.store }

        /// Saves the buffered batches in one transaction.
        private mutating func flush() throws {
            guard pending > 0, !dryRun else { return }
            let saved = try store.save(batches)
            summary.imported += saved.saved
            summary.duplicates += saved.duplicates
            batches = []
            batchIndexes = [:]
            lastProvenance = nil
            pending = 0
        }

        /// An export date (`2017-01-22 18:57:52 +0200`) or an RFC 3339 one.
        static func parseDate(_ text: String) throws -> Timestamp {
            // Byte 10 tells them apart: a space in the export's format, 'T' in RFC 3339.
            if let separator = text.utf8.dropFirst(10).first, separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t") {
                return try parseRFC3339(text)
            }
            do { return try parseExport(text) } catch { return try parseRFC3339(text) }
        }

        /// A decimal number, allowing spaces around it.
        static func parseNumber(_ text: String) -> Double? {
            if let value = Double(text) { return value }
            var trimmed = Substring(text)
            while let first = trimmed.utf8.first, first == 0x20 || first == 0x09 { trimmed = trimmed.dropFirst() }
            while let last = trimmed.utf8.last, last == 0x20 || last == 0x09 { trimmed = trimmed.dropLast() }
            return Double(trimmed)
        }
    }

    /// Where the CSV columns are.
    struct CSVColumnIndexes {
        var type: Int, sourceName: Int, unit: Int, startDate: Int, endDate: Int, value: Int
        var uuid: Int?, sourceVersion: Int?, device: Int?, creationDate: Int?
        var metadata: [(String, Int)]

        init(_ columns: CSVColumns?, path: String) throws {
            guard let columns else { throw CadenceError(.malformedInput, "the CSV file has no header row", path: path, line: 1) }
            func required(_ name: String) throws -> Int {
                guard let index = columns.index(of: name) else {
                    throw CadenceError(.malformedInput, "the CSV header lacks the required column '\(name)'", path: path, line: 1)
                }
                return index
            }
            type = try required("type")
            sourceName = try required("sourceName")
            unit = try required("unit")
            startDate = try required("startDate")
            endDate = try required("endDate")
            value = try required("value")
            uuid = columns.index(of: "uuid")
            sourceVersion = columns.index(of: "sourceVersion")
            device = columns.index(of: "device")
            creationDate = columns.index(of: "creationDate")
            metadata = columns.names.enumerated().compactMap { index, name in
                name.hasPrefix("metadata:") ? (String(name.dropFirst("metadata:".count)), index) : nil
            }
        }
    }
}

extension HealthStore {
    /// The stored type with this identifier, if any.
    package func snapshotType(_ identifier: String) -> QuantityType? { snapshot().type(identifier)?.type }
}
