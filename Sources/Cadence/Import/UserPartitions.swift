//===----------------------------------------------------------------------===//
//
// This source file is part of the Cadence open source project.
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The users of a user-partitioned input (CSV or Arrow), one at a time: the current user's rows
/// are collected into an in-memory store, which is handed over as soon as another user's row
/// arrives or the input ends.
///
/// Users are told apart byte for byte (see <doc:HowCadenceComputes#Identity>), and a user whose
/// rows come back after another user's is an error: the input must be grouped by user.
struct UserPartitions {
    /// The input's name in errors and summaries.
    let name: String
    /// The user whose rows ``collector`` holds, if any.
    private var user: String?
    /// The current user's samples; an empty collector when there is none.
    private var collector: SampleCollector
    private var finished = Set<ExactString>()

    init(name: String) {
        self.name = name
        collector = Self.newCollector(name)
    }

    private static func newCollector(_ name: String) -> SampleCollector {
        SampleCollector(store: HealthStore.inMemory(), path: name, dryRun: false)
    }

    /// How many users have been handed over.
    var count: Int { finished.count }

    /// The collector for a row of `user`: the current one, or, when the user changes, a new one
    /// after the current user has been handed to `body`.
    ///
    /// - Throws: ``CadenceError/Code/malformedInput`` at `line` for an empty user or one whose
    ///   rows are not consecutive; what `body` and saving throw.
    mutating func rows(
        of user: String, line: Int, userColumn: String,
        body: (_ user: String, _ store: HealthStore, _ summary: ImportSummary) throws -> Void,
        add: (inout SampleCollector) throws -> Void
    ) throws {
        guard !user.isEmpty else {
            throw CadenceError(.malformedInput, "the row has no user in column '\(userColumn)'", path: name, line: line)
        }
        if self.user.map({ !$0.isIdentical(to: user) }) ?? true {
            try finish(body: body)
            guard !finished.contains(ExactString(user)) else {
                throw CadenceError(.malformedInput, "the rows of user '\(user)' are not consecutive: sort the input by user",
                                   path: name, line: line)
            }
            self.user = user
        }
        try add(&collector)
    }

    /// Saves the current user's samples and hands them to `body`; nothing when there is none.
    mutating func finish(body: (_ user: String, _ store: HealthStore, _ summary: ImportSummary) throws -> Void) throws {
        guard let user else { return }
        self.user = nil
        var done = collector
        collector = Self.newCollector(name)
        try done.saveUserSamples()
        finished.insert(ExactString(user))
        try body(user, done.store, done.summary)
    }
}
