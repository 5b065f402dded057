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
/// A type's set is built the first time a save of that type meets deletions, from that type's
/// records alone, and then kept up with the records added since: no save reads or hashes the
/// deletions of other types, or the same records twice.
struct DeletionMemory: Sendable {
    private struct Built: Sendable {
        var uuids: Set<UUID>
        /// What the set was built from: the deletions file's number and record count, and how
        /// many records made since (not yet in the file) it holds.
        var fileNumber: UInt64?
        var fileCount: UInt64
        var addedCount: Int
    }

    private var byType: [ExactString: Built] = [:]

    /// The deleted UUIDs of `type`, or `nil` when none of its samples was deleted.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming the type's deletions file when it is damaged.
    /// - Complexity: O(new records) since the last call for the type; O(*d*) in the type's
    ///   records the first time, or after deletions were forgotten.
    mutating func deleted(of type: String, in deletions: TypeDeletions) throws -> Set<UUID>? {
        guard !deletions.isEmpty else {
            byType[ExactString(type)] = nil
            return nil
        }
        let key = ExactString(type)
        let file = deletions.file
        // Taken out of the dictionary so that adding to the set does not copy it.
        if var built = byType.removeValue(forKey: key) {
            // A flush moves the records made since into the file it appends to.
            if file?.number == built.fileNumber || built.fileNumber == nil,
               (file?.count ?? 0) == built.fileCount + UInt64(built.addedCount), file?.count != built.fileCount {
                built = Built(uuids: built.uuids, fileNumber: file?.number, fileCount: file?.count ?? 0, addedCount: 0)
            }
            if built.fileNumber == file?.number, built.fileCount == file?.count ?? 0, built.addedCount <= deletions.added.count {
                built.uuids.formUnion(deletions.added[built.addedCount...].lazy.map(\.uuid))
                built.addedCount = deletions.added.count
                byType[key] = built
                return built.uuids
            }
        }
        let built = Built(uuids: Set(try deletions.records().lazy.map(\.uuid)), fileNumber: file?.number,
                          fileCount: file?.count ?? 0, addedCount: deletions.added.count)
        byType[key] = built
        return built.uuids
    }
}
