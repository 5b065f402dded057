//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// How the samples of a quantity type combine into a statistic (HealthKit's `HKQuantityAggregationStyle`).
///
/// The style decides which ``StatisticsOptions`` a query may ask for and how values are weighted
/// (<doc:HowCadenceComputes#Intervals-and-contributions>).
public enum AggregationStyle: String, Hashable, Sendable, Codable, CaseIterable {
    /// Values add up over time (steps, energy, distance); sums are prorated over intervals.
    case cumulative
    /// Each sample counts once in the average, minimum and maximum.
    case discreteArithmetic
    /// The average weights each sample by its seconds of overlap with the interval; when every
    /// contributing sample is zero-length it is the arithmetic mean. **[Cadence rule]**
    case discreteTemporallyWeighted
    /// Sound levels in dBASPL: the average is the energy mean `10·log10(Σ wᵢ·10^(Lᵢ/10) / Σ wᵢ)`
    /// with time weights (IEC 61672-1). **[Cadence rule]**
    case discreteEquivalentContinuousLevel

    /// Whether the style is one of the three discrete ones.
    public var isDiscrete: Bool { self != .cumulative }
}
