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
    /// Deletion records that were dropped from damaged deletions files.
    public var deletionsLost = 0

    /// Whether the store was intact.
    public var wasIntact: Bool { damage.isEmpty }
}

extension HealthStore {
    /// Salvages what is intact in a damaged store so that it opens again.
    ///
    /// Chunk files that are missing or fail a checksum are dropped from the manifest (their
    /// samples are lost, and counted); a log segment is cut before its first damaged record (it
    /// and the records after it are lost, and counted). Repair is the only place that cuts a
    /// record that may have been acknowledged: opening refuses such a log. A torn final append
    /// (a save a crash cut short, never acknowledged) is not damage: it is left for opening to cut.
    /// A type's deletions file that fails a checksum keeps the records before the damaged one
    /// (the others are lost, and counted: their samples may come back on the next import, and
    /// rows they hid show again until deleted anew).
    /// A damaged manifest (or chunk list) cannot be rebuilt — it holds the source dictionary the
    /// chunks refer to — so repair then throws and the store should be restored from a backup.
    /// Nothing is changed when the store is intact.
    ///
    /// Only proven damage is dropped: a chunk that cannot be read for another reason (a
    /// permission error, `EIO`) stops repair with that error, and nothing is changed.
    ///
    /// - Throws: ``CadenceError/Code/notFound`` when `path` holds no store (nothing is left in it);
    ///   ``CadenceError/Code/storeLocked`` when a process has the store open for writing;
    ///   ``CadenceError/Code/corruptFile`` when the manifest itself or a type's chunk list is damaged;
    ///   ``CadenceError/Code/io`` naming the file that could not be read.
    /// - Complexity: O(*n*): every chunk and log record is read and checked.
    /// - Parameter waitForWriter: Wait for a process writing the store to close it, instead of throwing.
    public static func repair(at path: String, waitForWriter: Bool = false) throws -> RepairReport {
        try repair(at: path, fileSystem: POSIXFileSystem(), waitForWriter: waitForWriter)
    }

    package static func repair(at path: String, fileSystem: any FileSystem, waitForWriter: Bool = false) throws
        -> RepairReport
    {
        let manifestPath = path + "/" + Manifest.fileName
        // Checked before the lock is taken, so that a directory that is not a store gets no LOCK file.
        guard fileSystem.exists(manifestPath) else {
            throw CadenceError(.notFound, "there is no store here (no MANIFEST)", path: path)
        }
        let lock = try StoreWriter.takeLock(path, waiting: waitForWriter, fileSystem: fileSystem)
        defer { lock.unlock() }
        let intact = try Manifest(decoding: try fileSystem.readFile(manifestPath), path: manifestPath, fileSystem: fileSystem,
                                  readingHidden: false)
        var manifest = intact
        var report = RepairReport()
        for index in manifest.types.indices {
            let identifier = manifest.types[index].type.identifier
            var chunks = try manifest.types[index].chunks.chunks()
            let count = chunks.count
            try chunks.removeAll { chunk in
                do {
                    try chunk.verifyOnDisk()
                    return false
                } catch let error as CadenceError where Self.provesDamage(error) {
                    report.damage.append(.init(path: chunk.path, action: "\(error.message); dropped \(chunk.summary.count) \(identifier) samples"))
                    report.samplesLost += chunk.summary.count
                    return true
                }
            }
            if chunks.count < count { manifest.types[index].chunks = ChunkList(chunks) }
            if let file = manifest.types[index].deletions.file {
                let read = try file.readIntact(in: path, fileSystem: fileSystem)
                if let damage = read.damage {
                    let lost = Int(file.count) - read.records.count
                    report.damage.append(.init(path: damage.path ?? path,
                                               action: "\(damage.message); dropped \(lost) \(identifier) deletion records"))
                    report.deletionsLost += lost
                    manifest.types[index].deletions = TypeDeletions(unfiled: read.records)
                }
            }
        }
        let segments = try fileSystem.contentsOfDirectory(path).compactMap(WriteAheadLog.segmentNumber).sorted()
        var cut = false
        for (position, segment) in segments.enumerated() where segment >= manifest.logSegment {
            let segmentPath = path + "/" + WriteAheadLog.segmentName(segment)
            let bytes = try fileSystem.readFile(segmentPath)
            if cut {
                // Records after a damaged one may depend on it (provenance numbers): drop them too.
                report.logRecordsLost += WriteAheadLog.recordsStarting(after: -1, in: bytes, path: segmentPath)
                try fileSystem.remove(segmentPath)
                report.damage.append(.init(path: segmentPath, action: "follows a damaged record; removed"))
                continue
            }
            let read = WriteAheadLog.readSegment(bytes, path: segmentPath)
            let lost: Int
            switch read.ending {
            case .clean:
                continue
            case .torn where position == segments.count - 1:
                // An append a crash tore was never acknowledged: no damage, and opening cuts it.
                continue
            case .torn:
                lost = 0
                report.damage.append(.init(path: segmentPath, action: "torn at byte \(read.validLength), before later segments; cut there"))
            case .unproven(let error, let records):
                lost = records
                report.damage.append(.init(path: segmentPath, action: "\(error.message); cut at byte \(read.validLength)"))
            case .damaged(_, let reason, let records):
                lost = records
                report.damage.append(.init(path: segmentPath, action: "\(reason); cut there, "
                                           + "dropping \(records) record\(records == 1 ? "" : "s") (\(bytes.count - read.validLength) bytes)"))
            }
            try fileSystem.truncate(segmentPath, to: read.validLength)
            // The cut must be durable before the manifest below says the store was repaired.
            let truncated = try fileSystem.openForAppending(segmentPath)
            defer { truncated.close() }
            try truncated.sync()
            report.logRecordsLost += lost
            cut = true
        }
        if !report.damage.isEmpty {
            try manifest.install(replacing: intact, in: path, fileSystem: fileSystem)
        }
        return report
    }

    /// Whether a failure to read a chunk proves the file damaged (missing, malformed, failing a
    /// checksum); any other failure (a permission error, `EIO`) says nothing about the file and
    /// stops repair, so an intact chunk is never dropped (and stops an upgrade without the advice
    /// to repair).
    static func provesDamage(_ error: CadenceError) -> Bool {
        error.code == .corruptFile || error.code == .notFound || error.code == .compression
    }
}
