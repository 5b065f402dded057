//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// An attribute a record repeats from the one before it, as a file writes it.
enum RecordAttribute {
    case type, unit, sourceName, sourceVersion, device
}

/// Where a tabular input (an import CSV, an Arrow stream) keeps the attributes a record may
/// repeat: the indices of their columns.
protocol RecordAttributeColumns {
    var type: Int { get }
    var unit: Int { get }
    var sourceName: Int { get }
    var sourceVersion: Int? { get }
    var device: Int? { get }
}

extension RecordAttributeColumns {
    /// The column holding `attribute`, or nil when the input has none.
    func column(of attribute: RecordAttribute) -> Int? {
        switch attribute {
        case .type: type
        case .unit: unit
        case .sourceName: sourceName
        case .sourceVersion: sourceVersion
        case .device: device
        }
    }
}

/// A record as its reader holds it — cached strings, field bytes — read by the collector's
/// common-record path without a string made or copied.
///
/// Each reader says how its own layout answers (the XML reader's attribute slots, a CSV file's
/// columns), so the collector's fast path is written once and knows no file format. Anything a
/// conformance cannot answer cheaply makes it decline, and the record takes the general path,
/// which also says why a record is rejected.
protocol RecordFields {
    /// The 1-based line where the record starts.
    var line: Int { get }

    /// Whether the record carries anything besides the attributes, dates and value: a UUID or
    /// metadata entries.
    var hasExtras: Bool { get }

    /// Whether the attribute is `text`; an absent attribute equals nil.
    func attribute(_ attribute: RecordAttribute, equals text: String?) -> Bool

    /// The record's dates, or nil when one that is present does not parse.
    func timestamps() -> (start: Timestamp, end: Timestamp, creation: Timestamp?)?

    /// Calls `body` with the value's bytes, or with nil when the record has no value.
    func withValueBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result
}
