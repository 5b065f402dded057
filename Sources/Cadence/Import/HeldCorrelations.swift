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
            var decoder = SpillDecoder(payload, path: path)
            let isCorrelation = try decoder.byte() == 1
            let record = try HeldCorrelations.decode(&decoder)
            try decoder.finish()
            return isCorrelation ? .correlation(record) : .member(record)
        }
    }

    /// A record's payload: whether it is a correlation, then every field, in declaration order.
    static func encode(_ record: ExportRecord, isCorrelation: Bool) -> [UInt8] {
        var encoder = SpillEncoder()
        encoder.append(UInt8(isCorrelation ? 1 : 0))
        encoder.append(record.type)
        encoder.append(record.sourceName)
        encoder.append(record.sourceVersion) { $0.append($1) }
        encoder.append(record.device) { $0.append($1) }
        encoder.append(record.unit) { $0.append($1) }
        encoder.append(record.creationDate) { $0.append($1) }
        encoder.append(record.startDate)
        encoder.append(record.endDate)
        encoder.append(record.value) { $0.append($1) }
        encoder.append(Int64(record.metadata.count))
        for (key, value) in record.metadata {
            encoder.append(key)
            encoder.append(value)
        }
        encoder.append(Int64(record.line))
        encoder.append(UInt8(record.isInsideCorrelation ? 1 : 0))
        encoder.append(record.correlationMemberCount.map(Int64.init)) { $0.append($1) }
        encoder.append(record.startTimestamp) { $0.append($1) }
        encoder.append(record.endTimestamp) { $0.append($1) }
        encoder.append(record.creationTimestamp) { $0.append($1) }
        return encoder.bytes
    }

    /// The record ``encode(_:isCorrelation:)`` wrote, read after its first byte.
    static func decode(_ decoder: inout SpillDecoder) throws(CadenceError) -> ExportRecord {
        let type = try decoder.string()
        let sourceName = try decoder.string()
        let sourceVersion = try decoder.optional { (decoder) throws(CadenceError) in try decoder.string() }
        let device = try decoder.optional { (decoder) throws(CadenceError) in try decoder.string() }
        let unit = try decoder.optional { (decoder) throws(CadenceError) in try decoder.string() }
        let creationDate = try decoder.optional { (decoder) throws(CadenceError) in try decoder.string() }
        let startDate = try decoder.string()
        let endDate = try decoder.string()
        let value = try decoder.optional { (decoder) throws(CadenceError) in try decoder.string() }
        let metadataCount = try decoder.int()
        var metadata: [(key: String, value: String)] = []
        for _ in 0..<max(0, metadataCount) { metadata.append((try decoder.string(), try decoder.string())) }
        var record = ExportRecord(type: type, sourceName: sourceName, sourceVersion: sourceVersion, device: device,
                                  unit: unit, creationDate: creationDate, startDate: startDate, endDate: endDate,
                                  value: value, metadata: metadata, line: try decoder.int(),
                                  isInsideCorrelation: try decoder.byte() == 1)
        record.correlationMemberCount = try decoder.optional { (decoder) throws(CadenceError) in try decoder.int() }
        record.startTimestamp = try decoder.optional { (decoder) throws(CadenceError) in try decoder.int64() }
        record.endTimestamp = try decoder.optional { (decoder) throws(CadenceError) in try decoder.int64() }
        record.creationTimestamp = try decoder.optional { (decoder) throws(CadenceError) in try decoder.int64() }
        return record
    }
}
