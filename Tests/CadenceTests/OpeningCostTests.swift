//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Synchronization
import Testing

@testable import Cadence

/// Opening a store reads its manifest and log, whatever else it holds: no directory listing, chunk
/// list, chunk file or deletions file (unless deletions hide rows), so it costs the same at a
/// thousand samples and at a billion. What a crash left is removed before the writer first writes.
@Suite("Opening cost")
struct OpeningCostTests {
    /// A closed memory store of `count` random samples in chunks of 2, whose first 30 samples
    /// were deleted and compacted away (their records kept, hiding no row), flushed twice.
    static func store(samples count: Int) throws -> (fileSystem: MemoryFileSystem, samples: [QuantitySample]) {
        let memory = MemoryFileSystem()
        var options = HealthStore.Options()
        options.chunkCapacity = 2
        let samples = try StoreTests.randomSamples(count: count, seed: 93)
        let store = try HealthStore.open(at: "/s", options: options, fileSystem: memory)
        try store.save(samples)
        try store.flush()
        try store.deleteSamples(withUUIDs: samples.prefix(30).map(\.uuid))
        try store.compact()
        try store.close()
        return (memory, Array(samples.dropFirst(30)))
    }

    /// What a file-system call touched, by the kind of its file (numbers differ between stores).
    static func kind(of path: String) -> String {
        let name = String(path.split(separator: "/").last ?? "")
        if Manifest.chunkNumber(name) != nil { return "chunk" }
        if Manifest.chunkListNumber(name) != nil { return "list" }
        if DeletionsFile.number(ofFileNamed: name) != nil { return "deletions" }
        if WriteAheadLog.segmentNumber(name) != nil { return "log" }
        return name
    }

    /// The calls, by kind of file, that opening the store in `memory` and closing it again makes.
    static func openingCalls(_ memory: MemoryFileSystem, options: HealthStore.Options) throws -> [String] {
        let calls = Mutex<[String]>([])
        let hooked = HookedFileSystem(wrapping: memory) { operation, path in
            calls.withLock { $0.append("\(operation) \(kind(of: path))") }
        }
        try HealthStore.open(at: "/s", options: options, fileSystem: hooked).close()
        return calls.withLock { $0 }
    }

    @Test("Opening, for writing or reading, and closing make the same calls at 40 and 4,000 samples, none listing the directory or reading chunks, lists or deletions")
    func openingIgnoresTheStoresSize() throws {
        let small = try Self.store(samples: 40).fileSystem
        let large = try Self.store(samples: 4_000).fileSystem
        for options in [HealthStore.Options(), .readOnly] {
            let calls = try Self.openingCalls(small, options: options)
            #expect(calls == (try Self.openingCalls(large, options: options)))
            let touched = Set(calls.filter { $0.hasPrefix("readFile") || $0.hasPrefix("contentsOfDirectory") })
            #expect(touched.isSubset(of: ["readFile MANIFEST", "readFile log"]), "\(touched)")
        }
    }

    @Test("After an open for writing that read neither, a damaged chunk list and a damaged deletions file are found on first use and by verify, naming them")
    func damageIsFoundOnFirstUse() throws {
        let (memory, _) = try Self.store(samples: 600)
        let manifest = try Manifest(decoding: try memory.readFile("/s/MANIFEST"), path: "/s/MANIFEST", fileSystem: memory)
        let deleted = try #require(manifest.types.first { $0.deletions.file != nil })
        let deletionsPath = "/s/" + DeletionsFile.fileName(try #require(deleted.deletions.file?.number))
        let listed = try #require(manifest.types.first { $0.type != deleted.type && $0.chunks.fileNumber != nil })
        let listPath = "/s/" + Manifest.chunkListFileName(try #require(listed.chunks.fileNumber))
        for path in [deletionsPath, listPath] {
            var bytes = try memory.readFile(path)
            bytes[bytes.count - 2] ^= 0x10
            memory.overwrite(path, with: bytes)
        }
        let store = try HealthStore.open(at: "/s", options: HealthStore.Options(), fileSystem: memory)
        #expect(Set(store.verify().compactMap(\.path)) == [deletionsPath, listPath])
        let deletions = #expect(throws: CadenceError.self) {
            _ = try store.execute(AnchoredObjectQuery(quantityType: deleted.type, anchor: nil))
        }
        #expect(deletions?.code == .corruptFile)
        #expect(deletions?.path == deletionsPath)
        let list = #expect(throws: CadenceError.self) { _ = try store.execute(SampleQuery(quantityType: listed.type)) }
        #expect(list?.code == .corruptFile)
        #expect(list?.path == listPath)
        try store.close()
    }

    /// A copy of the store in `memory`, without its lock.
    static func copy(_ memory: MemoryFileSystem) throws -> MemoryFileSystem {
        let copy = MemoryFileSystem()
        try copy.createDirectory("/s")
        for name in try memory.contentsOfDirectory("/s") where name != "LOCK" {
            copy.overwrite("/s/" + name, with: try memory.readFile("/s/" + name))
        }
        return copy
    }

    /// Opens the store for writing, saves `samples`, flushes, deletes `deleting`, compacts and closes.
    static func write(_ samples: [QuantitySample], deleting: [UUID], in memory: MemoryFileSystem) throws {
        var options = HealthStore.Options()
        options.chunkCapacity = 2
        let store = try HealthStore.open(at: "/s", options: options, fileSystem: memory)
        try store.save(samples)
        try store.flush()
        try store.deleteSamples(withUUIDs: deleting)
        try store.compact()
        try store.close()
    }

    @Test("Files a crash left stay unlisted through an open and go before the first flush writes; the store then equals one that never had them")
    func leftoversGoBeforeTheFirstFlush() throws {
        let (memory, samples) = try Self.store(samples: 300)
        let reference = try Self.copy(memory)
        let manifest = try Manifest(decoding: try memory.readFile("/s/MANIFEST"), path: "/s/MANIFEST", fileSystem: memory)
        let names = Set(try memory.contentsOfDirectory("/s"))
        // A number below the next chunk number that no file has: a chunk the compaction replaced.
        let free = try #require((1..<manifest.nextChunkNumber).last { number in
            ![Manifest.chunkFileName(number), Manifest.chunkListFileName(number), DeletionsFile.fileName(number)]
                .contains(where: names.contains)
        })
        let next = manifest.nextChunkNumber
        try #require(manifest.logSegment >= 3)
        // Files replaced by a manifest but not yet removed, and those of a flush that never installed its own.
        let leftovers = [Manifest.chunkFileName(free), Manifest.chunkListFileName(free - 1), Manifest.chunkFileName(next),
                         Manifest.chunkFileName(next + 3), "MANIFEST.tmp",
                         // A retired segment a power loss kept while the one after it went.
                         WriteAheadLog.segmentName(manifest.logSegment - 3)]
        try #require(Set(leftovers).isDisjoint(with: names))
        let foreign = ["notes.txt", "chunk-12.cdc"]
        for name in leftovers + foreign { memory.overwrite("/s/" + name, with: Array("left by a crash".utf8)) }
        let retiredSegment = WriteAheadLog.segmentName(manifest.logSegment - 1)
        memory.overwrite("/s/" + retiredSegment, with: [])

