//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Cadence
import Foundation

/// `cadence delete`: delete samples (of any kind, workouts included) by UUID, or every sample of
/// a type that a date range and sources select. Each deletion is recorded, so `cadence changes`
/// reports it.
///
///     cadence delete --store health --uuid 0F8FAD5B-D9CB-469F-A165-70867728950E
///     cadence delete --store health --type bodyMass --from 2024-01-01 --to 2024-02-01
///     cadence delete --store health --type workout --source Strava
///     cadence delete --store health --type activitySummary --from 2024-01-01 --to 2024-02-01
struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete samples by UUID, or by type, date range and source.",
        discussion: CommittedClose.help)

    @OptionGroup var storeOptions: WritableStoreOptions

    @Option(name: .customLong("uuid"), help: ArgumentHelp("The UUID of a sample to delete; repeat for several.",
                                                           valueName: "uuid"))
    var uuids: [String] = []

    @Option(help: ArgumentHelp("Delete samples of this type, such as bodyMass, sleepAnalysis, workout or activitySummary "
                                   + "(narrowed by --from, --to and --source; activity summaries by days alone).",
                               valueName: "type"))
    var type: String?

    @OptionGroup var filter: SampleFilterOptions

    @Option(help: "The output format: table (a sentence) or json.")
    var format: OutputFormat = .table

    func validate() throws {
        try format.require([.table, .json], in: "delete")
        if uuids.isEmpty == (type == nil) {
            throw ValidationError("Give either --uuid (one or more) or --type, not both.")
        }
        if !uuids.isEmpty && !filter.isEmpty {
            throw ValidationError("--from, --to, --strict-start, --strict-end and --source go with --type, not --uuid.")
        }
    }

    func run() throws {
        let identifiers = try uuids.map(ArgumentValues.uuid)
        let resolved = try filter.resolve()
        let store = try storeOptions.openExistingForWriting()
        let deleted: Int
        if let type {
            deleted = switch try ArgumentValues.sampleType(type, in: store) {
            case .quantity(let quantityType): try store.deleteSamples(of: quantityType, matching: resolved.predicate)
            case .category(let categoryType): try store.deleteSamples(of: categoryType, matching: resolved.predicate)
            case .correlation(let correlationType): try store.deleteSamples(of: correlationType, matching: resolved.predicate)
            case .workout: try store.deleteWorkouts(matching: resolved.predicate)
            case .activitySummary: try deleteActivitySummaries(from: store)
            }
        } else {
            deleted = try store.deleteSamples(withUUIDs: identifiers)
        }
        let flushFailure = CommittedClose.close(store)
        var output = StandardOutput()
        switch format {
        case .json: output.writeLine(JSONValue.object([("deleted", .integer(deleted))]).serialized())
        default: output.writeLine("Deleted \(deleted) sample\(deleted == 1 ? "" : "s").")
        }
        output.flush()
        if let flushFailure { throw CommittedClose.report(flushFailure, after: "the deletion") }
    }

    /// Deletes the activity summaries of the days from `--from` up to `--to` (exclusive, as for
    /// every type): days, not instants, since a summary's day has no time zone.
    private func deleteActivitySummaries(from store: HealthStore) throws -> Int {
        guard filter.sources.isEmpty, !filter.strictStart, !filter.strictEnd else {
            throw CadenceError(.invalidArgument, "Activity summaries have no source or times: select them with --from and --to alone.")
        }
        let first = try filter.from.map { try ArgumentValues.day($0, option: "--from") }
        let end = try filter.to.map { try ArgumentValues.day($0, option: "--to") }
        if let first, let end, end <= first {
            throw CadenceError(.invalidArgument, "--from (\(first)) must be before --to (\(end)).")
        }
        if let end, end.previous == end { return 0 }
        return try store.deleteActivitySummaries(from: first, through: end?.previous)
    }
}
