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
/// `valueSum` and `weightedSum` hold Σ f(v) and Σ f(v)·d, where d is a sample's duration in seconds
/// and f is the identity, except for the equivalent-continuous-level style where f(L) = 10^(L/10)
/// (sound energy), so every style's average can be formed from them.
package struct SampleSummary: Sendable, Equatable {
    package var count = 0
    package var minimumStart = Int64.max
    package var maximumStart = Int64.min
    package var maximumEnd = Int64.min
    package var minimumSequence = Int64.max
    package var maximumSequence = Int64.min
    package var valueSum = 0.0
    package var weightedSum = 0.0
    package var durationSum = 0.0
    package var minimum = Double.infinity
    package var maximum = -Double.infinity
    /// The most recent sample (SPEC §4: greatest end, then start, then sequence).
    package var mostRecentEnd = Int64.min
    package var mostRecentStart = Int64.min
    package var mostRecentSequence = Int64.min
    package var mostRecentValue = 0.0
    /// The distinct provenance numbers of the run, sorted.
    package var provenances: [UInt32] = []
    /// How many samples are flagged as entered by a person.
    package var userEnteredCount = 0

    package init() {}

    /// The value transform of a style (see the type's discussion).
    @inline(__always)
    package static func energy(_ value: Double, style: AggregationStyle) -> Double {
        style == .discreteEquivalentContinuousLevel ? pow10(value / 10) : value
    }

    @inline(__always)
    static func pow10(_ exponent: Double) -> Double { exp(exponent * 2.302585092994046) }

    /// Summarises rows `range` of `columns`.
    ///
    /// - Complexity: O(*n* + *p* log *p*) for *n* rows and *p* distinct provenances.
    package init(_ columns: SampleColumns, rows range: Range<Int>, style: AggregationStyle) {
        self.init()
        var provenanceSet = Set<UInt32>()
        var lastProvenance = UInt32.max
        for row in range {
            let start = columns.start[row]
            let end = columns.end[row]
            let value = columns.value[row]
            let sequence = columns.sequence[row]
            let transformed = Self.energy(value, style: style)
            let duration = Double(end - start) / 1_000_000
            count += 1
            minimumStart = Swift.min(minimumStart, start)
            maximumStart = Swift.max(maximumStart, start)
            maximumEnd = Swift.max(maximumEnd, end)
            minimumSequence = Swift.min(minimumSequence, sequence)
            maximumSequence = Swift.max(maximumSequence, sequence)
            valueSum += transformed
            weightedSum += transformed * duration
            durationSum += duration
            minimum = Swift.min(minimum, value)
            maximum = Swift.max(maximum, value)
            if (end, start, sequence) > (mostRecentEnd, mostRecentStart, mostRecentSequence) {
                (mostRecentEnd, mostRecentStart, mostRecentSequence, mostRecentValue) = (end, start, sequence, value)
            }
            // Runs of one provenance are the common case: hash only when it changes.
            let provenance = columns.provenance[row]
            if provenance != lastProvenance {
                provenanceSet.insert(provenance)
                lastProvenance = provenance
            }
            if columns.flags(at: row) & SampleFlags.userEntered != 0 { userEnteredCount += 1 }
        }
        provenances = provenanceSet.sorted()
    }

    /// Whether the run is empty.
    package var isEmpty: Bool { count == 0 }

    /// Whether a sample of the run may have been written after sequence `anchor`.
    package func hasChanges(after anchor: Int64) -> Bool { maximumSequence > anchor }

    package func write(to writer: inout BinaryWriter) {
        writer.writeVarint(UInt64(count))
        for value in [minimumStart, maximumStart, maximumEnd, minimumSequence, maximumSequence,
                      mostRecentEnd, mostRecentStart, mostRecentSequence] { writer.write(value) }
        for value in [valueSum, weightedSum, durationSum, minimum, maximum, mostRecentValue] { writer.write(value) }
        writer.writeVarint(UInt64(provenances.count))
        for provenance in provenances { writer.writeVarint(UInt64(provenance)) }
        writer.writeVarint(UInt64(userEnteredCount))
    }

    package init(from reader: inout BinaryReader) throws {
        self.init()
        count = Int(clamping: try reader.readVarint())
        minimumStart = try reader.read()
        maximumStart = try reader.read()
        maximumEnd = try reader.read()
        minimumSequence = try reader.read()
        maximumSequence = try reader.read()
        mostRecentEnd = try reader.read()
        mostRecentStart = try reader.read()
        mostRecentSequence = try reader.read()
        valueSum = try reader.readDouble()
        weightedSum = try reader.readDouble()
        durationSum = try reader.readDouble()
        minimum = try reader.readDouble()
        maximum = try reader.readDouble()
        mostRecentValue = try reader.readDouble()
        let provenanceCount = try reader.readCount()
        provenances = try (0..<provenanceCount).map { _ in
            guard let value = UInt32(exactly: try reader.readVarint()) else { throw reader.corrupt("provenance out of range") }
            return value
        }
        userEnteredCount = Int(clamping: try reader.readVarint())
        guard count >= 0, count <= 1 << 28, minimumStart <= maximumStart || count == 0 else {
            throw reader.corrupt("inconsistent summary")
        }
    }
}
