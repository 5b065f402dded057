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

/// A fixed-size entry of a ``SortedRun``, ordered by its key.
protocol SortedRunEntry: Sendable {
    associatedtype Key: Comparable & Sendable
    /// The bytes of one entry in the file.
    static var byteCount: Int { get }
    /// What the run is sorted and searched by.
    var key: Key { get }
    /// The entry stored at `offset` by ``store(into:at:)``.
    init(loadingFrom bytes: UnsafeRawBufferPointer, at offset: Int)
    /// Writes the entry's ``byteCount`` bytes at `offset`.
    func store(into bytes: UnsafeMutableRawBufferPointer, at offset: Int)
}

/// Entries sorted by key, each key once, in a temporary file: what a structure of bounded memory
/// (``OccurrenceCounter``, ``UUIDSet``) moves out of memory. Immutable once written, so the copies
/// of a structure that share it never see each other's changes.
///
/// The file is unlinked as soon as it is created and lives only as the open descriptor: it goes
/// away when the run is released, and with the process if it dies, leaving nothing behind.
///
/// Memory holds the first key of each block of entries, at most ``maximumBlocks`` of them, so
/// finding a key reads one block.
///
/// - Complexity: ``entry(for:)`` is one read of a block (512 entries for runs of up to 2 M; more
///   in larger runs) and a binary search; memory is one key a block.
final class SortedRun<Entry: SortedRunEntry>: Sendable {
    /// The most blocks a run is cut into.
    static var maximumBlocks: Int { 4_096 }

    private let file: UnlinkedFile
    /// The entries in the run.
    let count: Int
    private let blockEntries: Int
    /// The first key of each block.
    private let firstKeys: [Entry.Key]

    private init(file: UnlinkedFile, count: Int, blockEntries: Int, firstKeys: [Entry.Key]) {
        self.file = file
        self.count = count
        self.blockEntries = blockEntries
        self.firstKeys = firstKeys
    }

    /// The entry with `key`, if the run holds one.
    ///
    /// - Throws: ``CadenceError`` (`io`) naming the file, when it cannot be read.
    func entry(for key: Entry.Key) throws(CadenceError) -> Entry? {
        // The last block whose first key is at most `key`.
        let block = firstKeys.partitionPoint { $0 > key } - 1
        guard block >= 0 else { return nil }
        let entries = min(blockEntries, count - block * blockEntries)
        let byteCount = entries * Entry.byteCount
        return try withUnsafeTemporaryAllocation(byteCount: byteCount, alignment: 8) { (buffer) throws(CadenceError) -> Entry? in
            try file.read(into: buffer, at: block * blockEntries * Entry.byteCount)
            let bytes = UnsafeRawBufferPointer(buffer)
            let index = (0..<entries).partitionPoint { Entry(loadingFrom: bytes, at: $0 * Entry.byteCount).key >= key }
            guard index < entries else { return nil }
            let found = Entry(loadingFrom: bytes, at: index * Entry.byteCount)
            return found.key == key ? found : nil
        }
    }

    /// Whether the run holds each of `keys` (sorted ascending), reading each block that one of
    /// them falls in once rather than once a key.
    ///
    /// - Throws: ``CadenceError`` (`io`) naming the file, when it cannot be read.
    /// - Complexity: One read of each block the keys fall in, and a binary search a key.
    func holds(sorted keys: [Entry.Key]) throws(CadenceError) -> [Bool] {
        var held = [Bool](repeating: false, count: keys.count)
        var first = 0
        while first < keys.count {
            let block = firstKeys.partitionPoint { $0 > keys[first] } - 1
            // The keys falling in this block: up to the next block's first key.
            let end = block + 1 < firstKeys.count ? keys.partitionPoint(in: first..<keys.count) { $0 >= firstKeys[block + 1] }
                : keys.count
            guard block >= 0 else {
                first = end
                continue
            }
            let entries = min(blockEntries, count - block * blockEntries)
            try withUnsafeTemporaryAllocation(byteCount: entries * Entry.byteCount, alignment: 8) { (buffer) throws(CadenceError) in
                try file.read(into: buffer, at: block * blockEntries * Entry.byteCount)
                let bytes = UnsafeRawBufferPointer(buffer)
                for index in first..<end {
                    let place = (0..<entries).partitionPoint { Entry(loadingFrom: bytes, at: $0 * Entry.byteCount).key >= keys[index] }
                    held[index] = place < entries && Entry(loadingFrom: bytes, at: place * Entry.byteCount).key == keys[index]
                }
            }
            first = end
        }
        return held
    }

    /// Writes `entries` (sorted by key, each key once) to a new run in `directory`.
    ///
    /// - Throws: ``CadenceError`` (`io`) naming the file, when it cannot be written.
    static func write(_ entries: [Entry], in directory: String) throws(CadenceError) -> SortedRun {
        var writer = try Writer(expected: entries.count, in: directory)
        for entry in entries { try writer.append(entry) }
        return try writer.finish()
    }

    /// Writes the entries of `older` and `newer` to one new run in `directory`; a key in both keeps
    /// `newer`'s entry.
    ///
    /// - Throws: ``CadenceError`` (`io`) naming the file, when a run cannot be read or written.
    static func merge(_ older: SortedRun, _ newer: SortedRun, in directory: String) throws(CadenceError) -> SortedRun {
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
        let run: SortedRun
        private var buffer: [UInt8] = []
        private var position = 0
        private var entriesRead = 0

        init(_ run: SortedRun) { self.run = run }

        mutating func next() throws(CadenceError) -> Entry? {
            guard entriesRead < run.count else { return nil }
            if position == buffer.count {
                let entries = min(4_096, run.count - entriesRead)
                buffer = try run.file.read(entries * Entry.byteCount, at: entriesRead * Entry.byteCount)
                position = 0
            }
            let entry = buffer.withUnsafeBytes { Entry(loadingFrom: $0, at: position) }
            position += Entry.byteCount
            entriesRead += 1
            return entry
        }
    }

    /// Writes a new run, entry by entry, in key order.
    private struct Writer {
        private let file: UnlinkedFile
        private let blockEntries: Int
        private var firstKeys: [Entry.Key] = []
        private var count = 0
        /// Entries not written yet: the first `used` bytes.
        private var buffer = [UInt8](repeating: 0, count: 1 << 16)
        private var used = 0

        /// Creates the file for about `expected` entries.
        init(expected: Int, in directory: String) throws(CadenceError) {
            file = try UnlinkedFile(in: directory)
            var blockEntries = 512
            while blockEntries * SortedRun.maximumBlocks < expected { blockEntries *= 2 }
            self.blockEntries = blockEntries
        }

        mutating func append(_ entry: Entry) throws(CadenceError) {
            if count % blockEntries == 0 { firstKeys.append(entry.key) }
            if used + Entry.byteCount > buffer.count { try flush() }
            buffer.withUnsafeMutableBytes { entry.store(into: $0, at: used) }
            used += Entry.byteCount
            count += 1
        }

        private mutating func flush() throws(CadenceError) {
            try file.write(buffer[..<used])
            used = 0
        }

        /// The run written.
        mutating func finish() throws(CadenceError) -> SortedRun {
            try flush()
            return SortedRun(file: file, count: count, blockEntries: blockEntries, firstKeys: firstKeys)
        }
    }
}
