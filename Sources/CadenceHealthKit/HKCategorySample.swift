//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// A state over an interval (HealthKit's `HKCategorySample`), such as a sleep stage; its value
/// is HealthKit's raw integer (``HKCategoryValueSleepAnalysis`` for sleep).
public final class HKCategorySample: HKSample, @unchecked Sendable {
    // Immutable after init: safe to share across threads.

    /// The raw value, such as `HKCategoryValueSleepAnalysis.asleepDeep.rawValue`.
    public let value: Int
    /// The sample's type.
    public let categoryType: HKCategoryType

    /// A sample this process records; its source is ``HKSource/default()``. A value the type does
    /// not have is refused when the sample is saved.
    public init(type: HKCategoryType, value: Int, start startDate: Date, end endDate: Date, device: HKDevice?,
                metadata: [String: Any]?) {
        self.value = value
        categoryType = type
        super.init(type: type, start: startDate, end: endDate, device: device, metadata: metadata)
    }

    /// A sample this process records, without a device.
    public convenience init(type: HKCategoryType, value: Int, start startDate: Date, end endDate: Date,
                            metadata: [String: Any]?) {
        self.init(type: type, value: value, start: startDate, end: endDate, device: nil, metadata: metadata)
    }

    /// A sample this process records, without a device or metadata.
    public convenience init(type: HKCategoryType, value: Int, start startDate: Date, end endDate: Date) {
        self.init(type: type, value: value, start: startDate, end: endDate, device: nil, metadata: nil)
    }

    /// A stored sample.
    init(_ sample: CategorySample) {
        value = sample.value
        categoryType = HKCategoryType(cadence: sample.categoryType)
        super.init(type: categoryType, start: sample.startDate, end: sample.endDate,
                   uuid: sample.uuid,
                   provenance: Provenance(source: sample.source, sourceVersion: sample.sourceVersion, device: sample.device),
                   metadata: sample.metadata, creationDate: sample.creationDate)
    }

    override var cadenceObject: StorableSample {
        get throws {
            .category(try CategorySample(uuid: uuid, type: categoryType.cadence, value: value, start: startDate,
                                         end: endDate, source: cadenceProvenance.source,
                                         sourceVersion: cadenceProvenance.sourceVersion,
                                         device: cadenceProvenance.device, creationDate: creationDate,
                                         metadata: storedMetadata))
        }
    }
}

/// The values of sleep analysis samples (HealthKit's `HKCategoryValueSleepAnalysis`).
public enum HKCategoryValueSleepAnalysis: Int, Sendable, CaseIterable {
    /// In bed, asleep or not.
    case inBed = 0
    /// Asleep, stage unknown.
    case asleepUnspecified = 1
    /// Awake during a sleep period.
    case awake = 2
    /// Core (light) sleep.
    case asleepCore = 3
    /// Deep sleep.
    case asleepDeep = 4
    /// REM sleep.
    case asleepREM = 5

    /// The older name of ``asleepUnspecified``.
    public static var asleep: HKCategoryValueSleepAnalysis { .asleepUnspecified }

    /// Every asleep value: unspecified, core, deep and REM.
    public static var allAsleepValues: Set<HKCategoryValueSleepAnalysis> {
        [.asleepUnspecified, .asleepCore, .asleepDeep, .asleepREM]
    }

    /// Sleep samples with one of `values`.
    public static func predicateForSamples(equalTo values: Set<HKCategoryValueSleepAnalysis>) -> NSPredicate {
        HKQuery.predicateForCategorySamples(equalTo: Set(values.map(\.rawValue)))
    }
}