        var options = HealthStore.Options()
        options.chunkCapacity = 2
        let store = try HealthStore.open(at: "/s", options: options, fileSystem: memory)
        var present = Set(try memory.contentsOfDirectory("/s"))
        #expect(!present.contains(retiredSegment))
        #expect(Set(leftovers + foreign).isSubset(of: present))
        #expect(try StoreTests.readAll(store).count == samples.count)
        try store.close()

        let added = try StoreTests.randomSamples(count: 200, seed: 94).map {
            try QuantitySample(type: $0.quantityType, value: $0.value, start: $0.startDate.addingTimeInterval(86_400 * 400),
                               end: $0.endDate.addingTimeInterval(86_400 * 400), source: $0.source)
        }
        let deleting = Array((samples.prefix(20) + added.prefix(10)).map(\.uuid))
        try Self.write(added, deleting: deleting, in: memory)
        try Self.write(added, deleting: deleting, in: reference)
        present = Set(try memory.contentsOfDirectory("/s"))
        #expect(present.isDisjoint(with: leftovers), "\(present.intersection(leftovers))")
        #expect(Set(foreign).isSubset(of: present))
        #expect(present.subtracting(foreign) == Set(try reference.contentsOfDirectory("/s")))
        for name in present.subtracting(foreign) where name != "LOCK" {
            #expect(try memory.readFile("/s/" + name) == reference.readFile("/s/" + name), "\(name)")
        }
        let reopened = try HealthStore.open(at: "/s", options: .readOnly, fileSystem: memory)
        let expected = Set(samples.map(\.uuid) + added.map(\.uuid)).subtracting(deleting)
        #expect(Set(try StoreTests.readAll(reopened).keys) == expected)
        #expect(reopened.verify().isEmpty)
    }

    @Test("A file's number is read exactly when the name is the one Cadence gives that number, as a round trip decides")
    func fileNumbersReadAsTheirNames() {
        var random = TestRandom(seed: 95)
        let pieces = ["0", "1", "9", "00", "٣", "x", "-", ".", "\u{301}", "18446744073709551615", "18446744073709551616"]
        for attempt in 0..<20_000 {
            var digits = String(UInt64.random(in: 0...(attempt % 2 == 0 ? 99_999 : .max), using: &random))
            if digits.count < 10 { digits = String(repeating: "0", count: 10 - digits.count) + digits }
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                let piece = pieces[Int.random(in: 0..<pieces.count, using: &random)]
                let offset = Int.random(in: 0...digits.count, using: &random)
                if Bool.random(using: &random) {
                    digits.insert(contentsOf: piece, at: digits.index(digits.startIndex, offsetBy: offset))
                } else if offset < digits.count {
                    digits.remove(at: digits.index(digits.startIndex, offsetBy: offset))
                }
            }
            let name = "chunk-" + digits + ".cdc"
            let expected = UInt64(digits).flatMap { Manifest.chunkFileName($0) == name ? $0 : nil }
            #expect(Manifest.chunkNumber(name) == expected, "\(name)")
        }
    }
}
