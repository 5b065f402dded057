//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// How `samples` and `changes` print samples.
enum SampleOutput {
    /// A sample as a JSON object: `uuid, type, sourceName, startDate, endDate, value, unit, device,
    /// metadata`, then `sourceVersion` and `creationDate`. Values are in the type's canonical unit;
    /// dates are RFC 3339 in `timeZone`.
    static func json(_ sample: QuantitySample, timeZone: TimeZone) -> JSONValue {
        .object([
            ("uuid", .string(sample.uuid.uuidString)),
            ("type", .string(sample.quantityType.identifier)),
            ("sourceName", .string(sample.source.name)),
            ("startDate", .string(formatRFC3339(sample.startDate.timestamp, timeZone: timeZone))),
            ("endDate", .string(formatRFC3339(sample.endDate.timestamp, timeZone: timeZone))),
            ("value", .number(sample.value)),
            ("unit", .string(sample.quantityType.canonicalUnit.unitString)),
            ("device", .string(sample.device?.descriptionString)),
            ("metadata", .object(sample.metadata.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
            ("sourceVersion", .string(sample.sourceVersion)),
            ("creationDate", .string(sample.creationDate.map { formatRFC3339($0.timestamp, timeZone: timeZone) })),
        ])
    }

    /// The fixed columns of the import CSV format, in order; `metadata:KEY` columns follow.
    static let csvColumns = ["type", "sourceName", "unit", "startDate", "endDate", "value", "uuid", "sourceVersion",
                             "device", "creationDate"]

    /// Samples in the CSV format `cadence import` reads, so that the output re-imports losslessly:
    /// values in the canonical unit with full precision, dates with their microseconds, the UUID,
    /// and one `metadata:KEY` column per key any sample has.
    static func csv(_ samples: [QuantitySample], timeZone: TimeZone, into output: inout StandardOutput) {
        let keys = Set(samples.flatMap(\.metadata.keys)).sorted()
        output.write(CSVOutput.line(csvColumns + keys.map { "metadata:" + $0 }))
        for sample in samples {
            var fields = [
                sample.quantityType.identifier,
                sample.source.name,
                sample.quantityType.canonicalUnit.unitString,
                formatRFC3339(sample.startDate.timestamp, timeZone: timeZone),
                formatRFC3339(sample.endDate.timestamp, timeZone: timeZone),
                JSONValue.numberText(sample.value),
                sample.uuid.uuidString,
                sample.sourceVersion ?? "",
                sample.device?.descriptionString ?? "",
                sample.creationDate.map { formatRFC3339($0.timestamp, timeZone: timeZone) } ?? "",
            ]
            fields += keys.map { sample.metadata[$0] ?? "" }
            output.write(CSVOutput.line(fields))
        }
    }

    /// Samples as an aligned table for people.
    static func table(_ samples: [QuantitySample], type: QuantityType, timeZone: TimeZone) -> String {
        var table = TableRenderer(columns: [
            .init("Start"), .init("End"), .init("Value (\(type.canonicalUnit.unitString))", alignment: .right),
            .init("Source"), .init("UUID"),
        ])
        for sample in samples {
            table.append([
                LocalDateText.format(sample.startDate, timeZone: timeZone, showsTime: true),
                LocalDateText.format(sample.endDate, timeZone: timeZone, showsTime: true),
                NumberText.readable(sample.value),
                sample.source.name,
                sample.uuid.uuidString,
            ])
        }
        return table.render()
    }
}
