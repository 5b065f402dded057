//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The metadata sets of a chunk file of version 7 on, in a section after the detail section:
/// consecutive sets compressed together in groups of bounded size, so that listing a few rows
/// decompresses the groups that hold their sets, not every row's metadata. A stored workout's
/// attributes are about a kilobyte of metadata: a month of them had to decompress the whole
/// chunk's (over a megabyte) when the sets lay inside the detail section.
///
/// Layout (FORMAT.md, "Metadata set groups"): a checksummed directory — the group count, then per
/// group its set count, stored length and encoded length (varints) and the CRC-32C of its stored
/// bytes — then each group's stored bytes: an LZ4 block of its sets one after another (each a
/// count of pairs, then key and value strings, keys ascending), or those bytes themselves when
/// LZ4 does not make them smaller.
package struct MetadataSetGroups: Sendable {
    /// One group of consecutive sets.
    struct Group: Sendable {
        /// The number of its first set.
        let firstSet: Int
        /// The number of sets in it.
        let setCount: Int
        /// Its stored bytes in the file.
        let stored: Range<Int>
        /// The length of its encoded sets.
        let rawLength: Int
        /// The CRC-32C of its stored bytes.
        let checksum: UInt32

        var isCompressed: Bool { stored.count != rawLength }
    }

    /// The groups, in set order.
    let groups: [Group]

    /// The most encoded bytes of a group (a single larger set is a group of its own). LZ4 matches
    /// at most 64 KiB back, so larger groups would compress little better and cost a short
    /// listing more.
    static let groupBytes = 64 << 10

    /// The total number of sets.
    var setCount: Int { groups.last.map { $0.firstSet + $0.setCount } ?? 0 }

    /// Appends the section holding `sets`, in groups of at most ``groupBytes`` and `limit` encoded
    /// bytes.
    ///
    /// - Throws: ``SectionOverLimit`` when one set alone is over `limit` (the caller splits the rows).
    /// - Complexity: O(*n*) in the sets' bytes.
    static func write(_ sets: [[String: String]], limit: Int, into writer: inout BinaryWriter) throws {
        let bound = min(groupBytes, limit)
        var encoded: [[UInt8]] = []
        var counts: [Int] = []
        var group = BinaryWriter()
        var inGroup = 0
        for set in sets {
            var one = BinaryWriter()
            ColumnCodec.writeMetadataSet(set, into: &one)
            if inGroup > 0 && group.bytes.count + one.bytes.count > bound {
                encoded.append(group.bytes)
                counts.append(inGroup)
                group = BinaryWriter()
                inGroup = 0
            }
            group.write(bytes: try SectionOverLimit.check(one.bytes, limit: limit))
            inGroup += 1
        }
        if inGroup > 0 {
            encoded.append(group.bytes)
            counts.append(inGroup)
        }
        let stored = try encoded.map { raw in
            let compressed = try raw.withUnsafeBytes { try LZ4Codec.compress($0) }
            return compressed.count < raw.count ? compressed : raw
        }
        var directory = BinaryWriter(capacity: 16 + stored.count * 12)
        directory.writeVarint(UInt64(stored.count))
        for (index, bytes) in stored.enumerated() {
            directory.writeVarint(UInt64(counts[index]))
            directory.writeVarint(UInt64(bytes.count))
            directory.writeVarint(UInt64(encoded[index].count))
            directory.write(bytes.withUnsafeBytes { CRC32C.checksum($0) })
        }
        ChecksummedSection.write(directory.bytes, into: &writer)
        for bytes in stored { writer.write(bytes: bytes) }
    }

    /// Reads the section's directory, checking its checksum, and steps over the groups.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming the file when the directory is damaged
    ///   or describes more bytes than the file holds.
    init(reading reader: inout BinaryReader) throws {
        var directory = BinaryReader(Array(try ChecksummedSection.read(&reader, name: "metadata set directory")),
                                     path: reader.path)
        let count = try directory.readCount(minimumItemSize: 7)
        var groups: [Group] = []
        groups.reserveCapacity(count)
        var offset = reader.offset
        let end = reader.offset + reader.remaining
        var firstSet = 0
        for index in 0..<count {
            let setCount = Int(clamping: try directory.readVarint())
            let storedLength = Int(clamping: try directory.readVarint())
            let rawLength = Int(clamping: try directory.readVarint())
            let checksum = try directory.read(UInt32.self)
            // A group is stored raw when LZ4 does not shrink it, LZ4 expands at most 255 times, and
            // a set takes at least a byte.
            guard setCount > 0, setCount <= rawLength, storedLength > 0, storedLength <= end - offset, rawLength >= storedLength,
                  rawLength <= storedLength * LZ4Codec.maximumExpansion + 16 else {
                throw directory.corrupt("metadata set group \(index) is out of bounds")
            }
            groups.append(Group(firstSet: firstSet, setCount: setCount, stored: offset..<offset + storedLength,
                                rawLength: rawLength, checksum: checksum))
            firstSet += setCount
            offset += storedLength
        }
        guard directory.isAtEnd else { throw directory.corrupt("the metadata set directory has trailing bytes") }
        _ = try reader.readBytes(offset - reader.offset)
        self.groups = groups
    }

    /// The groups that hold the sets numbered `sets` (ascending), in order.
    ///
    /// - Complexity: O(*k* log *g*) for *k* sets among *g* groups.
    func groups<Sets: Sequence<Int>>(holding sets: Sets) -> [Int] {
        var found: [Int] = []
        for set in sets {
            if let last = found.last, set < groups[last].firstSet + groups[last].setCount { continue }
            let group = groups.partitionPoint { $0.firstSet + $0.setCount > set }
            if group < groups.count, found.last != group { found.append(group) }
        }
        return found
    }

    /// Decodes group `number` of the file `bytes` into `sets` (as long as ``setCount``), checking
    /// its checksum unless `isChecked`.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming the file and the group when it fails its
    ///   checksum or does not decode.
    func decode(group number: Int, of bytes: [UInt8], path: String, isChecked: Bool,
                into sets: inout [[String: String]]) throws {
        let group = groups[number]
        let stored = bytes[group.stored]
        guard isChecked || stored.withUnsafeBytes({ CRC32C.checksum($0) }) == group.checksum else {
            throw CadenceError(.corruptFile, "metadata set group \(number) fails its checksum", path: path)
        }
        let raw = group.isCompressed ? try LZ4Codec.decompress(stored, decompressedCount: group.rawLength, path: path)
            : Array(stored)
        var reader = BinaryReader(raw, path: path)
        for set in group.firstSet..<group.firstSet + group.setCount {
            sets[set] = try ColumnCodec.readMetadataSet(&reader)
        }
        guard reader.isAtEnd else { throw reader.corrupt("metadata set group \(number) has trailing bytes") }
    }
}
