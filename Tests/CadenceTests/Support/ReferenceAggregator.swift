//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
@testable import Cadence

/// A sample as the reference sees it: plain values, no columns, no chunks.
struct ReferenceSample {
    var start: Int64
    var end: Int64
    var value: Double
    var source: String
    var rank: Int
    var sequence: Int64
}

/// <doc:HowCadenceComputes#Intervals-and-contributions>, <doc:HowCadenceComputes#Merging-sources> applied literally to a list of samples, one interval at a time: the oracle the fast
/// path is checked against. Deliberately simple and slow.
struct ReferenceInterval {
    var count = 0
    var sum = 0.0
    var mergedSum = 0.0
    var average: Double?
    var minimum: Double?
    var maximum: Double?
    var mostRecent: Double?
    var duration = 0.0

    /// - Parameter mergesSources: Whether `mergedSum` and `duration` are computed (quadratic in
    ///   the samples; dense tests whose samples never overlap compare `sum` instead).
    init(samples: [ReferenceSample], start b0: Int64, end b1: Int64, style: AggregationStyle, mergesSources: Bool = true) {
        func overlap(_ sample: ReferenceSample) -> Int64 { min(sample.end, b1) - max(sample.start, b0) }
        let contributing = samples.filter { sample in
            sample.start == sample.end ? (b0 <= sample.start && sample.start < b1) : overlap(sample) > 0
        }
        count = contributing.count
        guard count > 0 else { return }
        for sample in contributing {
            sum += sample.start == sample.end ? sample.value
                : sample.value * Double(overlap(sample)) / Double(sample.end - sample.start)
        }
        if mergesSources { merge(contributing, start: b0, end: b1) }
        minimum = contributing.map(\.value).min()
        maximum = contributing.map(\.value).max()
        mostRecent = contributing.max { ($0.end, $0.start, $0.sequence) < ($1.end, $1.start, $1.sequence) }?.value
        let weights = contributing.map { Double(max(0, overlap($0))) / 1e6 }
        let totalWeight = weights.reduce(0, +)
        switch style {
        case .cumulative, .discreteArithmetic:
            average = contributing.map(\.value).reduce(0, +) / Double(count)
        case .discreteTemporallyWeighted:
            average = totalWeight > 0
                ? zip(contributing, weights).map { $0.value * $1 }.reduce(0, +) / totalWeight
                : contributing.map(\.value).reduce(0, +) / Double(count)
        case .discreteEquivalentContinuousLevel:
            let energies = contributing.map { pow(10, $0.value / 10) }
            let energy = totalWeight > 0
                ? zip(energies, weights).map { $0 * $1 }.reduce(0, +) / totalWeight
                : energies.reduce(0, +) / Double(count)
            average = 10 * log10(energy)
        }
    }

    /// Source merge: cut the interval at every sample edge; the best rank covering a slice wins it.
    private mutating func merge(_ contributing: [ReferenceSample], start b0: Int64, end b1: Int64) {
        var cuts = Set([b0, b1])
        for sample in contributing {
            if sample.start > b0 && sample.start < b1 { cuts.insert(sample.start) }
            if sample.end > b0 && sample.end < b1 { cuts.insert(sample.end) }
        }
        let points = cuts.sorted()
        for (left, right) in zip(points, points.dropFirst()) {
            let covering = contributing.filter { $0.start < $0.end && $0.start <= left && $0.end >= right }
            guard let best = covering.map(\.rank).min() else { continue }
            duration += Double(right - left) / 1e6
            for sample in covering where sample.rank == best {
                mergedSum += sample.value * Double(right - left) / Double(sample.end - sample.start)
            }
        }
        for sample in contributing where sample.start == sample.end {
            let shadowed = contributing.contains {
                $0.start < $0.end && $0.start <= sample.start && sample.start < $0.end && $0.rank < sample.rank
            }
            if !shadowed { mergedSum += sample.value }
        }
    }
}

/// The date predicate of <doc:HowCadenceComputes#Predicates>, literally.
func referenceDateMatches(_ sample: ReferenceSample, lower: Int64?, upper: Int64?, strictStart: Bool, strictEnd: Bool) -> Bool {
    let lower = lower ?? .min
    let upper = upper ?? .max
    switch (strictStart, strictEnd) {
    case (false, false): return sample.end >= lower && sample.start < upper
    case (true, false): return sample.start >= lower && sample.start < upper
    case (false, true): return sample.end >= lower && sample.end < upper
    case (true, true): return sample.start >= lower && sample.end < upper
    }
}

/// A deterministic random number generator for property tests.
struct TestRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Whether two numbers agree to `tolerance`, relative to their size (absolute near zero).
func nearlyEqual(_ left: Double?, _ right: Double?, tolerance: Double = 1e-9) -> Bool {
    switch (left, right) {
    case (nil, nil): return true
    case let (left?, right?): return abs(left - right) <= tolerance * max(1, abs(left), abs(right))
    default: return false
    }
}

/// A date from an RFC 3339 string (test data is written by hand).
func date(_ text: String) -> Date {
    Date(timestamp: (try? parseRFC3339(text)) ?? 0)
}
