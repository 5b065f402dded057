//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Upgrading: rewriting the chunk files of older format versions in the current layout.
extension StoreWriter {
    // MARK: Upgrading

    /// Whether a chunk file was written in a format version older than the current one.
    static func isOutdated(_ chunk: ChunkHandle) throws -> Bool { try chunk.formatVersion() < FormatVersion.current }

    /// Rewrites every chunk file of an older format version, one new file for each with the same
    /// rows (deleted ones still hidden in it, as before), and installs one manifest listing them.
    ///
    /// Crash-safe as a flush is: the new files are synced before the manifest that lists them
    /// replaces the old one (the commit point), and the old files are removed only after it.
    /// Nothing else changes: sequences, deletion records, source priorities and the log stay as
    /// they are, so anchors see no change. Every chunk list and chunk file is checked before the
    /// commit; damage stops the upgrade, removing the files it wrote.
    mutating func upgrade(snapshot: StoreSnapshot) throws -> (snapshot: StoreSnapshot, report: UpgradeReport) {
        try checkWritable()
        let types = manifest.types
        let lists = try Self.refusingDamage { try types.map { try $0.chunks.chunks() } }
        try removeLeftovers()
        var report = UpgradeReport()
        guard try Self.refusingDamage({ try lists.contains { try $0.contains(where: Self.isOutdated) } }) else {
            return (snapshot, report)
        }
        var updated = manifest
        var written: [String] = []
        var replaced: [String] = []
        let parallelism = ProcessInfo.processInfo.activeProcessorCount
        do {
            for (index, entry) in types.enumerated() {
                let type = entry.type
                var chunks = lists[index]
                var upgraded = UpgradeReport.TypeUpgrade(identifier: type.identifier)
                // One chunk a core at a time: a decoded chunk is held only until its new file is written.
                for first in stride(from: 0, to: chunks.count, by: parallelism) {
                    let positions = Array(first..<min(chunks.count, first + parallelism))
                    let handles = positions.map { chunks[$0] }
                    let encoded = try concurrentMap(handles, parallelism: parallelism) { try Self.rewriting($0, of: type) }
                    for (position, encoded) in zip(positions, encoded) {
                        guard let encoded else { continue }
                        let number = updated.nextChunkNumber
                        updated.nextChunkNumber += 1
                        let path = chunkPath(number)
                        try guarded { try $0.writeFile(path, encoded.bytes) }
                        written.append(path)
                        replaced.append(chunks[position].path)
                        upgraded.chunks += 1
                        upgraded.bytesBefore += chunks[position].byteCount
                        upgraded.bytesAfter += encoded.bytes.count
                        chunks[position] = ChunkHandle(number: number, path: path, byteCount: encoded.bytes.count,
                                                       summary: encoded.summary, fileSystem: fileSystem)
                    }
                }
                if upgraded.chunks > 0 {
                    updated.types[index].chunks = ChunkList(chunks)
                    report.types.append(upgraded)
                }
            }
        } catch let error as CadenceError where HealthStore.provesDamage(error) {
            // Files past the manifest's next chunk number are orphans the next flush would remove;
            // removed now, the store is left exactly as it was.
            for path in written { try? fileSystem.remove(path) }
            try? fileSystem.syncDirectory(directory)
            throw Self.refusal(error)
        }
        try installManifest(updated)
        let directory = self.directory
        try guarded { fileSystem in
            for path in replaced { try fileSystem.remove(path) }
            try fileSystem.syncDirectory(directory)
        }
        var snapshotTypes = snapshot.types
        for entry in manifest.types { snapshotTypes[entry.type.identifier]?.flushed = entry.chunks }
        return (snapshot.with(types: snapshotTypes), report)
    }

    /// The bytes and summary of a chunk file of an older version rewritten in the current one,
    /// or `nil` for a current one; either way the file is checked whole.
    static func rewriting(_ chunk: ChunkHandle, of type: QuantityType) throws -> (bytes: [UInt8], summary: SampleSummary)? {
        let file = try chunk.readFromDisk()
        guard file.version < FormatVersion.current else {
            try file.verify()
            return nil
        }
        // The rows come out sorted as they were written, and go into the new file in that order;
        // a workout's routes move into its payload.
        return try ChunkFile.encode(file.decodeForRewriting(), typeIdentifier: type.identifier, style: type.aggregationStyle)
    }

    /// Runs a read of the store's files, turning damage into a refusal to upgrade.
    static func refusingDamage<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CadenceError where HealthStore.provesDamage(error) {
            throw refusal(error)
        }
    }

    /// The damage `error` reports, with what to do about it.
    static func refusal(_ error: CadenceError) -> CadenceError {
        var refused = error
        refused.message += "; the store was not upgraded and nothing in it changed: `cadence verify` reports its damage "
            + "and `cadence repair` salvages what is intact, after which it can be upgraded"
        return refused
    }
}
