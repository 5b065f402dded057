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
            sampleCount,uuid,sourceVersion,device,creationDate,sampleStartDate,sampleEndDate and \
            metadata:KEY: each entry's own dates and value (in the type's canonical unit), its \
            sample's entry count, provenance and metadata, and for a series sample's entry the \
            sample's UUID (sample) and dates; an ordinary sample's row has its UUID under uuid. \
            cadence import reads it back into the same samples and entries.
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

    /// Whether `entry` is one of a series sample's, rather than an ordinary sample listed as its own
    /// entry; a one-entry series equal to its entry re-imports as an ordinary sample, which lists alike.
    static func isSeries(_ sample: QuantitySample, entry: QuantitySeriesSampleQuery.Entry) -> Bool {
        sample.count > 1 || sample.seriesValues != nil || sample.dateInterval != entry.dateInterval
            || sample.quantity != entry.quantity
    }

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
            // The import CSV's columns: a series entry names its sample in `sample` and repeats the
            // sample's provenance, dates and metadata, so that the output re-imports as the same series.
            let keys = Set(entries.flatMap { $0.sample?.metadata.keys.map(ExactString.init) ?? [] }).map(\.string).sorted()
            output.write(CSVOutput.line(["type", "sourceName", "unit", "startDate", "endDate", "value", "sample", "sampleCount",
                                         "uuid", "sourceVersion", "device", "creationDate", "sampleStartDate",
                                         "sampleEndDate"] + keys.map { "metadata:" + $0 }))
            for entry in entries {
                let sample = entry.sample
                let isSeries = sample.map { Self.isSeries($0, entry: entry) } ?? false
                let dates = isSeries ? [sample?.startDate, sample?.endDate] : [nil, nil]
                output.write(CSVOutput.line([
                    quantityType.identifier, sample?.source.name ?? "", unit,
                    formatRFC3339(entry.dateInterval.start.timestamp, timeZone: zone),
                    formatRFC3339(entry.dateInterval.end.timestamp, timeZone: zone),
                    JSONValue.numberText(entry.quantity.value), isSeries ? sample?.uuid.uuidString ?? "" : "",
                    sample.map { String($0.count) } ?? "", isSeries ? "" : sample?.uuid.uuidString ?? "",
                    sample?.sourceVersion ?? "", sample?.device?.descriptionString ?? "",
                    sample?.creationDate.map { formatRFC3339($0.timestamp, timeZone: zone) } ?? "",
                ] + dates.map { $0.map { formatRFC3339($0.timestamp, timeZone: zone) } ?? "" }
                    + keys.map { sample?.metadata.exactly($0) ?? "" }))
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
