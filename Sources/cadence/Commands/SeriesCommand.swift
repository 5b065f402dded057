//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Cadence
import Foundation

/// `cadence series`: list the entries of a quantity type's samples, as HealthKit's quantity
/// series query does.
///
///     cadence series --store health --type stepCount --from 2024-05-01 --by-sample --format csv
struct SeriesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "series",
        abstract: "List the entries of a quantity type's series samples (an ordinary sample is its own one entry).",
        discussion: """
            The range and source options select samples, as cadence samples does; every entry of \
            each selected sample is listed, ascending by entry start, or sample by sample with \
            --by-sample. CSV has the columns type,sourceName,unit,startDate,endDate,value,sample,\
            sampleCount: each entry's own dates and value (in the type's canonical unit) and its \
            sample's UUID and entry count.
            """)

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: ArgumentHelp("The quantity type, such as stepCount or HKQuantityTypeIdentifierHeartRate.",
                               valueName: "type"))
    var type: String

    @OptionGroup var filter: SampleFilterOptions

    @Flag(help: "Group entries by sample, samples ascending by start (HealthKit's orderByQuantitySampleStartDate).")
    var bySample = false

    @Option(help: ArgumentHelp("The output format: table, csv or json.", valueName: "format"))
    var format: OutputFormat = .table

    func run() throws {
        let store = try storeOptions.openForReading()
        let resolved = try filter.resolve()
        let quantityType = try ArgumentValues.quantityType(type, in: store)
        guard format != .arrow else {
            throw CadenceError(.invalidArgument, "Series entries have no Arrow form: use --format table, csv or json.")
        }
        let entries = try store.execute(QuantitySeriesSampleQuery(
            quantityType: quantityType, predicate: resolved.predicate, includeSample: true,
            orderByQuantitySampleStartDate: bySample))
        var output = StandardOutput()
        defer { output.flush() }
        let unit = quantityType.canonicalUnit.unitString
        let zone = resolved.timeZone
        switch format {
        case .csv, .arrow:
            output.write(CSVOutput.line(["type", "sourceName", "unit", "startDate", "endDate", "value", "sample", "sampleCount"]))
            for entry in entries {
                output.write(CSVOutput.line([
                    quantityType.identifier, entry.sample?.source.name ?? "", unit,
                    formatRFC3339(entry.dateInterval.start.timestamp, timeZone: zone),
                    formatRFC3339(entry.dateInterval.end.timestamp, timeZone: zone),
                    JSONValue.numberText(entry.quantity.value), entry.sample?.uuid.uuidString ?? "",
                    entry.sample.map { String($0.count) } ?? "",
                ]))
            }
        case .json:
            let document = JSONValue.object([("entries", .array(entries.map { entry in
                JSONValue.object([
                    ("startDate", .string(formatRFC3339(entry.dateInterval.start.timestamp, timeZone: zone))),
                    ("endDate", .string(formatRFC3339(entry.dateInterval.end.timestamp, timeZone: zone))),
                    ("value", .number(entry.quantity.value)),
                    ("unit", .string(unit)),
                    ("sample", .string(entry.sample?.uuid.uuidString)),
                    ("sampleCount", entry.sample.map { .integer($0.count) } ?? .null),
                ])
            }))])
            output.writeLine(document.serialized())
        case .table:
            var table = TableRenderer(columns: [
                .init("Start"), .init("End"), .init("Value (\(unit))", alignment: .right), .init("Source"), .init("Sample"),
            ])
            for entry in entries {
                table.append([
                    LocalDateText.format(entry.dateInterval.start, timeZone: zone, showsTime: true),
                    LocalDateText.format(entry.dateInterval.end, timeZone: zone, showsTime: true),
                    NumberText.readable(entry.quantity.value), entry.sample?.source.name ?? "",
                    entry.sample?.uuid.uuidString ?? "",
                ])
            }
            output.write(table.render())
        }
    }
}
