//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A self-closing top-level `<Record .../>` as the reader saw it, for a sink that reads it
/// without an ``ExportRecord``: its dates parsed, its value as the file's bytes, and its
/// repeated attributes (type, source name, version, device, unit) as the strings the reader
/// decoded and cached, which a sink compares with the previous record's without copying them.
///
/// The reader makes a view only of a record that is well formed and complete: it has a type,
/// a source name, start and end dates in the export's format, no metadata, and a value, if any,
/// of plain ASCII. A view is valid only during the call that receives it.
struct ExportRecordView {
    /// The 1-based line where the `<Record` tag starts.
    let line: Int
    /// When the sample starts.
    let startTimestamp: Timestamp
    /// When the sample ends.
    let endTimestamp: Timestamp
    /// When the sample was saved, if the record says.
    let creationTimestamp: Timestamp?
    /// The value's bytes, or nil when the record has no value.
    let value: UnsafeBufferPointer<UInt8>?
    /// The reader's cached values, by ``ExportXMLReader/AttributeSlot``.
    let texts: [ExportXMLReader.CachedValue]
    /// Which slots below ``ExportXMLReader/AttributeSlot/cachedCount`` the record has, a bit each.
    let presentTexts: UInt8

    /// The text of a cached attribute, or nil when the record lacks it.
    @inline(__always)
    func text(_ slot: Int) -> String? {
        presentTexts & (1 << slot) != 0 ? texts[slot].value : nil
    }

    /// Whether the record's cached attribute is `other` (both absent counts as equal).
    @inline(__always)
    func text(_ slot: Int, equals other: String?) -> Bool {
        guard presentTexts & (1 << slot) != 0 else { return other == nil }
        guard let other else { return false }
        return texts[slot].value == other
    }

    /// The value as a string, or nil when the record has none.
    func valueText() -> String? {
        value.map(XMLAttributeValueDecoder.decodePlain)
    }

    /// The record the view stands for, as the reader builds it when it parses export dates.
    func record() -> ExportRecord {
        typealias Slot = ExportXMLReader.AttributeSlot
        var record = ExportRecord(
            type: text(Slot.type) ?? "", sourceName: text(Slot.sourceName) ?? "",
            sourceVersion: text(Slot.sourceVersion), device: text(Slot.device), unit: text(Slot.unit),
            startDate: "", endDate: "", value: valueText(), line: line)
        record.startTimestamp = startTimestamp
        record.endTimestamp = endTimestamp
        record.creationTimestamp = creationTimestamp
        return record
    }
}

extension ExportRecordView: RecordFields {
    /// A view is made only of a record without metadata, and export records carry no UUID.
    var hasExtras: Bool { false }

    @inline(__always)
    func attribute(_ attribute: RecordAttribute, equals text: String?) -> Bool {
        typealias Slot = ExportXMLReader.AttributeSlot
        switch attribute {
        case .type: return self.text(Slot.type, equals: text)
        case .unit: return self.text(Slot.unit, equals: text)
        case .sourceName: return self.text(Slot.sourceName, equals: text)
        case .sourceVersion: return self.text(Slot.sourceVersion, equals: text)
        case .device: return self.text(Slot.device, equals: text)
        }
    }

    @inline(__always)
    func timestamps() -> (start: Timestamp, end: Timestamp, creation: Timestamp?)? {
        (startTimestamp, endTimestamp, creationTimestamp)
    }

    @inline(__always)
    func withValueBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        body(value)
    }
}
