//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What the summaries of a type's chunks and unflushed batches say about the samples a scan plan
/// may select, before anything is read: the span they reach (a collection's interval edges cover
/// it) and whether they can have more than one merge rank (then a cumulative sum must merge
/// sources). One pass over the summaries answers both.
struct SelectionSurvey {
    /// From the earliest start to the latest end of the runs that may match, or `nil` when none may.
    let span: ClosedRange<Int64>?
    /// Whether the samples of the runs that may match can have more than one merge rank.
    let hasSeveralRanks: Bool

    /// Surveys the runs of `type` that `plan` may match, ranked by `ranking`.
    ///
    /// - Complexity: O(*c*) for *c* chunks and unflushed batches.
    init(_ type: TypeSnapshot, plan: ScanPlan, ranking: SourceRanking) {
        var low = Int64.max
        var high = Int64.min
        var ranksSeen = [Bool](repeating: false, count: ranking.rankCount)
        let survey = { (summary: SampleSummary) in
            guard plan.mayMatch(summary) else { return }
            low = min(low, summary.minimumStart)
            high = max(high, summary.maximumEnd)
            ranking.markRanks(of: summary, in: &ranksSeen)
        }
        for chunk in type.chunks { survey(chunk.summary) }
        for batch in type.head { survey(batch.summary) }
        span = low <= high ? low...high : nil
        hasSeveralRanks = ranksSeen.lazy.filter { $0 }.count > 1
    }
}
