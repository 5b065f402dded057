//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The sources of a snapshot, numbered densely, and their merge ranks (<doc:HowCadenceComputes#Merging-sources>).
///
/// **[Cadence rule]** Sources are ranked by the priority list (the query's, else the store's) in
/// its order; then, for sources not in it: samples flagged `HKWasUserEntered` = 1, then sources
/// whose device is an Apple Watch, then other Apple devices, then every other source in order of
/// first appearance in the store. The user-entered samples of an unlisted source rank as a source
/// of their own, above that source's other samples.
package struct SourceRanking: Sendable {
    /// The distinct sources, in order of first appearance.
    package let sources: [Source]
    /// The source index of each provenance number.
    package let sourceOfProvenance: [Int32]
    /// The rank of each provenance number (lower wins): `[number * 2 + userEnteredFlag]`.
    package let rankOfProvenance: [Int32]
    /// The number of distinct ranks.
    package let rankCount: Int

    /// The ranking a query over `identifier`'s series uses in `snapshot`: the query's own list
    /// when it gives one, else the store's list for the type.
    package init(for identifier: String, in snapshot: StoreSnapshot, priority: [String]?) {
        self.init(provenances: snapshot.provenances, priority: priority ?? snapshot.sourcePriority.list(for: identifier))
    }

    package init(provenances: [Provenance], priority: [String]) {
        var sources: [Source] = []
        var sourceIndexes: [Source: Int] = [:]
        var isWatch: [Bool] = []
        var isApple: [Bool] = []
        var sourceOfProvenance: [Int32] = []
        for provenance in provenances {
            let index: Int
            if let existing = sourceIndexes[provenance.source] {
                index = existing
            } else {
                index = sources.count
                sources.append(provenance.source)
                sourceIndexes[provenance.source] = index
                isWatch.append(false)
                isApple.append(false)
            }
            if provenance.device?.isAppleWatch == true { isWatch[index] = true }
            if provenance.device?.isApple == true { isApple[index] = true }
            sourceOfProvenance.append(Int32(index))
        }
        let listed = Dictionary(priority.enumerated().map { (ExactString($0.element), $0.offset) }, uniquingKeysWith: { first, _ in first })
        // A rank key per (source, user-entered), smaller keys winning: the class in the high bits,
        // then the list position or the source index. Plain integers, each source's computed once:
        // a store of tens of thousands of sources ranks them in milliseconds.
        func key(_ source: Int, userEntered: Bool) -> Int {
            let (rankClass, order) = if let position = listed[ExactString(sources[source].name)] { (0, position) }
                else if userEntered { (1, source) }
                else if isWatch[source] { (2, source) }
                else if isApple[source] { (3, source) }
                else { (4, source) }
            return rankClass << 40 | order
        }
        var keys: [Int] = []
        keys.reserveCapacity(2 * sources.count)
        for source in 0..<sources.count {
            keys.append(key(source, userEntered: false))
            keys.append(key(source, userEntered: true))
        }
        var distinct = keys.sorted()
        distinct.removeDuplicatesInSorted()
        var rankOfKey: [Int: Int32] = [:]
        rankOfKey.reserveCapacity(distinct.count)
        for (rank, value) in distinct.enumerated() { rankOfKey[value] = Int32(rank) }
        var rankOfProvenance: [Int32] = []
        rankOfProvenance.reserveCapacity(2 * provenances.count)
        for provenance in 0..<provenances.count {
            let source = Int(sourceOfProvenance[provenance])
            rankOfProvenance.append(rankOfKey[keys[2 * source]] ?? 0)
            rankOfProvenance.append(rankOfKey[keys[2 * source + 1]] ?? 0)
        }
        self.sources = sources
        self.sourceOfProvenance = sourceOfProvenance
        self.rankOfProvenance = rankOfProvenance
        self.rankCount = distinct.count
    }
}

extension Array where Element == Int {
    /// Removes repeated neighbours of a sorted array, leaving each value once.
    fileprivate mutating func removeDuplicatesInSorted() {
        guard count > 1 else { return }
        var kept = 1
        for index in 1..<count where self[index] != self[kept - 1] {
            self[kept] = self[index]
            kept += 1
        }
        removeLast(count - kept)
    }
}

extension SourceRanking {
    /// The single source of a run, or nil when it has several.
    func singleSource(_ summary: borrowing SampleSummary) -> Int? {
        summary.provenances.singleSource(in: sourceOfProvenance)
    }

    /// Marks the sources of a run as seen.
    func markSources(_ summary: borrowing SampleSummary, in seen: inout [Bool]) {
        for index in summary.provenances.indices {
            let provenance = Int(summary.provenances[index])
            if provenance < sourceOfProvenance.count { seen[Int(sourceOfProvenance[provenance])] = true }
        }
    }

    /// Marks the merge ranks a run's samples can have as seen.
    func markRanks(of summary: borrowing SampleSummary, in seen: inout [Bool]) {
        for index in summary.provenances.indices {
            let base = Int(summary.provenances[index]) * 2
            guard base + 1 < rankOfProvenance.count else { continue }
            seen[Int(rankOfProvenance[base])] = true
            if summary.userEnteredCount > 0 { seen[Int(rankOfProvenance[base + 1])] = true }
        }
    }

}
