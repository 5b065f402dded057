//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// What a query reads from one type's storage, compiled once per query: which rows it selects,
/// which time span it can use, which columns it needs, and when a block's summary may stand in
/// for its rows. ``TypeSnapshot/scan(_:parallelism:_:)`` executes it.
///
/// Queries see storage only through a plan and its scan: chunk files, block layout, splitting
/// and deleted-but-present rows stay behind it.
package struct ScanPlan: Sendable {
    /// Which rows are selected.
    package var selection: RowSelection
    /// Samples ending before the lower bound or starting after the upper bound are of no use to
    /// the query (for a collection: its first and last edge).
    package var span: ClosedRange<Int64> = Int64.min...Int64.max
    /// Samples starting outside this range are of no use (rows replaced by their start): runs
    /// whose starts all lie outside it are pruned.
    package var starts: ClosedRange<Int64> = Int64.min...Int64.max
    /// The optional query columns to decode (provenance, sequence).
    package var columns: ColumnCodec.QueryColumnNeeds = .all
    /// Whether rows are decoded with their detail columns (UUIDs, creation dates, metadata), as
    /// listings of samples need.
    package var readsDetails = false
    /// Only samples changed after this sequence are of use (anchored queries); chunks without such
    /// changes are pruned.
    package var changedAfter: Int64?
    /// Whether chunk files read stay loaded in their handles for later scans (queries, which
    /// come back to them), or are dropped once read (the writer's passes over every chunk).
    package var keepsChunkFiles = true
    /// Whether every block is decoded even where its summary answers (the source-merging sweep
    /// needs every selected row); summaries are still offered for those blocks.
    package var readsEveryRow = false
    /// The UUIDs a selected row must have, when the predicate names them: a chunk whose rows all
    /// have other explicit UUIDs is passed over without decoding its details, and of a chunk that
    /// holds some, only the rows that have them are decoded.
    package var uuids: Set<UUID>?
    /// When a wholly selected block's summary answers for its rows (for a collection: the block
    /// lies inside one interval); `nil` never uses summaries.
    package var summaryAnswers: SummaryAnswers?

    /// A plan that selects with `selection` and reads every row, summaries unused.
    package init(selection: RowSelection) { self.selection = selection }

    /// A plan that lists the rows `predicate` selects from `type`, with their details.
    package init(listing predicate: SamplePredicate, of type: TypeSnapshot, provenances: [Provenance]) {
        self.init(selection: RowSelection(predicate, type: type, provenances: provenances))
        readsDetails = true
        uuids = Self.requiredUUIDs(predicate.node)
    }

    /// The UUIDs a predicate confines its samples to, if it does (alone or in a conjunction).
    private static func requiredUUIDs(_ node: SamplePredicate.Node) -> Set<UUID>? {
        switch node {
        case .uuids(let uuids): return uuids
        case .and(let nodes): return nodes.lazy.compactMap(requiredUUIDs).first
        default: return nil
        }
    }

    /// Whether rows are decoded whole: for their details, or for a predicate on them.
    var decodesEveryColumn: Bool { readsDetails || selection.needsDetails }

    /// Whether a run of samples with this summary may hold a sample of use to the query.
    ///
    /// - Complexity: O(1), or O(*p*) for *p* provenances when the selection names sources.
    package func mayMatch(_ summary: SampleSummary) -> Bool {
        guard summary.count > 0, summary.maximumEnd >= selection.endAtLeast, summary.minimumStart < selection.startBelow,
              summary.maximumEnd >= span.lowerBound, summary.minimumStart <= span.upperBound,
              summary.maximumStart >= starts.lowerBound, summary.minimumStart <= starts.upperBound,
              changedAfter.map(summary.hasChanges(after:)) ?? true else { return false }
        if let selected = selection.provenanceSelected {
            return summary.provenances.contains { Int($0) < selected.count && selected[Int($0)] }
        }
        return true
    }
}

/// The rows a predicate selects from one type, compiled once: a simple date range and source set
/// are tested inline, anything else through the predicate; deleted-but-present rows are never
/// selected.
package struct RowSelection: Sendable {
    package private(set) var lower = Int64.min
    package private(set) var upper = Int64.max
    package private(set) var dateOptions: SamplePredicate.DateOptions = []
    /// Whether each provenance number is selected (nil: all are).
    package private(set) var provenanceSelected: [Bool]?
    /// The whole predicate, when it is not a simple date-and-source conjunction.
    package private(set) var general: SamplePredicate?
    /// Whether rows need their detail columns (UUIDs, creation dates, metadata) to be tested.
    package private(set) var needsDetails = false
    /// Sequences of deleted rows still present in chunks, and the same sorted.
    package private(set) var hidden: Set<Int64>
    private var hiddenSorted: [Int64]
    /// Every selected sample ends at or after this and starts before ``startBelow``.
    package private(set) var endAtLeast = Int64.min
    package private(set) var startBelow = Int64.max
    private let type: QuantityType
    private let provenances: [Provenance]

    /// Compiles `predicate` for the rows of `type`.
    package init(_ predicate: SamplePredicate, type: TypeSnapshot, provenances: [Provenance]) {
        self.type = type.type
        self.provenances = provenances
        hidden = type.hiddenSequences
        hiddenSorted = type.hiddenSequences.sorted()
        (endAtLeast, startBelow) = predicate.pruningBounds
        if let simple = predicate.simpleForm {
            lower = simple.lower
            upper = simple.upper
            dateOptions = simple.options
            if let names = simple.sources { provenanceSelected = provenances.map { names.contains(ExactString($0.source.name)) } }
        } else {
            general = predicate
            needsDetails = predicate.needsDetails
        }
    }

    /// Whether a decoded row is selected.
    @inline(__always)
    package func selects(_ columns: SampleColumns, _ row: Int) -> Bool {
        if !hidden.isEmpty && hidden.contains(columns.sequence[row]) { return false }
        if let general {
            return general.matches(columns: columns, row: row, provenances: provenances, typeIdentifier: type.identifier,
                                   canonicalUnit: type.canonicalUnit)
        }
        if let provenanceSelected {
            let number = Int(columns.provenance[row])
            guard number < provenanceSelected.count, provenanceSelected[number] else { return false }
        }
        return SamplePredicate.dateMatches(start: columns.start[row], end: columns.end[row], lower: lower, upper: upper,
                                           options: dateOptions)
    }

    /// Whether every sample of a run is selected, judged from its summary alone.
    package func selectsAll(_ summary: borrowing SampleSummary) -> Bool {
        guard general == nil else { return false }
        if !hiddenSorted.isEmpty {
            // The first hidden sequence at or above the run's minimum must lie above its maximum.
            let first = hiddenSorted.partitionPoint { $0 >= summary.minimumSequence }
            if first < hiddenSorted.count && hiddenSorted[first] <= summary.maximumSequence { return false }
        }
        if let provenanceSelected,
           !summary.provenances.allSatisfy({ Int($0) < provenanceSelected.count && provenanceSelected[Int($0)] }) {
            return false
        }
        // See SamplePredicate.dateMatches: the smallest start and the largest start or end bound the run.
        let highest = dateOptions.contains(.strictEndDate) ? summary.maximumEnd : summary.maximumStart
        return summary.minimumStart >= lower && highest < upper
    }
}
