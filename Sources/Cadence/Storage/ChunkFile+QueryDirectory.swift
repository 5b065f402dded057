//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The two layouts of a chunk file's query block directory (FORMAT.md, "Query blocks").
///
/// The first (version 5 as first released wrote it; still read) holds the block count, the group count,
/// per group its stored length, encoded length, checksum and block count, then per block its
/// encoded length as a varint. The packed one drops what the summary or the other fields already
/// give — the block count (the summary's) and each group's encoded length (the sum of its
/// blocks') — and bit-packs the block lengths, which differ little from one another: about half
/// the directory's bytes on regular data. It opens with a 0 where the first layout has the block
/// count, which is never 0 in a chunk that has blocks, so each directory says which it is.
enum QueryDirectoryLayout {
    /// A group as its directory lists it.
    struct ListedGroup {
        var storedLength: Int
        var rawLength: Int
        var checksum: UInt32
        var blockCount: Int
    }

    /// The widest bit-packed block length: more than any block's encoded length can take.
    static let maximumWidth: UInt8 = 40

    /// Writes the packed layout: `0`, the group count, per group its stored length (`varint`), the
    /// CRC-32C of its stored bytes (`UInt32`) and its block count (`varint`); then the smallest
    /// block length (`varint`), a width *w* (`UInt8`) and ⌈*n*·*w*/8⌉ bytes holding each block's
    /// length minus the smallest in *w* bits, least significant bit first.
    static func writePacked(groups: [(storedLength: Int, checksum: UInt32, blockCount: Int)], blockLengths: [Int],
                            into writer: inout BinaryWriter) {
        writer.writeVarint(0)
        writer.writeVarint(UInt64(groups.count))
        for group in groups {
            writer.writeVarint(UInt64(group.storedLength))
            writer.write(group.checksum)
            writer.writeVarint(UInt64(group.blockCount))
        }
        let minimum = blockLengths.min() ?? 0
        let spread = UInt64(blockLengths.max() ?? 0) - UInt64(minimum)
        let width = UInt8(UInt64.bitWidth - spread.leadingZeroBitCount)
        writer.writeVarint(UInt64(minimum))
        writer.write(width)
        var packed = [UInt8](repeating: 0, count: (blockLengths.count * Int(width) + 7) / 8)
        for (index, length) in blockLengths.enumerated() {
            let value = UInt64(length - minimum)
            for bit in 0..<Int(width) where value >> UInt64(bit) & 1 == 1 {
                let position = index * Int(width) + bit
                packed[position >> 3] |= 1 << UInt8(position & 7)
            }
        }
        writer.write(bytes: packed)
    }

    /// Reads a directory of either layout for a chunk of `blockCount` blocks (its summary's),
    /// checking that the groups hold every block and that nothing follows.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` for counts that do not agree, or trailing bytes.
    /// - Complexity: O(*g* + *b*) for *g* groups of *b* blocks.
    static func read(_ directory: inout BinaryReader, blockCount: Int) throws
        -> (groups: [ListedGroup], blockLengths: [Int])
    {
        let first = try directory.readVarint()
        let packed = first == 0 && blockCount > 0
        guard packed || first == UInt64(blockCount) else {
            throw directory.corrupt("the query block directory does not list one entry per block summary")
        }
        let groupCount = Int(clamping: try directory.readVarint())
        guard groupCount <= blockCount else { throw directory.corrupt("more query block groups than blocks") }
        var groups: [ListedGroup] = []
        groups.reserveCapacity(groupCount)
        var listedBlocks = 0
        for _ in 0..<groupCount {
            let storedLength = Int(clamping: try directory.readVarint())
            let rawLength = packed ? 0 : Int(clamping: try directory.readVarint())
            let checksum = try directory.read(UInt32.self)
            let count = Int(clamping: try directory.readVarint())
            guard count > 0, count <= blockCount - listedBlocks else {
                throw directory.corrupt("a query block group of \(count) blocks where \(blockCount) blocks are listed")
            }
            groups.append(ListedGroup(storedLength: storedLength, rawLength: rawLength, checksum: checksum, blockCount: count))
            listedBlocks += count
        }
        guard listedBlocks == blockCount else {
            throw directory.corrupt("the query block groups hold \(listedBlocks) of \(blockCount) blocks")
        }
        var lengths: [Int] = []
        lengths.reserveCapacity(blockCount)
        if packed {
            let minimum = try directory.readVarint()
            let width = try directory.read(UInt8.self)
            guard width <= maximumWidth, minimum <= UInt64(Int32.max) else {
                throw directory.corrupt("query block lengths of \(width) bits from \(minimum)")
            }
            let bits = Int(width)
            let packedBytes = try directory.readBytes((blockCount * bits + 7) / 8)
            let base = packedBytes.startIndex
            for index in 0..<blockCount {
                var value: UInt64 = 0
                for bit in 0..<bits {
                    let position = index * bits + bit
                    value |= UInt64(packedBytes[base + position >> 3] >> UInt8(position & 7) & 1) << UInt64(bit)
                }
                lengths.append(Int(minimum + value))
            }
            var block = 0
            for index in groups.indices {
                groups[index].rawLength = lengths[block..<block + groups[index].blockCount].reduce(0, +)
                block += groups[index].blockCount
            }
        } else {
            for _ in 0..<blockCount { lengths.append(Int(clamping: try directory.readVarint())) }
        }
        guard directory.isAtEnd else { throw directory.corrupt("trailing bytes in the query block directory") }
        return (groups, lengths)
    }
}
