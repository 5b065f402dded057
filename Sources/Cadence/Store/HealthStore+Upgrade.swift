//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What ``HealthStore/upgrade()`` rewrote: per type, the chunk files of older format versions
/// and their bytes before and after.
public struct UpgradeReport: Sendable, Codable, Equatable {
    /// One type's rewritten chunk files.
    public struct TypeUpgrade: Sendable, Codable, Equatable {
        /// The type's identifier.
        public var identifier: String
        /// Chunk files rewritten.
        public var chunks: Int
        /// Their bytes before.
        public var bytesBefore: Int
        /// The bytes of the files that replaced them.
        public var bytesAfter: Int

        /// Creates a type's figures.
        public init(identifier: String, chunks: Int = 0, bytesBefore: Int = 0, bytesAfter: Int = 0) {
            self.identifier = identifier
            self.chunks = chunks
            self.bytesBefore = bytesBefore
            self.bytesAfter = bytesAfter
        }
    }

    /// The format version the chunk files are now written in (this build's).
    public var formatVersion: Int
    /// The types whose chunk files were rewritten, in the manifest's order; empty when every
    /// chunk file was already of the current version (nothing was written).
    public var types: [TypeUpgrade]

    /// Creates a report.
    public init(formatVersion: Int = HealthStore.formatVersion, types: [TypeUpgrade] = []) {
        self.formatVersion = formatVersion
        self.types = types
    }

    /// Whether there was nothing to upgrade.
    public var isEmpty: Bool { types.isEmpty }
    /// Chunk files rewritten, all types.
    public var chunks: Int { types.reduce(0) { $0 + $1.chunks } }
    /// Their bytes before.
    public var bytesBefore: Int { types.reduce(0) { $0 + $1.bytesBefore } }
    /// The bytes of the files that replaced them.
    public var bytesAfter: Int { types.reduce(0) { $0 + $1.bytesAfter } }
}

extension HealthStore {
    /// The on-disk format version this build writes (FORMAT.md). Stores and files of versions 2
    /// on are read; ``upgrade()`` rewrites older chunk files in this version.
    public static var formatVersion: Int { Int(FormatVersion.current) }

    /// Rewrites every chunk file written in an older format version in the current layout, so
    /// that all of the store's data gets what the current version brings (chunk files are
    /// immutable: without this, old ones keep their layout until a compaction rewrites them).
    ///
    /// Each old chunk file becomes one new file holding the same rows in the same order; every
    /// sample, deletion record, source priority, change sequence and anchor stays as it was, so
    /// queries answer the same and anchored queries see no change. Unflushed samples stay in
    /// the log. A store already current is left untouched (nothing is written).
    ///
    /// Crash-safe as ``compact(discardingDeletionsBefore:)`` is: the new files and chunk lists
    /// are written and synced, then one new manifest is installed (the commit point), then the
    /// old files are removed; a crash leaves the store as it was before or after, and its next
    /// writable open removes the files an unfinished upgrade left. Readers in other processes
    /// keep reading meanwhile (a reader whose chunk vanished reads again); the writer's lock
    /// keeps other writers out, as for any write.
    ///
    /// When there is anything to rewrite, every chunk list and chunk file is checked before the
    /// commit, as ``verify()`` checks them.
    ///
    /// - Returns: What was rewritten, per type.
    /// - Throws: ``CadenceError/Code/readOnly``; ``CadenceError/Code/corruptFile`` (or `notFound`)
    ///   naming a damaged or missing file, with the advice to verify and repair the store: the
    ///   files the upgrade wrote are removed and the store is left as it was;
    ///   ``CadenceError/Code/io`` when a file cannot be written or synced: the store is then left
    ///   as it was before or after the upgrade, and this ``HealthStore`` refuses further writes
    ///   until reopened, as after a failed flush.
    /// - Complexity: O(*n*): every chunk file is read and checked, and the old ones rewritten, a
    ///   core each; one chunk a core is held in memory at a time.
    @discardableResult
    public func upgrade() throws -> UpgradeReport {
        var report = UpgradeReport()
        try commit { writer, snapshot in
            let upgraded = try writer.upgrade(snapshot: snapshot)
            report = upgraded.report
            return (upgraded.snapshot, nil)
        }
        return report
    }

    /// How many chunk files were written in a format version older than the current one: those
    /// ``upgrade()`` rewrites.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming a damaged chunk list or chunk header.
    /// - Complexity: O(*c*) for *c* chunk files: each type's chunk list and the first bytes of
    ///   each chunk file are read.
    public func outdatedChunkFiles() throws -> Int {
        try read { snapshot in
            try snapshot.types.values.reduce(0) { count, type in
                try count + type.flushed.chunks().filter(StoreWriter.isOutdated).count
            }
        }
    }
}
