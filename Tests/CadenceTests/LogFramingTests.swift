//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// A log record's framing proves itself: a torn append and a damaged record are told apart by the
/// header checksum, not by where they sit, and only repair cuts a record that may have been
/// acknowledged.
@Suite("Log framing")
struct LogFramingTests {
    /// A memory store whose log holds `saves` unflushed saves and one delete, left without
    /// closing as after a crash, with the samples of each save.
    static func store(saves: Int = 2) throws -> (fileSystem: MemoryFileSystem, logPath: String, saved: [[QuantitySample]]) {
        let memory = MemoryFileSystem()
        var saved: [[QuantitySample]] = []
        do {
            let store = try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: memory)
            for index in 0..<saves {
                let batch = try StoreTests.randomSamples(count: 6, seed: 300 + UInt64(index))
                try store.save(batch)
                saved.append(batch)
            }
            let doomed = try StoreTests.randomSamples(count: 1, seed: 399)
            try store.save(doomed)
            _ = try store.deleteSamples(withUUIDs: doomed.map(\.uuid))
        }
        let log = try #require(try memory.contentsOfDirectory("/s").first { $0.hasSuffix(".log") })
        return (memory, "/s/" + log, saved)
    }

    /// The offsets where the records of a segment start, and its length.
    static func recordStarts(_ bytes: [UInt8]) throws -> [Int] {
        var starts: [Int] = []
        var offset = 0
        while offset < bytes.count {
            guard case .record(_, let end) = WriteAheadLog.frame(at: offset, in: bytes, path: "log") else {
                Issue.record("no record at \(offset)")
                return starts
            }
            starts.append(offset)
            offset = end
        }
        return starts
    }

    /// A copy of `memory`'s store, without its lock.
    static func copy(_ memory: MemoryFileSystem, replacing path: String, with bytes: [UInt8]) throws -> MemoryFileSystem {
        let copy = MemoryFileSystem()
        try copy.createDirectory("/s")
        for name in try memory.contentsOfDirectory("/s") where name != "LOCK" {
            copy.overwrite("/s/" + name, with: try memory.readFile("/s/" + name))
        }
        copy.overwrite(path, with: bytes)
        return copy
    }

    @Test("Every bit of every record header, flipped alone, is damage: verify reports it with the records behind it, writers refuse, repair cuts and counts")
    func everyHeaderBitFlip() throws {
        let (memory, logPath, _) = try Self.store()
        let original = try memory.readFile(logPath)
        let starts = try Self.recordStarts(original)
        try #require(starts.count == 4)
        for (index, start) in starts.enumerated() {
            let behind = starts.count - index
            for bit in 0..<(WriteAheadLog.headerSize * 8) {
                var bytes = original
                bytes[start + bit / 8] ^= UInt8(1) << UInt8(bit % 8)
                let place = "record \(index), bit \(bit)"
                guard case .damaged(let error, _, let records) = WriteAheadLog.readSegment(bytes, path: logPath).ending else {
                    Issue.record("\(place): not damage")
                    continue
                }
                #expect(records == behind, "\(place)")
                #expect(error.message.contains("\(records) record\(records == 1 ? "" : "s") (\(bytes.count - start) bytes)"), "\(place): \(error.message)")
                guard case .failure = WriteAheadLog.inspectTail(bytes, path: logPath) else {
                    Issue.record("\(place): verify calls it a torn append")
                    continue
                }

                let damaged = try Self.copy(memory, replacing: logPath, with: bytes)
                for options in [HealthStore.Options(), HealthStore.Options.readOnly] {
                    let refused = #expect(throws: CadenceError.self, "\(place)") {
                        _ = try HealthStore.open(at: "/s", options: options, fileSystem: damaged)
                    }
                    #expect(refused?.code == .corruptFile && refused?.message.contains("repair") == true, "\(place)")
                }
                #expect(try damaged.readFile(logPath) == bytes, "\(place): a writer cut the log")

                let report = try HealthStore.repair(at: "/s", fileSystem: damaged)
                #expect(report.logRecordsLost == behind, "\(place)")
                #expect(try damaged.readFile(logPath) == Array(original[..<start]), "\(place)")
            }
        }
    }

    @Test("A log cut at every byte of its last record is a torn append: noted, not damage, and cut by a writer alone")
    func tornAtEveryOffset() throws {
        let (memory, logPath, saved) = try Self.store(saves: 2)
        let full = try memory.readFile(logPath)
        let last = try #require(try Self.recordStarts(full).last)
        let expected = try StoreTests.readAll(HealthStore.open(at: "/s", options: .readOnly, fileSystem: memory))
        for cut in last..<full.count {
            let bytes = Array(full[..<cut])
            let torn = try Self.copy(memory, replacing: logPath, with: bytes)
            #expect(try WriteAheadLog.inspectTail(bytes, path: logPath).get() == cut - last, "cut at \(cut)")
            let reader = try HealthStore.open(at: "/s", options: .readOnly, fileSystem: torn)
            #expect(reader.verify().isEmpty, "cut at \(cut)")
            #expect(try reader.info().unfinishedLogBytes == cut - last, "cut at \(cut)")
            #expect(try HealthStore.repair(at: "/s", fileSystem: torn).wasIntact, "cut at \(cut)")
            // The delete was torn away: the sample it deleted is back, every save is there.
            let reopened = try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: torn)
            let all = try StoreTests.readAll(reopened)
            #expect(Set(all.keys).isSuperset(of: expected.keys) && all.count == expected.count + 1, "cut at \(cut)")
            #expect(Set(saved.joined().map(\.uuid)).isSubset(of: all.keys), "cut at \(cut)")
            #expect(try torn.readFile(logPath).count == last, "cut at \(cut)")
        }
    }

    @Test("A damaged length in the first of two saves: every open refuses, the log stays whole, and repair says it cut two records")
    func damagedLength() throws {
        let memory = MemoryFileSystem()
        do {
            let store = try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: memory)
            try store.save(try StoreTests.randomSamples(count: 5, seed: 1))
            try store.save(try StoreTests.randomSamples(count: 5, seed: 2))
        }
        let logPath = try "/s/" + #require(try memory.contentsOfDirectory("/s").first { $0.hasSuffix(".log") })
        var bytes = try memory.readFile(logPath)
        bytes[5] ^= 0x01  // bit 8 of the first record's length
        memory.overwrite(logPath, with: bytes)
        let refused = #expect(throws: CadenceError.self) {
            _ = try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: memory)
        }
        #expect(refused?.message.contains("2 records") == true, "\(refused?.message ?? "")")
        #expect(try memory.readFile(logPath) == bytes)
        let report = try HealthStore.repair(at: "/s", fileSystem: memory)
        #expect(report.logRecordsLost == 2 && !report.wasIntact)
        #expect(try StoreTests.readAll(HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: memory)).isEmpty)
    }

    @Test("A complete last record whose payload fails its checksum is damage a writer refuses, not a tear it cuts")
    func damagedLastPayload() throws {
        let (memory, logPath, _) = try Self.store()
        var bytes = try memory.readFile(logPath)
        bytes[bytes.count - 1] ^= 0x10
        memory.overwrite(logPath, with: bytes)
        #expect(throws: CadenceError.self) {
            _ = try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: memory)
        }
        #expect(try memory.readFile(logPath) == bytes)
        #expect(try HealthStore.repair(at: "/s", fileSystem: memory).logRecordsLost == 1)
    }

    /// `segment` with every record reframed as format version 3 wrote it: `magic · length · CRC-32C · payload`.
    static func legacyFraming(_ segment: [UInt8]) throws -> [UInt8] {
        var legacy = BinaryWriter()
        for start in try recordStarts(segment) {
            var header = BinaryReader(segment, path: "log")
            _ = try header.readBytes(start + 4)
            let length: UInt32 = try header.read()
            let checksum: UInt32 = try header.read()
            legacy.write(WriteAheadLog.legacyRecordMagic)
            legacy.write(length)
            legacy.write(checksum)
            let payload = start + WriteAheadLog.headerSize
            legacy.write(bytes: Array(segment[payload..<payload + Int(length)]))
        }
        return legacy.bytes
    }

    /// `manifest` (of a store without deletions) as format version 3 wrote it: a count of deletion
    /// records (0) in the body where the current version counts the types' deletions files (0),
    /// so only the version changes.
    static func legacyManifest(_ manifest: [UInt8]) throws -> [UInt8] {
        var reader = BinaryReader(manifest, path: "MANIFEST")
        _ = try reader.readBytes(Manifest.magic.count + 2)
        let body = try ChecksummedSection.read(&reader, name: "manifest body")
        #expect(body.last == 0)
        var writer = BinaryWriter()
        writer.write(bytes: Manifest.magic)
        writer.write(UInt16(3))
        ChecksummedSection.write(Array(body), into: &writer)
        return writer.bytes
    }

    @Test("A version 3 store's log, without header checksums, replays; a writer moves the store to version 4 and appends after it")
    func legacyLogReplays() throws {
        let (memory, logPath, saved) = try Self.store()
        let expected = try StoreTests.readAll(HealthStore.open(at: "/s", options: .readOnly, fileSystem: memory))
        let legacy = try Self.legacyFraming(try memory.readFile(logPath))
        let manifest = try Self.legacyManifest(try memory.readFile("/s/MANIFEST"))
        let old = try Self.copy(memory, replacing: logPath, with: legacy)
        old.overwrite("/s/MANIFEST", with: manifest)
        let version = {
            try FormatVersion.readHeader(try old.readFile("/s/MANIFEST"), magic: Manifest.magic, kind: "store manifest", path: "/s").version
        }

        let reader = try HealthStore.open(at: "/s", options: .readOnly, fileSystem: old)
        #expect(try StoreTests.readAll(reader) == expected)
        #expect(reader.verify().isEmpty)
        #expect(try version() == 3)

        // A legacy tail cut short is still a torn append.
        let torn = try Self.copy(old, replacing: logPath, with: Array(legacy.dropLast(3)))
        #expect(try WriteAheadLog.inspectTail(try torn.readFile(logPath), path: logPath).get() > 0)

        let extra = try StoreTests.randomSamples(count: 4, seed: 500)
        do {
            let writer = try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: old)
            #expect(try version() == FormatVersion.current)
            try writer.save(extra)
        }
        let mixed = try old.readFile(logPath)
        #expect(Array(mixed.prefix(legacy.count)) == legacy)
        let reopened = try StoreTests.readAll(HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: old))
        #expect(reopened.count == expected.count + extra.count)
        #expect(Set(saved.joined().map(\.uuid)).union(extra.map(\.uuid)).isSubset(of: reopened.keys))
    }

    @Test("Repair of a directory that is not a store, or an empty one, leaves nothing behind", arguments: [true, false])
    func repairLeavesNoLock(empty: Bool) throws {
        let path = StoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        if !empty { try Data("notes".utf8).write(to: URL(fileURLWithPath: path + "/notes.txt")) }
        let error = #expect(throws: CadenceError.self) { _ = try HealthStore.repair(at: path) }
        #expect(error?.code == .notFound)
        #expect(try FileManager.default.contentsOfDirectory(atPath: path) == (empty ? [] : ["notes.txt"]))
    }
}
