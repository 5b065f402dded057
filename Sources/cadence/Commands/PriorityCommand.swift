//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Cadence
import Foundation

/// `cadence priority`: show or set the source priority lists used when sources are merged.
///
///     cadence priority --store health
///     cadence priority --store health --type stepCount --set "Jane’s Apple Watch,Jane’s iPhone"
///     cadence priority --store health --set "Jane’s Apple Watch"      # every other type
///     cadence priority --store health --type stepCount --clear
struct PriorityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "priority",
        abstract: "Show or set the source priority lists used when sources are merged.",
        discussion: """
            When iPhone, Watch and apps record the same activity, totals count each moment once, \
            for the highest-ranked source that covers it. Sources are ranked by the type's own \
            list, else the store-wide list; then user-entered samples, Apple Watch, other Apple \
            devices, and the rest in order of first appearance. The Health app keeps one order per \
            data type and no export carries it: to get the totals the phone shows, set your own \
            order here (Health app: Browse > a type > Data Sources & Access).
            """)

    @OptionGroup var storeOptions: WritableStoreOptions

    @Option(help: ArgumentHelp("The type whose list to show or set (default: the store-wide list).", valueName: "type"))
    var type: String?

    @Option(help: ArgumentHelp("Source names in priority order, comma-separated.", valueName: "names"))
    var set: String?

    @Flag(help: "Remove the type's own list, so it follows the store-wide list again.")
    var clear = false

    @OptionGroup var output: ReportFormatOptions

    func validate() throws {
        try output.validate(in: "priority")
        if clear && set != nil { throw ValidationError("--set and --clear cannot be used together.") }
        if clear && type == nil { throw ValidationError("--clear needs --type: the store-wide list is cleared with --set \"\".") }
    }

    func run() throws {
        if set != nil || clear {
            let store = try storeOptions.openExistingForWriting()
            let names = set.map(ArgumentValues.list)
            if let type {
                switch try ArgumentValues.sampleType(type, in: store) {
                case .quantity(let quantityType): try store.setSourcePriority(clear ? nil : names, for: quantityType)
                case .category(let categoryType): try store.setSourcePriority(clear ? nil : names, for: categoryType)
                case .correlation:
                    throw CadenceError(.invalidArgument, "\(type) is a correlation type: sources rank quantity and category types.")
                case .workout:
                    throw CadenceError(.invalidArgument, "\(type) is the workout type: sources rank quantity and category types.")
                case .activitySummary:
                    throw CadenceError(.invalidArgument,
                                       "\(type) is the activity summary type: sources rank quantity and category types.")
                }
            } else {
                try store.setSourcePriority(names ?? [])
            }
            try store.close()
        }
        let store = try storeOptions.openForReading()
        let named: (identifier: String, name: String)? = try type.map { text in
            switch try ArgumentValues.sampleType(text, in: store) {
            case .quantity(let quantityType): (quantityType.identifier, quantityType.shortIdentifier)
            case .category(let categoryType): (categoryType.identifier, categoryType.shortIdentifier)
            case .correlation(let correlationType): (correlationType.identifier, correlationType.shortIdentifier)
            case .workout: (Workout.typeIdentifier, ArgumentValues.workoutTypeName)
            case .activitySummary: (ActivitySummary.typeIdentifier, ArgumentValues.activitySummaryTypeName)
            }
        }
        try show(store.sourcePriorities, only: named)
    }

    /// Prints the store-wide list and every type's own, or only what ranks `type`.
    private func show(_ priorities: SourcePriorities, only type: (identifier: String, name: String)?) throws {
        var rows: [(scope: String, names: [String], isOwn: Bool)] = []
        if let type {
            let own = priorities.byType[type.identifier]
            rows.append((type.name, own ?? priorities.storeWide, own != nil))
        } else {
            rows.append(("store-wide", priorities.storeWide, true))
            for (identifier, names) in priorities.byType.sorted(by: { $0.key < $1.key }) {
                rows.append((QuantityType.known(identifier)?.shortIdentifier ?? CategoryType.known(identifier)?.shortIdentifier
                             ?? identifier, names, true))
            }
        }
        output.write(json: {
            JSONValue.array(rows.map { row in
                .object([("scope", .string(row.scope)), ("sources", .array(row.names.map { .string($0) })),
                         ("ownList", .bool(row.isOwn))])
            })
        }, table: { output in
            for row in rows {
                let names = row.names.isEmpty ? "(none: default ranking)" : row.names.joined(separator: ", ")
                // Source names and stored type identifiers come from the data: escaped for the terminal.
                output.writeLine(TerminalText.escaped("\(row.scope): \(names)\(row.isOwn ? "" : " (store-wide list)")"))
            }
        })
    }
}
