//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Opening a store, recovering it from its manifest and log, and bringing a reader up to date.
extension StoreWriter {
    // MARK: Opening and recovery

    static func open(path: String, options: HealthStore.Options, fileSystem: any FileSystem) throws
        -> (writer: StoreWriter, snapshot: StoreSnapshot)
    {
        if options.readOnly { return try openForReading(path: path, options: options, fileSystem: fileSystem) }
        let manifestPath = path + "/" + Manifest.fileName
        if fileSystem.exists(path) {
            // Checked before the lock is taken, so that a directory that is not a store gets no LOCK file.
            if !fileSystem.exists(manifestPath) { try requireNoForeignFiles(path, fileSystem: fileSystem) }
        } else {
            try fileSystem.createDirectory(path)
        }
        let lock = try takeLock(path, waiting: options.waitForWriter, fileSystem: fileSystem)
        var writer: StoreWriter
        if fileSystem.exists(manifestPath) {
            let bytes = try fileSystem.readFile(manifestPath)
            let manifest = try Manifest(decoding: bytes, path: manifestPath, fileSystem: fileSystem)
            writer = StoreWriter(directory: path, options: options, fileSystem: fileSystem, lock: lock, log: nil,
                                 manifest: manifest)
            let version = try FormatVersion.readHeader(bytes, magic: Manifest.magic, kind: "store manifest", path: manifestPath).version
            if version < FormatVersion.current {
                // Moved on before the first record of the current framing is appended, so that
                // an older build refuses the store by its version instead of taking the records
                // for damage.
                try writer.installManifest(manifest)
            }
        } else {
            // Checked again under the lock: another process may have been creating a store here.
            try requireNoForeignFiles(path, fileSystem: fileSystem)
            let manifest = Manifest(storeIdentifier: UUID())
            try fileSystem.replaceFile(manifestPath, manifest.encode())
            writer = StoreWriter(directory: path, options: options, fileSystem: fileSystem, lock: lock, log: nil,
                                 manifest: manifest)
            writer.leftoversRemoved = true
        }
        // The directory is not listed: what it holds grows with the chunks (see removeLeftovers()).
        let snapshot = try writer.load()
        return (writer, snapshot)
    }

    /// The name of the writer's lock file.
    static let lockFileName = "LOCK"
    /// The files an interrupted creation of a store may leave before its first MANIFEST.
    static let creationLeftovers: Set<String> = [lockFileName, Manifest.fileName + ".tmp"]
    /// How often a reader starts again when a writer changed the store under it.
    static let maximumReadAttempts = 100

