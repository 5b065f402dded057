//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

extension ImportPipeline {
    /// Resolves the records met inside correlations against the file's top-level records
    /// (<doc:HowCadenceComputes#Importing-Apple-Health-exports>): copies are counted, records without a twin are saved; then saves the
    /// correlations, each referring to its members' UUIDs (<doc:HowCadenceComputes#Categories-workouts-and-correlations>).
    ///
    /// The held items are read back in file order and resolved ``HealthDataImporter/heldBatch`` at a
    /// time: the top-level counts are final by now, and the copies are numbered across batches, so
    /// the batches store what resolving the whole file at once would.
    mutating func saveNestedRecords() throws {
        guard !dryRun, !heldCorrelations.isEmpty else { return }
        var items = try heldCorrelations.reader()
        var resolution = NestedResolution(
            nested: collector.segmentCopy(resolvingNewUnknownTypes: true),
            correlations: collector.segmentCopy(resolvingNewUnknownTypes: true),
            // A copy of the saver's counter: the top-level counts of the whole file.
            topLevel: try saver.countedOccurrences(), nestedCounts: OccurrenceCounter(budget: importer.occurrenceBudget))
        while let item = try items.next() {
            switch item {
            case .member(var record):
                record.isInsideCorrelation = false
                resolution.locations.append(resolution.nested.addLocating(record))
            case .correlation(let record):
                resolution.waiting.append((record, resolution.memberEnd + resolution.locations.count))
            }
            if resolution.locations.count >= importer.heldBatch || resolution.waiting.count >= importer.heldBatch {
                try resolve(&resolution)
            }
        }
        try resolve(&resolution)
        // A nested record or correlation that cannot be read is reported like a top-level one.
        for rejection in resolution.nested.summary.rejections + resolution.correlations.summary.rejections {
            collector.summary.reject(line: rejection.line, rejection.reason)
        }
    }

    /// Resolves the nested records read since the last batch, saves those without a twin, then the
    /// correlations read since, which refer to them or to earlier ones.
    private mutating func resolve(_ resolution: inout NestedResolution) throws {
        var batches = resolution.nested.takeBatches()
        // Each nested row's UUID: its twin's, or its own when it has none (How Cadence computes: Importing Apple Health exports).
        var uuids: [[UUID]] = []
        for index in batches.indices {
            let resolved = try OccurrenceCounter.resolveNested(&batches[index], against: resolution.topLevel,
                                                               nestedCounts: &resolution.nestedCounts)
            collector.summary.correlationRecords += resolved.dropped
            uuids.append(resolved.uuids)
        }
        let types = batches.map(\.quantityType.identifier)
        resolution.members += resolution.locations.map { location in location.map { (types[$0.batch], uuids[$0.batch][$0.row]) } }
        resolution.locations = []
        batches.removeAll { $0.count == 0 }
        if !batches.isEmpty { try saver.save(batches) }
        guard !resolution.waiting.isEmpty else { return }
        let known = resolution.memberStart..<resolution.memberEnd
        for (record, end) in resolution.waiting {
            // Its members are the nested records right before it (ExportRecord.correlationMemberCount).
            let range = (end - (record.correlationMemberCount ?? 0))..<end
            let members = resolution.members[range.clamped(to: known).lowerBound - known.lowerBound
                                             ..< range.clamped(to: known).upperBound - known.lowerBound]
            resolution.correlations.addCorrelation(record, members: members.compactMap { $0 })
        }
        // A later correlation's members all come after this one's end.
        if let last = resolution.waiting.last?.end {
            resolution.members.removeFirst(min(last, known.upperBound) - known.lowerBound)
            resolution.memberStart = min(last, known.upperBound)
        }
        resolution.waiting = []
        try saver.save(resolution.correlations.takeBatches(), numberingOccurrences: true)
    }
}

/// Where resolving the nested records and correlations of a file is (``ImportPipeline/saveNestedRecords()``).
struct NestedResolution {
    /// Collects the nested records as top-level ones, batch after batch.
    var nested: SampleCollector
    /// Collects the correlations, batch after batch.
    var correlations: SampleCollector
    /// The file's top-level records, counted.
    let topLevel: OccurrenceCounter
    /// The nested copies met so far, by key, across all of the file's batches.
    var nestedCounts: OccurrenceCounter
    /// Where the nested records of this batch went in ``nested``'s batches (`nil`: not stored).
    var locations: [(batch: Int, row: Int)?] = []
    /// The correlations of this batch, each with the index of the nested record after its last member.
    var waiting: [(record: ExportRecord, end: Int)] = []
    /// The type and UUID of each nested record resolved from ``memberStart`` on (`nil`: not stored):
    /// those a correlation still to come may refer to.
    var members: [(type: String, uuid: UUID)?] = []
    /// The index, among the file's nested records, of the first of ``members``.
    var memberStart = 0

    /// The index of the nested record after the last of ``members``.
    var memberEnd: Int { memberStart + members.count }
}
