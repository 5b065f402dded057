//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

extension QuantitySample {
    /// The deterministic UUID of a sample that arrived without one **[Cadence rule]** (<doc:HowCadenceComputes#Identity>): a
    /// version-8 UUID hashed from every attribute the record carries — type, source name, source
    /// version, device description (less its object address), canonical value, creation date,
    /// start, end and metadata (sorted by key) — and its `occurrence` among identical records of
    /// the same file.
    ///
    /// So the same file imported twice adds nothing the second time, while two distinct objects
    /// that happen to look alike (occurrence 0 and 1) both stay.
    ///
    ///     let first = QuantitySample.derivedUUID(type: "HKQuantityTypeIdentifierDietaryEnergyConsumed",
    ///                                            provenance: nutrino, value: 104.631, start: t, end: t,
    ///                                            creation: c, metadata: [:], occurrence: 0)
    ///
    /// - Parameters:
    ///   - type: The full type identifier.
    ///   - provenance: The source, source version and device the record names.
    ///   - value: The value in the type's canonical unit.
    ///   - start: The start, in microseconds since 1970 (see ``Timestamp``).
    ///   - end: The end, in microseconds since 1970.
    ///   - creation: The creation date, if the record has one.
    ///   - metadata: The record's metadata entries.
    ///   - occurrence: How many identical records came before this one in its file (0 for the first).
    /// - Returns: The same UUID for the same arguments on every machine and in every run.
    public static func derivedUUID(type: String, provenance: Provenance, value: Double, start: Timestamp,
                                   end: Timestamp, creation: Timestamp?, metadata: [String: String],
                                   occurrence: Int = 0) -> UUID {
        let attributes = SampleIdentity.Attributes(
            type: SampleIdentity.digest(type), provenance: SampleIdentity.digest(provenance), value: value,
            start: start, end: end, creation: creation ?? SampleColumns.absent, metadata: SampleIdentity.digest(metadata))
        return attributes.uuid(occurrence: UInt32(clamping: occurrence))
    }
}

/// Derived identities of stored or imported rows (<doc:HowCadenceComputes#Identity>), with the per-type, per-provenance and
/// per-metadata-set parts hashed once rather than once per row.
package struct SampleIdentity {
    /// Everything a derived UUID is computed from but the occurrence number, each string-valued
    /// part reduced to a stable 64-bit digest.
    package struct Attributes: Hashable {
        var type: UInt64
        var provenance: UInt64
        var value: Double
        var start: Int64
        var end: Int64
        var creation: Int64
        var metadata: UInt64

        private func combine(into hash: inout StableHash) {
            hash.combine(type)
            hash.combine(provenance)
            hash.combine(value == 0 ? 0 : value.bitPattern)  // +0 and -0 are the same value
            hash.combine(UInt64(bitPattern: start))
            hash.combine(UInt64(bitPattern: end))
            hash.combine(UInt64(bitPattern: creation))
            hash.combine(metadata)
        }

        /// A 64-bit key for counting identical records: equal attributes give equal keys.
        package var key: UInt64 {
            var hash = StableHash()
            combine(into: &hash)
            return hash.finalize().0
        }

        /// The derived UUID of the `occurrence`-th record with these attributes.
        package func uuid(occurrence: UInt32) -> UUID {
            var hash = StableHash()
            combine(into: &hash)
            hash.combine(UInt64(occurrence))
            let (high, low) = hash.finalize()
            return UUID(high: high, low: low, version: 8)
        }
    }

    private let type: UInt64
    private let provenances: [UInt64]

    /// Prepares identities for rows of `type` whose provenance numbers index `provenances`.
    ///
    /// - Complexity: O(*p*) for *p* provenances.
    package init(type: String, provenances: [Provenance]) {
        self.type = Self.digest(type)
        self.provenances = provenances.map(Self.digest)
    }

    /// The digest of no metadata.
    private static let noMetadata = digest([String: String]())

    /// The digests of `columns`' metadata sets, by 1-based metadata index (0 = no metadata).
    package static func metadataDigests(of columns: SampleColumns) -> [UInt64] {
        [noMetadata] + columns.metadataSets.map(digest)
    }

    /// The attributes of a row, given ``metadataDigests(of:)`` of its columns (or `nil` to hash the
    /// row's metadata on the spot, for callers that visit rows of many columns one by one).
    package func attributes(of columns: SampleColumns, row: Int, metadataDigests: [UInt64]?) -> Attributes {
        let number = Int(columns.provenance[row])
        let metadataIndex = columns.metadataIndex.isEmpty ? 0 : Int(columns.metadataIndex[row])
        let metadata = metadataIndex == 0 ? Self.noMetadata
            : metadataDigests.map { metadataIndex < $0.count ? $0[metadataIndex] : 0 } ?? Self.digest(columns.metadata(at: row))
        return Attributes(
            type: type, provenance: number < provenances.count ? provenances[number] : 0, value: columns.value[row],
            start: columns.start[row], end: columns.end[row],
            creation: columns.creation.isEmpty ? SampleColumns.absent : columns.creation[row], metadata: metadata)
    }

    /// The UUID of a row: its explicit one, or the one derived from its attributes and occurrence.
    package func uuid(of columns: SampleColumns, row: Int, metadataDigests: [UInt64]?) -> UUID {
        if let uuid = columns.explicitUUID(at: row) { return uuid }
        return attributes(of: columns, row: row, metadataDigests: metadataDigests).uuid(occurrence: columns.occurrence(at: row))
    }

    // MARK: Digests

    static func digest(_ string: String) -> UInt64 {
        var hash = StableHash()
        hash.combine(string)
        return hash.finalize().0
    }

    static func digest(_ provenance: Provenance) -> UInt64 {
        var hash = StableHash()
        hash.combine(provenance.source.name)
        combine(provenance.sourceVersion, into: &hash)
        // The device's object address is no part of identity (How Cadence computes, Identity).
        combine(provenance.device?.rawDescription.map(Device.removingObjectAddress), into: &hash)
        return hash.finalize().0
    }

    static func digest(_ metadata: [String: String]) -> UInt64 {
        var hash = StableHash()
        hash.combine(UInt64(metadata.count))
        for key in metadata.keys.sorted() {
            hash.combine(key)
            hash.combine(metadata[key] ?? "")
        }
        return hash.finalize().0
    }

    /// An optional string, told apart from an empty one.
    private static func combine(_ string: String?, into hash: inout StableHash) {
        if let string {
            hash.combine(1)
            hash.combine(string)
        } else {
            hash.combine(0)
        }
    }
}

extension UUID {
    /// A UUID from two 64-bit halves (big-endian), with the version and RFC 4122 variant bits set
    /// when `version` is given.
    package init(high: UInt64, low: UInt64, version: UInt8? = nil) {
        var high = high
        var low = low
        if let version {
            high = (high & ~0xF000) | (UInt64(version & 0xF) << 12)
            low = (low & ~(0xC000_0000_0000_0000)) | 0x8000_0000_0000_0000
        }
        let h = high.bigEndian
        let l = low.bigEndian
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { raw in
            raw.storeBytes(of: h, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: l, toByteOffset: 8, as: UInt64.self)
        }
        self.init(uuid: bytes)
    }

    /// The UUID as two 64-bit halves (big-endian order).
    package var halves: (high: UInt64, low: UInt64) {
        withUnsafeBytes(of: uuid) { raw in
            (UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
             UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        }
    }
}
