//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Testing
@testable import Cadence

/// Version 5 chunk files store the query columns per block, in compression groups of
/// consecutive blocks: any blocks decode alike however they are asked for, the older one-section
/// layout still reads the same, damage to one group is found and named, and statistics over such
/// chunks agree with the naive reference.
@Suite("Chunk blocks")
struct ChunkBlockTests {
    /// Where the parts of a chunk file of version 7 lie, read from FORMAT.md's layout (not by
    /// ``ChunkFile``), so that tests can damage one part.
    struct Layout {
        /// The summary section, with its framing.
        var summary: Range<Int>
        /// The query block directory section, with its framing.
        var directory: Range<Int>
        /// Each compression group's stored bytes, with the blocks it holds.
        var groups: [(stored: Range<Int>, blocks: Range<Int>)]
        /// The detail section, from its uncompressed length on.
        var detail: Range<Int>
        /// The metadata set groups (version 7 on): their directory section, then their stored bytes.
        var metadataSets: Range<Int>
        /// The encoded length of each metadata set group.
        var metadataSetGroupLengths: [Int]

        init(_ bytes: [UInt8]) throws {
            func uint32(at offset: Int) -> Int { bytes[offset..<offset + 4].reversed().reduce(0) { $0 << 8 | Int($1) } }
            summary = 10..<18 + uint32(at: 10)
            directory = summary.upperBound..<summary.upperBound + 8 + uint32(at: summary.upperBound)
            var reader = BinaryReader(Array(bytes[directory.lowerBound + 8..<directory.upperBound]), path: "layout")
            var offset = directory.upperBound
            var block = 0
            // The packed directory opens with 0 and lists no group's encoded length.
            let packed = try reader.readVarint() == 0
            groups = []
            for _ in 0..<(try reader.readVarint()) {
                let stored = Int(try reader.readVarint())
                if !packed { _ = try reader.readVarint() }
                _ = try reader.read(UInt32.self)
                let count = Int(try reader.readVarint())
                groups.append((offset..<offset + stored, block..<block + count))
                offset += stored
                block += count
            }
            detail = offset..<offset + 12 + uint32(at: offset + 4)
            let setDirectory = detail.upperBound..<detail.upperBound + 8 + uint32(at: detail.upperBound)
            var sets = BinaryReader(Array(bytes[setDirectory.lowerBound + 8..<setDirectory.upperBound]), path: "layout")
            var stored = 0
            metadataSetGroupLengths = []
            for _ in 0..<(try sets.readVarint()) {
                _ = try sets.readVarint()
                stored += Int(try sets.readVarint())
                metadataSetGroupLengths.append(Int(try sets.readVarint()))
                _ = try sets.read(UInt32.self)
            }
            metadataSets = setDirectory.lowerBound..<setDirectory.upperBound + stored
        }
    }

    /// The same columns as a version 4 chunk file: the query columns one compressed section.
    /// The columns must have no device addresses (version 4 had none).
    static func versionFourChunk(_ columns: SampleColumns, typeIdentifier: String = "HKQuantityTypeIdentifierHeartRate",
                                 style: AggregationStyle = .discreteArithmetic) throws -> [UInt8] {
        let current = try ChunkFile.encode(columns, typeIdentifier: typeIdentifier, style: style)
        let layout = try Layout(current.bytes)
        var writer = BinaryWriter()
        writer.write(bytes: Array(current.bytes[0..<8]))
        writer.write(UInt16(4))
        writer.write(bytes: Array(current.bytes[layout.summary]))
        try ChecksummedSection.writeCompressed(ColumnCodec.encodeQueryColumns(columns), into: &writer)
        // Version 4's detail columns end before the device addresses' present flag (0 here:
        // these columns have no addresses), and no payload section follows them.
        try ChecksummedSection.writeCompressed(Array(ColumnCodec.encodeDetailColumns(columns).dropLast()), into: &writer)
        return writer.bytes
    }

    static func encode(_ columns: SampleColumns) throws -> [UInt8] {
        try ChunkFile.encode(columns, typeIdentifier: "HKQuantityTypeIdentifierHeartRate", style: .discreteArithmetic).bytes
    }

