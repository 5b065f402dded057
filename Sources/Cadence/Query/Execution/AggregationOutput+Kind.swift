//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension AggregationOutput {
    /// Which kind of collection an ``AggregationOutput`` is, each case carrying exactly the
    /// measures that kind has beside the accumulators.
    package enum Kind: Sendable {
        /// A collection of a quantity type (``Aggregator``).
        case quantity(QuantityMeasures)
        /// A category collection (``CategoryDurationSweep``, <doc:HowCadenceComputes#Category-durations>).
        case category(CategoryMeasures)
    }

    /// What a quantity collection measures beside its accumulators; each measure is present only
    /// when the query needs it.
    package struct QuantityMeasures: Sendable {
        /// The source-merged prorated sum per interval, present when sources had to be merged
        /// (<doc:HowCadenceComputes#Merging-sources>); otherwise `merged[j].sum` is the sum.
        package var mergedSum: [Double]?
        /// Seconds covered by the union of contributing samples per interval (per source too
        /// with `separateBySource`), present when `duration` is requested.
        package var duration: PerInterval<Double>?
    }

    /// What a category collection measures beside its accumulators
    /// (<doc:HowCadenceComputes#Category-durations>); both are always measured.
    package struct CategoryMeasures: Sendable {
        /// Seconds per interval in which the values in the set hold (per source too with
        /// `separateBySource`).
        package var duration: PerInterval<Double>
        /// The samples with a value in the set that start in each interval (per source too with
        /// `separateBySource`).
        package var startCounts: PerInterval<Int>
    }
}
