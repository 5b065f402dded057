//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Cadence
import Foundation

/// Fuzzes the write-ahead log reader and the manifest decoder, and a store opened on them.
///
/// The first byte of an input picks how the rest is fed:
///
/// - `0`: as a log segment, to ``WriteAheadLog/readSegment(_:from:path:)``, whose reading must
///   be consistent (its valid prefix reads as the same records, ending cleanly).
/// - `1`: as a log segment whose record checksums (payload and header) are recomputed first; a
///   segment that reads without damage is
///   then replayed by a store opened on it (in memory), which is queried, flushed and compacted.
/// - `2`: as one record's payload, to ``LogEntry/init(decoding:path:)``.
/// - `3`: as a manifest whose checksum is recomputed first; a manifest that decodes opens a
///   store (in memory, without its chunk files), which is queried.
enum LogFuzzer {
    static let directory = "/fuzz-store"
    static let segmentPath = directory + "/" + WriteAheadLog.segmentName(1)
    static let manifestPath = directory + "/" + Manifest.fileName

    static func run(_ input: [UInt8]) {
        guard let selector = input.first else { return }
        let body = Array(input.dropFirst())
        switch selector & 3 {
        case 0:
            readSegment(body)
        case 1:
            let segment = refreshingChecksums(body)
            if readSegment(segment) {
                openStore(files: [manifestPath: Manifest(storeIdentifier: UUID()).encode(), segmentPath: segment])
            }
        case 2:
            expectingCadenceErrors("LogEntry(decoding:)") { try LogEntry(decoding: body, path: segmentPath) }
        default:
            var manifest = body
            _ = ChunkFuzzer.refreshSection(&manifest, at: 10)
            if expectingCadenceErrors("Manifest(decoding:)", { try Manifest(decoding: manifest, path: manifestPath, fileSystem: MemoryFileSystem()) }) != nil {
                openStore(files: [manifestPath: manifest])
            }
        }
    }

    /// Reads a segment, checks what every reader of it relies on, and returns whether a store
    /// opens on it (it holds no damage).
    @discardableResult
    static func readSegment(_ bytes: [UInt8]) -> Bool {
        let read = WriteAheadLog.readSegment(bytes, path: segmentPath)
        if read.validLength < 0 || read.validLength > bytes.count { fuzzFailure("valid length \(read.validLength) out of range") }
        // The valid prefix reads again as itself, ending cleanly: cutting a torn tail loses no record.
        let prefix = WriteAheadLog.readSegment(Array(bytes[..<read.validLength]), path: segmentPath)
        guard case .clean = prefix.ending, prefix.entries.count == read.entries.count else {
            fuzzFailure("the valid prefix of \(read.validLength) bytes does not read as the same \(read.entries.count) records")
        }
        switch read.ending {
        case .clean:
            if read.validLength != bytes.count { fuzzFailure("a clean ending before the end of the bytes") }
        case .torn, .unproven:
            if read.validLength == bytes.count { fuzzFailure("a tail of no bytes") }
        case .damaged(_, _, let records):
            if records < 0 { fuzzFailure("a negative count of lost records") }
            return false
        }
        return true
    }

    /// `bytes` with the checksums of every record recomputed, where the framing allows: the
    /// payload's and then the header's of the current framing, the one of the legacy framing.
    static func refreshingChecksums(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        var offset = 0
        while offset <= bytes.count - WriteAheadLog.legacyHeaderSize {
            let magic = bytes[offset..<offset + 4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            guard magic == WriteAheadLog.recordMagic else {
                // Skip the (legacy) magic, then treat length · CRC · payload as a section.
                offset = ChunkFuzzer.refreshSection(&bytes, at: offset + 4)
                continue
            }
            guard offset <= bytes.count - WriteAheadLog.headerSize else { break }
            let length = Int(bytes[offset + 4..<offset + 8].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            let payload = offset + WriteAheadLog.headerSize
            guard length <= bytes.count - payload else { break }
            store(CRC32C.checksum(bytes[payload..<payload + length]), at: offset + 8, in: &bytes)
            store(CRC32C.checksum(bytes[offset..<offset + 12]), at: offset + 12, in: &bytes)
            offset = payload + length
        }
        return bytes
    }

    /// Writes `value` little-endian at `offset`.
    private static func store(_ value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
    }

    /// Opens a store on `files` and uses it as an application would.
    static func openStore(files: [String: [UInt8]]) {
        let fileSystem = MemoryFileSystem()
        expectingCadenceErrors("open") {
            try fileSystem.createDirectory(directory)
            for (path, bytes) in files { try fileSystem.writeFile(path, bytes) }
            let store = try HealthStore.open(at: directory, options: HealthStore.Options(), fileSystem: fileSystem)
            try exercise(store)
            try store.flush()
            try exercise(store)
            try store.compact()
            try exercise(store)
            try store.close()
        }
    }

    /// Runs a sample query and the statistics a type allows on every type of `store`.
    static func exercise(_ store: HealthStore) throws {
        for entry in store.snapshot().types.values.sorted(by: { $0.type.identifier < $1.type.identifier }) {
            let type = entry.type
            _ = try store.execute(SampleQuery(quantityType: type))
            let options: StatisticsOptions = type.aggregationStyle == .cumulative
                ? [.cumulativeSum, .mostRecent, .duration, .separateBySource]
                : [.discreteAverage, .discreteMin, .discreteMax, .mostRecent, .duration, .separateBySource]
            if let query = try? StatisticsQuery(quantityType: type, options: options) {
                _ = try store.execute(query)
            }
        }
    }
}
