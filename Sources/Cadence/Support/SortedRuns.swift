//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The runs a structure of bounded memory moved to disk, oldest first, merged so that there are
/// about log₂ of them: each move adds a run, and the newest runs are merged while the newest holds
/// more than half as many entries as the one before, so run sizes at least halve from oldest to
/// newest. A key's entry is that of the newest run holding it.
///
/// - Complexity: ``add(_:in:)`` writes O(*n* log(*n* / *t*)) bytes in all for *n* keys moved
///   in tables of *t*; ``newest(for:)`` reads one block per run, newest first.
struct SortedRuns<Entry: SortedRunEntry>: Sendable {
    private var runs: [SortedRun<Entry>] = []

    /// An empty list.
    init() {}

    /// The runs on disk.
    var count: Int { runs.count }

    /// The entry of `key` in the newest run that holds it, if any does.
    ///
    /// - Throws: ``CadenceError`` (`io`) naming a temporary file that cannot be read.
    func newest(for key: Entry.Key) throws(CadenceError) -> Entry? {
        for run in runs.reversed() {
            if let entry = try run.entry(for: key) { return entry }
        }
        return nil
    }

    /// Whether some run holds each of `keys` (sorted ascending): each run, newest first, is asked
    /// only for the keys no newer run holds, a block at a time (``SortedRun/holds(sorted:)``).
    ///
    /// - Throws: ``CadenceError`` (`io`) naming a temporary file that cannot be read.
    func holdAny(sorted keys: [Entry.Key]) throws(CadenceError) -> [Bool] {
        var held = [Bool](repeating: false, count: keys.count)
        var pending = Array(keys.indices)
        for run in runs.reversed() where !pending.isEmpty {
            let found = try run.holds(sorted: pending.map { keys[$0] })
            for (position, index) in pending.enumerated() where found[position] { held[index] = true }
            pending = pending.indices.filter { !found[$0] }.map { pending[$0] }
        }
        return held
    }

    /// Writes `entries` (sorted by key, each key once) to a new run in `directory`, newer than
    /// every run before, then merges runs as the type describes.
    ///
    /// - Throws: ``CadenceError`` (`io`) naming a temporary file that cannot be read or written.
    mutating func add(_ entries: [Entry], in directory: String) throws(CadenceError) {
        runs.append(try SortedRun.write(entries, in: directory))
        while runs.count >= 2, runs[runs.count - 1].count * 2 > runs[runs.count - 2].count {
            let newer = runs.removeLast()
            let older = runs.removeLast()
            runs.append(try SortedRun.merge(older, newer, in: directory))
        }
    }
}
