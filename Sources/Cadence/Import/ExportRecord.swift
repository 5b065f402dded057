//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// One `<Record>` element of an Apple Health `export.xml`, as the strings the file holds.
///
/// The reader decodes the five predefined XML entities and numeric character references, and
/// nothing else: units, dates and values stay strings, so that the caller decides how to map
/// them to samples. Unknown attributes are ignored.
///
///     <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Jonathan’s iPhone"
///             unit="count" startDate="2017-01-02 08:00:00 +0200" ... value="42">
///       <MetadataEntry key="HKWasUserEntered" value="1"/>
///     </Record>
///
/// Apple writes every record that belongs to a `<Correlation>` twice: once inside it and once
/// at top level. The reader delivers both; the one inside has ``isInsideCorrelation`` set, so
/// that a caller who imports samples skips it and one who rebuilds correlations keeps it.
public struct ExportRecord: Sendable {
    /// The sample type identifier, such as `HKQuantityTypeIdentifierHeartRate`.
    public var type: String
    /// The name of the app or device that wrote the sample (`sourceName`, or `source` in the
    /// exports of iOS 8, which had no `sourceName`).
    public var sourceName: String
    /// The version of the source, if the file gives one.
    public var sourceVersion: String?
    /// The `HKDevice` description, such as `<<HKDevice: 0x...>, name:iPhone, ...>`, if any.
    public var device: String?
    /// The unit string, such as `count/min`; category records have none.
    public var unit: String?
    /// When the sample was saved, as written in the file.
    public var creationDate: String?
    /// When the sample starts, as written in the file, such as `2017-01-02 08:00:00 +0200`.
    public var startDate: String
    /// When the sample ends, as written in the file.
    public var endDate: String
    /// The value, if the file gives one (a number for quantities, an identifier or number for
    /// categories).
    public var value: String?
    /// The `<MetadataEntry key= value=/>` children of the record, in file order.
    public var metadata: [(key: String, value: String)]
    /// The 1-based line where the `<Record` tag starts.
    public var line: Int
    /// Whether the record sits inside a `<Correlation>`; Apple also writes such records at top level.
    public var isInsideCorrelation: Bool
    /// For a `<Correlation>` element delivered as a record (its type, source, dates and metadata):
    /// how many records it holds, delivered just before it; `nil` for a `<Record>`.
    public var correlationMemberCount: Int?
    /// ``startDate`` already parsed, when the reader was asked to (then ``startDate`` is empty).
    var startTimestamp: Timestamp?
    /// ``endDate`` already parsed, when the reader was asked to (then ``endDate`` is empty).
    var endTimestamp: Timestamp?
    /// ``creationDate`` already parsed, when the reader was asked to (then ``creationDate`` is nil).
    var creationTimestamp: Timestamp?

    /// Creates a record.
    ///
    /// - Parameters:
    ///   - type: The sample type identifier.
    ///   - sourceName: The name of the source.
    ///   - sourceVersion: The version of the source.
    ///   - device: The device description.
    ///   - unit: The unit string.
    ///   - creationDate: When the sample was saved.
    ///   - startDate: When the sample starts.
    ///   - endDate: When the sample ends.
    ///   - value: The value.
    ///   - metadata: The metadata entries, in file order.
    ///   - line: The 1-based line where the element starts.
    ///   - isInsideCorrelation: Whether the record sits inside a `<Correlation>`.
    public init(
        type: String, sourceName: String, sourceVersion: String? = nil, device: String? = nil,
        unit: String? = nil, creationDate: String? = nil, startDate: String, endDate: String,
        value: String? = nil, metadata: [(key: String, value: String)] = [], line: Int,
        isInsideCorrelation: Bool = false
    ) {
        self.type = type
        self.sourceName = sourceName
        self.sourceVersion = sourceVersion
        self.device = device
        self.unit = unit
        self.creationDate = creationDate
        self.startDate = startDate
        self.endDate = endDate
        self.value = value
        self.metadata = metadata
        self.line = line
        self.isInsideCorrelation = isInsideCorrelation
    }

    /// The value of the first metadata entry with `key`, if there is one.
    ///
    /// - Parameter key: The metadata key, such as `HKWasUserEntered`.
    /// - Complexity: O(*m*), where *m* is the number of metadata entries.
    public func metadataValue(forKey key: String) -> String? {
        metadata.first { $0.key == key }?.value
    }
}
