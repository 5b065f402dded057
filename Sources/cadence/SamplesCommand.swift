//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Cadence
import Foundation

/// `cadence samples`: list the samples of a type, as CSV that `cadence import` reads back, JSON or
/// a table.
///
///     cadence samples --store health --type bodyMass --from 2024-01-01 --format csv > mass.csv
struct SamplesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "samples",
        abstract: "List the samples of a quantity, category or correlation type, or the workouts.",
        discussion: """
            CSV output has the columns cadence import reads (type,sourceName,unit,startDate,endDate,\
            value,uuid,sourceVersion,device,creationDate,metadata:KEY...), so it re-imports \
            losslessly. Values are in the type's canonical unit; a category sample's value is its \
            name (HKCategoryValueSleepAnalysisAsleepCore), with no unit; a correlation's lists its \
            members (JSON: their samples under "objects"). Workouts (--type workout) print as \
            cadence workouts prints them.
            """)

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: ArgumentHelp(
        "The type, such as stepCount, sleepAnalysis, bloodPressure, workout or HKQuantityTypeIdentifierBodyMass.",
        valueName: "type"))
    var type: String

    @Option(help: ArgumentHelp("Category types: list only these values, comma-separated (asleepCore,asleepDeep).",
                               valueName: "names"))
    var values: String?

    @OptionGroup var filter: SampleFilterOptions

    @Option(help: ArgumentHelp("The most samples to list; 0 for all.", valueName: "n"))
    var limit = 0

    // Unconditional, so that `--sort -startDate` is read as a value rather than an unknown option.
    @Option(parsing: .unconditional, help: ArgumentHelp("""
        The order: startDate, -startDate, endDate or -endDate (a minus sorts descending); \
        comma-separate several keys. Default: startDate.
        """, valueName: "keys"))
    var sort: String?

    @Option(help: ArgumentHelp("The output format: table, csv, json or arrow (an Arrow IPC stream).", valueName: "format"))
    var format: OutputFormat = .table

    func validate() throws {
        guard limit >= 0 else { throw ValidationError("--limit must be 0 or more.") }
        _ = try sortDescriptors()
    }

    /// The `--sort` keys as sort descriptors.
    func sortDescriptors() throws -> [SampleSortDescriptor] {
        guard let sort else { return [] }
        return try ArgumentValues.list(sort).map { key in
            switch key {
            case "startDate", "+startDate": .startDate(ascending: true)
            case "-startDate": .startDate(ascending: false)
            case "endDate", "+endDate": .endDate(ascending: true)
            case "-endDate": .endDate(ascending: false)
            default: throw ValidationError("Unknown --sort key \"\(key)\": use startDate, -startDate, endDate or -endDate.")
            }
        }
    }

    /// `predicate`, narrowed to the `--values` of `type` when given.
    func categoryPredicate(_ predicate: SamplePredicate, _ type: CategoryType) throws -> SamplePredicate {
        guard let values else { return predicate }
        return predicate && .categoryValue(in: try ArgumentValues.categoryValues(values, of: type))
    }

    func run() throws {
        let store = try storeOptions.openForReading()
        let resolved = try filter.resolve()
        let sort = try sortDescriptors()
        let kind = try ArgumentValues.sampleType(type, in: store)
        if case .category = kind {} else if values != nil {
            throw CadenceError(.invalidArgument, "--values applies to category types; \(type) is not one.")
        }
        var output = StandardOutput()
        defer { output.flush() }
        let (printed, valueHeading): ([SampleOutput.Printed], String)
        switch kind {
        case .workout:
            guard format != .arrow else {
                throw CadenceError(.invalidArgument, "Workouts have no Arrow form: use --format table, csv or json.")
            }
            let workouts = try store.execute(SampleQuery(workoutsMatching: resolved.predicate, limit: limit,
                                                         sortDescriptors: sort))
            return WorkoutOutput.write(workouts, format: format, key: "samples", timeZone: resolved.timeZone, into: &output)
        case .quantity(let quantityType):
            (printed, valueHeading) = (
                try store.execute(SampleQuery(quantityType: quantityType, predicate: resolved.predicate, limit: limit,
                                              sortDescriptors: sort)).map(SampleOutput.printed),
                "Value (\(quantityType.canonicalUnit.unitString))")
        case .category(let categoryType):
            (printed, valueHeading) = (
                try store.execute(SampleQuery(categoryType: categoryType, predicate: try categoryPredicate(resolved.predicate, categoryType),
                                              limit: limit, sortDescriptors: sort)).map(SampleOutput.printed), "Value")
        case .correlation(let correlationType):
            (printed, valueHeading) = (
                try store.execute(SampleQuery(correlationType: correlationType, predicate: resolved.predicate, limit: limit,
                                              sortDescriptors: sort)).map(SampleOutput.printed), "Members")
        }
        switch format {
        case .json:
            let document = JSONValue.object([
                ("samples", .array(printed.map { SampleOutput.json($0, timeZone: resolved.timeZone) })),
            ])
            output.writeLine(document.serialized())
        case .csv:
            SampleOutput.csv(printed, timeZone: resolved.timeZone, into: &output)
        case .arrow:
            let batch = ArrowOutput.samples(printed)
            var writer = try ArrowOutput.standardOutputWriter(schema: batch.schema)
            try writer.write(batch)
            try writer.finish()
        case .table:
            output.write(SampleOutput.table(printed, valueHeading: valueHeading, timeZone: resolved.timeZone))
        }
    }
}
