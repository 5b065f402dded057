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
            name (HKCategoryValueSleepAnalysisAsleepCore), with no unit. A correlation type's CSV \
            holds the correlations' members, one quantity sample a row with the correlation's UUID \
            in a last correlation column: they re-import as quantity samples (the correlations \
            themselves are imported from an Apple Health export); JSON lists each correlation with \
            its members under "objects". Workouts (--type workout) print as cadence workouts \
            prints them. A quantity series sample is listed as its one owning sample (its value \
            the entries' sum or average), which re-imports as a plain sample: cadence series \
            --format csv lists its entries in a form that re-imports as the same series.
            """)

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: ArgumentHelp(
        "The type, such as stepCount, sleepAnalysis, bloodPressure, workout or HKQuantityTypeIdentifierBodyMass.",
        valueName: "type"))
    var type: String

    @Option(help: ArgumentHelp("Category types: list only these values, comma-separated (asleepCore,asleepDeep).",
                               valueName: "names"))
    var values: String?

    @Option(name: .customLong("member"), help: ArgumentHelp("""
        Correlation types: list only correlations with a member of this type, every such member \
        meeting the condition when one is given (dietaryEnergyConsumed>=500kcal, dietaryProtein); \
        repeat for several member types.
        """, valueName: "condition"))
    var members: [String] = []

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

    /// The correlations of `type` that `predicate` and the `--member` conditions select, in the
    /// `--sort` order and under the `--limit`.
    func correlations(of type: CorrelationType, predicate: SamplePredicate, sort: [SampleSortDescriptor],
                      in store: HealthStore) throws -> [Correlation] {
        let query = SampleQuery(correlationType: type, predicate: predicate, limit: limit, sortDescriptors: sort)
        guard !members.isEmpty else { return try store.execute(query) }
        var conditions: [QuantityType: SamplePredicate] = [:]
        for text in members {
            let (memberType, condition) = try memberCondition(text, in: store)
            conditions[memberType] = conditions[memberType].map { $0 && condition } ?? condition
        }
        // The member conditions select by UUID; the sample query then orders and limits.
        let selected = try store.execute(CorrelationQuery(type: type, predicate: predicate, samplePredicates: conditions))
        return try store.execute(SampleQuery(correlationType: type, predicate: .uuids(selected.map(\.uuid)),
                                             limit: limit, sortDescriptors: sort))
    }

    /// A `--member` condition: a quantity type, optionally followed by a comparison and a quantity
    /// (`dietaryEnergyConsumed>=500kcal`).
    ///
    /// - Throws: ``CadenceError/Code/invalidArgument`` or ``CadenceError/Code/unknownType`` naming the text.
    func memberCondition(_ text: String, in store: HealthStore) throws -> (QuantityType, SamplePredicate) {
        let name = text.prefix { !"<>=!".contains($0) }
        let memberType = try ArgumentValues.quantityType(name.trimmingCharacters(in: .whitespaces), in: store)
        let rest = text.dropFirst(name.count)
        guard !rest.isEmpty else { return (memberType, .all) }
        let operators: [SamplePredicate.Comparison] = [.greaterThanOrEqual, .lessThanOrEqual, .equal, .notEqual,
                                                       .greaterThan, .lessThan]
        guard let comparison = operators.first(where: { rest.hasPrefix($0.rawValue) }) else {
            throw CadenceError(.invalidArgument,
                               "Invalid --member \"\(text)\": expected TYPE, or TYPE, one of >= <= == != > <, and a quantity.")
        }
        let bound = try ArgumentValues.quantity(
            rest.dropFirst(comparison.rawValue.count).trimmingCharacters(in: .whitespaces), option: "--member",
            like: "1 \(memberType.canonicalUnit.unitString)", dimensionOf: memberType.canonicalUnit)
        return (memberType, .quantity(comparison, bound))
    }

    func run() throws {
        let store = try storeOptions.openForReading()
        let resolved = try filter.resolve()
        let sort = try sortDescriptors()
        let kind = try ArgumentValues.sampleType(type, in: store)
        if case .category = kind {} else if values != nil {
            throw CadenceError(.invalidArgument, "--values applies to category types; \(type) is not one.")
        }
        if case .correlation = kind {} else if !members.isEmpty {
            throw CadenceError(.invalidArgument, "--member applies to correlation types; \(type) is not one.")
        }
        var output = StandardOutput()
        defer { output.flush() }
        let (printed, valueHeading): ([SampleOutput.Printed], String)
        switch kind {
        case .activitySummary:
            throw CadenceError(.invalidArgument, "Activity summaries are days, not samples: list them with cadence activity.")
        case .workout:
            guard format != .arrow else {
                throw CadenceError(.invalidArgument, "Workouts have no Arrow form: use --format table, csv or json.")
            }
            let workouts = try store.execute(SampleQuery(workoutsMatching: resolved.predicate, limit: limit,
                                                         sortDescriptors: sort))
            return WorkoutOutput.write(workouts, format: format, key: "samples", timeZone: resolved.timeZone, into: &output)
        case .quantity(let quantityType):
            let query = SampleQuery(quantityType: quantityType, predicate: resolved.predicate, limit: limit, sortDescriptors: sort)
            // Arrow is written from the scan's columns, with no sample made per row.
            if format == .arrow, let listing = try store.listing(query, of: quantityType) {
                return try ArrowSampleListing.write(listing)
            }
            (printed, valueHeading) = (
                try store.execute(query).map(SampleOutput.printed),
                "Value (\(quantityType.canonicalUnit.unitString))")
        case .category(let categoryType):
            (printed, valueHeading) = (
                try store.execute(SampleQuery(categoryType: categoryType, predicate: try categoryPredicate(resolved.predicate, categoryType),
                                              limit: limit, sortDescriptors: sort)).map(SampleOutput.printed), "Value")
        case .correlation(let correlationType):
            (printed, valueHeading) = (
                try correlations(of: correlationType, predicate: resolved.predicate, sort: sort, in: store)
                    .map(SampleOutput.printed), "Members")
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
