//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import Cadence
import Foundation

/// `cadence changes`: the samples added and deleted since an anchor (HealthKit's anchored object
/// query), one page at a time.
///
///     cadence changes --store health --type stepCount --limit 1000
///     cadence changes --store health --type stepCount --anchor 5f0c…:1042
struct ChangesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changes",
        abstract: "List the samples added and deleted after an anchor, as JSON or Arrow.",
        discussion: """
            Prints {"samples": [...], "deletedObjects": [{"uuid"}], "anchor": TOKEN, "hasMore": BOOL}. \
            Pass the anchor back with --anchor to get the next page: paging loses and repeats nothing. \
            Without --anchor, every current sample and every retained deletion is listed. Samples \
            print as cadence samples --format json prints them (workouts as cadence workouts does, \
            activity summaries as cadence activity does). With --format arrow the page is one record \
            batch: a change column (added or deleted), then the columns of cadence samples --format \
            arrow (a deleted object's row holds its type, uuid and metadata only), with the anchor and \
            hasMore in the schema's metadata.
            """)

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: ArgumentHelp("The type, such as stepCount, sleepAnalysis, bloodPressure, workout or activitySummary.",
                               valueName: "type"))
    var type: String

    @Option(help: ArgumentHelp("The anchor a previous call returned; omit it to start from the beginning.",
                               valueName: "token"))
    var anchor: String?

    @Option(help: ArgumentHelp("The most samples and deleted objects to return together; 0 for all.",
                               valueName: "n"))
    var limit = 0

    @Option(help: ArgumentHelp("The IANA time zone dates are printed in (default: the host's).", valueName: "zone"))
    var timeZone: String?

    @Option(help: ArgumentHelp("The output format: json, or arrow (an Arrow IPC stream: a change column, added or deleted, "
                               + "then the columns of cadence samples --format arrow; the anchor and hasMore are the schema's metadata).",
                               valueName: "format"))
    var format: OutputFormat = .json

    func validate() throws {
        guard limit >= 0 else { throw ValidationError("--limit must be 0 or more.") }
        try format.require([.json, .arrow], in: "changes")
    }

    func run() throws {
        let store = try storeOptions.openForReading()
        let zone = try ArgumentValues.timeZone(timeZone)
        let start: QueryAnchor?
        do {
            start = try anchor.map { try QueryAnchor(token: $0) }
        } catch let error as CadenceError {
            throw CadenceError(error.code, "Invalid --anchor: \(error.message)")
        }
        let kind = try ArgumentValues.sampleType(type, in: store)
        if format == .arrow { return try writeArrow(kind, from: start, in: store) }
        // One page, whatever the kind, with its samples ready to print.
        func page<Sample>(_ query: AnchoredObjectQuery<Sample>, _ json: (Sample) -> JSONValue) throws
            -> (samples: [JSONValue], deletedObjects: [DeletedObject], anchor: QueryAnchor, hasMore: Bool)
        {
            let result = try store.execute(query)
            return (result.samples.map(json), result.deletedObjects, result.anchor, result.hasMore)
        }
        let result = switch kind {
        case .quantity(let quantityType):
            try page(AnchoredObjectQuery(quantityType: quantityType, anchor: start, limit: limit)) {
                SampleOutput.json(SampleOutput.printed($0), timeZone: zone)
            }
        case .category(let categoryType):
            try page(AnchoredObjectQuery(categoryType: categoryType, anchor: start, limit: limit)) {
                SampleOutput.json(SampleOutput.printed($0), timeZone: zone)
            }
        case .correlation(let correlationType):
            try page(AnchoredObjectQuery(correlationType: correlationType, anchor: start, limit: limit)) {
                SampleOutput.json(SampleOutput.printed($0), timeZone: zone)
            }
        case .workout:
            try page(AnchoredObjectQuery(workoutsMatching: .all, anchor: start, limit: limit)) {
                WorkoutOutput.json($0, timeZone: zone)
            }
        case .activitySummary:
            try page(AnchoredObjectQuery(activitySummariesFrom: nil, through: nil, anchor: start, limit: limit),
                     ActivityOutput.json)
        }
        let document = JSONValue.object([
            ("samples", .array(result.samples)),
            ("deletedObjects", .array(result.deletedObjects.map { deleted in
                var members: [(key: String, value: JSONValue)] = [("uuid", .string(deleted.uuid.uuidString))]
                if !deleted.metadata.isEmpty {
                    members.append(("metadata", .object(deleted.metadata.sorted { $0.key < $1.key }
                        .map { ($0.key, .string($0.value)) })))
                }
                return .object(members)
            })),
            ("anchor", .string(result.anchor.token)),
            ("hasMore", .bool(result.hasMore)),
        ])
        var output = StandardOutput()
        output.writeLine(document.serialized())
        output.flush()
    }

    /// One page as an Arrow stream of one record batch (``ArrowOutput/changes(added:deleted:type:isQuantity:anchor:hasMore:)``).
    private func writeArrow(_ kind: ArgumentValues.SampleTypeName, from start: QueryAnchor?, in store: HealthStore) throws {
        func page<Sample>(_ query: AnchoredObjectQuery<Sample>, type: String, isQuantity: Bool,
                          _ printed: (Sample) -> SampleOutput.Printed) throws -> ArrowRecordBatch {
            let result = try store.execute(query)
            return ArrowOutput.changes(added: result.samples.map(printed), deleted: result.deletedObjects, type: type,
                                       isQuantity: isQuantity, anchor: result.anchor, hasMore: result.hasMore)
        }
        let batch = switch kind {
        case .quantity(let quantityType):
            try page(AnchoredObjectQuery(quantityType: quantityType, anchor: start, limit: limit),
                     type: quantityType.identifier, isQuantity: true) { SampleOutput.printed($0) }
        case .category(let categoryType):
            try page(AnchoredObjectQuery(categoryType: categoryType, anchor: start, limit: limit),
                     type: categoryType.identifier, isQuantity: false) { SampleOutput.printed($0) }
        case .correlation(let correlationType):
            try page(AnchoredObjectQuery(correlationType: correlationType, anchor: start, limit: limit),
                     type: correlationType.identifier, isQuantity: false) { SampleOutput.printed($0) }
        case .workout, .activitySummary:
            throw CadenceError(.invalidArgument, "Workouts and activity summaries have no Arrow form: use --format json.")
        }
        var writer = try ArrowOutput.standardOutputWriter(schema: batch.schema)
        try writer.write(batch)
        try writer.finish()
    }
}