    @Test("A new chunk file is of the current version, its groups covering the block summaries in order within the bound, the payload section last")
    func layout() throws {
        let columns = ColumnCodecTests.randomColumns(count: 40_000, seed: 21).sortedByStart()
        let bytes = try Self.encode(columns)
        let file = try ChunkFile(bytes: bytes, path: "chunk")
        let layout = try Layout(bytes)
        #expect(file.version == FormatVersion.current)
        #expect(file.blocks.count > 2 && layout.groups.count > 1)
        #expect(layout.groups.map(\.blocks.lowerBound) == [0] + layout.groups.dropLast().map(\.blocks.upperBound))
        #expect(layout.groups.last?.blocks.upperBound == file.blocks.count)
        #expect(layout.groups.allSatisfy { $0.blocks.count <= ChunkFile.QueryGroupBound.standard.blocks })
        var rest = BinaryReader(bytes, path: "chunk", range: layout.metadataSets.upperBound..<bytes.count)
        #expect(try PayloadSection.skip(&rest) == layout.metadataSets.upperBound..<bytes.count)
        #expect(rest.isAtEnd)
    }

    @Test("Blocks are grouped in order, each group within the bound unless one block alone exceeds it",
          arguments: [UInt64(1), 2, 3, 4])
    func groupsWithinBound(seed: UInt64) {
        var random = TestRandom(seed: seed)
        let bound = ChunkFile.QueryGroupBound(blocks: Int.random(in: 1...6, using: &random), bytes: Int.random(in: 1...3_000, using: &random))
        let lengths = (0..<Int.random(in: 0...60, using: &random)).map { _ in Int.random(in: 1...1_200, using: &random) }
        let groups = bound.groups(lengths)
        #expect(groups.flatMap { Array($0) } == Array(lengths.indices))
        for (index, group) in groups.enumerated() {
            #expect(!group.isEmpty && group.count <= bound.blocks)
            let bytes = lengths[group].reduce(0, +)
            #expect(group.count == 1 || bytes <= bound.bytes)
            // Greedy: the next block would not have fitted.
            if index + 1 < groups.count {
                #expect(group.count == bound.blocks || bytes + lengths[group.upperBound] > bound.bytes)
            }
        }
    }

