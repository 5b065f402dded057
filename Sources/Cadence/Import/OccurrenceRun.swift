//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keys and their counts, sorted by key, in a temporary file: what ``OccurrenceCounter`` moves out
/// of memory. Immutable once written, so counters that share it (copies of one counter) never
/// see each other's changes.
///
/// The file is unlinked as soon as it is created and lives only as the open descriptor: it goes
/// away when the run is released, and with the process if it dies, leaving nothing behind.
///
/// Each entry takes 12 bytes (the key, then the count, both little-endian). Memory holds the first
/// key of each block of entries, at most ``maximumBlocks`` of them, so finding a key reads one block.
///
/// - Complexity: ``count(of:)`` is one read of a block (512 entries, 6 KiB, for runs of up to 2 M
///   keys; more in larger runs) and a binary search; memory is at most 8 bytes a block.
final class OccurrenceRun: Sendable {
    /// The bytes of one entry.
    static let entryBytes = 12
    /// The most blocks a run is cut into: its index in memory is at most 8 times this in bytes.
    static let maximumBlocks = 4_096

    private let file: UnlinkedFile
    /// The entries in the run.
    let count: Int
    private let blockEntries: Int
    /// The first key of each block.
    private let firstKeys: [UInt64]

    fileprivate init(file: UnlinkedFile, count: Int, blockEntries: Int, firstKeys: [UInt64]) {
        self.file = file
        self.count = count
        self.blockEntries = blockEntries
        self.firstKeys = firstKeys
    }

    /// The count stored for `key`, if the run holds it.
    ///
    /// - Throws: ``CadenceError`` (`io`) naming the file, when it cannot be read.
    func count(of key: UInt64) throws(CadenceError) -> UInt32? {
        // The last block whose first key is at most `key`.
        var low = 0
        var high = firstKeys.count
        while low < high {
            let middle = (low + high) / 2
            if firstKeys[middle] <= key { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let block = low - 1
        let entries = min(blockEntries, count - block * blockEntries)
        let byteCount = entries * Self.entryBytes
        return try withUnsafeTemporaryAllocation(byteCount: byteCount, alignment: 8) { (buffer) throws(CadenceError) -> UInt32? in
            try file.read(into: buffer, at: block * blockEntries * Self.entryBytes)
            var low = 0
            var high = entries
            while low < high {
                let middle = (low + high) / 2
                let found = buffer.loadUnaligned(fromByteOffset: middle * Self.entryBytes, as: UInt64.self).littleEndian
                if found == key {
                    return buffer.loadUnaligned(fromByteOffset: middle * Self.entryBytes + 8, as: UInt32.self).littleEndian
                }
                if found < key { low = middle + 1 } else { high = middle }
            }
            return nil
        }
    }

    /// Writes `entries` (sorted by key, each key once) to a new run in `directory`.
    ///
    /// - Throws: ``CadenceError`` (`io`) naming the file, when it cannot be written.
    static func write(_ entries: [KeyCountTable.Entry], in directory: String) throws(CadenceError) -> OccurrenceRun {
        var writer = try Writer(expected: entries.count, in: directory)
        for entry in entries { try writer.append(entry) }
        return try writer.finish()
    }

    /// Writes the entries of `older` and `newer` to one new run in `directory`; a key in both keeps
    /// `newer`'s count.
    ///
    /// - Throws: ``CadenceError`` (`io`) naming the file, when a run cannot be read or written.
    static func merge(_ older: OccurrenceRun, _ newer: OccurrenceRun, in directory: String) throws(CadenceError) -> OccurrenceRun {
        var writer = try Writer(expected: older.count + newer.count, in: directory)
        var olderEntries = Reader(older)
        var newerEntries = Reader(newer)
        var left = try olderEntries.next()
        var right = try newerEntries.next()
        while let entry = left ?? right {
            if let olderEntry = left, let newerEntry = right {
                if olderEntry.key < newerEntry.key {
                    try writer.append(olderEntry)
                    left = try olderEntries.next()
                } else {
                    try writer.append(newerEntry)
                    if olderEntry.key == newerEntry.key { left = try olderEntries.next() }
                    right = try newerEntries.next()
                }
            } else {
                try writer.append(entry)
                if left != nil { left = try olderEntries.next() } else { right = try newerEntries.next() }
            }
        }
        return try writer.finish()
    }

    /// Reads a run's entries in order.
    private struct Reader {
        let run: OccurrenceRun
        private var buffer: [UInt8] = []
        private var position = 0
        private var entriesRead = 0

        init(_ run: OccurrenceRun) { self.run = run }

        mutating func next() throws(CadenceError) -> KeyCountTable.Entry? {
            guard entriesRead < run.count else { return nil }
            if position == buffer.count {
                let entries = min(4_096, run.count - entriesRead)
                buffer = try run.file.read(entries * OccurrenceRun.entryBytes, at: entriesRead * OccurrenceRun.entryBytes)
                position = 0
            }
            let entry = buffer.withUnsafeBytes { bytes in
                KeyCountTable.Entry(key: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self).littleEndian,
                                    count: bytes.loadUnaligned(fromByteOffset: position + 8, as: UInt32.self).littleEndian)
            }
            position += OccurrenceRun.entryBytes
            entriesRead += 1
            return entry
        }
    }

    /// Writes a new run, entry by entry, in key order.
    private struct Writer {
        private let file: UnlinkedFile
        private let blockEntries: Int
        private var firstKeys: [UInt64] = []
        private var count = 0
        /// Entries not written yet: the first `used` bytes.
        private var buffer = [UInt8](repeating: 0, count: 1 << 16)
        private var used = 0

        /// Creates the file for about `expected` entries.
        init(expected: Int, in directory: String) throws(CadenceError) {
            file = try UnlinkedFile(in: directory)
            var blockEntries = 512
            while blockEntries * OccurrenceRun.maximumBlocks < expected { blockEntries *= 2 }
            self.blockEntries = blockEntries
        }

        mutating func append(_ entry: KeyCountTable.Entry) throws(CadenceError) {
            if count % blockEntries == 0 { firstKeys.append(entry.key) }
            if used + OccurrenceRun.entryBytes > buffer.count { try flush() }
            buffer.withUnsafeMutableBytes { bytes in
                bytes.storeBytes(of: entry.key.littleEndian, toByteOffset: used, as: UInt64.self)
                bytes.storeBytes(of: entry.count.littleEndian, toByteOffset: used + 8, as: UInt32.self)
            }
            used += OccurrenceRun.entryBytes
            count += 1
        }

        private mutating func flush() throws(CadenceError) {
            try file.write(buffer[..<used])
            used = 0
        }

        /// The run written.
        mutating func finish() throws(CadenceError) -> OccurrenceRun {
            try flush()
            return OccurrenceRun(file: file, count: count, blockEntries: blockEntries, firstKeys: firstKeys)
        }
    }
}
