//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What ``HealthStore/repair(at:)`` found and did.
public struct RepairReport: Sendable, Codable {
    /// A file that was damaged, and what became of it.
    public struct Damage: Sendable, Codable, CustomStringConvertible {
        /// The file.
        public var path: String
        /// What was wrong and what was done.
        public var action: String
        public var description: String { "\(path): \(action)" }
    }

    /// The damaged files, in the order they were found.
    public var damage: [Damage] = []
    /// Samples in the chunk files that were dropped.
    public var samplesLost = 0
    /// Log records (saves or deletes) that were dropped.
    public var logRecordsLost = 0

    /// Whether the store was intact.
    public var wasIntact: Bool { damage.isEmpty }
}

extension HealthStore {
    /// Salvages what is intact in a damaged store so that it opens again.
    ///
    /// Chunk files that are missing or fail a checksum are dropped from the manifest (their
    /// samples are lost, and counted); a log segment is cut before its first damaged record (the
    /// records after it are lost, and counted). A damaged manifest cannot be rebuilt — it holds
    /// the source dictionary the chunks refer to — so repair then throws and the store should be
    /// restored from a backup. Nothing is changed when the store is intact.
    ///
    /// - Throws: ``CadenceError/Code/storeLocked`` when a process has the store open for writing;
    ///   ``CadenceError/Code/corruptFile`` when the manifest itself is damaged.
    /// - Complexity: O(*n*): every chunk and log record is read and checked.
    public static func repair(at path: String) throws -> RepairReport {
        try repair(at: path, fileSystem: POSIXFileSystem())
    }

    package static func repair(at path: String, fileSystem: any FileSystem) throws -> RepairReport {
        guard let lock = try fileSystem.lockExclusively(path + "/LOCK") else {
            throw CadenceError(.storeLocked, "another process has this store open for writing", path: path)
        }
        defer { lock.unlock() }
        let manifestPath = path + "/" + Manifest.fileName
        var manifest = try Manifest(decoding: try fileSystem.readFile(manifestPath), path: manifestPath)
        var report = RepairReport()
        for index in manifest.types.indices {
            let identifier = manifest.types[index].type.identifier
            manifest.types[index].chunks.removeAll { entry in
                let chunkPath = path + "/" + Manifest.chunkFileName(entry.number)
                let handle = ChunkHandle(number: entry.number, path: chunkPath, byteCount: entry.byteCount,
                                         summary: entry.summary, fileSystem: fileSystem)
                do {
                    try handle.verifyOnDisk()
                    return false
                } catch {
                    let reason = (error as? CadenceError)?.message ?? "\(error)"
                    report.damage.append(.init(path: chunkPath, action: "\(reason); dropped \(entry.summary.count) \(identifier) samples"))
                    report.samplesLost += entry.summary.count
                    return true
                }
            }
        }
        let segments = try fileSystem.contentsOfDirectory(path).compactMap(WriteAheadLog.segmentNumber).sorted()
        var cut = false
        for segment in segments where segment >= manifest.logSegment {
            let segmentPath = path + "/" + WriteAheadLog.segmentName(segment)
            if cut {
                // Records after a damaged one may depend on it (provenance numbers): drop them too.
                let bytes = try fileSystem.readFile(segmentPath)
                report.logRecordsLost += WriteAheadLog.salvage(bytes, path: segmentPath).recordCount
                try fileSystem.remove(segmentPath)
                report.damage.append(.init(path: segmentPath, action: "follows a damaged record; removed"))
                continue
            }
            let bytes = try fileSystem.readFile(segmentPath)
            let salvage = WriteAheadLog.salvage(bytes, path: segmentPath)
            if salvage.validLength < bytes.count {
                try fileSystem.truncate(segmentPath, to: salvage.validLength)
                let dropped = WriteAheadLog.salvage(Array(bytes[salvage.validLength...]), path: segmentPath).recordCount
                report.logRecordsLost += max(dropped, 1)
                report.damage.append(.init(path: segmentPath, action: "damaged at byte \(salvage.validLength); cut there"))
                cut = true
            }
        }
        if !report.damage.isEmpty {
            try fileSystem.replaceFile(manifestPath, manifest.encode())
        }
        return report
    }
}

extension WriteAheadLog {
    /// How much of a segment is readable: the length of its longest prefix of whole, valid
    /// records, and how many records that prefix (or, for damaged bytes, any record-like run) holds.
    package static func salvage(_ bytes: [UInt8], path: String) -> (validLength: Int, recordCount: Int) {
        var reader = BinaryReader(bytes, path: path)
        var count = 0
        while !reader.isAtEnd {
            let start = reader.offset
            guard reader.remaining >= headerSize,
                  let magic = try? reader.read(UInt32.self), magic == recordMagic,
                  let length = try? reader.read(UInt32.self), Int(length) <= reader.remaining - 4,
                  let checksum = try? reader.read(UInt32.self),
                  let payload = try? reader.readBytes(Int(length)),
                  payload.withUnsafeBytes({ CRC32C.checksum($0) }) == checksum,
                  (try? LogEntry(decoding: Array(payload), path: path)) != nil
            else { return (start, count) }
            count += 1
        }
        return (bytes.count, count)
    }
}
