//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

// MARK: - Benchmarking

extension HealthStore {
    /// Runs a statistics-collection query on the current snapshot with a fixed number of
    /// `concurrentPerform` workers (1 forces the serial path).
    ///
    /// For the benchmark executable, which measures the parallel speed-up of the aggregation;
    /// library users call ``execute(_:)-(StatisticsCollectionQuery)``, which uses every core.
    package func execute(_ query: StatisticsCollectionQuery, parallelism: Int) throws -> StatisticsCollection {
        try StatisticsCollection(query: query, snapshot: snapshot(), parallelism: max(1, parallelism))
    }
}
