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

/// Refreshes a step count whenever steps are saved or deleted, and records new walks.
final class StepObserver: Sendable {
    let healthStore: HKHealthStore
    private let stepType = HKQuantityType(.stepCount)

    init(healthStore: HKHealthStore) {
        self.healthStore = healthStore
    }

    /// Starts observing: `changed` runs once at the start, then after each change.
    func start(changed: @escaping @Sendable () -> Void) -> HKObserverQuery {
        let query = HKObserverQuery(sampleType: stepType, predicate: nil) { _, completionHandler, error in
            if error == nil { changed() }
            completionHandler()
        }
        healthStore.execute(query)
        healthStore.enableBackgroundDelivery(for: stepType, frequency: .immediate) { success, error in
            if !success { print("Background delivery was refused: \(String(describing: error))") }
        }
        return query
    }

    func stop(_ query: HKObserverQuery) {
        healthStore.stop(query)
    }

    /// Saves a walk recorded by this app.
    func recordWalk(steps: Double, start: Date, end: Date) async throws {
        let sample = HKQuantitySample(type: stepType,
                                      quantity: HKQuantity(unit: .count(), doubleValue: steps),
                                      start: start,
                                      end: end)
        try await healthStore.save(sample)
    }
}
