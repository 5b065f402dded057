//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// HealthKit code as an app writes it, against HealthKit's documented API: only the first import
// below differs (it reads `import HealthKit` in the app).
import CadenceHealthKit
import Foundation

/// A page of sleep changes: what was added and deleted.
struct SleepChanges: Sendable {
    var added: [UUID]
    var deleted: [UUID]
}

/// Forwards every change to sleep samples as it happens: a long-running anchored query.
final class SleepChangeFeed: Sendable {
    let healthStore: HKHealthStore

    init(healthStore: HKHealthStore) {
        self.healthStore = healthStore
    }

    func start(changes: @escaping @Sendable (SleepChanges) -> Void) -> HKAnchoredObjectQuery {
        let sleepType = HKCategoryType(.sleepAnalysis)
        let query = HKAnchoredObjectQuery(type: sleepType, predicate: nil, anchor: nil,
                                          limit: HKObjectQueryNoLimit) { _, samples, deletedObjects, _, _ in
            changes(SleepChanges(added: samples?.map(\.uuid) ?? [], deleted: deletedObjects?.map(\.uuid) ?? []))
        }
        query.updateHandler = { _, samples, deletedObjects, _, _ in
            changes(SleepChanges(added: samples?.map(\.uuid) ?? [], deleted: deletedObjects?.map(\.uuid) ?? []))
        }
        healthStore.execute(query)
        return query
    }

    /// Logs a nap recorded by this app.
    func logNap(from start: Date, to end: Date) async throws -> UUID {
        let nap = HKCategorySample(type: HKCategoryType(.sleepAnalysis),
                                   value: HKCategoryValueSleepAnalysis.asleepUnspecified.rawValue,
                                   start: start, end: end)
        try await healthStore.save(nap)
        return nap.uuid
    }

    func removeNap(_ nap: HKSample) async throws {
        try await healthStore.delete(nap)
    }
}
