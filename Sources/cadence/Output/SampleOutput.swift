//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// How `samples` and `changes` print samples of every kind: each becomes a ``Printed`` row first.
enum SampleOutput {
    /// What is printed of one sample, whatever its kind.
    struct Printed {
        var uuid: UUID
        var typeIdentifier: String
        var source: Source
        var startDate: Date
        var endDate: Date
        /// The value as JSON: a quantity's number, or a category's raw value.
        var value: JSONValue
        /// The value in the CSV `value` column and the table: a quantity's number, a category's name.
        var valueText: String
        /// The quantity's unit; `nil` for other kinds.
        var unit: String?
        /// A category's value name.
        var valueName: String?
        /// The value in the table: a readable number, or a category's short value name.
        var tableText: String
        var device: Device?
        var metadata: [String: String]
        var sourceVersion: String?
        var creationDate: Date?
        /// A correlation's members; `nil` for other kinds.
        var members: [Printed]? = nil
    }

    static func printed(_ sample: QuantitySample) -> Printed {
        Printed(uuid: sample.uuid, typeIdentifier: sample.quantityType.identifier, source: sample.source,
                startDate: sample.startDate, endDate: sample.endDate, value: .number(sample.value),
                valueText: JSONValue.numberText(sample.value), unit: sample.quantityType.canonicalUnit.unitString,
                tableText: NumberText.readable(sample.value), device: sample.device, metadata: sample.metadata, sourceVersion: sample.sourceVersion,
                creationDate: sample.creationDate)
    }

    static func printed(_ sample: CategorySample) -> Printed {
        Printed(uuid: sample.uuid, typeIdentifier: sample.categoryType.identifier, source: sample.source,
                startDate: sample.startDate, endDate: sample.endDate, value: .number(Double(sample.value)),
                valueText: sample.valueName, valueName: sample.valueName,
                tableText: sample.categoryValue.shortName, device: sample.device,
                metadata: sample.metadata, sourceVersion: sample.sourceVersion, creationDate: sample.creationDate)
    }

    static func printed(_ correlation: Correlation) -> Printed {
        let members = correlation.objects.map(printed)
        let text = correlation.objects.map {
            "\($0.quantityType.shortIdentifier) \(NumberText.readable($0.value)) \($0.quantityType.canonicalUnit.unitString)"
        }.joined(separator: "; ")
        return Printed(uuid: correlation.uuid, typeIdentifier: correlation.correlationType.identifier,
                       source: correlation.source, startDate: correlation.startDate, endDate: correlation.endDate,
                       value: .number(Double(members.count)), valueText: text, tableText: text, device: correlation.device,
                       metadata: correlation.metadata, sourceVersion: correlation.sourceVersion,
                       creationDate: correlation.creationDate, members: members)
    }

    /// A sample as a JSON object: `uuid, type, sourceName, startDate, endDate, value`, then `unit`
    /// (quantities) or `valueName` (categories), `device, metadata, sourceVersion, creationDate`, and
    /// for a correlation (whose `value` is its member count) its members as `objects`.
    /// Values are in the type's canonical unit; dates are RFC 3339 in `timeZone`.
    static func json(_ sample: Printed, timeZone: TimeZone) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("uuid", .string(sample.uuid.uuidString)),
            ("type", .string(sample.typeIdentifier)),
            ("sourceName", .string(sample.source.name)),
            ("startDate", .string(formatRFC3339(sample.startDate.timestamp, timeZone: timeZone))),
            ("endDate", .string(formatRFC3339(sample.endDate.timestamp, timeZone: timeZone))),
            ("value", sample.value),
        ]
        if let unit = sample.unit { members.append(("unit", .string(unit))) }
        if let valueName = sample.valueName { members.append(("valueName", .string(valueName))) }
        members += [
            ("device", .string(sample.device?.descriptionString)),
            ("metadata", .object(sample.metadata.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
            ("sourceVersion", .string(sample.sourceVersion)),
            ("creationDate", .string(sample.creationDate.map { formatRFC3339($0.timestamp, timeZone: timeZone) })),
        ]
        if let objects = sample.members { members.append(("objects", .array(objects.map { json($0, timeZone: timeZone) }))) }
        return .object(members)
    }

    /// The fixed columns of the import CSV format, in order; `metadata:KEY` columns follow.
    static let csvColumns = ["type", "sourceName", "unit", "startDate", "endDate", "value", "uuid", "sourceVersion",
                             "device", "creationDate"]

    /// Samples in the CSV format `cadence import` reads, so that the output re-imports losslessly:
    /// values in the canonical unit with full precision (a category's value name, with no unit),
    /// dates with their microseconds, the UUID, and one `metadata:KEY` column per key any sample has.
    ///
    /// A correlation is written as its members, one quantity sample a row, with the correlation's
    /// UUID in a last `correlation` column (which import ignores): the import CSV has no row for a
    /// correlation itself, so its members are what re-imports.
    static func csv(_ samples: [Printed], timeZone: TimeZone, into output: inout StandardOutput) {
        let hasCorrelations = samples.contains { $0.members != nil }
        let rows = samples.flatMap { sample -> [(sample: Printed, correlation: UUID?)] in
            guard let members = sample.members else { return [(sample, nil)] }
            return members.map { ($0, sample.uuid) }
        }
        // Byte for byte: keys differing only in Unicode normalisation are two columns.
        let keys = Set(rows.flatMap { $0.sample.metadata.keys.map(ExactString.init) }).map(\.string).sorted()
        output.write(CSVOutput.line(csvColumns + keys.map { "metadata:" + $0 } + (hasCorrelations ? ["correlation"] : [])))
        for (sample, correlation) in rows {
            var fields = [
                sample.typeIdentifier,
                sample.source.name,
                sample.unit ?? "",
                formatRFC3339(sample.startDate.timestamp, timeZone: timeZone),
                formatRFC3339(sample.endDate.timestamp, timeZone: timeZone),
                sample.valueText,
                sample.uuid.uuidString,
                sample.sourceVersion ?? "",
                sample.device?.descriptionString ?? "",
                sample.creationDate.map { formatRFC3339($0.timestamp, timeZone: timeZone) } ?? "",
            ]
            fields += keys.map { sample.metadata.exactly($0) ?? "" }
            if hasCorrelations { fields.append(correlation?.uuidString ?? "") }
            output.write(CSVOutput.line(fields))
        }
    }

    /// Samples as an aligned table for people; `valueHeading` names the value column.
    static func table(_ samples: [Printed], valueHeading: String, timeZone: TimeZone) -> String {
        var table = TableRenderer(columns: [
            .init("Start"), .init("End"), .init(valueHeading, alignment: samples.first?.unit == nil ? .left : .right),
            .init("Source"), .init("UUID"),
        ])
        for sample in samples {
            table.append([
                LocalDateText.format(sample.startDate, timeZone: timeZone, showsTime: true),
                LocalDateText.format(sample.endDate, timeZone: timeZone, showsTime: true),
                sample.tableText,
                sample.source.name,
                sample.uuid.uuidString,
            ])
        }
        return table.render()
    }
}
