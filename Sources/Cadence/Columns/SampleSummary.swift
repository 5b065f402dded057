//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Precomputed aggregates of a run of samples (a chunk, or a block inside one), kept
/// uncompressed so that queries can prune by time, sequence and source, and answer intervals that
/// wholly contain the run, without decompressing it.
///
/// Its ``statistics`` are the run's ``StatisticsAccumulator`` (each sample counted whole), the same
/// type queries accumulate intervals in; the rest serves pruning and source merging.
package struct SampleSummary: Sendable, Equatable {
    /// The run's statistics, every sample counted whole (so `sum` is `valueSum`).
    package var statistics = StatisticsAccumulator()
    package var maximumStart = Int64.min
    package var minimumSequence = Int64.max
    package var maximumSequence = Int64.min
    /// The distinct provenance numbers of the run.
    package var provenances = ProvenanceSet()
    /// How many samples are flagged as entered by a person.
    package var userEnteredCount = 0

    package init() {}

    package var count: Int { statistics.count }
    package var minimumStart: Int64 { statistics.earliestStart }
    package var maximumEnd: Int64 { statistics.latestEnd }

    /// The value transform of a style (see ``StatisticsAccumulator``).
    @inline(__always)
    package static func energy(_ value: Double, style: AggregationStyle) -> Double {
        StatisticsAccumulator.energy(value, style: style)
    }

    /// Summarises rows `range` of `columns` (in order of start: a block, or the rows of one hour
    /// and source of a block).
    ///
    /// - Complexity: O(*n* + *p* log *p*) for *n* rows and *p* distinct provenances.
    package init(_ columns: SampleColumns, rows range: some Sequence<Int>, style: AggregationStyle) {
        self.init()
        var provenanceSet = Set<UInt32>()
        var lastProvenance = UInt32.max
        for row in range {
            let start = columns.start[row]
            let value = columns.value[row]
            let sequence = columns.sequence[row]
            statistics.addContained(start: start, end: columns.end[row], value: value,
                                    energy: Self.energy(value, style: style), sequence: sequence)
            maximumStart = Swift.max(maximumStart, start)
            minimumSequence = Swift.min(minimumSequence, sequence)
            maximumSequence = Swift.max(maximumSequence, sequence)
            // Runs of one provenance are the common case: hash only when it changes.
            let provenance = columns.provenance[row]
            if provenance != lastProvenance {
                provenanceSet.insert(provenance)
                lastProvenance = provenance
            }
            if columns.flags(at: row) & SampleFlags.userEntered != 0 { userEnteredCount += 1 }
        }
        // What a stored summary gives back (it keeps no separate sum).
        statistics.sum = statistics.valueSum
        provenances = ProvenanceSet(ascending: provenanceSet.sorted())
    }

    /// Whether the run is empty.
    package var isEmpty: Bool { count == 0 }

    /// Whether a sample of the run may have been written after sequence `anchor`.
    package func hasChanges(after anchor: Int64) -> Bool { maximumSequence > anchor }

    package func write(to writer: inout BinaryWriter) {
        writer.writeVarint(UInt64(count))
        let mostRecent = statistics.mostRecent
        for value in [minimumStart, maximumStart, maximumEnd, minimumSequence, maximumSequence,
                      mostRecent.end, mostRecent.start, mostRecent.sequence] { writer.write(value) }
        for value in [statistics.valueSum, statistics.weightedSum, statistics.weight, statistics.minimum,
                      statistics.maximum, mostRecent.value] { writer.write(value) }
        writer.writeVarint(UInt64(provenances.count))
        for provenance in provenances { writer.writeVarint(UInt64(provenance)) }
        writer.writeVarint(UInt64(userEnteredCount))
    }

    /// The most samples a stored chunk or block summary may count.
    package static let maximumCount = 1 << 28

    /// Merges the summary of another run into this one's.
    package mutating func formUnion(_ other: SampleSummary) {
        guard other.count > 0 else { return }
        statistics.merge(other.statistics)
        maximumStart = Swift.max(maximumStart, other.maximumStart)
        minimumSequence = Swift.min(minimumSequence, other.minimumSequence)
        maximumSequence = Swift.max(maximumSequence, other.maximumSequence)
        provenances = provenances.union(other.provenances)
        userEnteredCount += other.userEnteredCount
    }

    /// Reads a summary that ``write(to:)`` wrote, of at most `maximumCount` samples.
    package init(from reader: inout BinaryReader, maximumCount: Int = Self.maximumCount) throws {
        self.init()
        statistics.count = Int(clamping: try reader.readVarint())
        statistics.earliestStart = try reader.read()
        maximumStart = try reader.read()
        statistics.latestEnd = try reader.read()
        minimumSequence = try reader.read()
        maximumSequence = try reader.read()
        statistics.mostRecent = MostRecentSample(end: try reader.read(), start: try reader.read(),
                                                 sequence: try reader.read(), value: 0)
        statistics.valueSum = try reader.readDouble()
        statistics.sum = statistics.valueSum
        statistics.weightedSum = try reader.readDouble()
        statistics.weight = try reader.readDouble()
        statistics.minimum = try reader.readDouble()
        statistics.maximum = try reader.readDouble()
        statistics.mostRecent.value = try reader.readDouble()
        let provenanceCount = try reader.readCount()
        let numbers = try (0..<provenanceCount).map { _ in
            guard let value = UInt32(exactly: try reader.readVarint()) else { throw reader.corrupt("provenance out of range") }
            return value
        }
        guard zip(numbers, numbers.dropFirst()).allSatisfy({ $0 < $1 }) else { throw reader.corrupt("provenances out of order") }
        provenances = ProvenanceSet(ascending: numbers)
        userEnteredCount = Int(clamping: try reader.readVarint())
        guard count >= 0, count <= maximumCount, minimumStart <= maximumStart || count == 0 else {
            throw reader.corrupt("inconsistent summary")
        }
    }
}
