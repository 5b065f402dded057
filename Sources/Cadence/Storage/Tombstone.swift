//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// The record of a deleted sample, kept for anchored queries (<doc:HowCadenceComputes#Changes-and-anchors>).
package struct Tombstone: Sendable, Equatable {
    package var typeIdentifier: String
    package var uuid: UUID
    /// The deleted sample's own change sequence (to hide it until compaction removes it).
    package var sampleSequence: Int64
    /// The deletion's position in the change sequence.
    package var deletionSequence: Int64
    package var syncIdentifier: String?
    package var syncVersion: String?

    package func write(to writer: inout BinaryWriter) {
        writer.write(typeIdentifier)
        let halves = uuid.halves
        writer.write(halves.high)
        writer.write(halves.low)
        writer.write(sampleSequence)
        writer.write(deletionSequence)
        writer.write(optional: syncIdentifier)
        writer.write(optional: syncVersion)
    }

    package init(typeIdentifier: String, uuid: UUID, sampleSequence: Int64, deletionSequence: Int64,
                 syncIdentifier: String?, syncVersion: String?) {
        self.typeIdentifier = typeIdentifier
        self.uuid = uuid
        self.sampleSequence = sampleSequence
        self.deletionSequence = deletionSequence
        self.syncIdentifier = syncIdentifier
        self.syncVersion = syncVersion
    }

    package init(from reader: inout BinaryReader) throws {
        typeIdentifier = try reader.readString()
        uuid = UUID(high: try reader.read(), low: try reader.read())
        sampleSequence = try reader.read()
        deletionSequence = try reader.read()
        syncIdentifier = try reader.readOptionalString()
        syncVersion = try reader.readOptionalString()
    }
}

extension Provenance {
    package func write(to writer: inout BinaryWriter) {
        writer.write(source.name)
        writer.write(optional: source.bundleIdentifier)
        writer.write(optional: sourceVersion)
        writer.write(device != nil)
        if let device {
            writer.write(optional: device.rawDescription)
            writer.write(optional: device.name)
            writer.write(optional: device.manufacturer)
            writer.write(optional: device.model)
            writer.write(optional: device.hardwareVersion)
            writer.write(optional: device.softwareVersion)
        }
    }

    package init(from reader: inout BinaryReader) throws {
        let source = Source(name: try reader.readString(), bundleIdentifier: try reader.readOptionalString())
        let version = try reader.readOptionalString()
        var device: Device?
        if try reader.readBool() {
            var value = Device()
            value.rawDescription = try reader.readOptionalString()
            value.name = try reader.readOptionalString()
            value.manufacturer = try reader.readOptionalString()
            value.model = try reader.readOptionalString()
            value.hardwareVersion = try reader.readOptionalString()
            value.softwareVersion = try reader.readOptionalString()
            device = value
        }
        self.init(source: source, sourceVersion: version, device: device)
    }
}

extension QuantityType {
    package func write(to writer: inout BinaryWriter) {
        writer.write(identifier)
        writer.write(canonicalUnit.unitString)
        writer.write(aggregationStyle.rawValue)
    }

    package init(from reader: inout BinaryReader) throws {
        let identifier = try reader.readString()
        let unitString = try reader.readString()
        let styleName = try reader.readString()
        guard let style = AggregationStyle(rawValue: styleName) else { throw reader.corrupt("unknown aggregation style") }
        let unit: HealthUnit
        do { unit = try HealthUnit(unitString) } catch { throw reader.corrupt("unknown unit '\(unitString)'") }
        self.init(identifier: identifier, aggregationStyle: style, canonicalUnit: unit)
    }
}

/// The UUIDs of deleted samples per type, from the store's deletion records: a save skips a
/// sample the user deleted, so re-importing a file does not bring it back (see How Cadence
/// computes, Deleting samples).
///
/// Rebuilt only when the records changed, and empty at no cost for a store without deletions.
struct DeletionMemory: Sendable {
    private var byType: [ExactString: Set<UUID>] = [:]
    /// What the index was built from: the count and the first and last deletion sequences
    /// (records are appended in sequence order and forgotten from the oldest).
    private var builtFrom: (count: Int, first: Int64, last: Int64) = (0, 0, 0)

    /// The deleted UUIDs of `type`, or `nil` when none of its samples was deleted.
    ///
    /// - Complexity: O(1), or O(*d*) in the deletion records when they changed since the last call.
    mutating func deleted(of type: String, in tombstones: [Tombstone]) -> Set<UUID>? {
        let key = (tombstones.count, tombstones.first?.deletionSequence ?? 0, tombstones.last?.deletionSequence ?? 0)
        if key != builtFrom {
            byType = [:]
            // Deletions come in runs of one type: hash a type's name once a run, not once a record.
            var start = 0
            while start < tombstones.count {
                let type = tombstones[start].typeIdentifier
                var end = start + 1
                while end < tombstones.count && tombstones[end].typeIdentifier.isIdentical(to: type) { end += 1 }
                byType[ExactString(type), default: []].formUnion(tombstones[start..<end].lazy.map(\.uuid))
                start = end
            }
            builtFrom = key
        }
        return byType[ExactString(type)]
    }
}
