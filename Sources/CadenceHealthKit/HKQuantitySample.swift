//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// A measurement over an interval (HealthKit's `HKQuantitySample`), such as steps or a heart rate.
///
///     let weight = HKQuantitySample(type: HKQuantityType(.bodyMass),
///                                   quantity: HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: 71.5),
///                                   start: now, end: now)
///     try await healthStore.save(weight)
public final class HKQuantitySample: HKSample, @unchecked Sendable {
    // Immutable after init: safe to share across threads.

    /// The measured amount.
    public let quantity: HKQuantity
    /// The sample's type.
    public let quantityType: HKQuantityType
    /// The number of quantities the sample holds: 1, or a stored series sample's entry count.
    public let count: Int

    /// A sample this process records; its source is ``HKSource/default()``. A quantity in a unit
    /// the type does not take is refused when the sample is saved.
    public init(type quantityType: HKQuantityType, quantity: HKQuantity, start startDate: Date, end endDate: Date,
                device: HKDevice?, metadata: [String: Any]?) {
        self.quantity = quantity
        self.quantityType = quantityType
        count = 1
        super.init(type: quantityType, start: startDate, end: endDate, device: device, metadata: metadata)
    }

    /// A sample this process records, without a device.
    public convenience init(type quantityType: HKQuantityType, quantity: HKQuantity, start startDate: Date,
                            end endDate: Date, metadata: [String: Any]?) {
        self.init(type: quantityType, quantity: quantity, start: startDate, end: endDate, device: nil, metadata: metadata)
    }

    /// A sample this process records, without a device or metadata.
    public convenience init(type quantityType: HKQuantityType, quantity: HKQuantity, start startDate: Date,
                            end endDate: Date) {
        self.init(type: quantityType, quantity: quantity, start: startDate, end: endDate, device: nil, metadata: nil)
    }

    /// A stored sample.
    init(_ sample: QuantitySample) {
        quantity = HKQuantity(sample.quantity)
        quantityType = HKQuantityType(cadence: sample.quantityType)
        count = sample.count
        super.init(type: quantityType, start: sample.startDate, end: sample.endDate,
                   uuid: sample.uuid,
                   provenance: Provenance(source: sample.source, sourceVersion: sample.sourceVersion, device: sample.device),
                   metadata: sample.metadata, creationDate: sample.creationDate)
    }

    /// The sample in the Cadence module.
    var cadence: QuantitySample {
        get throws {
            guard let value = quantity.cadence else {
                throw CadenceError(.unknownUnit, "the unit '\(quantity.unit.unitString)' of a \(quantityType.identifier) sample is outside the unit grammar")
            }
            return try QuantitySample(uuid: uuid, type: quantityType.cadence, value: value.value, unit: value.unit,
                                      start: startDate, end: endDate, source: cadenceProvenance.source,
                                      sourceVersion: cadenceProvenance.sourceVersion, device: cadenceProvenance.device,
                                      creationDate: creationDate, metadata: storedMetadata)
        }
    }

    override var cadenceObject: StorableSample {
        get throws { .quantity(try cadence) }
    }
}
