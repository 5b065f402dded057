//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The records met inside `<Correlation>`s and the correlations themselves, in file order, held
/// in a ``SpillFile`` until the whole file is read: a nested record is resolved against its
/// top-level twin, which may come later in the file (<doc:HowCadenceComputes#Importing-Apple-Health-exports>),
/// so none can be stored before the end; on disk they cost the import no memory however many
/// the file holds.
struct HeldCorrelations {
    /// One held element.
    enum Item {
        /// A record inside a correlation (``ExportRecord/isInsideCorrelation`` set).
        case member(ExportRecord)
        /// A correlation, after its members; its ``ExportRecord/correlationMemberCount`` says how many.
        case correlation(ExportRecord)
    }

    private var file: SpillFile?
    /// Where the temporary file goes.
    private let directory: String

    /// Holds nothing yet; the file is created in `directory` when the first item comes.
    init(directory: String) { self.directory = directory }

    /// Whether nothing is held.
    var isEmpty: Bool { (file?.count ?? 0) == 0 }

    /// Holds what a collector took (``SampleCollector/takeNestedRecords()``): its nested records
    /// with each correlation placed right after its members.
    ///
    /// - Throws: ``CadenceError`` (`io`) naming the temporary file, when it cannot be written.
    mutating func hold(_ nested: [ExportRecord], correlations: [(record: ExportRecord, firstMember: Int)]) throws(CadenceError) {
        guard !nested.isEmpty || !correlations.isEmpty else { return }
        var file: SpillFile
        if let existing = self.file { file = existing } else { file = try SpillFile(in: directory) }
        var written = 0
        for (record, firstMember) in correlations {
            // Where the correlation came: right after its members, whether or not they were held earlier.
            let end = min(max(firstMember + (record.correlationMemberCount ?? 0), written), nested.count)
            for member in nested[written..<end] { try file.append(Self.encode(member, isCorrelation: false)) }
            written = end
            try file.append(Self.encode(record, isCorrelation: true))
        }
        for member in nested[written...] { try file.append(Self.encode(member, isCorrelation: false)) }
        self.file = file
    }

    /// Reads the held items in file order.
    mutating func reader() throws(CadenceError) -> Reader {
        try file?.flush()
        return Reader(spill: file?.reader(), path: file?.path ?? directory)
    }

    /// Reads held items in order.
    struct Reader {
        fileprivate var spill: SpillFile.Reader?
        fileprivate let path: String

        /// The next item, or `nil` after the last.
        ///
        /// - Throws: ``CadenceError`` (`io`) naming the temporary file, when it cannot be read or is damaged.
        mutating func next() throws(CadenceError) -> Item? {
            guard let payload = try spill?.next() else { return nil }
            do {
                var reader = BinaryReader(payload, path: path)
                let isCorrelation = try reader.readBool()
                let record = try HeldCorrelations.decode(&reader)
                guard reader.isAtEnd else { throw SpillFile.undecodable(path: path) }
                return isCorrelation ? .correlation(record) : .member(record)
            } catch {
                throw SpillFile.undecodable(path: path)
            }
        }
    }

    /// A record's payload: whether it is a correlation, then every field, in declaration order.
    static func encode(_ record: ExportRecord, isCorrelation: Bool) -> [UInt8] {
        var writer = BinaryWriter()
        writer.write(isCorrelation)
        writer.write(record.type)
        writer.write(record.sourceName)
        writer.write(optional: record.sourceVersion)
        writer.write(optional: record.device)
        writer.write(optional: record.unit)
        writer.write(optional: record.creationDate)
        writer.write(record.startDate)
        writer.write(record.endDate)
        writer.write(optional: record.value)
        writer.writeVarint(UInt64(record.metadata.count))
        for (key, value) in record.metadata {
            writer.write(key)
            writer.write(value)
        }
        writer.write(Int64(record.line))
        writer.write(record.isInsideCorrelation)
        for number in [record.correlationMemberCount.map(Int64.init), record.startTimestamp, record.endTimestamp,
                       record.creationTimestamp] {
            writer.write(number != nil)
            if let number { writer.write(number) }
        }
        return writer.bytes
    }

    /// The record ``encode(_:isCorrelation:)`` wrote, read after its first byte.
    static func decode(_ reader: inout BinaryReader) throws -> ExportRecord {
        let type = try reader.readString()
        let sourceName = try reader.readString()
        let sourceVersion = try reader.readOptionalString()
        let device = try reader.readOptionalString()
        let unit = try reader.readOptionalString()
        let creationDate = try reader.readOptionalString()
        let startDate = try reader.readString()
        let endDate = try reader.readString()
        let value = try reader.readOptionalString()
        let metadataCount = try reader.readCount(minimumItemSize: 2)
        var metadata: [(key: String, value: String)] = []
        for _ in 0..<metadataCount { metadata.append((try reader.readString(), try reader.readString())) }
        var record = ExportRecord(type: type, sourceName: sourceName, sourceVersion: sourceVersion, device: device,
                                  unit: unit, creationDate: creationDate, startDate: startDate, endDate: endDate,
                                  value: value, metadata: metadata, line: Int(try reader.read(Int64.self)),
                                  isInsideCorrelation: try reader.readBool())
        func optionalNumber() throws -> Int64? { try reader.readBool() ? try reader.read(Int64.self) : nil }
        record.correlationMemberCount = try optionalNumber().map { Int($0) }
        record.startTimestamp = try optionalNumber()
        record.endTimestamp = try optionalNumber()
        record.creationTimestamp = try optionalNumber()
        return record
    }
}
