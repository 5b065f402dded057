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

/// The latest body mass reading, and when it was taken.
struct LatestWeight: Sendable {
    let healthStore: HKHealthStore

    func load(completion: @escaping @Sendable (Result<(kilograms: Double, taken: DateInterval)?, any Error>) -> Void) {
        guard let bodyMassType = HKObjectType.quantityType(forIdentifier: .bodyMass) else { return }
        let query = HKStatisticsQuery(quantityType: bodyMassType,
                                      quantitySamplePredicate: nil,
                                      options: .mostRecent) { _, statistics, error in
            guard let statistics else {
                completion(.failure(error ?? CancellationError()))
                return
            }
            guard let quantity = statistics.mostRecentQuantity(),
                  let taken = statistics.mostRecentQuantityDateInterval() else {
                completion(.success(nil))
                return
            }
            completion(.success((quantity.doubleValue(for: .gramUnit(with: .kilo)), taken)))
        }
        healthStore.execute(query)
    }
}