    /// Takes the store's writer lock, or throws ``CadenceError/Code/storeLocked`` naming the
    /// process that holds it.
    static func takeLock(_ path: String, waiting: Bool, fileSystem: any FileSystem) throws -> any FileLock {
        let lockPath = path + "/" + lockFileName
        if let lock = try fileSystem.lockExclusively(lockPath, waiting: waiting) { return lock }
        let holder = (try? fileSystem.readFile(lockPath)).flatMap {
            Int32(String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        // The lock is per open file, so a second writable open in this process finds it taken too.
        if holder == getpid() {
            throw CadenceError(.storeLocked, "this store is already open for writing in this process", path: path)
        }
        throw CadenceError(.storeLocked, "another process\(holder.map { " (pid \($0))" } ?? "") has this store open for writing",
                           path: path)
    }

    /// Refuses a directory without a MANIFEST that holds anything but what creating a store leaves:
    /// the files are someone else's, and a store never touches files it did not create.
    static func requireNoForeignFiles(_ path: String, fileSystem: any FileSystem) throws {
        let foreign = try fileSystem.contentsOfDirectory(path).filter { !creationLeftovers.contains($0) }
        guard foreign.isEmpty else {
            throw CadenceError(.corruptFile, "the directory is not empty but has no MANIFEST (\(foreign.count) files); "
                               + "choose an empty or new directory for a store", path: path)
        }
    }

    /// Opens without the lock. A writer may flush meanwhile — install a new MANIFEST, start a new
    /// log segment and remove the old one — so the manifest is read again after the log is
    /// replayed: when it changed, or a segment vanished under the reader, it starts again, and
    /// what it returns is one state the store was in.
    static func openForReading(path: String, options: HealthStore.Options, fileSystem: any FileSystem) throws
        -> (writer: StoreWriter, snapshot: StoreSnapshot)
    {
        guard fileSystem.exists(path) else { throw CadenceError(.notFound, "there is no store here", path: path) }
        let manifestPath = path + "/" + Manifest.fileName
        for _ in 0..<maximumReadAttempts {
            // Taken before the read: a manifest replaced after it then only costs a second reading.
            let version = try? fileSystem.fileVersion(manifestPath)
            let bytes: [UInt8]
            do {
                bytes = try fileSystem.readFile(manifestPath)
            } catch let error as CadenceError where error.code == .notFound {
                throw CadenceError(.notFound, "there is no store manifest", path: manifestPath)
            }
            do {
                var writer = StoreWriter(directory: path, options: options, fileSystem: fileSystem, lock: nil, log: nil,
                                         manifest: try Manifest(decoding: bytes, path: manifestPath, fileSystem: fileSystem))
                let snapshot = try writer.load()
                writer.manifestVersion = version
                if try fileSystem.readFile(manifestPath) == bytes { return (writer, snapshot) }
            } catch let error as CadenceError where error.code == .notFound || error.code == .corruptFile {
                // A vanished (or half-replaced) segment is only a writer moving on if the manifest did.
                guard (try? fileSystem.readFile(manifestPath)) != bytes else { throw error }
            }
        }
        throw CadenceError(.io, "the store kept changing while it was read (\(maximumReadAttempts) attempts); try again",
                           path: path)
    }

    /// Read-only: the snapshot brought up to what the writing process committed since it was
    /// read, with the change for observers (`nil` when no commit is new: a flush only moves
    /// samples), or `nil` when the files did not change.
    ///
    /// Costs two `stat`s and an existence check when nothing changed (a manifest replaced at the
    /// same size, as a priority change does, counts as a change). Records appended to the
    /// same segment are read and applied; after a flush (a new manifest and segment) the store is
    /// read again, as at opening.
    mutating func catchUp(_ snapshot: StoreSnapshot) throws -> (snapshot: StoreSnapshot, change: StoreChange?)? {
        let logPath = currentLogPath
        let manifestVersion = try? fileSystem.fileVersion(directory + "/" + Manifest.fileName)
        let logSize = try? fileSystem.fileSize(logPath)
        let flushed = fileSystem.exists(self.logPath(manifest.logSegment + 1))
        if manifestVersion != nil, manifestVersion == self.manifestVersion, !flushed, let logSize, logSize >= replayedLength {
            guard logSize > replayedLength else { return nil }
            do {
                let bytes = try fileSystem.readFile(logPath)
                if bytes.count >= replayedLength {
                    let segment = WriteAheadLog.readSegment(bytes, from: replayedLength, path: logPath)
                    if case .damaged(let error, _, _) = segment.ending { throw error }
                    let entries = segment.entries
                    guard !entries.isEmpty else { return nil }
                    var updated = snapshot
                    var extents: [String: StoreChange.Extent] = [:]
                    for entry in entries.flatMap(\.parts) {
                        updated = try apply(entry, to: updated)
                        switch entry {
                        case .save(_, let batches):
                            for (type, columns) in batches {
                                extents[type.identifier, default: StoreChange.Extent()].formUnion(StoreChange.Extent(columns))
                            }
                        case .delete(let tombstones):
                            // A deletion does not carry the sample's dates: the type's whole span.
                            for identifier in Set(tombstones.map(\.typeIdentifier)) {
                                extents[identifier, default: StoreChange.Extent()].formUnion(StoreChange.Extent(updated.types[identifier]))
                            }
                        case .replace:
                            break  // `parts` split it into its deletion and its save
                        }
                    }
                    replayedLength = segment.validLength
                    return (updated, StoreChange(firstSequence: snapshot.lastSequence + 1, lastSequence: updated.lastSequence,
                                                 types: extents))
                }
            } catch let error as CadenceError where error.code == .notFound {
                // Flushed between the `stat` and the read: read the store again below.
            }
        }
        let reopened = try Self.openForReading(path: directory, options: options, fileSystem: fileSystem)
        self = reopened.writer
        let updated = reopened.snapshot
        guard updated.lastSequence != snapshot.lastSequence else { return (updated, nil) }
        let identifiers = Set(updated.types.keys).union(snapshot.types.keys)
        let extents = Dictionary(uniqueKeysWithValues: identifiers.map { identifier in
            (identifier, StoreChange.Extent(updated.types[identifier]).union(StoreChange.Extent(snapshot.types[identifier])))
        })
        return (updated, StoreChange(firstSequence: snapshot.lastSequence + 1, lastSequence: updated.lastSequence,
                                     types: extents))
    }

    /// Builds the snapshot from the manifest and the log segments it does not cover.
    mutating func load() throws -> StoreSnapshot {
        for (number, provenance) in manifest.provenances.enumerated() { provenanceNumbers[provenance] = UInt32(number) }
        return try replayLog(onto: snapshotFromManifest())
    }

    func snapshotFromManifest() -> StoreSnapshot {
        var types: [String: TypeSnapshot] = [:]
        for entry in manifest.types {
            var type = TypeSnapshot(type: entry.type)
            type.compactedSequence = entry.compactedSequence
            type.flushed = entry.chunks
            type.deletions = entry.deletions
            type.hiddenSequences = entry.hiddenSequences
            types[entry.type.identifier] = type
        }
        return StoreSnapshot(storeIdentifier: manifest.storeIdentifier, lastSequence: manifest.lastSequence,
                             deletionHorizon: manifest.deletionHorizon, provenances: manifest.provenances,
                             sourcePriority: manifest.sourcePriority, types: types)
    }

    /// The log segments from the manifest's first on. A flush starts segment *n* + 1 only once a
    /// manifest naming it is installed, so they are consecutive: found with a `stat` each, not by
    /// listing the directory.
    func segmentsToReplay() -> [UInt64] {
        var segments: [UInt64] = []
        var segment = manifest.logSegment
        while fileSystem.exists(logPath(segment)) {
            segments.append(segment)
            segment += 1
        }
        return segments
    }

    /// Removes the segments before the manifest's first, which a crash right after a flush's
    /// manifest leaves: the flush removes its one old segment, so they run down from the first.
    func removeReplacedSegments() throws {
        var segment = manifest.logSegment
        while segment > 0, fileSystem.exists(logPath(segment - 1)) {
            segment -= 1
            try fileSystem.remove(logPath(segment))
        }
    }

    mutating func replayLog(onto snapshot: StoreSnapshot) throws -> StoreSnapshot {
        if !options.readOnly { try removeReplacedSegments() }
        let segments = segmentsToReplay()
        var snapshot = snapshot
        var lastSegment = manifest.logSegment
        var replayedRecords = false
        for (position, segment) in segments.enumerated() {
            let path = logPath(segment)
            let bytes = try fileSystem.readFile(path)
            let read = WriteAheadLog.readSegment(bytes, path: path)
            switch read.ending {
            case .clean:
                break
            case .damaged(let error, _, _):
                // Cutting here would drop acknowledged changes: that is repair's call, counted.
                throw error
            case .torn, .unproven:
                guard position == segments.count - 1 else {
                    throw CadenceError(.corruptFile, "a log segment before the last one is torn", path: path)
                }
                if !options.readOnly { try fileSystem.truncate(path, to: read.validLength) }
            }
            for entry in read.entries { snapshot = try apply(entry, to: snapshot) }
            replayedLength = read.validLength
            replayedRecords = replayedRecords || read.validLength > 0
            if !options.readOnly && segment != segments.last {
                // What is replayed must be on disk: a record whose fsync failed before a crash of
                // this process may still sit only in the page cache.
                let replayed = try fileSystem.openForAppending(path)
                defer { replayed.close() }
                try replayed.sync()
            }
            lastSegment = segment
        }
        if !options.readOnly {
            let current = try fileSystem.openForAppending(logPath(lastSegment))
            if replayedRecords {
                try current.sync()
                try fileSystem.syncDirectory(directory)
            } else {
                // Nothing replayed, so nothing shown needs syncing now: the first append syncs
                // the segment's directory entry (an open costs no fsync after a clean close).
                logDirectoryEntryUnsynced = true
            }
            log = current
        }
        manifest.logSegment = lastSegment
        return snapshot
    }

    /// Removes what a crash left behind, once, before the writer first writes a file or upgrades:
    /// chunk and chunk list files the manifest does not refer to (written before the manifest that
    /// would have, or replaced by it but not yet removed), log segments it retired and the
    /// manifest's temporary file. Only names Cadence gives its files count; anything else in the
    /// directory is left alone. (Deletions files are removed by the install that stops naming
    /// them: a store before version 6 names its one file outside the types, see
    /// ``DeletionsFile/removeOthers(than:in:fileSystem:)``.)
    ///
    /// Not done at opening, which would then list a directory that grows with the chunks: until
    /// then such files are only unlisted (nothing reads a file the manifest does not name), and a
    /// file the writer writes under the number of one replaces it. An upgrade, which reads every
    /// chunk list anyway, does it even when no chunk file is outdated.
    ///
    /// The chunk lists are not read for this unless the chunk files tell of a leftover: files
    /// numbered from ``Manifest/nextChunkNumber`` on were never listed, and more files below it
    /// than the manifest's chunk count means some of them are no longer listed.
    ///
    /// - Complexity: O(*f*) for *f* files in the directory, the first time.
    mutating func removeLeftovers() throws {
        guard !leftoversRemoved, !options.readOnly else { return }
        let names = try fileSystem.contentsOfDirectory(directory)
        let lists = manifest.chunkListNumbers
        let chunkNumbers = names.compactMap(Manifest.chunkNumber)
        let listedCount = manifest.types.reduce(0) { $0 + $1.chunks.outline.chunkCount }
        let listed: Set<UInt64>? = chunkNumbers.count(where: { $0 < manifest.nextChunkNumber }) > listedCount
            ? Set(try manifest.types.flatMap { try $0.chunks.chunks().map(\.number) }) : nil
        for name in names {
            let isOrphan = if let number = Manifest.chunkNumber(name) {
                number >= manifest.nextChunkNumber || listed.map { !$0.contains(number) } ?? false
            } else if let number = Manifest.chunkListNumber(name) {
                !lists.contains(number)
            } else if let segment = WriteAheadLog.segmentNumber(name) {
                // One that a power loss kept below the segment opening removed (see removeReplacedSegments()).
                segment < manifest.logSegment
            } else {
                name == Manifest.fileName + ".tmp"
            }
            if isOrphan { try fileSystem.remove(directory + "/" + name) }
        }
        leftoversRemoved = true
    }

    /// Applies a log entry (during replay, or right after writing it) and returns the new snapshot.
    mutating func apply(_ entry: LogEntry, to snapshot: StoreSnapshot) throws -> StoreSnapshot {
        if case .replace = entry { return try entry.parts.reduce(snapshot) { try apply($1, to: $0) } }
        var types = snapshot.types
        var provenances = snapshot.provenances
        var lastSequence = snapshot.lastSequence
        switch entry {
        case .save(let newProvenances, let batches):
            for (number, provenance) in newProvenances {
                if Int(number) == provenances.count {
                    provenances.append(provenance)
                    provenanceNumbers[provenance] = number
                } else if Int(number) > provenances.count || provenances[Int(number)] != provenance {
                    throw CadenceError(.corruptFile, "the log's provenance \(number) conflicts with the store's",
                                       path: directory)
                }
            }
            for (type, columns) in batches where !columns.isEmpty {
                guard columns.provenance.allSatisfy({ Int($0) < provenances.count }) else {
                    throw CadenceError(.corruptFile, "a log record refers to an unknown provenance", path: directory)
                }
                let last = columns.sequence.max() ?? 0
                if last <= manifest.flushedSequence { continue }
                var typeSnapshot = types[type.identifier] ?? TypeSnapshot(type: type)
                typeSnapshot.head.append(HeadBatch(columns: columns, style: typeSnapshot.type.aggregationStyle))
                types[type.identifier] = typeSnapshot
                headCount += columns.count
                headBytes += columns.approximateByteCount
                lastSequence = max(lastSequence, last)
                uuidIndex.insert(columns, of: type.identifier, provenances: provenances)
            }
        case .delete(let deleted):
            for tombstone in deleted where tombstone.deletionSequence > manifest.flushedSequence {
                types[tombstone.typeIdentifier]?.hiddenSequences.insert(tombstone.sampleSequence)
                types[tombstone.typeIdentifier]?.deletions.append(tombstone)
                uuidIndex.remove(tombstone.uuid, of: tombstone.typeIdentifier)
                lastSequence = max(lastSequence, tombstone.deletionSequence)
            }
        case .replace:
            break  // applied part by part above
        }
        return snapshot.with(lastSequence: lastSequence, provenances: provenances, types: types)
    }
}
