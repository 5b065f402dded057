//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// Samples recorded together (HealthKit's `HKCorrelation`): a blood pressure reading's systolic
/// and diastolic values, or a food's nutrients.
public final class HKCorrelation: HKSample, @unchecked Sendable {
    // Immutable after init: safe to share across threads.

    /// The members (quantity samples).
    public let objects: Set<HKSample>
    /// The correlation's type.
    public let correlationType: HKCorrelationType

    /// A correlation this process records; its source is ``HKSource/default()``. Members other
    /// than quantity samples are refused when it is saved.
    public init(type correlationType: HKCorrelationType, start startDate: Date, end endDate: Date,
                objects: Set<HKSample>, device: HKDevice?, metadata: [String: Any]?) {
        self.objects = objects
        self.correlationType = correlationType
        super.init(type: correlationType, start: startDate, end: endDate, device: device, metadata: metadata)
    }

    /// A correlation this process records, without a device.
    public convenience init(type correlationType: HKCorrelationType, start startDate: Date, end endDate: Date,
                            objects: Set<HKSample>, metadata: [String: Any]?) {
        self.init(type: correlationType, start: startDate, end: endDate, objects: objects, device: nil,
                  metadata: metadata)
    }

    /// A correlation this process records, without a device or metadata.
    public convenience init(type correlationType: HKCorrelationType, start startDate: Date, end endDate: Date,
                            objects: Set<HKSample>) {
        self.init(type: correlationType, start: startDate, end: endDate, objects: objects, device: nil, metadata: nil)
    }

    /// A stored correlation, with its members that are still stored.
    init(_ correlation: Correlation) {
        objects = Set(correlation.objects.map(HKQuantitySample.init))
        correlationType = HKCorrelationType(cadence: correlation.correlationType)
        super.init(type: correlationType, start: correlation.startDate, end: correlation.endDate,
                   uuid: correlation.uuid,
                   provenance: Provenance(source: correlation.source, sourceVersion: correlation.sourceVersion,
                                          device: correlation.device),
                   metadata: correlation.metadata, creationDate: correlation.creationDate)
    }

    /// The members of one type.
    public func objects(for objectType: HKObjectType) -> Set<HKSample> {
        objects.filter { $0.sampleType == objectType }
    }

    override var cadenceObject: StorableSample {
        get throws {
            let members = try objects.map { member in
                guard let quantity = member as? HKQuantitySample else {
                    throw CadenceError(.invalidArgument, "a \(correlationType.identifier) correlation holds quantity samples only, not \(member.sampleType.identifier)")
                }
                return try quantity.cadence
            }
            return .correlation(try Correlation(uuid: uuid, type: correlationType.cadence, start: startDate, end: endDate,
                                                source: cadenceProvenance.source,
                                                sourceVersion: cadenceProvenance.sourceVersion,
                                                device: cadenceProvenance.device, creationDate: creationDate,
                                                metadata: storedMetadata, objects: members))
        }
    }
}
