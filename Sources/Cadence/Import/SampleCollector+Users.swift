//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension SampleCollector {
    /// Saves the samples collected for one user of a user-partitioned input into the collector's
    /// store, numbered like an import of the user's rows alone (look-alike records all stay: see
    /// <doc:HowCadenceComputes#Identity>), and
    /// counts them in the summary.
    ///
    /// - Throws: What saving throws.
    mutating func saveUserSamples() throws {
        var batches = takeBatches()
        var occurrences = OccurrenceCounter()
        for index in batches.indices { try occurrences.number(&batches[index]) }
        let saved = try store.save(batches)
        summary.imported = saved.saved
        summary.duplicates = saved.duplicates
    }
}
