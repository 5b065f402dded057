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

/// One blood pressure reading.
struct BloodPressureReading: Equatable, Sendable {
    var uuid: UUID
    var date: Date
    var systolic: Double
    var diastolic: Double
}

/// Blood pressure readings with a high systolic value (140 mmHg or more), from correlation queries.
struct HighBloodPressureLog: Sendable {
    let healthStore: HKHealthStore

    func loadHighReadings(completion: @escaping @Sendable (Result<[BloodPressureReading], any Error>) -> Void) {
        guard let bloodPressureType = HKObjectType.correlationType(forIdentifier: .bloodPressure),
              let systolicType = HKObjectType.quantityType(forIdentifier: .bloodPressureSystolic),
              let diastolicType = HKObjectType.quantityType(forIdentifier: .bloodPressureDiastolic) else { return }
        let millimetersOfMercury = HKUnit.millimeterOfMercury()
        let high = HKQuery.predicateForQuantitySamples(with: .greaterThanOrEqualTo,
                                                       quantity: HKQuantity(unit: millimetersOfMercury, doubleValue: 140))

        let query = HKCorrelationQuery(type: bloodPressureType,
                                       predicate: nil,
                                       samplePredicates: [systolicType: high]) { _, correlations, error in
            guard let correlations else {
                completion(.failure(error ?? CancellationError()))
                return
            }
            let readings = correlations.compactMap { correlation -> BloodPressureReading? in
                guard let systolic = correlation.objects(for: systolicType).first as? HKQuantitySample,
                      let diastolic = correlation.objects(for: diastolicType).first as? HKQuantitySample else { return nil }
                return BloodPressureReading(uuid: correlation.uuid,
                                            date: correlation.startDate,
                                            systolic: systolic.quantity.doubleValue(for: millimetersOfMercury),
                                            diastolic: diastolic.quantity.doubleValue(for: millimetersOfMercury))
            }
            completion(.success(readings))
        }
        healthStore.execute(query)
    }
}