    @Test("Any blocks, in any order and repeated, decode as the same rows of the whole chunk, in version 5 and version 4",
          arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func blocksDecodeAsTheWhole(seed: UInt64) throws {
        var random = TestRandom(seed: seed &* 31)
        let columns = ColumnCodecTests.randomColumns(count: Int.random(in: 1...9_000, using: &random), seed: seed).sortedByStart()
        for bytes in [try Self.encode(columns), try Self.versionFourChunk(columns)] {
            let file = try ChunkFile(bytes: bytes, path: "chunk")
            var whole = SampleColumns()
            try file.decodeQueryColumns(into: &whole)
            #expect(whole.start == columns.start && whole.end == columns.end && whole.sequence == columns.sequence)
            #expect(whole.value.map(\.bitPattern) == columns.value.map(\.bitPattern) && whole.provenance == columns.provenance)
            for _ in 0..<10 {
                let chosen = (0..<Int.random(in: 1...6, using: &random)).map { _ in Int.random(in: 0..<file.blocks.count, using: &random) }
                let needs: ColumnCodec.QueryColumnNeeds = Bool.random(using: &random) ? .all : []
                var part = SampleColumns()
                try file.decodeQueryBlocks(chosen, needs: needs, into: &part)
                let rows = chosen.flatMap { file.blockRows[$0] }
                let context = Comment(rawValue: "version \(file.version), blocks \(chosen)")
                #expect(part.start == rows.map { whole.start[$0] } && part.end == rows.map { whole.end[$0] }, context)
                #expect(part.value.map(\.bitPattern) == rows.map { whole.value[$0].bitPattern }, context)
                // Flags are left empty when no decoded block has one.
                let flags = part.flags.isEmpty ? [UInt8](repeating: 0, count: rows.count) : part.flags
                #expect(flags == rows.map { whole.flags.isEmpty ? 0 : whole.flags[$0] }, context)
                if needs == .all {
                    #expect(part.provenance == rows.map { whole.provenance[$0] }, context)
                    #expect(part.sequence == rows.map { whole.sequence[$0] }, context)
                }
            }
        }
    }

    @Test("A flipped byte in one group's stored bytes fails the blocks of that group, naming the file, and no other")
    func damagedGroup() throws {
        let columns = ColumnCodecTests.randomColumns(count: 40_000, seed: 33).sortedByStart()
        var bytes = try Self.encode(columns)
        let layout = try Layout(bytes)
        try #require(layout.groups.count > 1)
        let damaged = layout.groups.count / 2
        let group = layout.groups[damaged]
        bytes[group.stored.lowerBound + group.stored.count / 2] ^= 0x10
        let file = try ChunkFile(bytes: bytes, path: "chunk-damaged")
        var decoded = SampleColumns()
        for block in [group.blocks.lowerBound, group.blocks.upperBound - 1] {
            let error = #expect(throws: CadenceError.self) { try file.decodeQueryBlocks([block], into: &decoded) }
            #expect(error?.code == .corruptFile && error?.path == "chunk-damaged")
            #expect(error?.message.contains("query block group \(damaged)") == true, "\(String(describing: error))")
        }
        let others = file.blocks.indices.filter { !group.blocks.contains($0) }
        decoded = SampleColumns()
        try file.decodeQueryBlocks(others, into: &decoded)
        #expect(decoded.start == others.flatMap { file.blockRows[$0] }.map { columns.start[$0] })
        #expect(throws: CadenceError.self) { try file.verify() }
        #expect(throws: CadenceError.self) { try file.decodeQueryColumns(into: &decoded) }
    }

    @Test("Groups of one block, groups stored raw and groups past the byte bound decode as the whole chunk")
    func groupBounds() throws {
        let columns = ColumnCodecTests.randomColumns(count: 20_000, seed: 36).sortedByStart()
        let encoded = ColumnCodec.blockBoundaries(columns).map { ColumnCodec.encodeQueryBlock(columns, rows: $0) }
        let original = try Self.encode(columns)
        let originalLayout = try Layout(original)
        let reference = try ChunkFile(bytes: original, path: "chunk")
        var whole = SampleColumns()
        try reference.decodeQueryColumns(into: &whole)
        // Random bytes do not compress, so those groups are stored as they are.
        var random = TestRandom(seed: 36)
        let incompressible = (0..<3).map { _ in (0..<40).map { _ in UInt8.random(in: 0...255, using: &random) } }
        for bound in [ChunkFile.QueryGroupBound(blocks: 1, bytes: 1 << 20), .init(blocks: 3, bytes: 1 << 20), .init(blocks: 64, bytes: 1)] {
            var writer = BinaryWriter()
            try ChunkFile.writeQueryBlocks(encoded, bound: bound, into: &writer)
            let bytes = Array(original[..<originalLayout.directory.lowerBound]) + writer.bytes
                + Array(original[originalLayout.detail.lowerBound...])
            let layout = try Layout(bytes)
            let file = try ChunkFile(bytes: bytes, path: "chunk")
            #expect(layout.groups.count == (bound.blocks == 3 ? (encoded.count + 2) / 3 : encoded.count))
            var decoded = SampleColumns()
            try file.decodeQueryBlocks(Array(file.blocks.indices.reversed()), into: &decoded)
            let rows = file.blocks.indices.reversed().flatMap { file.blockRows[$0] }
            #expect(decoded.start == rows.map { whole.start[$0] } && decoded.value.map(\.bitPattern) == rows.map { whole.value[$0].bitPattern })
            try file.verify()
            var raw = BinaryWriter()
            try ChunkFile.writeQueryBlocks(incompressible, bound: bound, into: &raw)
            var reader = BinaryReader(raw.bytes, path: "raw")
            _ = try ChecksummedSection.read(&reader, name: "directory")
            #expect(reader.remaining == 120)
        }
    }

    @Test("A flipped byte in the block directory fails opening the chunk, naming the file")
    func damagedDirectory() throws {
        var bytes = try Self.encode(ColumnCodecTests.randomColumns(count: 3_000, seed: 34).sortedByStart())
        let layout = try Layout(bytes)
        bytes[layout.directory.upperBound - 3] ^= 0x01
        let error = #expect(throws: CadenceError.self) { _ = try ChunkFile(bytes: bytes, path: "chunk-damaged") }
        #expect(error?.code == .corruptFile && error?.path == "chunk-damaged")
    }

    @Test("A directory written by hand to FORMAT.md's layout reads back, and one whose counts or lengths do not add up fails opening")
    func handWrittenDirectory() throws {
        let columns = ColumnCodecTests.randomColumns(count: 3_000, seed: 37).sortedByStart()
        let original = try Self.encode(columns)
        let layout = try Layout(original)
        let encoded = ColumnCodec.blockBoundaries(columns).map { ColumnCodec.encodeQueryBlock(columns, rows: $0) }
        let raw = Array(encoded.joined())
        // One group stored raw; `groupBlocks`, `lastLength` and `groupCount` are what the cases damage.
        func chunk(groupCount: Int = 1, groupBlocks: Int? = nil, lastLength: Int? = nil) -> [UInt8] {
            var directory = BinaryWriter()
            directory.writeVarint(UInt64(encoded.count))
            directory.writeVarint(UInt64(groupCount))
            if groupCount > 0 {
                directory.writeVarint(UInt64(raw.count))
                directory.writeVarint(UInt64(raw.count))
                directory.write(raw.withUnsafeBytes { CRC32C.checksum($0) })
                directory.writeVarint(UInt64(groupBlocks ?? encoded.count))
            }
            for (index, block) in encoded.enumerated() {
                directory.writeVarint(UInt64(index == encoded.count - 1 ? lastLength ?? block.count : block.count))
            }
            var writer = BinaryWriter()
            writer.write(bytes: Array(original[..<layout.directory.lowerBound]))
            ChecksummedSection.write(directory.bytes, into: &writer)
            writer.write(bytes: raw + Array(original[layout.detail.lowerBound...]))
            return writer.bytes
        }
        let file = try ChunkFile(bytes: chunk(), path: "chunk")
        var decoded = SampleColumns()
        try file.decodeQueryColumns(into: &decoded)
        #expect(decoded.start == columns.start && decoded.value.map(\.bitPattern) == columns.value.map(\.bitPattern))
        let last = try #require(encoded.last).count
        for damaged in [chunk(groupCount: 0), chunk(groupBlocks: encoded.count - 1), chunk(groupBlocks: encoded.count + 1),
                        chunk(lastLength: last - 1), chunk(lastLength: last + 1), chunk(lastLength: 0)] {
            let error = #expect(throws: CadenceError.self) { _ = try ChunkFile(bytes: damaged, path: "chunk-damaged") }
            #expect(error?.code == .corruptFile && error?.path == "chunk-damaged")
        }
    }

    @Test("A store's damaged block is found by verify, fails the query that decodes it, and repair drops its chunk")
    func damagedBlockInStore() throws {
        let memory = MemoryFileSystem()
        var options = HealthStore.Options()
        options.chunkCapacity = 3_000
        let samples = try StoreTests.randomSamples(count: 2_000, seed: 35)
        do {
            let store = try HealthStore.open(at: "/s", options: options, fileSystem: memory)
            try store.save(samples)
            try store.flush()
        }
        let chunk = try Self.damageLargestChunk(of: "/s", in: memory) { $0.groups[0].stored.lowerBound }
        #expect(try HealthStore.open(at: "/s", options: .readOnly, fileSystem: memory).verify().map(\.path) == [chunk.path])
        let repaired = try Self.repairDropping(chunk, of: "/s", in: memory)
        #expect(try StoreTests.readAll(repaired).count == samples.count - chunk.summary.count)
    }

    /// Flips a byte of the store's largest chunk file, at the place `offset` finds in its layout;
    /// returns the chunk as the store listed it.
    static func damageLargestChunk(of path: String, in memory: MemoryFileSystem,
                                   at offset: (Layout) throws -> Int) throws -> ChunkHandle {
        let reader = try HealthStore.open(at: path, options: .readOnly, fileSystem: memory)
        let chunk = try #require(reader.snapshot().types.values.flatMap(\.chunks).max { $0.summary.count < $1.summary.count })
        var bytes = try memory.readFile(chunk.path)
        #expect(try chunk.file().version == FormatVersion.current)
        bytes[try offset(try Layout(bytes))] ^= 0x40
        memory.overwrite(chunk.path, with: bytes)
        return chunk
    }

    /// Repairs the store, expecting it to drop `chunk` alone with its samples, and returns the
    /// repaired store, which verifies clean.
    static func repairDropping(_ chunk: ChunkHandle, of path: String, in memory: MemoryFileSystem) throws -> HealthStore {
        let report = try HealthStore.repair(at: path, fileSystem: memory)
        #expect(report.damage.map(\.path) == [chunk.path] && report.samplesLost == chunk.summary.count)
        let repaired = try HealthStore.open(at: path, options: .readOnly, fileSystem: memory)
        #expect(repaired.verify().isEmpty)
        return repaired
    }

    /// Regular heart rates (every 10 s, some jittered, gaps, a second source now and then) and
    /// step counts (10 s each, never overlapping) in a store of version 5 chunks, saved in batches; returns the reference samples
    /// per type.
    static func regularStore(seed: UInt64) throws -> (HealthStore, [QuantityType: [ReferenceSample]]) {
        var random = TestRandom(seed: seed)
        let store = HealthStore.inMemory(chunkCapacity: Int.random(in: 1_500...4_000, using: &random), flushThreshold: 3_000)
        let base: Int64 = 1_711_238_400_000_000  // 2024-03-24T00:00:00Z, the week of Europe's spring change
        let provenances = [QueryPropertyTests.watch, QueryPropertyTests.phone]
        var reference: [QuantityType: [ReferenceSample]] = [:]
        var time = base
        for type in [QuantityType.heartRate, .stepCount] {
            time = base
            var sequence: Int64 = 0
            for _ in 0..<4 {
                var batch = QuantitySampleBatch(type: type)
                for provenance in provenances { _ = batch.addProvenance(provenance) }
                for _ in 0..<Int.random(in: 500...2_500, using: &random) {
                    time += Int.random(in: 0..<200, using: &random) == 0 ? Int64.random(in: 1...20_000, using: &random) * 1_000_000
                        : 10_000_000 + (Int.random(in: 0..<10, using: &random) == 0 ? Int64.random(in: 1...999, using: &random) * 1_000 : 0)
                    let source = Int.random(in: 0..<30, using: &random) == 0 ? 1 : 0
                    let length: Int64 = type == .stepCount ? 10_000_000 : 0
                    let value = type == .stepCount ? Double(Int.random(in: 0...30, using: &random))
                        : Double(Int.random(in: 450...1_800, using: &random)) / 10
                    try batch.append(startTimestamp: time, endTimestamp: time + length, value: value, provenanceIndex: source)
                    sequence += 1
                    reference[type, default: []].append(ReferenceSample(
                        start: time, end: time + length, value: value, source: provenances[source].source.name,
                        rank: QueryPropertyTests.rank(source: source, userEntered: false), sequence: sequence))
                }
                try store.save(batch)
            }
        }
        try store.flush()
        return (store, reference)
    }

    @Test("Statistics over version 5 chunks, summaries answering whole blocks and edge blocks decoded alone, agree with the naive reference",
          arguments: [UInt64(51), 52, 53])
    func statisticsAgreeWithReference(seed: UInt64) throws {
        let (store, reference) = try Self.regularStore(seed: seed)
        for chunk in store.snapshot().types.values.flatMap(\.chunks) { #expect(try chunk.file().version == FormatVersion.current) }
        var random = TestRandom(seed: seed &* 7)
        let zones = ["UTC", "Europe/Berlin", "Asia/Kolkata", "Australia/Lord_Howe"]
        let intervals: [IntervalComponents] = [.minutes(30), .hours(1), .hours(3), .days(1)]
        for round in 0..<6 {
            let type = round % 2 == 0 ? QuantityType.heartRate : .stepCount
            let samples = try #require(reference[type])
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = try timeZone(named: zones[Int.random(in: 0..<zones.count, using: &random)])
            let components = intervals[Int.random(in: 0..<intervals.count, using: &random)]
            let anchor = Date(timestamp: 1_711_238_400_000_000 + Int64.random(in: 0..<96, using: &random) * 900_000_000)
            let options: StatisticsOptions = type == .stepCount ? [.cumulativeSum, .mostRecent]
                : [.discreteAverage, .discreteMin, .discreteMax, .mostRecent]
            let query = try StatisticsCollectionQuery(quantityType: type, quantitySamplePredicate: .all, options: options,
                                                      anchorDate: anchor, intervalComponents: components, calendar: calendar)
            let collection = try store.execute(query)
            let first = try #require(samples.first).start
            let last = try #require(samples.last).end
            var compared = 0
            for statistics in try collection.statistics(from: Date(timestamp: first), to: Date(timestamp: last)) {
                // Samples are in start order and last at most 10 s: the reference needs only those near the interval.
                let b0 = statistics.startDate.timestamp
                let b1 = statistics.endDate.timestamp
                let near = samples[samples.partitionPoint { $0.start >= b0 - 10_000_000 }..<samples.partitionPoint { $0.start > b1 }]
                let expected = ReferenceInterval(samples: Array(near), start: b0, end: b1, style: type.aggregationStyle,
                                                 mergesSources: false)
                let context = Comment(rawValue: "seed \(seed) round \(round) \(components) \(calendar.timeZone.identifier) \(statistics.startDate)")
                #expect(statistics.isEmpty == (expected.count == 0), context)
                guard expected.count > 0 else { continue }
                compared += 1
                if type == .stepCount {
                    // Step counts never overlap, so merging sources leaves the plain sum.
                    #expect(nearlyEqual(statistics.sumQuantity()?.value, expected.sum), context)
                } else {
                    #expect(nearlyEqual(statistics.averageQuantity()?.value, expected.average), context)
                    #expect(statistics.minimumQuantity()?.value == expected.minimum, context)
                    #expect(statistics.maximumQuantity()?.value == expected.maximum, context)
                }
                #expect(statistics.mostRecentQuantity()?.value == expected.mostRecent, context)
            }
            #expect(compared > 0)
        }
    }
}
