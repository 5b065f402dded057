//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Synchronization

/// One type's retained deletion records: those in its deletions file, read the first time
/// they are asked for, and those made since the last flush, which the next flush appends.
///
/// Kept per type so that a save, a delete or an anchored query of one type reads and hashes
/// only that type's deletions (see How Cadence computes, Deleting samples).
package struct TypeDeletions: Sendable {
    /// The file holding the records flushed so far; `nil` when there are none.
    package private(set) var file: DeletionsFile?
    /// The file's records once read, shared by every snapshot listing the same file.
    private var stored: StoredDeletions?
    /// Records made since the file was covered, in sequence order.
    package private(set) var added: [Tombstone] = []

    package init() {}

    /// Records not yet in any file (a store of version 5 or earlier, a repaired file).
    init(unfiled records: [Tombstone]) { added = records }

    /// The records of `file` in `directory`, read on first use.
    init(file: DeletionsFile, directory: String, fileSystem: any FileSystem) {
        self.file = file
        stored = StoredDeletions(file: file, directory: directory, fileSystem: fileSystem)
    }

    /// How many records the type keeps.
    package var count: Int { Int(file?.count ?? 0) + added.count }

    /// Whether the type keeps no record.
    package var isEmpty: Bool { count == 0 }

    /// Every record, in sequence order.
    ///
    /// - Throws: ``CadenceError/Code/corruptFile`` naming the deletions file when it is damaged.
    /// - Complexity: O(*d*) for the type's *d* records (the file is read once).
    package func records() throws -> [Tombstone] {
        guard let stored else { return added }
        let filed = try stored.records()
        return added.isEmpty ? filed : filed + added
    }

    /// Adds a deletion made now.
    mutating func append(_ tombstone: Tombstone) { added.append(tombstone) }

    /// The records after the file was covered by `file` as a flush persisted them, the
    /// records before it staying readable without reading the file again.
    func filed(as file: DeletionsFile?, directory: String, fileSystem: any FileSystem) -> TypeDeletions {
        guard let file else { return TypeDeletions() }
        var result = TypeDeletions()
        result.file = file
        result.stored = StoredDeletions(file: file, directory: directory, fileSystem: fileSystem,
                                        loaded: stored?.loadedRecords().map { $0 + added } ?? (stored == nil ? added : nil))
        return result
    }
}

/// A deletions file's records, read on first use and kept.
final class StoredDeletions: Sendable {
    let file: DeletionsFile
    private let directory: String
    private let fileSystem: any FileSystem
    private let loaded: Mutex<[Tombstone]?>

    init(file: DeletionsFile, directory: String, fileSystem: any FileSystem, loaded records: [Tombstone]? = nil) {
        self.file = file
        self.directory = directory
        self.fileSystem = fileSystem
        loaded = Mutex(records)
    }

    /// The records, read from the file the first time.
    func records() throws -> [Tombstone] {
        if let records = loaded.withLock({ $0 }) { return records }
        let records = try file.read(in: directory, fileSystem: fileSystem)
        loaded.withLock { $0 = records }
        return records
    }

    /// The records when they were read already, else `nil`.
    func loadedRecords() -> [Tombstone]? { loaded.withLock { $0 } }
}
