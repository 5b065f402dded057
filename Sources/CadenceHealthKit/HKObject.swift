//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// Something stored (HealthKit's `HKObject`): its UUID, where it came from and its metadata.
///
/// Objects are immutable. Two objects with the same UUID are equal.
public class HKObject: NSObject, @unchecked Sendable {
    // Immutable after init: safe to share across threads.

    /// The object's identity.
    public let uuid: UUID
    /// Who recorded it, in the Cadence module.
    let cadenceProvenance: Provenance
    /// The metadata as the store keeps it: text values.
    let storedMetadata: [String: String]
    /// When the object was created, if known.
    let creationDate: Date?

    init(uuid: UUID, provenance: Provenance, metadata: [String: String], creationDate: Date?) {
        self.uuid = uuid
        self.cadenceProvenance = provenance
        self.storedMetadata = metadata
        self.creationDate = creationDate
    }

    /// The provenance and metadata of an object this process creates: the default source, the
    /// device given, metadata values kept as text.
    init(device: HKDevice?, metadata: [String: Any]?) {
        uuid = UUID()
        cadenceProvenance = Provenance(source: HKSource.default().cadence, device: device?.cadence)
        storedMetadata = (metadata ?? [:]).mapValues(MetadataText.text(of:))
        creationDate = Date()
    }

    /// The metadata (`HKMetadataKey…` → value); values are text, as the store keeps them. `nil`
    /// when there is none.
    public var metadata: [String: Any]? { storedMetadata.isEmpty ? nil : storedMetadata }

    /// The app or device that recorded the object, with its version.
    public var sourceRevision: HKSourceRevision {
        HKSourceRevision(source: HKSource(cadenceProvenance.source), version: cadenceProvenance.sourceVersion)
    }

    /// The device that recorded the object, if known.
    public var device: HKDevice? { cadenceProvenance.device.map(HKDevice.init(cadence:)) }

    /// Whether `object` has the same UUID.
    public override func isEqual(_ object: Any?) -> Bool { (object as? HKObject)?.uuid == uuid }

    /// A hash of the UUID.
    public override var hash: Int { uuid.hashValue }
}

/// Something stored over a time interval (HealthKit's `HKSample`): the base of quantity and
/// category samples and correlations.
public class HKSample: HKObject, @unchecked Sendable {
    // Immutable after init: safe to share across threads.

    /// The sample's start.
    public let startDate: Date
    /// The sample's end (equal to the start for an instant).
    public let endDate: Date
    /// The sample's type.
    public let sampleType: HKSampleType

    init(type: HKSampleType, start: Date, end: Date, uuid: UUID, provenance: Provenance, metadata: [String: String],
         creationDate: Date?) {
        sampleType = type
        startDate = start
        endDate = end
        super.init(uuid: uuid, provenance: provenance, metadata: metadata, creationDate: creationDate)
    }

    init(type: HKSampleType, start: Date, end: Date, device: HKDevice?, metadata: [String: Any]?) {
        sampleType = type
        startDate = start
        endDate = end
        super.init(device: device, metadata: metadata)
    }

    /// Always `false`: every stored sample has an end.
    public var hasUndeterminedDuration: Bool { false }

    /// The sample as the Cadence module saves it.
    ///
    /// - Throws: `CadenceError` when the sample is invalid (its start after its end, a quantity
    ///   in a unit its type does not take, a value its type does not have).
    var cadenceObject: StorableSample {
        get throws { throw CadenceError(.invalidArgument, "\(type(of: self)) cannot be saved") }
    }
}

/// A sample ready to be saved by the Cadence module, by kind.
enum StorableSample {
    case quantity(QuantitySample)
    case category(CategorySample)
    case correlation(Correlation)
    case document(CDADocumentSample)
}

/// A sample that was deleted (HealthKit's `HKDeletedObject`), as anchored queries report it.
public final class HKDeletedObject: NSObject, Sendable {
    /// The deleted sample's UUID.
    public let uuid: UUID
    /// The deleted sample's `HKMetadataKeySyncIdentifier` and `HKMetadataKeySyncVersion`, when it
    /// had them; `nil` otherwise.
    public let metadata: [String: String]?

    init(_ deleted: DeletedObject) {
        uuid = deleted.uuid
        metadata = deleted.metadata.isEmpty ? nil : deleted.metadata
    }

    /// Whether `object` reports the same UUID.
    public override func isEqual(_ object: Any?) -> Bool { (object as? HKDeletedObject)?.uuid == uuid }

    /// A hash of the UUID.
    public override var hash: Int { uuid.hashValue }
}
